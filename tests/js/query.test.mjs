// user-management-client/query (pkg/query.js, query.cjs) with TanStack
// Query's core (@tanstack/query-core, a devDependency of the repository
// only), through the Node entry, against the reference server (started
// with --faults): the options resolve to the client's envelope, keys are
// equal for equal params and differ otherwise, cancelling a query aborts
// its request, and a failing query makes exactly 1 + the client's retries
// requests (the query's own retry is off); so does the book's other way,
// one attempt per call and Query retrying by isRetryable. And no entry
// loads query.js.
import { test } from "node:test";
import { getEventListeners } from "node:events";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { InfiniteQueryObserver, QueryClient, hashKey } from "@tanstack/query-core";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const { UsersClient } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
const { countUsersQueryOptions, listUsersQueryOptions, listPagesInfiniteQueryOptions, usersQueryKeys } =
  await import(pathToFileURL(join(pkg, "query.js")).href);
const requireFromPkg = createRequire(join(pkg, "x.js"));
const cjs = requireFromPkg("./query.cjs");
const api = apiUrl();
let keys = 0;

/** A base URL for `scenario` with a key of its own. */
const fault = (scenario) => `${api}/faults/${scenario}/query-${process.pid}-${++keys}`;

/** What the fault route counted for `base`: "attempts" or "closed". */
async function counted(base, what = "attempts") {
  const response = await fetch(`${base}/${what}`);
  return (await response.json())[what];
}

/** Waits until `check()` is true, for at most `ms`; whether it became true. */
async function until(check, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/**
 * A QueryClient as a browser has one: TanStack retries 3 times by default
 * there (in Node, its default is 0), at once here, so that a second layer
 * of retries would show in the counts.
 */
const browserLike = () => new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 0 } } });

test("fetchQuery resolves to the envelope the call resolves to", async () => {
  const client = new UsersClient(api);
  const queries = new QueryClient();
  const params = { active: true };
  const count = await queries.fetchQuery(countUsersQueryOptions(client, params));
  assert.deepEqual(count, await client.countUsers(params));
  assert.equal(count.result.totalUsers, await truth({ active: "true" }));
  const list = await queries.fetchQuery(listUsersQueryOptions(client, { active: "false", page: 2, pageSize: 5 }));
  assert.deepEqual(list, await client.listUsers({ active: "false", page: 2, pageSize: 5 }));
  assert.equal(list.result.users.length, 5);
  assert.deepEqual(queries.getQueryData(countUsersQueryOptions(client, params).queryKey), count);
});

test("equal params give equal keys; other params, operations or base URLs other keys", () => {
  const client = new UsersClient(api);
  const key = (helper, params, on = client) => helper(on, params).queryKey;
  const count = key(countUsersQueryOptions, { query: "ann", active: "true" });
  assert.deepEqual(count, ["user-management-client", api.replace(/\/+$/, ""), "count", { active: "true", query: "ann" }]);
  for (const same of [
    key(countUsersQueryOptions, { query: "ann", active: "true" }),
    key(countUsersQueryOptions, { active: "true", query: "ann" }),
    key(countUsersQueryOptions, { active: true, query: "ann", extra: undefined }),
    key(countUsersQueryOptions, { query: "ann", active: "true" }, new UsersClient(`${api}/`)),
    cjs.countUsersQueryOptions(client, { query: "ann", active: "true" }).queryKey,
  ]) {
    assert.deepEqual(same, count);
    assert.equal(hashKey(same), hashKey(count));
  }
  assert.deepEqual(key(countUsersQueryOptions, undefined), key(countUsersQueryOptions, {}));
  const others = [
    count,
    key(countUsersQueryOptions, { query: "bob", active: "true" }),
    key(countUsersQueryOptions, { query: "ann" }),
    key(countUsersQueryOptions, { query: "ann", active: "false" }),
    key(listUsersQueryOptions, { query: "ann", active: "true" }),
    key(listUsersQueryOptions, { query: "ann", active: "true", page: 2 }),
    key(countUsersQueryOptions, { query: "ann", active: "true" }, new UsersClient(`${api}/v2`)),
    key(countUsersQueryOptions, { query: "ann", active: "true" }, new UsersClient({ baseUrl: "https://api.example.com" })),
  ];
  assert.equal(new Set(others.map(hashKey)).size, others.length);
});

