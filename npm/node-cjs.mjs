// Node.js, CommonJS: the source of node.cjs. build.mjs bundles this file
// with esbuild into CommonJS (the web target's glue, snippet and gate
// inlined; web/wasm-bytes.cjs left a require), so `require` gets the very
// same .wasm as the ES module entry: carried in web/wasm-bytes.cjs,
// brotli-compressed and base64-encoded, so that a bundle of a CommonJS
// program carries it too. Instantiated synchronously. It is a second
// instance beside the ES module one, with its own UsersApiError class: use
// one module system per process for `instanceof` to hold across your code.
import { Buffer } from "node:buffer";
import { brotliDecompressSync } from "node:zlib";
import * as glue from "./web/user_management_client.js";
import wasm from "./web/wasm-bytes.cjs";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, UsersClient, UsersApiError } from "./web/gate.js";

try {
  glue.initSync({ module: brotliDecompressSync(Buffer.from(wasm, "base64")) });
  open(glue);
} catch (error) {
  fail(error, "web/wasm-bytes.cjs (the .wasm inside the package)");
}
