//! Runs a future of the library's client to its end. Under WASI its waits
//! block the one thread (`wasi:io/poll`) inside each poll, so a call's
//! future is ready the first time it is polled; the loop only guards
//! against one that is not.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// The output of `future`, polled until it is ready.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}