test("a query sends the params its key names, whatever becomes of the object given", async () => {
  const client = new UsersClient(fault("echo"));
  for (const [helper, operation] of [[countUsersQueryOptions, "count"], [listUsersQueryOptions, "list"]]) {
    const params = { query: "ann", active: true };
    const options = helper(client, params);
    params.query = "bob";
    delete params.active;
    assert.deepEqual(options.queryKey.at(-1), { active: "true", query: "ann" }, operation);
    const { result } = await new QueryClient().fetchQuery(options);
    assert.deepEqual(result.params, { active: "true", query: "ann" }, operation);
  }
  const sent = [];
  const recording = new UsersClient({
    baseUrl: "http://pages.test",
    fetch: async (url, init) => {
      sent.push(JSON.parse(init.body));
      return Response.json({ status: 200, result: { users: [], totalUsers: 0, page: 1, pageSize: 100 } });
    },
  });
  const params = { query: "ann" };
  const options = listPagesInfiniteQueryOptions(recording, params);
  params.query = "bob";
  await new QueryClient().fetchInfiniteQuery(options);
  assert.deepEqual(sent, [{ query: "ann", page: 1 }]);
});

test("a helper given no UsersClient throws a TypeError naming it", () => {
  const helpers = { countUsersQueryOptions, listUsersQueryOptions, listPagesInfiniteQueryOptions };
  for (const [name, helper] of Object.entries(helpers)) {
    for (const client of [undefined, null, {}, { countUsers() {} }, { [Symbol.for("user-management-client.baseUrl")]: api }]) {
      assert.throws(() => helper(client), {
        name: "TypeError",
        message: `${name}(client, params, options): client must be a UsersClient from user-management-client`,
      });
    }
  }
});

test("a key's base URL is the client's, parsed, without trailing slashes; its operation; its params sorted", () => {
  const client = new UsersClient("HTTP://LOCALHOST:80/v1//");
  const [scope, base, operation, params] = countUsersQueryOptions(client, { query: "a", active: false, extra: null }).queryKey;
  assert.deepEqual([scope, base, operation], ["user-management-client", "http://localhost/v1", "count"]);
  assert.deepEqual(Object.entries(params), [["active", "false"], ["query", "a"]]);
  assert.equal(listUsersQueryOptions(client).queryKey[2], "list");
  assert.equal(listPagesInfiniteQueryOptions(client).queryKey[2], "pages");
  // Only `active` as a boolean becomes the string the client sends; any other
  // `active` stays as given, for the client to refuse.
  assert.deepEqual(countUsersQueryOptions(client, { active: 1 }).queryKey.at(-1), { active: 1 });
  // Other values stay as they are.
  const list = listUsersQueryOptions(client, { page: 2, pageSize: 5, flag: true, query: "b" }).queryKey.at(-1);
  assert.deepEqual(Object.entries(list), [["flag", true], ["page", 2], ["pageSize", 5], ["query", "b"]]);
});

test("params that are no plain object go to the client as given, which refuses them", async () => {
  const client = new UsersClient(fault("ok"));
  const instance = new (class P { constructor() { this.active = "true"; } })();
  for (const params of [instance, "active=true", 7]) {
    const options = countUsersQueryOptions(client, params);
    assert.equal(options.queryKey.at(-1), params);
    await assert.rejects(new QueryClient().fetchQuery(options), { name: "UsersApiError", kind: "validation", param: "params" });
  }
});

test("call options that are no object go to the client as given, with the query's signal or without", async () => {
  const base = fault("ok");
  const client = new UsersClient(base);
  const options = countUsersQueryOptions(client, {}, "fast");
  for (const signal of [new AbortController().signal, undefined]) {
    await assert.rejects(options.queryFn({ signal }), { name: "UsersApiError", kind: "validation", param: "options" });
  }
  assert.equal(await counted(base), 0);
});

test("without AbortSignal.any, a caller's signal that has aborted already sends nothing", () => withAny(true, async () => {
  const base = fault("ok");
  const client = new UsersClient(base);
  const options = countUsersQueryOptions(client, {}, { signal: AbortSignal.abort() });
  await assert.rejects(new QueryClient().fetchQuery(options), { name: "UsersApiError", kind: "aborted" });
  assert.equal(await counted(base), 0);
}));

