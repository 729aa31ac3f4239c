// Browsers and Web Workers (plain ES modules or a bundler): starts loading
// the .wasm that sits beside this file when imported, without waiting for
// it (no top-level await: importing never holds back the importer, and IIFE
// worker bundles build). Calls made before it is loaded wait for it. If it
// cannot be loaded, every call rejects saying why.
import init, * as glue from "./web/user_management_client.js";
import { load } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

const wasm = new URL("./web/user_management_client_bg.wasm", import.meta.url);
load(init({ module_or_path: wasm }).then(() => glue), wasm);
