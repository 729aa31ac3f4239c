// The gate every entry exports: countUsers, listUsers, isRetryable and
// UsersClient (its listPages an async generator over the glue's listPage)
// in front of the wasm-bindgen glue. An entry that loads the .wasm in the
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
let count, list, retryable, Client; // the glue's, once the .wasm is instantiated
let loading; // the load under way, while it is
let why = `the .wasm is not loaded: call ${MANUAL} first`;
let cause;
const own = new WeakSet(); // the errors the gate made

/** A validation error the gate made (isRetryable knows it without the .wasm). */
function made(message, fields) {
  const error = new UsersApiError("validation", message, fields);
  own.add(error);
  return error;
}

function refused() {
  const message = typeof WebAssembly == "object" ? why
    : `this JavaScript engine has no WebAssembly (React Native's Hermes has none); where one can be provided, pass the .wasm to ${MANUAL}`;
  return made(message, { param: "init", cause });
}

/** Called once the .wasm is instantiated, with the glue's exports: every call goes through to them. */
export function open(glue) {
  ({ countUsers: count, listUsers: list, isRetryable: retryable, UsersClient: Client } = glue);
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
 * Whether the client's own retry rule, which is the .wasm's, retries a
 * failure like `error`. Without the .wasm it answers only what needs no
 * rule: false for anything that is not a UsersApiError and for the gate's
 * own errors (validation errors); for any other UsersApiError it throws the
 * gate's refusal (kind "validation", param "init") rather than guess. An
 * error a call rejected with is always answered: calls wait for the .wasm.
 */
export function isRetryable(error) {
  if (retryable) return retryable(error);
  if (!(error instanceof UsersApiError) || own.has(error)) return false;
  throw loading ? made("the .wasm is still loading: isRetryable answers once it has", { param: "init" }) : refused();
}

// Each UsersClient's glue client; while the .wasm loads, the promise of
// it (which rejects as construction would have thrown); null once freed.
const inner = new WeakMap();

/**
 * The call `name` on `client`'s glue client, once there is one. `client` is
 * the method's `this`: not a UsersClient where the method was taken off its
 * client (`const { countUsers } = client`).
 */
function call(client, name, ...args) {
  const glue = inner.get(client);
  if (!glue) {
    return Promise.reject(made(`${inner.has(client) ? "this UsersClient was freed" : "a method was called off its UsersClient"}: call the API on a live one`, { param: "client" }));
  }
  return glue.then ? glue.then(() => call(client, name, ...args)) : glue[name](...args);
}

/**
 * The client users make: it holds the glue's client, made at once when the
 * .wasm is loaded, else once the load under way has settled (options that
 * construction would refuse, or a load that failed, then reject every
 * call with the very error construction throws). After free(), every call
 * rejects; a second free() does nothing.
 */
export class UsersClient {
  constructor(options) {
    // The base URL as given, for the query helpers' keys (user-management-client/query).
    this[Symbol.for("user-management-client.baseUrl")] = options?.baseUrl ?? options;
    if (Client) {
      inner.set(this, new Client(options));
      return;
    }
    if (!loading) throw refused();
    const made = later(() => new Client(options));
    inner.set(this, made);
    made.then((glue) => (inner.get(this) === made ? inner.set(this, glue) : glue.free()), () => {});
  }

  countUsers(params, options) { return call(this, "countUsers", params, options); }

  listUsers(params, options) { return call(this, "listUsers", params, options); }

  // One list call per page, each with the params as they are then; the
  // glue says where the walk goes next (page 0: it is over).
  async *listPages(params, options) {
    let page = 0, seen = 0, envelope;
    do {
      [envelope, page, seen] = await call(this, "listPage", params, options, page, seen);
      yield envelope;
    } while (page);
  }

  // One step of the walk, for user-management-client/query's infinite
  // query: resolves with [envelope, next page (0: none), users seen].
  [Symbol.for("user-management-client.listPage")](params, options, page, seen) {
    return call(this, "listPage", params, options, page, seen);
  }

  free() {
    const glue = inner.get(this);
    inner.set(this, null);
    if (glue && !glue.then) glue.free();
  }
}
if (Symbol.dispose) UsersClient.prototype[Symbol.dispose] = UsersClient.prototype.free;
