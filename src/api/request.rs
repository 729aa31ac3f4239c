//! The request builders: [`UsersClient::count_users`] and
//! [`UsersClient::list_users`] return one, the call's params and options
//! are chained onto it, and [`CountUsers::send`] / [`ListUsers::send`]
//! make the call. The builder owns what the call needs (a clone of the
//! client, its params, its options), so the future `send` returns is
//! `'static`, and natively `Send`: it goes into `tokio::spawn` as it is.
//! [`ListUsers::pages`] walks the list's pages as a
//! [`Stream`](futures_core::Stream).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::api::client::UsersClient;
use crate::api::options::CallOptions;
use crate::error::Error;
use crate::host::provider::ProvidedHeaders;
use crate::host::{Boxed, MaybeSend, MaybeSendSync};
use crate::model::{Active, Count, CountParams, Envelope, ListParams};
use crate::rules::options::Naming;
use crate::rules::pages::{PageView, Walk};
use crate::rules::retry::RetryPolicy;

/// The setters every builder has for its call's options: they fill its
/// [`CallOptions`].
macro_rules! call_options {
    () => {
        /// This call's timeout per attempt, instead of the client's
        /// ([`Duration::ZERO`]: none).
        pub fn timeout(mut self, timeout: Duration) -> Self {
            self.options = self.options.timeout(timeout);
            self
        }

        /// This call's extra attempts after a retryable failure, instead of
        /// the client's.
        pub fn retries(mut self, retries: u32) -> Self {
            self.options = self.options.retries(retries);
            self
        }

        /// This call's retry policy: each field it sets overrides the
        /// client's.
        pub fn retry_policy(mut self, retry_policy: RetryPolicy) -> Self {
            self.options = self.options.retry_policy(retry_policy);
            self
        }

        /// Adds a header to this call, merged over the client's (names
        /// case-insensitively).
        pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
            self.options = self.options.header(name, value);
            self
        }

        /// A function called before every attempt of this call for headers
        /// that go over the call's (as
        /// [`ClientOptions::header_provider`](crate::ClientOptions::header_provider)).
        pub fn header_provider<F, Fut>(mut self, provider: F) -> Self
        where
            F: Fn() -> Fut + MaybeSendSync + 'static,
            Fut: Future + MaybeSend + 'static,
            Fut::Output: ProvidedHeaders,
        {
            self.options = self.options.header_provider(provider);
            self
        }

        /// The caller's signal: aborting it ends the call at once with
        /// [`ErrorKind::Aborted`](crate::ErrorKind::Aborted). (JS host builds
        /// only; elsewhere, drop the call's future.)
        #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
        #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
        pub fn signal(mut self, signal: web_sys::AbortSignal) -> Self {
            self.options = self.options.signal(signal);
            self
        }

        /// Replaces this call's options as a whole (what the setters above
        /// set one by one).
        pub fn options(mut self, options: CallOptions) -> Self {
            self.options = options;
            self
        }
    };
}

impl UsersClient {
    /// `POST {base_url}/api/users/count`, as a request to build: chain
    /// its params and options, then [`send`](CountUsers::send) it.
    pub fn count_users(&self) -> CountUsers {
        CountUsers::new(self.clone())
    }

    /// `POST {base_url}/api/users`, as a request to build: chain its params
    /// and options, then [`send`](ListUsers::send) it, naming the list's
    /// shape, or walk its [`pages`](ListUsers::pages).
    pub fn list_users(&self) -> ListUsers {
        ListUsers::new(self.clone())
    }
}

/// `POST {base_url}/api/users/count`, being built: made by
/// [`UsersClient::count_users`], sent by [`CountUsers::send`].
///
/// ```no_run
/// # async fn run(client: user_management_client::UsersClient) -> Result<(), user_management_client::Error> {
/// use std::time::Duration;
/// use user_management_client::Active;
///
/// let count = client
///     .count_users()
///     .query("ann")
///     .active(Active::True)
///     .timeout(Duration::from_secs(2))
///     .send()
///     .await?;
/// println!("{} active users named ann", count.result.total_users);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a request does nothing until it is sent: call .send()"]
pub struct CountUsers {
    client: UsersClient,
    params: CountParams,
    options: CallOptions,
}

impl CountUsers {
    fn new(client: UsersClient) -> CountUsers {
        CountUsers {
            client,
            params: CountParams::default(),
            options: CallOptions::default(),
        }
    }

    /// Counts the users whose username or phone matches `query`.
    pub fn query(mut self, query: impl Into<String>) -> Self {
        self.params.query = Some(query.into());
        self
    }

    /// Which users to count ([`Active`], or a `bool`).
    pub fn active(mut self, active: impl Into<Active>) -> Self {
        self.params.active = Some(active.into());
        self
    }

