// The gate every entry exports: countUsers, listUsers and UsersClient in
// front of the wasm-bindgen glue. An entry that loads the .wasm in the
// background hands the load to load(): until it settles, calls wait for it
// and `new UsersClient` returns a client that waits too. Once the glue's
// exports are given to open(), every call goes through to them. Without a
// load under way and before open() (the manual loader before init(), or a
// load that failed), every call rejects (and `new UsersClient` throws) with
// a UsersApiError of kind "validation", param "init", that says why and
// what to do. It imports no glue (whose import.meta React Native cannot
// bundle): an entry that has no .wasm to load uses it as it is. build.mjs
// copies it to web/gate.js, beside the glue, so the browser download counts it.
import { UsersApiError } from "./__SNIPPET__";
export { UsersApiError };

const MANUAL = 'init() from "user-management-client/manual"';
let count, list, Client; // the glue's, once the .wasm is instantiated
let loading; // the load under way, while it is
let why = `the .wasm is not loaded: call ${MANUAL} first`;
let cause;

function refused() {
  const message = typeof WebAssembly == "object" ? why
    : `this JavaScript engine has no WebAssembly (React Native's Hermes has none); where one can be provided, pass the .wasm to ${MANUAL}`;
  return new UsersApiError("validation", message, { param: "init", cause });
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
  why = /disallow|unsafe-eval|Content.Security/i.test(error)
    ? `this host refused to compile WebAssembly (${error}); allow it (a page's CSP: 'wasm-unsafe-eval' in script-src) or pass a compiled WebAssembly.Module to ${MANUAL}`
    : `could not load the .wasm from ${tried} (${error}); pass it to ${MANUAL}`;
  return refused();
}

/**
 * Takes a load of the .wasm from `tried` under way: `glue`, a promise of the
 * glue's exports once instantiated. Calls made until it settles wait for it;
 * then it is open()ed, or its failure recorded with fail().
 */
export function load(glue, tried) {
  loading = glue.then(
    (exports) => { loading = undefined; open(exports); },
    (error) => { loading = undefined; fail(error, tried); });
}

/** `call` once the load under way has settled; without one, the refusal. */
const later = (call) => (loading ? loading.then(call) : Promise.reject(refused()));

export const countUsers = (baseUrl, params, options) =>
  count ? count(baseUrl, params, options) : later(() => countUsers(baseUrl, params, options));

export const listUsers = (baseUrl, params, options) =>
  list ? list(baseUrl, params, options) : later(() => listUsers(baseUrl, params, options));

/**
 * A client made while the .wasm loads: the glue's client is made with the
 * same options once it is loaded, and each method waits for it. Options
 * that construction would refuse (or a load that failed) reject every call
 * with the very error construction throws.
 */
function waiting(options, target) {
  const made = later(() => Reflect.construct(UsersClient, [options], target));
  made.catch(() => {}); // rejections are the calls' to report
  const client = Object.create(target.prototype);
  const method = (name) => (...args) => made.then((real) => real[name](...args));
  const free = () => { made.then((real) => real.free(), () => {}); };
  Object.assign(client, { countUsers: method("countUsers"), listUsers: method("listUsers"), free });
  if (Symbol.dispose) client[Symbol.dispose] = free;
  return client;
}

// Its parent becomes the glue's class once open() has run (`super` calls
// whatever the parent is then); until then, it waits for a load under way
// or throws before reaching it.
export class UsersClient extends Object {
  constructor(options) {
    if (!Client) {
      if (loading) return waiting(options, new.target);
      throw refused();
    }
    super(options);
  }
}
