//! The server's render: asks the API at the URL given as the first argument
//! (natively, on tokio) and prints the page with the count in it.
//!   cargo run --features ssr --bin render -- http://127.0.0.1:8080

use leptos::prelude::*;
use user_management_client_leptos_example::{active_users, client, ActiveUsers};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let Some(api) = std::env::args().nth(1) else {
        eprintln!("usage: render API_URL");
        std::process::exit(2);
    };
    let count = match client(&api) {
        Ok(client) => active_users(&client).await,
        Err(message) => Err(message),
    };
    let failed = count.is_err();
    let html = Owner::new().with(|| view! { <main><ActiveUsers count/></main> }.to_html());
    println!("{html}");
    if failed {
        std::process::exit(1);
    }
}
