//! A small wasm32 program on the Rust API of `user-management-client`:
//! counts the active users, lists the first page of them, and shows how an
//! error is told apart by its kind. `run` is exported to JavaScript
//! (`run.mjs` calls it in Node); a Leptos, Yew or Dioxus app would call the
//! same API from its own async code.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use user_management_client::{Active, ClientOptions, Error, ErrorKind, UsersClient};
use wasm_bindgen::prelude::*;

/// One page of the list. Its shape is not in the API's spec, so the caller
/// names it: here, the reference server's (unknown fields are ignored).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    users: Vec<User>,
    total_users: u64,
    page: u64,
    page_size: u64,
}

#[derive(Deserialize)]
struct User {
    username: String,
}

/// What `run` hands back to JavaScript.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    active_users: u64,
    all_users: u64,
    list_total: u64,
    page: u64,
    page_size: u64,
    first_page: Vec<String>,
    refused: String,
}

/// Users per page in the summary.
const PAGE_SIZE: u64 = 5;

/// Counts the active and all users at `base_url`, lists the first page of
/// active users, and returns a summary. A failed call rejects with a JS
/// `Error` that carries the error's kind (see `js_error`).
#[wasm_bindgen]
pub async fn run(base_url: String) -> Result<JsValue, JsValue> {
    summarize(base_url).await.map_err(js_error)
}

/// The app's own JS form of an [`Error`]: the crate ships no JS class into
/// a Rust app's `.wasm`, so the app says what its JS callers get.
fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    let _ = js_sys::Reflect::set(&js, &"kind".into(), &error.kind().as_str().into());
    js.into()
}

async fn summarize(base_url: String) -> Result<JsValue, Error> {
    let options = ClientOptions::new(base_url)
        .timeout(Duration::from_secs(5))
        .retries(1);
    let client = UsersClient::new(options)?;

    let active = client.count_users().active(Active::True).send().await?;
    let all = client.count_users().send().await?;

    let list = client
        .list_users()
        .active(Active::True)
        .page(1)
        .page_size(PAGE_SIZE)
        .send::<Page>()
        .await?;

    // Errors carry a kind (and, for validation, the param at fault).
    let refused = match UsersClient::new(ClientOptions::new("not a URL")) {
        Ok(_) => "accepted".to_owned(),
        Err(error) => match error.kind() {
            ErrorKind::Validation => format!("validation:{}", error.param().unwrap_or("")),
            other => format!("{other}: {error}"),
        },
    };

    let summary = Summary {
        active_users: active.result.total_users,
        all_users: all.result.total_users,
        list_total: list.result.total_users,
        page: list.result.page,
        page_size: list.result.page_size,
        first_page: list.result.users.into_iter().map(|u| u.username).collect(),
        refused,
    };
    summary
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| Error::new(ErrorKind::Decode, error.to_string()))
}
