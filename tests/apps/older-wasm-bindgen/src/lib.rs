//! Names the client from an app built against an older wasm-bindgen.

use user_management_client::{ClientOptions, UsersClient};
use wasm_bindgen::prelude::*;

/// Whether `base_url` makes a client.
#[wasm_bindgen]
pub fn accepts(base_url: String) -> bool {
    UsersClient::new(ClientOptions::new(base_url)).is_ok()
}
