//! How a call's attempts reach the server. A transport sends what the rules
//! resolved and hands back what came back; it decides nothing the rules
//! decide (which headers, whether an answer is good, whether to try again).
//!
//! [`fetch`] is the transport through the JS host's `fetch`: the only place,
//! with the client's JS-facing options, where JS types appear. A transport
//! for another host is a sibling folder beside it, using the same rules.

pub(crate) mod fetch;
