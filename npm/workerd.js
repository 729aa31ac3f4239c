// Cloudflare Workers (workerd): Workers refuse to compile wasm from bytes at
// run time, so the .wasm is imported as a module (wrangler and miniflare
// hand it over compiled) and instantiated synchronously.
import wasmModule from "./web/user_management_client_bg.wasm";
import * as glue from "./web/user_management_client.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

try {
  glue.initSync({ module: wasmModule });
  open(glue);
} catch (error) {
  fail(error, "the imported ./web/user_management_client_bg.wasm");
}
