// Node.js, ES modules: the .wasm comes inside the package's JavaScript
// (web/wasm-bytes.cjs, brotli-compressed and base64-encoded, written by
// build.mjs), so a bundler that inlines this package into a server bundle
// (Next.js, Vite SSR with ssr.noExternal, esbuild) carries it along, with
// no file to trace, emit or copy. Instantiated synchronously. If it cannot
// be, importing still works and every call rejects saying why.
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
