//! Header lists and the header provider: a function called before every
//! attempt for fresh headers (token refresh), natively `Send + Sync`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
#[cfg(target_arch = "wasm32")]
use std::rc::Rc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;

use crate::error::Error;
use crate::host::Rejection;

/// Header name/value pairs, names as given; merged case-insensitively.
pub type HeaderList = Vec<(String, String)>;

/// What a header provider's call returns: the headers, or the error (and
/// the JS value behind it, for a JS provider) that fails the call.
#[cfg(target_arch = "wasm32")]
pub(crate) type ProvidedFuture = Pin<Box<dyn Future<Output = Result<HeaderList, Rejection>>>>;
/// What a header provider's call returns: the headers, or the error that
/// fails the call.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type ProvidedFuture =
    Pin<Box<dyn Future<Output = Result<HeaderList, Rejection>> + Send>>;

#[cfg(target_arch = "wasm32")]
type Provide = Rc<dyn Fn() -> ProvidedFuture>;
#[cfg(not(target_arch = "wasm32"))]
type Provide = Arc<dyn Fn() -> ProvidedFuture + Send + Sync>;

/// A function called before every attempt for fresh headers (token refresh), as
/// [`ClientOptions::header_provider`](crate::ClientOptions::header_provider) boxes it. Cheap to clone.
#[derive(Clone)]
pub struct HeaderProvider(Provide);

impl HeaderProvider {
    /// A provider whose future resolves with the headers or the rejection.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn new(provider: impl Fn() -> ProvidedFuture + 'static) -> HeaderProvider {
        HeaderProvider(Rc::new(provider))
    }

    /// A provider whose future resolves with the headers or the rejection.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn new(
        provider: impl Fn() -> ProvidedFuture + Send + Sync + 'static,
    ) -> HeaderProvider {
        HeaderProvider(Arc::new(provider))
    }

    /// Asks the provider for this call's headers.
    pub(crate) fn provide(&self) -> ProvidedFuture {
        (self.0)()
    }
}

impl fmt::Debug for HeaderProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HeaderProvider")
    }
}

/// What a header provider's future may resolve with: the headers, or
/// (for a provider that can fail) a `Result` of them. An `Err` fails the
/// call: this crate's [`Error`] as it is, any other error as a
/// `validation` error naming `headers`, whose
/// [`source`](std::error::Error::source) it is (the app downcasts it back).
pub trait ProvidedHeaders {
    /// The headers, or the error that fails the call.
    fn into_headers(self) -> Result<HeaderList, Error>;
}

impl ProvidedHeaders for HeaderList {
    fn into_headers(self) -> Result<HeaderList, Error> {
        Ok(self)
    }
}

impl<E> ProvidedHeaders for Result<HeaderList, E>
where
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    fn into_headers(self) -> Result<HeaderList, Error> {
        self.map_err(|error| match error.into().downcast::<Error>() {
            Ok(error) => *error,
            Err(other) => {
                Error::validation("headers", "the header provider failed").with_source(other)
            }
        })
    }
}