    /// Replaces the params as a whole.
    pub fn params(mut self, params: CountParams) -> Self {
        self.params = params;
        self
    }

    call_options!();

    /// Makes the call. The future owns what it needs (`'static`; natively
    /// `Send`); dropping it cancels the request.
    pub fn send(
        self,
    ) -> impl Future<Output = Result<Envelope<Count>, Error>> + MaybeSend + 'static {
        let CountUsers {
            client,
            params,
            options,
        } = self;
        async move { client.count(&params, &options).await }
    }
}

/// `POST {base_url}/api/users`, being built: made by
/// [`UsersClient::list_users`], sent by [`ListUsers::send`], or walked page
/// by page by [`ListUsers::pages`].
///
/// ```no_run
/// # async fn run(client: user_management_client::UsersClient) -> Result<(), user_management_client::Error> {
/// use user_management_client::{Active, UserPage};
///
/// let page = client
///     .list_users()
///     .query("ann")
///     .active(Active::True)
///     .page(2)
///     .page_size(50)
///     .param("sort", "name")
///     .send::<UserPage>()
///     .await?;
/// println!("{} of {} users", page.result.users.len(), page.result.total_users);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a request does nothing until it is sent: call .send() or .pages()"]
pub struct ListUsers {
    client: UsersClient,
    params: ListParams,
    options: CallOptions,
}

impl ListUsers {
    fn new(client: UsersClient) -> ListUsers {
        ListUsers {
            client,
            params: ListParams::default(),
            options: CallOptions::default(),
        }
    }

    /// Lists the users whose username or phone matches `query`.
    pub fn query(mut self, query: impl Into<String>) -> Self {
        self.params.query = Some(query.into());
        self
    }

    /// Which users to list ([`Active`], or a `bool`).
    pub fn active(mut self, active: impl Into<Active>) -> Self {
        self.params.active = Some(active.into());
        self
    }

    /// The page to return (sent as `page`; [`ListUsers::pages`] starts
    /// there).
    pub fn page(mut self, page: u64) -> Self {
        self.params.page = Some(page);
        self
    }

    /// Users per page (sent as `pageSize`).
    pub fn page_size(mut self, page_size: u64) -> Self {
        self.params.page_size = Some(page_size);
        self
    }

    /// Any other param, by its wire name, with any JSON value (see
    /// [`ListParams::extra`]).
    pub fn param(mut self, name: impl Into<String>, value: impl Into<serde_json::Value>) -> Self {
        self.params.extra.insert(name.into(), value.into());
        self
    }

    /// Replaces the params as a whole.
    pub fn params(mut self, params: ListParams) -> Self {
        self.params = params;
        self
    }

    call_options!();

    /// Makes the call. The list's shape is not in the spec: name it as `T`
    /// (any serde type: [`UserPage`](crate::UserPage) for the reference
    /// server, `serde_json::Value` for any). The future owns what it needs
    /// (`'static`; natively `Send`); dropping it cancels the request.
    pub fn send<T>(self) -> impl Future<Output = Result<Envelope<T>, Error>> + MaybeSend + 'static
    where
        T: DeserializeOwned + 'static,
    {
        let ListUsers {
            client,
            params,
            options,
        } = self;
        async move { client.list(&params, &options).await }
    }

    /// Every page, one call each, from the `page` asked for (1 when not
    /// given), as a [`Stream`](futures_core::Stream) of each page's
    /// envelope: the walk of the JS API's `listPages`, with its stop
    /// rules. It ends after a page with fewer users than `page_size` (the
    /// one asked for, else the page's own), an empty page, or once
    /// `totalUsers` is reached; and after the first error, which it
    /// yields. Each result must be a page (a `users` array and a whole
    /// `totalUsers`), as [`UserPage`](crate::UserPage) is; anything else is
    /// an [`ErrorKind::Decode`](crate::ErrorKind::Decode) error. A page is
    /// fetched only when the stream is polled for it: dropping the stream
    /// stops fetching (and cancels the request in flight).
    ///
    /// ```no_run
    /// # async fn run(client: user_management_client::UsersClient) -> Result<(), user_management_client::Error> {
    /// use futures_util::StreamExt;
    /// use user_management_client::{Active, UserPage};
    ///
    /// let mut pages = client.list_users().active(Active::True).page_size(100).pages::<UserPage>();
    /// while let Some(page) = pages.next().await {
    ///     for user in page?.result.users {
    ///         println!("{}", user.id);
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn pages<T>(self) -> Pages<T>
    where
        T: DeserializeOwned + 'static,
    {
        Pages {
            client: self.client,
            params: self.params,
            options: self.options,
            state: State::Start,
        }
    }
}