test("cancelQueries aborts the request in flight", async () => {
  const base = fault("held");
  const client = new UsersClient({ baseUrl: base, timeoutMs: 0, retries: 0 });
  const queries = new QueryClient();
  const options = countUsersQueryOptions(client);
  const fetched = queries.fetchQuery(options);
  fetched.catch(() => {});
  assert.ok(await until(async () => (await counted(base)) === 1, 5000), "the request reached the server");
  await queries.cancelQueries({ queryKey: options.queryKey });
  await assert.rejects(fetched);
  assert.ok(await until(async () => (await counted(base, "closed")) === 1, 5000), "the server saw the connection closed");
  assert.equal(await counted(base), 1);
});

/** Runs `body` with AbortSignal.any as the engine has it, or (`without`) as an engine without it. */
async function withAny(without, body) {
  const any = AbortSignal.any;
  if (without) delete AbortSignal.any;
  try {
    await body();
  } finally {
    if (without) AbortSignal.any = any;
  }
}

for (const without of [false, true]) test(`the caller's signal and the query's both end the call${without ? " (no AbortSignal.any)" : ""}`, () => withAny(without, async () => {
  const base = fault("held");
  const client = new UsersClient({ baseUrl: base, timeoutMs: 0, retries: 0 });
  // The caller's signal aborts: the query fails with kind "aborted".
  const caller = new AbortController();
  const queries = browserLike();
  const fetched = queries.fetchQuery(countUsersQueryOptions(client, { query: "a" }, { signal: caller.signal }));
  fetched.catch(() => {});
  assert.ok(await until(async () => (await counted(base)) === 1, 5000));
  caller.abort();
  await assert.rejects(fetched, (error) => error.kind === "aborted");
  // The caller's deadline: kind "timeout".
  await assert.rejects(
    queries.fetchQuery(countUsersQueryOptions(client, { query: "b" }, { signal: AbortSignal.timeout(100) })),
    (error) => error.kind === "timeout");
  // A caller's signal given, the query cancelled: the request goes all the same.
  const options = countUsersQueryOptions(client, { query: "c" }, { signal: new AbortController().signal });
  const cancelled = queries.fetchQuery(options);
  cancelled.catch(() => {});
  assert.ok(await until(async () => (await counted(base)) === 3, 5000));
  await queries.cancelQueries({ queryKey: options.queryKey });
  await assert.rejects(cancelled);
  assert.ok(await until(async () => (await counted(base, "closed")) === 3, 5000), "the server saw 3 connections closed");
  assert.equal(await counted(base), 3);
  // A long-lived caller's signal keeps no listener of a query that has settled.
  const lasting = new AbortController();
  const answered = new UsersClient({ baseUrl: fault("ok"), retries: 0 });
  for (const query of ["d", "e"]) {
    await queries.fetchQuery(countUsersQueryOptions(answered, { query }, { signal: lasting.signal }));
  }
  assert.equal(getEventListeners(lasting.signal, "abort").length, 0);
}));

test("a failing query makes 1 + the client's retries requests, the query's retry off", async () => {
  for (const [clientRetries, callRetries, requests] of [[2, undefined, 3], [2, 0, 1], [0, 4, 5], [undefined, undefined, 3]]) {
    const base = fault("busy");
    const client = new UsersClient(clientRetries === undefined ? base : { baseUrl: base, retries: clientRetries });
    const queries = browserLike();
    const options = countUsersQueryOptions(client, {}, callRetries === undefined ? undefined : { retries: callRetries });
    await assert.rejects(queries.fetchQuery(options), (error) => error.kind === "http" && error.httpStatus === 503);
    assert.equal(await counted(base), requests, `client retries ${clientRetries}, call retries ${callRetries}`);
    assert.equal(queries.getQueryState(options.queryKey).fetchFailureCount, 1);
  }
});

test("the book's other single layer: one attempt per call, Query retrying by isRetryable", async () => {
  const { isRetryable } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
  for (const [scenario, requests] of [["busy", 3], ["envelope-404", 1]]) {
    const base = fault(scenario);
    const client = new UsersClient(base);
    const queries = new QueryClient();
    const options = {
      ...countUsersQueryOptions(client, { active: true }, { retries: 0 }),
      retry: (failures, error) => failures < 2 && isRetryable(error),
      retryDelay: 0,
    };
    await assert.rejects(queries.fetchQuery(options), { name: "UsersApiError", kind: "http" });
    assert.equal(await counted(base), requests, scenario);
    assert.equal(queries.getQueryState(options.queryKey).fetchFailureCount, requests, scenario);
  }
});

