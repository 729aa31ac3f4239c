//! The pure rules: plain Rust over plain data, no JS type anywhere, each
//! unit-tested natively. A transport asks them what to send, whether an
//! answer is good, and whether and when to try again; it decides nothing of
//! that itself.
//!
//! They use only [`crate::model`], [`crate::error`], the serde wire names
//! (`crate::wire`) and the host's number writer (`crate::platform`).

pub mod envelope;
pub mod headers;
pub mod http_date;
pub mod options;
pub mod pages;
pub mod params;
pub mod retry;
pub mod secrets;
pub mod value;
