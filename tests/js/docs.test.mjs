// The book's JavaScript samples, run. Each fenced block marked
// `<!-- sample: NAME -->` on the line before it in docs/src/*.md is taken
// from its page as it is and run against the built package (pkg/, installed
// as `user-management-client` in a temporary node_modules) and the reference
// server (scripts/with-server.sh --faults), and held to what its page says.
//
// How a sample runs: its `import` lines stay at the top of a module; the
// rest becomes the body of an async function (the samples are fragments
// that may `return` from a handler), with `export` dropped from its
// declarations, the names it leaves to the reader (`auth`, `show`, …)
// passed in, and the names a test needs returned. "https://api.example.com"
// is replaced by the URL under test. JSX is compiled by esbuild with `h`
// as its factory: an element is `{ type, props }`, and `render` calls
// function components and returns the text.
//
// React Query is in no lock file of this repository, so its sample runs
// with a stand-in `@tanstack/react-query` (QueryClient keeps its
// `defaultOptions`; useQuery records its options and returns the state the
// test sets) and `runQuery`, which runs a query function with TanStack
// Query v5's retry rule (query-core's retryer: after failure number
// `failureCount`, counted from 0, retry when `retry` is `true`, a number
// above `failureCount`, or a function that returns true for
// `(failureCount, error)`; default 3). React is a stand-in too (useState,
// useEffect), for the server-rendering samples.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { apiUrl, freePort, pkg, repo, truth } from "../lib/harness.mjs";

const server = apiUrl();
const { UsersApiError, UsersClient } = await import(join(pkg, "node.mjs"));

/** The marked samples of docs/src/*.md: name -> { page, lang, code }. */
const samples = new Map();
for (const page of readdirSync(join(repo, "docs/src")).filter((name) => name.endsWith(".md"))) {
  const text = readFileSync(join(repo, "docs/src", page), "utf8");
  const marked = [...text.matchAll(/^<!-- sample: ([a-z0-9-]+) -->\n```(js|jsx)\n([\s\S]*?)^```$/gm)];
  assert.equal(marked.length, text.match(/^<!-- sample:/gm)?.length ?? 0, `${page}: a sample marker not right above a js or jsx fence`);
  for (const [, name, lang, code] of marked) {
    assert.ok(!samples.has(name), `the sample "${name}" is marked twice`);
    samples.set(name, { page, lang, code });
  }
}
const ran = new Set();