test("no entry of the package loads query.js", () => {
  const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  assert.ok(!manifest.sideEffects.some((file) => /query/.test(file)));
  const files = readdirSync(pkg, { recursive: true }).filter((file) => /\.(c|m)?js$/.test(file) && !/^query\./.test(file));
  assert.ok(files.includes("node.mjs") && files.includes("browser.js") && files.includes("node.cjs"));
  assert.ok(!readdirSync(join(pkg, "web"), { recursive: true }).some((file) => /query/.test(file)));
  for (const file of files) {
    const text = readFileSync(join(pkg, file), "utf8");
    assert.ok(!/query\.c?js|\/query["'`]/.test(text), `${file} names query.js`);
  }
});

/** A client whose requests are counted (its `fetch` option passes each on). */
function counting(options) {
  const sent = [];
  const fetch = (url, init) => { sent.push(JSON.parse(init.body)); return globalThis.fetch(url, init); };
  return { client: new UsersClient({ baseUrl: api, fetch, ...options }), sent };
}

test("an infinite query walks the pages as listPages does: one request a page, no more", async () => {
  const { client, sent } = counting();
  const params = { active: true, pageSize: 100 };
  const observer = new InfiniteQueryObserver(new QueryClient(), listPagesInfiniteQueryOptions(client, params));
  let result = await observer.refetch();
  while (result.hasNextPage) result = await observer.fetchNextPage();
  const pages = result.data.pages;
  const total = await truth({ active: "true" });
  assert.equal(pages.reduce((users, page) => users + page.result.users.length, 0), total);
  assert.equal(new Set(pages.flatMap((page) => page.result.users.map((user) => user.id))).size, total);
  assert.deepEqual(sent.map((body) => body.page), pages.map((_, i) => i + 1));
  assert.equal(pages.at(-1).nextPageParam, undefined);
  // The same pages as listPages walks.
  const walked = [];
  for await (const page of client.listPages(params)) walked.push(page.result.users.length);
  assert.deepEqual(pages.map((page) => page.result.users.length), walked);
});

test("an infinite query starts at the page its params name, and a failing one makes 1 + the client's retries requests", async () => {
  const { client } = counting();
  const data = await new QueryClient().fetchInfiniteQuery(listPagesInfiniteQueryOptions(client, { pageSize: 5 }));
  assert.deepEqual(data.pageParams, [{ page: 0, seen: 0 }]);
  assert.equal(data.pages[0].result.page, 1);
  const base = fault("busy");
  const failing = new UsersClient({ baseUrl: base, retries: 1 });
  const queries = browserLike();
  const options = listPagesInfiniteQueryOptions(failing, {});
  await assert.rejects(queries.fetchInfiniteQuery(options), (error) => error.kind === "http" && error.httpStatus === 503);
  assert.equal(await counted(base), 2);
  assert.equal(queries.getQueryState(options.queryKey).fetchFailureCount, 1);
});

test("an infinite query's key names its params; its queryFn passes the query's signal on", async () => {
  const client = new UsersClient(api);
  const key = (params) => listPagesInfiniteQueryOptions(client, params).queryKey;
  assert.deepEqual(key({ pageSize: 10, active: true }), ["user-management-client", api.replace(/\/+$/, ""), "pages", { active: "true", pageSize: 10 }]);
  assert.notEqual(hashKey(key({ pageSize: 10 })), hashKey(key({ pageSize: 20 })));
  assert.notEqual(hashKey(key({})), hashKey(listUsersQueryOptions(client, {}).queryKey));
  const base = fault("held");
  const held = new UsersClient({ baseUrl: base, timeoutMs: 0 });
  const queries = new QueryClient();
  const options = listPagesInfiniteQueryOptions(held, {});
  const pending = queries.fetchInfiniteQuery(options);
  assert.ok(await until(async () => (await counted(base)) === 1, 10_000), "the first page's request was sent");
  await queries.cancelQueries({ queryKey: options.queryKey });
  await assert.rejects(pending);
  assert.ok(await until(async () => (await counted(base, "closed")) === 1, 10_000), "the request was cancelled");
});

test("an infinite query fetches the page before its first, back to page 1, and no further", async () => {
  const client = new UsersClient(api);
  const queries = new QueryClient();
  const params = { active: true, page: 3, pageSize: 50 };
  const observer = new InfiniteQueryObserver(queries, listPagesInfiniteQueryOptions(client, params));
  const unsubscribe = observer.subscribe(() => {});
  try {
    assert.ok(await until(() => observer.getCurrentResult().isSuccess, 5000));
    assert.deepEqual(observer.getCurrentResult().data.pages.map((page) => page.result.page), [3]);
    assert.equal(observer.getCurrentResult().hasPreviousPage, true);
    await observer.fetchPreviousPage();
    await observer.fetchPreviousPage();
    const result = observer.getCurrentResult();
    assert.deepEqual(result.data.pages.map((page) => page.result.page), [1, 2, 3]);
    assert.equal(result.hasPreviousPage, false, "page 1 has none before it");
    const expected = await client.listUsers({ active: true, page: 2, pageSize: 50 });
    assert.deepEqual(result.data.pages[1].result, expected.result);
  } finally {
    unsubscribe();
  }
});

test("usersQueryKeys(client) gives each helper's key, and `all` invalidates every query of that client and no other", async () => {
  const client = new UsersClient(api);
  const other = new UsersClient(`${api}/v2`);
  const keys = usersQueryKeys(client);
  const params = { query: "ann", active: true };
  assert.deepEqual(keys.count(params), countUsersQueryOptions(client, params).queryKey);
  assert.deepEqual(keys.list(params), listUsersQueryOptions(client, params).queryKey);
  assert.deepEqual(keys.pages(params), listPagesInfiniteQueryOptions(client, params).queryKey);
  assert.deepEqual(keys.count(), countUsersQueryOptions(client).queryKey);
  assert.deepEqual(keys.all, countUsersQueryOptions(client).queryKey.slice(0, 2));
  assert.deepEqual(cjs.usersQueryKeys(client).count(params), keys.count(params));
  const queries = new QueryClient();
  await queries.fetchQuery(countUsersQueryOptions(client, params));
  await queries.fetchQuery(listUsersQueryOptions(client, { pageSize: 5 }));
  await queries.fetchInfiniteQuery(listPagesInfiniteQueryOptions(client, { pageSize: 500 }));
  const untouched = countUsersQueryOptions(other);
  queries.setQueryData(untouched.queryKey, { status: 200, result: { totalUsers: 1 } });
  await queries.invalidateQueries({ queryKey: keys.all, refetchType: "none" });
  const state = (key) => queries.getQueryState(key)?.isInvalidated;
  assert.equal(state(keys.count(params)), true);
  assert.equal(state(keys.list({ pageSize: 5 })), true);
  assert.equal(state(keys.pages({ pageSize: 500 })), true);
  assert.equal(state(untouched.queryKey), false, "another base URL's query is not invalidated");
  assert.throws(() => usersQueryKeys({}), { name: "TypeError", message: /^usersQueryKeys\(client, options\): client must be a UsersClient/ });
});

test("a server client and a browser client on different base URLs share keys through keyBase, and their calls go through", async () => {
  const server = new UsersClient(api);
  const browser = new UsersClient(`${api.replace("127.0.0.1", "localhost")}/`);
  const params = { active: "true" };
  const shared = { keyBase: "users-api" };
  for (const helper of [countUsersQueryOptions, listUsersQueryOptions, listPagesInfiniteQueryOptions]) {
    assert.notDeepEqual(helper(server, params).queryKey, helper(browser, params).queryKey, helper.name);
    assert.deepEqual(helper(server, params, shared).queryKey, helper(browser, params, shared).queryKey, helper.name);
    assert.equal(helper(server, params, shared).queryKey[1], "users-api");
  }
  assert.deepEqual(usersQueryKeys(browser, shared).count(params), countUsersQueryOptions(server, params, shared).queryKey);
  // The call itself does not get keyBase (a call refuses options it does not know).
  const queries = new QueryClient();
  const count = await queries.fetchQuery(countUsersQueryOptions(server, params, { ...shared, retries: 0 }));
  assert.equal(count.result.totalUsers, await truth({ active: "true" }));
  const hydrated = new QueryClient();
  hydrated.setQueryData(countUsersQueryOptions(server, params, shared).queryKey, count);
  assert.deepEqual(hydrated.getQueryData(countUsersQueryOptions(browser, params, shared).queryKey), count);
  assert.throws(() => countUsersQueryOptions(server, params, { keyBase: 1 }), TypeError);
});
