// Browsers (plain ES modules or a bundler): loads the .wasm that sits
// beside this file, once, with top-level await, so importing is enough.
import init, { countUsers, listUsers, UsersClient } from "./web/user_management_client.js";
export { UsersApiError } from "./web/__SNIPPET__";

await init({ module_or_path: new URL("./web/user_management_client_bg.wasm", import.meta.url) });

export { countUsers, listUsers, UsersClient };
