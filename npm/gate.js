// The gate every entry exports: countUsers, listUsers and UsersClient in
// front of the wasm-bindgen glue. Until an entry, or init() of the manual
// loader, hands it the glue's exports with open() after instantiating the
// .wasm, every call rejects (and `new UsersClient` throws) with a
// UsersApiError of kind "validation", param "init", that says why and what
// to do. It imports no glue (whose import.meta React Native cannot bundle):
// an entry that has no .wasm to load uses it as it is. build.mjs copies it
// to web/gate.js, beside the glue, so the browser download counts it.
import { UsersApiError } from "./__SNIPPET__";
export { UsersApiError };

const MANUAL = 'init() from "user-management-client/manual"';
let count, list, Client; // the glue's, once the .wasm is instantiated
let why = `the .wasm is not loaded: call ${MANUAL} first`;
let cause;

function refused() {
  const message = typeof WebAssembly == "object" ? why
    : `this JavaScript engine has no WebAssembly (React Native's Hermes has none); where one can be provided, pass the .wasm to ${MANUAL}`;
  return new UsersApiError("validation", message, "init", undefined, undefined, undefined, cause);
}

/** Called once the .wasm is instantiated, with the glue's exports: every call goes through to them. */
export function open(glue) {
  ({ countUsers: count, listUsers: list, UsersClient: Client } = glue);
  // UsersClient becomes a subclass of the glue's: its instances are made
  // by the glue's constructor and inherit its methods (free, Symbol.dispose).
  Object.setPrototypeOf(UsersClient, Client);
  Object.setPrototypeOf(UsersClient.prototype, Client.prototype);
}

/**
 * Records why loading the .wasm from `tried` (a path, URL or description)
 * failed: every call rejects with it from now on. Returns that error.
 */
export function fail(error, tried) {
  cause = error;
  // How engines word a refusal: "disallowed by embedder" (V8 hosts),
  // "'unsafe-eval' or 'wasm-unsafe-eval'", "Content Security Policy"
  // (Chromium, WebKit; WebKit ends it with a line break, trimmed here),
  // "blocked by CSP" (Firefox).
  error = String(error).trim();
  why = /disallow|unsafe-eval|Content.Security|blocked by CSP/i.test(error)
    ? `this host refused to compile WebAssembly (${error}); allow it (a page's CSP: 'wasm-unsafe-eval' in script-src) or pass a compiled WebAssembly.Module to ${MANUAL}`
    : `could not load the .wasm from ${tried} (${error}); pass it to ${MANUAL}`;
  return refused();
}

export const countUsers = (baseUrl, params, options) =>
  count ? count(baseUrl, params, options) : Promise.reject(refused());

export const listUsers = (baseUrl, params, options) =>
  list ? list(baseUrl, params, options) : Promise.reject(refused());

// Its parent becomes the glue's class once open() has run (`super` calls
// whatever the parent is then); until then, it throws before reaching it.
export class UsersClient extends Object {
  constructor(options) {
    if (!Client) throw refused();
    super(options);
  }
}
