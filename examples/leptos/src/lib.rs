//! A Leptos app with one line: how many users are active. The same
//! component renders in the browser, where the page asks the API itself
//! (`csr`: the client's fetch transport), and on the server, which asks
//! the API first and sends the page with the count in it (`ssr`: the
//! client's native transport on tokio; `src/bin/render.rs`).

use leptos::prelude::*;
use user_management_client::{Active, ClientOptions, Error, UsersClient};

/// The app's client for the API at `api`, made once and shared (a bigger
/// app would `provide_context` it), or why it cannot be made.
pub fn client(api: &str) -> Result<UsersClient, String> {
    UsersClient::new(ClientOptions::new(api)).map_err(shown)
}

/// The active users, as the API counts them: the count, or the error as
/// the page shows it.
pub async fn active_users(client: &UsersClient) -> Result<u64, String> {
    let count = client
        .count_users()
        .active(Active::True)
        .send()
        .await
        .map_err(shown)?;
    Ok(count.result.total_users)
}

/// An error as the page shows it: its kind, then its message.
fn shown(error: Error) -> String {
    format!("{}: {error}", error.kind())
}

/// The line the page shows for a count, or for a failed call.
#[component]
pub fn ActiveUsers(count: Result<u64, String>) -> impl IntoView {
    match count {
        Ok(n) => view! { <p id="active">{n}" active users"</p> }.into_any(),
        Err(message) => view! { <p id="active" role="alert">{message}</p> }.into_any(),
    }
}

/// The page in the browser: "Counting…" until the API answers.
#[component]
pub fn App(api: String) -> impl IntoView {
    let client = client(&api);
    let count = LocalResource::new(move || {
        let client = client.clone();
        async move { active_users(&client?).await }
    });
    view! {
        <h1>"Users"</h1>
        <Suspense fallback=|| view! { <p id="active" aria-busy="true">"Counting…"</p> }>
            {move || count.get().map(|count| view! { <ActiveUsers count/> })}
        </Suspense>
    }
}

/// The browser's entry: mounts [`App`] on the page's body, asking the API
/// whose URL the page gives in `<body data-api="…">`.
#[cfg(feature = "csr")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    let api = document()
        .body()
        .and_then(|body| body.get_attribute("data-api"))
        .unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <App api/> });
}
