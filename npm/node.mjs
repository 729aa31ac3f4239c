// Node.js, ES modules: reads the .wasm beside this file and instantiates it
// synchronously.
import { readFileSync } from "node:fs";
import { initSync, countUsers, listUsers, UsersClient } from "./web/user_management_client.js";
export { UsersApiError } from "./web/__SNIPPET__";

initSync({ module: readFileSync(new URL("./web/user_management_client_bg.wasm", import.meta.url)) });

export { countUsers, listUsers, UsersClient };
