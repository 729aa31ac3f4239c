//! The shared suite (`tests/common`) in headless Chromium:
//! `wasm-pack test --headless --chrome -- --test browser`. Without
//! `run_in_browser` the browser run would skip every test and pass.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;
