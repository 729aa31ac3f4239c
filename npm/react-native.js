// React Native (Metro): Hermes has no WebAssembly, and Metro cannot bundle
// the import.meta that wasm-bindgen's glue has, so this entry loads no .wasm
// and imports no glue. Importing works; every call rejects with a
// UsersApiError of kind "validation", param "init", that says so.
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";