/// The pages of a list, one call each: made by [`ListUsers::pages`]. A
/// [`Stream`](futures_core::Stream) (`Unpin`; natively `Send`) of each
/// page's `Result<Envelope<T>, Error>`.
#[must_use = "a stream fetches nothing until it is polled"]
pub struct Pages<T> {
    client: UsersClient,
    params: ListParams,
    options: CallOptions,
    state: State<T>,
}

impl<T> std::fmt::Debug for Pages<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = match &self.state {
            State::Start => "start",
            State::At(_) => "between pages",
            State::Fetching(..) => "fetching",
            State::Done => "done",
        };
        f.debug_struct("Pages")
            .field("params", &self.params)
            .field("options", &self.options)
            .field("state", &at)
            .finish()
    }
}

/// A page's call: its envelope and what the walk needs of it.
type PageCall<T> = Boxed<Result<(Envelope<T>, PageView), Error>>;

/// Where a walk stands.
enum State<T> {
    /// Nothing asked yet: the params' `page` and `page_size` are checked
    /// at the first poll.
    Start,
    /// The next page to fetch.
    At(Walk),
    /// A page's call in flight, and where the walk stood for it.
    Fetching(Walk, PageCall<T>),
    /// The last page, or an error, was yielded.
    Done,
}

impl<T: DeserializeOwned + 'static> futures_core::Stream for Pages<T> {
    type Item = Result<Envelope<T>, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            match std::mem::replace(&mut this.state, State::Done) {
                State::Done => return Poll::Ready(None),
                State::Start => {
                    let (page, page_size) = (this.params.page, this.params.page_size);
                    match Walk::new(page, page_size, Naming::Rust) {
                        Ok(walk) => this.state = State::At(walk),
                        Err(error) => return Poll::Ready(Some(Err(error))),
                    }
                }
                State::At(walk) => {
                    let client = this.client.clone();
                    let mut params = this.params.clone();
                    params.page = Some(walk.page);
                    let options = this.options.clone();
                    let call: PageCall<T> =
                        Box::pin(async move { client.page(&params, &options).await });
                    this.state = State::Fetching(walk, call);
                }
                State::Fetching(walk, mut call) => match call.as_mut().poll(cx) {
                    Poll::Pending => {
                        this.state = State::Fetching(walk, call);
                        return Poll::Pending;
                    }
                    Poll::Ready(Err(error)) => return Poll::Ready(Some(Err(error))),
                    Poll::Ready(Ok((envelope, view))) => {
                        if let Some(next) = walk.after(&view) {
                            this.state = State::At(next);
                        }
                        return Poll::Ready(Some(Ok(envelope)));
                    }
                },
            }
        }
    }
}

impl<T: DeserializeOwned + 'static> futures_core::FusedStream for Pages<T> {
    fn is_terminated(&self) -> bool {
        matches!(self.state, State::Done)
    }
}

/// What the types promise natively, checked when the tests compile: a
/// sent call's future and a walk are `Send + 'static`, the walk `Unpin`;
/// and what a walk says of itself.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::api::options::ClientOptions;
    use crate::model::UserPage;
    use futures_core::{FusedStream, Stream};

    /// A walk is not terminated, and its `Debug` says `start`, until it
    /// has yielded its last item (here the refusal of a page size of 0,
    /// before any request); then it is terminated, says `done`, and
    /// yields nothing more.
    #[test]
    fn a_walk_says_where_it_stands_and_when_it_has_ended() {
        let client = UsersClient::new(ClientOptions::new("http://127.0.0.1:9")).expect("client");
        let mut pages = client.list_users().page_size(0).pages::<UserPage>();
        let mut cx = Context::from_waker(std::task::Waker::noop());
        assert!(!pages.is_terminated());
        assert!(
            format!("{pages:?}").contains(r#"state: "start""#),
            "{pages:?}"
        );
        match Pin::new(&mut pages).poll_next(&mut cx) {
            Poll::Ready(Some(Err(error))) => assert_eq!(error.param(), Some("page_size")),
            other => panic!("expected the page size's refusal, got {other:?}"),
        }
        assert!(pages.is_terminated());
        assert!(
            format!("{pages:?}").contains(r#"state: "done""#),
            "{pages:?}"
        );
        assert!(matches!(
            Pin::new(&mut pages).poll_next(&mut cx),
            Poll::Ready(None)
        ));
    }

    fn spawnable<F: Future + Send + 'static>(_: &F) {}
    fn walkable<S: futures_core::Stream + Send + Unpin + 'static>(_: &S) {}

    const _: fn(&UsersClient) = |client| {
        spawnable(&client.count_users().active(Active::True).send());
        spawnable(&client.list_users().page_size(100).send::<UserPage>());
        walkable(&client.list_users().page_size(100).pages::<UserPage>());
    };
}
