// Deno: reads the .wasm beside this file (needs --allow-read for it) and
// instantiates it synchronously. If it cannot, importing still works and
// every call rejects saying why.
import * as glue from "./web/user_management_client.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

const wasm = new URL("./web/user_management_client_bg.wasm", import.meta.url);
try {
  glue.initSync({ module: Deno.readFileSync(wasm) });
  open(glue);
} catch (error) {
  fail(error, wasm);
}
