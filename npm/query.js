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

/** The client's base URL as a key part: parsed (so `HTTP://Host:80/x` is `http://host/x`), no trailing slash. */
function baseUrlOf(client, helper) {
  const given = client?.[BASE_URL];
  if (typeof client?.countUsers != "function" || typeof given != "string") {
    throw new TypeError(`${helper}(client, params, options): client must be a UsersClient from user-management-client`);
  }
  let url = given;
  try {
    url = new URL(given).href;
  } catch {
    // Not a URL: the client rejects its calls; the key keeps the text as given.
  }
  return url.replace(/\/+$/, "");
}

/**
 * `params` as the key holds them: keys sorted, `undefined` and `null` left
 * out (the client sends neither), a boolean `active` as the string the
 * client sends. Anything that is not a plain object stays as it is (the
 * client rejects it with a validation error).
 */
function paramsKey(params) {
  if (params == null) return {};
  if (typeof params != "object" || Array.isArray(params)) return params;
  const key = {};
  for (const name of Object.keys(params).sort()) {
    let value = params[name];
    if (value == null) continue;
    if (name == "active" && typeof value == "boolean") value = String(value);
    key[name] = value;
  }
  return key;
}

/** Both signals in one: aborted when either is, with its reason. */
function either(a, b) {
  if (typeof AbortSignal.any == "function") return AbortSignal.any([a, b]);
  const controller = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** The call's options with the query's signal added (merged with the caller's own signal, if any). */
function withSignal(options, signal) {
  if (!signal) return options;
  if (options == null) return { signal };
  if (typeof options != "object") return options; // the client rejects it as it is
  return { ...options, signal: options.signal ? either(options.signal, signal) : signal };
}

function queryOptions(helper, operation, method, client, params, options) {
  return {
    queryKey: [SCOPE, baseUrlOf(client, helper), operation, paramsKey(params)],
    queryFn: ({ signal } = {}) => client[method](params, withSignal(options, signal)),
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
 * rule (the client's, as listPages walks) says the next page is. Each page
 * is the page's envelope with `nextPageParam`, where the walk goes next
 * (undefined after the last page), which `getNextPageParam` reads.
 */
export function listPagesInfiniteQueryOptions(client, params, options) {
  const key = [SCOPE, baseUrlOf(client, "listPagesInfiniteQueryOptions"), "pages", paramsKey(params)];
  return {
    queryKey: key,
    queryFn: async ({ pageParam, signal } = {}) => {
      const { page, seen } = pageParam ?? FIRST_PAGE;
      const [envelope, next, seenNow] = await client[LIST_PAGE](params, withSignal(options, signal), page, seen);
      return { ...envelope, nextPageParam: next ? { page: next, seen: seenNow } : undefined };
    },
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (lastPage) => lastPage.nextPageParam,
    retry: false,
  };
}
