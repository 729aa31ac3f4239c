// Node.js, ES modules: the .wasm comes inside the package's JavaScript
// (wasm-bytes.js, brotli-compressed and base64-encoded, written by
// build.mjs), so a bundler that inlines this package into a server bundle
// (Next.js, Vite SSR with ssr.noExternal, Rollup, esbuild) carries it
// along, with no file to trace, emit or copy. Instantiated synchronously.
// If it cannot be, importing still works and every call rejects saying why.
import { Buffer } from "node:buffer";
import { brotliDecompressSync } from "node:zlib";
import * as glue from "./web/user_management_client.js";
import wasm from "./wasm-bytes.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

try {
  glue.initSync({ module: brotliDecompressSync(Buffer.from(wasm, "base64")) });
  open(glue);
} catch (error) {
  fail(error, "wasm-bytes.js (the .wasm inside the package)");
}
