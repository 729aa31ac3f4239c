//! The shape of a Leptos or Dioxus app whose code is compiled twice: to
//! wasm32 for the browser, and natively for server-side rendering. The
//! same code names the client on both; natively, outside a tokio runtime,
//! every call fails at once with a `Validation` error naming `runtime`
//! (`param()`), which the render turns
//! into its loading state, and the browser fills the count in after
//! hydration. `scripts/versions.sh` checks it natively (`cargo check`).

use std::time::Duration;

use user_management_client::{Active, ClientOptions, Error, UsersClient};

/// What the page shows for the active users.
#[derive(Debug, PartialEq, Eq)]
pub enum ActiveUsers {
    /// Known: the count.
    Count(u64),
    /// Not known here (a server render): the client fills it in.
    Loading,
    /// The call failed.
    Failed(String),
}

/// The app's client, made once (a Leptos app would `provide_context` it).
pub fn client(api: &str) -> Result<UsersClient, Error> {
    UsersClient::new(
        ClientOptions::new(api)
            .timeout(Duration::from_secs(5))
            .retries(1),
    )
}

/// The resource behind the page's "active users" line.
pub async fn active_users(client: &UsersClient) -> ActiveUsers {
    match client.count_users().active(Active::True).send().await {
        Ok(count) => ActiveUsers::Count(count.result.total_users),
        Err(error) if error.param() == Some("runtime") => ActiveUsers::Loading,
        Err(error) => ActiveUsers::Failed(format!("{}: {error}", error.kind())),
    }
}

/// The page, as the server renders it.
pub fn render(active: &ActiveUsers) -> String {
    match active {
        ActiveUsers::Count(n) => format!("<p>{n} active users</p>"),
        ActiveUsers::Loading => "<p aria-busy=\"true\">Counting…</p>".to_string(),
        ActiveUsers::Failed(message) => format!("<p role=\"alert\">{message}</p>"),
    }
}

/// An error on its way out of a server function, as Rust apps carry them.
pub fn boxed(error: Error) -> Box<dyn std::error::Error + Send + Sync> {
    Box::new(error)
}
