// user-management-client/query: options objects for TanStack Query (and
// the Vue, Svelte, Solid and Angular adapters, which share its core), which
// QueryClient.fetchQuery, useQuery and their kin take as they are. No
// import of TanStack Query, and none of the package's other modules: the
// client is passed in, and the calls go through it, so the helpers share
// its .wasm, whichever entry made it. The main entry never loads this file.
//
// Retries: one layer only, the client's. queryFn makes one client call, with
// the client's retries (or `retries` in the helper's options), its backoff
// and Retry-After; the options set the query's own `retry` to false, so a
// failing query makes exactly 1 + retries requests.

/** Where the client keeps the base URL it was given (gate.js sets it). */
const BASE_URL = Symbol.for("user-management-client.baseUrl");
/** The client's one step of listPages' walk (gate.js): [envelope, next page (0: none), users seen]. */
const LIST_PAGE = Symbol.for("user-management-client.listPage");

/** The first element of every key the helpers make. */
const SCOPE = "user-management-client";

/** A key: the scope, the API's name in keys (baseUrlOf), the operation, the params as paramsKey gives them. */
const keyOf = (base, operation, sent) => [SCOPE, base, operation, sent];

/**
 * The key part that names the API: `keyBase` where the options give one (a
 * server client and a browser client on different base URLs then share
 * their keys), else the client's base URL, parsed (so `HTTP://Host:80/x` is
 * `http://host/x`), without a trailing slash.
 */
function baseUrlOf(client, helper, options) {
  const given = client?.[BASE_URL];
  if (typeof client?.countUsers != "function" || typeof given != "string") {
    const signature = helper == "usersQueryKeys" ? "(client, options)" : "(client, params, options)";
    throw new TypeError(`${helper}${signature}: client must be a UsersClient from user-management-client`);
  }
  const keyBase = options != null && typeof options == "object" ? options.keyBase : undefined;
  if (keyBase !== undefined) {
    if (typeof keyBase != "string" || keyBase === "") throw new TypeError(`${helper}: options.keyBase must be a non-empty string`);
    return keyBase;
  }
  let url = given;
  try {
    // Without user:password@, which the client refuses in a base URL anyway.
    const parsed = new URL(given);
    parsed.username = parsed.password = "";
    url = parsed.href;
  } catch {
    // Not a URL: the client rejects its calls; the key keeps the text as given.
  }
  return url.replace(/\/+$/, "");
}

/**
 * `params` as the key holds them, and as the query's calls send them, so
 * that what a query fetches is what its key names, whatever becomes of the
 * object given: a copy with its keys sorted, `undefined` and `null` left
 * out (the client sends neither), a boolean `active` as the string the
 * client sends. Anything other than an object made by `{}` or
 * `Object.create(null)` stays as it is, for the client to judge.
 */
function paramsKey(params) {
  if (params == null) return {};
  if (typeof params != "object" || ![Object.prototype, null].includes(Object.getPrototypeOf(params))) return params;
  const key = {};
  for (const name of Object.keys(params).sort()) {
    let value = params[name];
    if (value == null) continue;
    if (name == "active" && typeof value == "boolean") value = String(value);
    key[name] = value;
  }
  return key;
}

/**
 * `call(options)` with the query's signal added to `options` (merged with the
 * caller's own signal, if any: aborted when either is, with its reason).
 * Where the platform has no AbortSignal.any, a controller of the package's
 * own listens to both, and stops listening once the call has settled.
 */
function withSignal(options, signal, call) {
  if (options != null && typeof options == "object" && "keyBase" in options) {
    // The helpers' own option: the client's calls do not take it.
    const { keyBase: _keyBase, ...rest } = options;
    options = rest;
  }
  if (!signal || (options != null && typeof options != "object")) return call(options); // the client rejects bad options as they are
  if (!options?.signal) return call({ ...options, signal });
  if (typeof AbortSignal.any == "function") return call({ ...options, signal: AbortSignal.any([options.signal, signal]) });
  const controller = new AbortController();
  const listening = [];
  for (const one of [options.signal, signal]) {
    if (one.aborted) {
      controller.abort(one.reason);
      break;
    }
    const onAbort = () => controller.abort(one.reason);
    one.addEventListener("abort", onAbort, { once: true });
    listening.push([one, onAbort]);
  }
  const called = call({ ...options, signal: controller.signal });
  const stop = () => listening.forEach(([one, onAbort]) => one.removeEventListener("abort", onAbort));
  called.then(stop, stop);
  return called;
}