// A temporary project: the package and the stand-ins in its node_modules.
const dir = mkdtempSync(join(tmpdir(), "umc-docs-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "node_modules/@tanstack/react-query"), { recursive: true });
mkdirSync(join(dir, "node_modules/react"));
symlinkSync(pkg, join(dir, "node_modules/user-management-client"), "dir");
const standIn = (path, names) => {
  writeFileSync(join(dir, "node_modules", path, "package.json"), '{ "type": "module", "main": "index.js" }\n');
  writeFileSync(join(dir, "node_modules", path, "index.js"), `export const { ${names} } = globalThis.standIns[${JSON.stringify(path)}];\n`);
};
standIn("@tanstack/react-query", "QueryClient, QueryClientProvider, useQuery");
standIn("react", "useEffect, useState");
writeFileSync(join(dir, "active-users.js"), "export const ActiveUsers = globalThis.standIns.ActiveUsers;\n");

/** TanStack Query's state as the stand-in hands it to `useQuery`. */
const query = { client: undefined, options: undefined, state: { isPending: true } };
/** React's, for one component: its state and the effects it asked for. */
const react = { state: [], effects: [] };
globalThis.standIns = {
  "@tanstack/react-query": {
    QueryClient: class QueryClient {
      constructor({ defaultOptions = {} } = {}) { this.defaultOptions = defaultOptions; }
    },
    QueryClientProvider: ({ client, children }) => { query.client = client; return children; },
    useQuery: (options) => { query.options = options; return query.state; },
  },
  react: {
    useState: (initial) => {
      const slot = { value: initial, set: [] };
      react.state.push(slot);
      return [initial, (value) => slot.set.push(value)];
    },
    useEffect: (effect) => { react.effects.push(effect); },
  },
  ActiveUsers: function ActiveUsers() { throw new Error("the page's client component is not rendered here"); },
};

const h = (type, props, ...children) => ({ type, props: { ...props, children: children.length > 1 ? children : children[0] } });
/** The text of an element tree, function components called (from the root down). */
function render(node) {
  if (node === null || node === undefined || node === false) return "";
  if (Array.isArray(node)) return node.map(render).join("");
  if (typeof node !== "object") return String(node);
  if (typeof node.type === "function") return render(node.type(node.props));
  return render(node.props.children);
}

/** TanStack Query v5's retry loop (query-core's retryer), without its delays. */
async function runQuery(options, signal) {
  const retry = options.retry ?? query.client.defaultOptions.queries?.retry ?? 3;
  for (let failureCount = 0; ; failureCount++) {
    try {
      return { data: await options.queryFn({ queryKey: options.queryKey, signal }), runs: failureCount + 1 };
    } catch (error) {
      const again = retry === true || (typeof retry === "number" && failureCount < retry) ||
        (typeof retry === "function" && retry(failureCount, error));
      if (!again) return { error, runs: failureCount + 1 };
    }
  }
}

let modules = 0;
/**
 * Runs the sample `name` as an async function, "https://api.example.com"
 * replaced by `baseUrl`, `given` in scope; resolves to the names `returns`
 * lists, as the sample left them.
 */
async function run(name, { baseUrl = server, given = {}, returns = [] } = {}) {
  const sample = samples.get(name);
  assert.ok(sample, `no sample marked "${name}" in docs/src`);
  ran.add(name);
  const lines = sample.code.replaceAll('"https://api.example.com"', JSON.stringify(baseUrl)).split("\n");
  const isImport = (line) => /^import\s/.test(line);
  const source = [
    ...lines.filter(isImport).map((line) => line.replace('"./active-users"', '"./active-users.js"')),
    `export default async function sample({ ${Object.keys(given).join(", ")} }) {`,
    ...lines.filter((line) => !isImport(line)).map((line) => line.replace(/^export (default )?/, "")),
    `return { ${returns.join(", ")} };`,
    "}",
  ].join("\n");
  const code = sample.lang === "jsx" ? transformSync(source, { loader: "jsx", jsx: "transform", jsxFactory: "h" }).code : source;
  const file = join(dir, `${name}-${modules++}.mjs`);
  writeFileSync(file, code);
  const { default: sampleFn } = await import(pathToFileURL(file).href);
  return sampleFn(given);
}

/** A fault scenario of the reference server, under a key of its own. */
let keys = 0;
const fault = (scenario) => `${server}/faults/${scenario}/docs-${process.pid}-${keys++}`;
/** How many requests a fault URL received. */
const attempts = async (url) => (await (await fetch(`${url}/attempts`)).json()).attempts;
const list = async (params) => {
  const answer = await fetch(`${server}/api/users`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params),
  });
  return (await answer.json()).result;
};

test("every page of a list: listPages and the generator over it yield each user once, as many as totalUsers, page after page", async () => {
  const logged = [];
  const console = { log: (...values) => logged.push(values) };
  const { allUsers } = await run("every-page", { given: { console }, returns: ["allUsers"] });
  // The sample's own loop: every active user, each once, with its username.
  const active = await truth({ active: "true" });
  assert.ok(active > 100, "more users than one page of 100 holds");
  assert.equal(logged.length, active);
  assert.equal(new Set(logged.map(([id]) => id)).size, active, "no user twice");
  const everyone = await list({ active: "true", pageSize: 500, page: 1 });
  const pages = [everyone, await list({ active: "true", pageSize: 500, page: 2 })].flatMap((page) => page.users);
  assert.deepEqual(logged, pages.map((user) => [user.id, user.username]), "the server's users, in its order");

  // One request per page, and none after a `break`.
  const requests = [];
  const client = new UsersClient({ baseUrl: server, hooks: { beforeRequest: () => requests.push(1) } });
  // One page filled exactly (pageSize: total) and pages of 7 and 10: no
  // request for an empty page after a full last one.
  const total = await truth({ query: "an" });
  assert.ok(total > 10 && total <= 500, `${total}: a list of a few pages, that one page can hold`);
  for (const pageSize of [7, 10, total]) {
    requests.length = 0;
    const seen = [];
    for await (const user of allUsers(client, { query: "an", pageSize })) seen.push(user.id);
    assert.equal(seen.length, total, `pageSize ${pageSize}`);
    assert.equal(new Set(seen).size, total, `pageSize ${pageSize}: no user twice`);
    assert.equal(requests.length, Math.ceil(total / pageSize), `pageSize ${pageSize}: requests`);
  }
  requests.length = 0;
  const firstThree = [];
  for await (const user of allUsers(client, { pageSize: 2 })) {
    firstThree.push(user);
    if (firstThree.length === 3) break;
  }
  assert.equal(requests.length, 2, "break: no further page asked for");
  // A signal ends the walk with an `aborted` error.
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(allUsers(client, {}, { signal: controller.signal }).next(), { name: "UsersApiError", kind: "aborted" });
});

