//! What a hook may return: what it decides, or a future resolving to it.
//! [`HookOutput`] says which return types a hook's closure may have; the
//! setters on [`Hooks`](crate::Hooks) turn them into a [`HookReturn`], the
//! one form the call's driver waits on.

use std::future::Future;
use std::pin::Pin;

use crate::call::ResponseAction;
use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::host::MaybeSend;

/// What a hook decides about an attempt: at once, or once its future
/// resolves. The setters on [`Hooks`](crate::Hooks) make it from what the
/// closure returns.
pub enum HookReturn<T> {
    /// Decided at once.
    Now(T),
    /// Decided when the future resolves; the attempt waits for it.
    Later(HookFuture<T>),
}

/// A hook's future, boxed (natively `Send`).
#[cfg(target_arch = "wasm32")]
pub type HookFuture<T> = Pin<Box<dyn Future<Output = T>>>;
/// A hook's future, boxed (natively `Send`).
#[cfg(not(target_arch = "wasm32"))]
pub type HookFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The headers a `before_request` hook gives its attempt (none: empty), or
/// the error that fails the call.
pub type AttemptHeaders = Result<HeaderList, Error>;

/// Marks a hook's return value as decided at once.
#[derive(Debug)]
pub enum Decided {}
/// Marks a hook's return value as a future of what it decides.
#[derive(Debug)]
pub enum Deferred {}

/// A type a hook's closure may return for a decision of type `T`: `()`
/// (nothing to change), the decision itself, or a future resolving to
/// either. `M` is [`Decided`] or [`Deferred`], inferred: callers never
/// name it.
///
/// - `before_request`: `()`, a [`HeaderList`] (merged over the attempt's
///   headers), `Option<HeaderList>`, or `Result<HeaderList, Error>` (an
///   `Err` fails the call).
/// - `after_response`: `()` or a [`ResponseAction`].
/// - `before_retry`: `()` (go on) or a `bool` (`false`: no retry).
pub trait HookOutput<T, M> {
    /// The decision, now or later.
    fn into_return(self) -> HookReturn<T>;
}

impl HookOutput<AttemptHeaders, Decided> for () {
    fn into_return(self) -> HookReturn<AttemptHeaders> {
        HookReturn::Now(Ok(HeaderList::new()))
    }
}

impl HookOutput<AttemptHeaders, Decided> for HeaderList {
    fn into_return(self) -> HookReturn<AttemptHeaders> {
        HookReturn::Now(Ok(self))
    }
}

impl HookOutput<AttemptHeaders, Decided> for Option<HeaderList> {
    fn into_return(self) -> HookReturn<AttemptHeaders> {
        HookReturn::Now(Ok(self.unwrap_or_default()))
    }
}

impl HookOutput<AttemptHeaders, Decided> for AttemptHeaders {
    fn into_return(self) -> HookReturn<AttemptHeaders> {
        HookReturn::Now(self)
    }
}

impl HookOutput<ResponseAction, Decided> for () {
    fn into_return(self) -> HookReturn<ResponseAction> {
        HookReturn::Now(ResponseAction::Keep)
    }
}

impl HookOutput<ResponseAction, Decided> for ResponseAction {
    fn into_return(self) -> HookReturn<ResponseAction> {
        HookReturn::Now(self)
    }
}

impl HookOutput<bool, Decided> for () {
    fn into_return(self) -> HookReturn<bool> {
        HookReturn::Now(true)
    }
}

impl HookOutput<bool, Decided> for bool {
    fn into_return(self) -> HookReturn<bool> {
        HookReturn::Now(self)
    }
}

/// A decision already in the form the loop waits on (the JS layer's hooks,
/// which learn only when called whether they return a promise).
impl<T> HookOutput<T, Decided> for HookReturn<T> {
    fn into_return(self) -> HookReturn<T> {
        self
    }
}

impl<T, F> HookOutput<T, Deferred> for F
where
    T: MaybeSend + 'static,
    F: Future + MaybeSend + 'static,
    F::Output: HookOutput<T, Decided>,
{
    fn into_return(self) -> HookReturn<T> {
        HookReturn::Later(Box::pin(async move {
            match self.await.into_return() {
                HookReturn::Now(decided) => decided,
                HookReturn::Later(future) => future.await,
            }
        }))
    }
}
