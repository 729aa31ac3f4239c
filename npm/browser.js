// Browsers (plain ES modules or a bundler): loads the .wasm that sits
// beside this file, once, with top-level await, so importing is enough.
// If it cannot, importing still works and every call rejects saying why.
import init, * as glue from "./web/user_management_client.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, UsersClient, UsersApiError } from "./web/gate.js";

const wasm = new URL("./web/user_management_client_bg.wasm", import.meta.url);
try {
  await init({ module_or_path: wasm });
  open(glue);
} catch (error) {
  fail(error, wasm);
}