/** The reader's auth module: the token it hands out, and one refresh. */
function standInAuth(first, refreshed) {
  return {
    current: first, handedOut: [], refreshes: 0,
    async token() { this.handedOut.push(this.current); return this.current; },
    async refresh() { this.refreshes++; this.current = refreshed; },
  };
}

test("a token that expires: on a 401, one refresh and one repeat, with the new token", async () => {
  const url = fault("token-expired");
  const auth = standInAuth("stale", "fresh");
  const { count } = await run("fresh-token", { baseUrl: url, given: { auth }, returns: ["count"] });
  assert.deepEqual(count, { status: 200, result: { totalUsers: 7 } });
  assert.deepEqual(auth.handedOut, ["stale", "fresh"]);
  assert.equal(auth.refreshes, 1);
  assert.equal(await attempts(url), 2);

  // The refreshed token is refused too: the 401 comes back after one repeat.
  const still = fault("token-expired");
  const stillStale = standInAuth("stale", "also-stale");
  await assert.rejects(run("fresh-token", { baseUrl: still, given: { auth: stillStale } }),
    { name: "UsersApiError", kind: "http", httpStatus: 401 });
  assert.deepEqual([stillStale.handedOut, stillStale.refreshes, await attempts(still)], [["stale", "also-stale"], 1, 2]);

  // Any other failure: no refresh, no repeat.
  const other = fault("envelope-404");
  const untouched = standInAuth("stale", "fresh");
  await assert.rejects(run("fresh-token", { baseUrl: other, given: { auth: untouched } }),
    { name: "UsersApiError", kind: "http", httpStatus: 404 });
  assert.deepEqual([untouched.handedOut, untouched.refreshes, await attempts(other)], [["stale"], 0, 1]);
});

