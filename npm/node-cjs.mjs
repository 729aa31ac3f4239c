// Node.js, CommonJS: the source of node.cjs. build.mjs bundles this file
// with esbuild into CommonJS (the web target's glue and snippet inlined), so
// `require` gets the very same .wasm as every other entry: web/
// user_management_client_bg.wasm, read beside the entry and instantiated
// synchronously. It is a second instance beside the ES module one, with its
// own UsersApiError class: use one module system per process for
// `instanceof` to hold across your code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initSync } from "./web/user_management_client.js";
export { countUsers, listUsers, UsersClient } from "./web/user_management_client.js";
export { UsersApiError } from "./web/__SNIPPET__";

// __dirname: this file is bundled into CommonJS (pkg/node.cjs).
initSync({ module: readFileSync(join(__dirname, "web", "user_management_client_bg.wasm")) });
