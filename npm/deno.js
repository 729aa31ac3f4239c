// Deno: reads the .wasm beside this file (needs --allow-read for it) and
// instantiates it synchronously.
import { initSync, countUsers, listUsers, UsersClient } from "./web/user_management_client.js";
export { UsersApiError } from "./web/__SNIPPET__";

initSync({ module: Deno.readFileSync(new URL("./web/user_management_client_bg.wasm", import.meta.url)) });

export { countUsers, listUsers, UsersClient };
