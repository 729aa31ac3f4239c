// Cloudflare Workers (workerd): Workers refuse to compile wasm from bytes at
// run time, so the .wasm is imported as a module (wrangler and miniflare
// hand it over compiled) and instantiated synchronously.
import wasmModule from "./web/user_management_client_bg.wasm";
import { initSync, countUsers, listUsers, UsersClient } from "./web/user_management_client.js";
export { UsersApiError } from "./web/__SNIPPET__";

initSync({ module: wasmModule });

export { countUsers, listUsers, UsersClient };
