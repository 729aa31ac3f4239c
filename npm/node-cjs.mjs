// Node.js, CommonJS: the source of node.cjs. build.mjs bundles this file
// with esbuild into CommonJS (the web target's glue, snippet and gate
// inlined), so `require` gets the very same .wasm as every other entry: web/
// user_management_client_bg.wasm, read beside the entry and instantiated
// synchronously. It is a second instance beside the ES module one, with its
// own UsersApiError class; `instanceof UsersApiError` holds across both (the
// class checks a brand that every copy's instances carry).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as glue from "./web/user_management_client.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

// __dirname: this file is bundled into CommonJS (pkg/node.cjs).
const wasm = join(__dirname, "web", "user_management_client_bg.wasm");
try {
  glue.initSync({ module: readFileSync(wasm) });
  open(glue);
} catch (error) {
  fail(error, wasm);
}
