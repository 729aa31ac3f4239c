// Next.js's Edge runtime and Vercel Edge Functions (the `edge-light`
// condition): like Workers, they refuse to compile wasm from bytes at run
// time, and their bundlers (Next's Turbopack and webpack, Vercel's) hand a
// `.wasm?module` import over as a compiled WebAssembly.Module, which is
// instantiated synchronously. If it cannot be, importing still works and
// every call rejects saying why.
import wasmModule from "./web/user_management_client_bg.wasm?module";
import * as glue from "./web/user_management_client.js";
import { open, fail } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

try {
  // Next's edge sandbox compiles the .wasm outside the sandbox's realm: the
  // Module it hands over fails the glue's `instanceof WebAssembly.Module`,
  // although WebAssembly.Instance takes it. WebAssembly.Module.exports()
  // throws unless it is a compiled module; then it gets this realm's prototype.
  if (!(wasmModule instanceof WebAssembly.Module)) {
    WebAssembly.Module.exports(wasmModule);
    Object.setPrototypeOf(wasmModule, WebAssembly.Module.prototype);
  }
  glue.initSync({ module: wasmModule });
  open(glue);
} catch (error) {
  fail(error, "the imported ./web/user_management_client_bg.wasm?module");
}