test("TanStack Query: the helper's options, its signal passed on, one layer of retries (the client's)", async () => {
  const render_ = async (baseUrl, signal) => {
    query.state = { isPending: true };
    const sample = await run("tanstack-query", { baseUrl, given: { h }, returns: ["App"] });
    assert.equal(render(h(sample.App)), "Counting…");
    const outcome = await runQuery(query.options, signal);
    query.state = outcome.error ? { error: outcome.error, isPending: false } : { data: outcome.data, isPending: false };
    return { text: render(h(sample.App)), ...outcome };
  };

  const shown = await render_(server);
  assert.deepEqual(query.options.queryKey, ["user-management-client", server.replace(/\/+$/, ""), "count", { active: "true" }]);
  assert.equal(shown.text, `${await truth({ active: "true" })} active users`);

  // A server that stays down: 1 run of the query function, the client's 3 attempts.
  const busy = fault("busy");
  const down = await render_(busy);
  assert.deepEqual([down.error.kind, down.error.httpStatus, down.runs, await attempts(busy)], ["http", 503, 1, 3]);
  assert.equal(down.text, `http: ${down.error.message}`);
  // A refusal is not retried.
  const missing = fault("envelope-404");
  const refused = await render_(missing);
  assert.deepEqual([refused.error.httpStatus, refused.runs, await attempts(missing)], [404, 1, 1]);
  // Query cancels: the request in flight is cancelled, kind "aborted", not retried.
  const slow = fault("slow");
  const controller = new AbortController();
  const cancelled = render_(slow, controller.signal);
  while ((await attempts(slow)) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  const { error, runs } = await cancelled;
  assert.deepEqual([error.kind, runs, await attempts(slow)], ["aborted", 1, 1]);
});

test("SvelteKit: load's own fetch, given to the client, makes the request", async () => {
  const { load } = await run("sveltekit-fetch", { returns: ["load"] });
  const seen = [];
  const eventFetch = (input, init) => { seen.push(String(input instanceof Request ? input.url : input)); return fetch(input, init); };
  assert.deepEqual(await load({ fetch: eventFetch }), { totalActive: await truth({ active: "true" }) });
  assert.deepEqual(seen, [`${server.replace(/\/+$/, "")}/api/users/count`]);
});

test("server-side rendering: the page renders the server's count; the client component keeps it, then refreshes it", async () => {
  const { Page } = await run("ssr-page", { given: { h }, returns: ["Page"] });
  const page = await Page();
  assert.equal(page.type, globalThis.standIns.ActiveUsers);
  assert.deepEqual(page.props, { initial: await truth({ active: "true" }), children: undefined });

  process.env.NEXT_PUBLIC_USERS_API_URL = server;
  react.state = [];
  react.effects = [];
  const { ActiveUsers } = await run("ssr-client", { given: { h }, returns: ["ActiveUsers"] });
  assert.equal(render(h(ActiveUsers, { initial: 5 })), "5 active users", "hydration renders the server's figure");
  assert.equal(react.effects.length, 1);
  const [count] = react.state;
  const cleanup = react.effects[0]();
  while (count.set.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(count.set, [await truth({ active: "true" })]);
  cleanup();
});

/** What the error samples did: the calls of the functions they were given. */
function recorder(names) {
  const calls = [];
  const given = Object.fromEntries(names.map((name) => [name, (...args) => { calls.push([name, ...args]); }]));
  return { calls, given };
}

test("errors by kind (Recipes): each kind handled as the sample says", async () => {
  const refused = `http://127.0.0.1:${await freePort()}`;
  const cases = [
    ["a count", server, true, async () => [["show", `${await truth({ query: "a", active: "true" })} users`]]],
    ["validation", server, "yes", async () => [["show", 'Check active: active must be "all", "true", "false" or a boolean; got "yes"']]],
    ["network", refused, true, async () => [["show", "The server cannot be reached. Try again."]]],
    // The timeout is the subject here, not a bound: `slow` answers after 30 s.
    ["timeout", fault("slow"), true, async () => [["show", "The server cannot be reached. Try again."]], { timeoutMs: 200 }],
    ["http 401", fault("token-expired"), true, async () => [["signIn"]]],
    ["http 404", fault("envelope-404"), true, async () => [["show", "The server refused (HTTP 404)."]]],
    ["api", fault("status-403"), true, async () => [["show", "The API said 403."]]],
    ["decode", fault("not-json"), true, async (report) => [["report", report], ["show", "Unexpected answer from the server."]]],
  ];
  for (const [what, baseUrl, active, expected, options] of cases) {
    const { calls, given } = recorder(["show", "signIn", "report"]);
    const users = new UsersClient({ baseUrl, retries: 0, ...options });
    await run("errors-by-kind", { given: { ...given, users, query: "a", active } });
    const reported = calls.find(([name]) => name === "report")?.[1];
    if (reported) assert.equal(reported.kind, "decode");
    assert.deepEqual(calls, await expected(reported), what);
  }
  // Aborted: nothing shown.
  const { calls, given } = recorder(["show", "signIn", "report"]);
  const client = new UsersClient(server);
  const users = { countUsers: (params) => client.countUsers(params, { signal: AbortSignal.abort() }) };
  await run("errors-by-kind", { given: { ...given, users, query: "a", active: true } });
  assert.deepEqual(calls, []);
  // Not the client's error: thrown on.
  const broken = { countUsers: async () => { throw new TypeError("a bug of the app"); } };
  await assert.rejects(run("errors-by-kind", { given: { ...given, users: broken, query: "a", active: true } }), TypeError);
});

test("errors by kind (Errors): each kind handled as the sample says", async () => {
  const cases = [
    ["a count", server, "true", async () => [["render", await truth({ active: "true" })]]],
    ["validation", server, "yes", async () => [["markInvalid", "active", 'active must be "all", "true", "false" or a boolean; got "yes"']]],
    ["http 401", fault("token-expired"), "true", async () => [["signIn"]]],
    ["http 404", fault("envelope-404"), "true", async () => [["showBanner", "http: the server answered HTTP 404"]]],
    ["decode", fault("not-json"), "true", async () => [["showBanner", "decode: the response body is not JSON"]]],
  ];
  for (const [what, baseUrl, filter, expected] of cases) {
    const { calls, given } = recorder(["render", "markInvalid", "signIn", "showBanner"]);
    await run("errors-handling", { given: { ...given, baseUrl, filter } });
    assert.deepEqual(calls, await expected(), what);
  }
});

test("every marked sample is run by a test above", () => {
  assert.deepEqual([...samples.keys()].filter((name) => !ran.has(name)), []);
});
