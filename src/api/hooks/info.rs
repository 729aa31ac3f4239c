//! What hooks see of a retry. (What they see of an attempt and of its
//! response, [`AttemptInfo`](crate::AttemptInfo) and
//! [`ResponseInfo`](crate::ResponseInfo), the call machine makes:
//! `call/info.rs`.)

use std::time::Duration;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use wasm_bindgen::JsValue;

use crate::call::ms;
use crate::error::Error;
use crate::host::Rejection;
use crate::model::Operation;

/// What a hook sees when a failed attempt will be retried. Serializes to
/// `{ operation, attempt, delayMs }`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RetryInfo {
    /// Count or list.
    pub operation: Operation,
    /// The attempt that failed (1 for the first).
    pub attempt: u32,
    /// Why it failed (credentials already cut out).
    pub error: Error,
    /// How long the client now waits before the next attempt (JS:
    /// `delayMs`).
    pub delay: Duration,
    /// The JS value behind `error`, where there was one (credentials cut
    /// out): the JS layer's `UsersApiError` shows it as `cause`.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    pub(crate) cause: Option<JsValue>,
}

impl Serialize for RetryInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(3))?;
        info.serialize_entry("operation", &self.operation)?;
        info.serialize_entry("attempt", &self.attempt)?;
        info.serialize_entry("delayMs", &ms(self.delay))?;
        info.end()
    }
}

impl RetryInfo {
    /// What a hook sees of attempt `attempt`, which failed with `shown`
    /// (credentials already cut out) and is retried after `delay`.
    pub(crate) fn new(
        operation: Operation,
        attempt: u32,
        shown: Rejection,
        delay: Duration,
    ) -> RetryInfo {
        RetryInfo {
            operation,
            attempt,
            error: shown.error,
            delay,
            #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
            cause: shown.cause,
        }
    }
}
