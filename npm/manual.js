// user-management-client/manual: everything the main entry exports, plus
// init() and initSync() to hand over the .wasm yourself (a bundler without
// wasm support, a CDN URL, bytes from a cache, a compiled WebAssembly.Module).
// Until one of them has succeeded, every call rejects with a UsersApiError
// of kind "validation", param "init". It shares the gate and the glue with
// the other entries: whichever loads the .wasm first serves both.
import initGlue, * as glue from "./web/user_management_client.js";
import { open, fail, UsersApiError } from "./web/gate.js";
export { countUsers, listUsers, isRetryable, UsersClient, UsersApiError } from "./web/gate.js";

function missing() {
  return new UsersApiError("validation",
    'init(source) needs the .wasm: a WebAssembly.Module, its bytes, a Response, or its URL ("user-management-client/wasm" is the file)',
    { param: "init" });
}

/** What a failure names as the source tried: the URL, else the kind of value given. */
function named(source) {
  if (typeof source == "string") return source;
  if (source instanceof URL) return source.href;
  return source.url || `the ${source.constructor?.name ?? typeof source} given`;
}

/** Loads the .wasm from a Module, bytes, a Response (or a promise of one), a URL or a string. */
export async function init(source) {
  try {
    source = await source;
    if (source == null) throw missing();
    await initGlue({ module_or_path: source });
  } catch (error) {
    throw error instanceof UsersApiError ? error : fail(error, named(source));
  }
  open(glue);
}

/** Loads the .wasm from a Module or bytes, synchronously. */
export function initSync(source) {
  if (source == null) throw missing();
  try {
    glue.initSync({ module: source });
  } catch (error) {
    throw fail(error, named(source));
  }
  open(glue);
}