function queryOptions(helper, operation, method, client, params, options) {
  const sent = paramsKey(params);
  return {
    queryKey: keyOf(baseUrlOf(client, helper, options), operation, sent),
    queryFn: ({ signal } = {}) => withSignal(options, signal, (merged) => client[method](sent, merged)),
    retry: false,
  };
}

/** Options for a query of `client.countUsers(params, options)`. */
export function countUsersQueryOptions(client, params, options) {
  return queryOptions("countUsersQueryOptions", "count", "countUsers", client, params, options);
}

/** Options for a query of `client.listUsers(params, options)`. */
export function listUsersQueryOptions(client, params, options) {
  return queryOptions("listUsersQueryOptions", "list", "listUsers", client, params, options);
}

/** The walk's start: 0 for the page `params.page` names (default 1), no user seen yet. */
const FIRST_PAGE = Object.freeze({ page: 0, seen: 0 });

/**
 * Options for an infinite query of `client.listPages(params, options)`:
 * one page per fetch, from `params.page` (default 1) on, where the walk's
 * rule (the client's, as listPages walks) says the next page is, and back
 * to page 1. Each page is the page's envelope with `nextPageParam`, where
 * the walk goes next (undefined after the last page), which
 * `getNextPageParam` reads, and `previousPageParam`, the page before it
 * (undefined for page 1), which `getPreviousPageParam` reads.
 */
export function listPagesInfiniteQueryOptions(client, params, options) {
  const sent = paramsKey(params);
  return {
    queryKey: keyOf(baseUrlOf(client, "listPagesInfiniteQueryOptions", options), "pages", sent),
    queryFn: async ({ pageParam, signal } = {}) => {
      const { page, seen } = pageParam ?? FIRST_PAGE;
      const [envelope, next, seenNow] = await withSignal(options, signal, (merged) => client[LIST_PAGE](sent, merged, page, seen));
      // The page fetched: the one asked for, or the walk's first (params.page, checked by the walk).
      const fetched = page >= 1 ? page : Number(sent.page ?? 1);
      // Users the walk counts before the page before this one: a page's worth
      // fewer, the pageSize asked for, else the page's own (as the walk reads them).
      const pageSize = Number(sent.pageSize ?? envelope.result.pageSize);
      const before = Number.isFinite(pageSize) ? Math.max(0, seen - pageSize) : 0;
      return {
        ...envelope,
        nextPageParam: next ? { page: next, seen: seenNow } : undefined,
        previousPageParam: fetched > 1 ? { page: fetched - 1, seen: before } : undefined,
      };
    },
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (lastPage) => lastPage.nextPageParam,
    getPreviousPageParam: (firstPage) => firstPage.previousPageParam,
    retry: false,
  };
}

/**
 * The keys of `client`'s queries, for `invalidateQueries`, `cancelQueries`
 * and `getQueryData`: `all` (a prefix of every key the helpers make for
 * this client), and `count(params)`, `list(params)` and `pages(params)`,
 * each equal to the key of the helper with the same params (and the same
 * `keyBase`, where `options` gives one).
 */
export function usersQueryKeys(client, options) {
  const base = baseUrlOf(client, "usersQueryKeys", options);
  return Object.freeze({
    all: Object.freeze([SCOPE, base]),
    count: (params) => keyOf(base, "count", paramsKey(params)),
    list: (params) => keyOf(base, "list", paramsKey(params)),
    pages: (params) => keyOf(base, "pages", paramsKey(params)),
  });
}
