// Hooks that change an attempt, through the Node entry (node.mjs) against
// the reference server's fault routes (USERS_API_URL, started with
// --faults): beforeRequest's headers on each attempt, what afterResponse
// sees of a response's headers (a set-cookie and an echoed token
// redacted), and an async beforeRequest that never settles, ended by the
// caller's signal with nothing sent; and the options as fetch takes them:
// headers as a Headers object and pairs, retries per call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const { UsersClient } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
const api = apiUrl();
let keys = 0;

/** A base URL for `scenario` with a key of its own. */
const fault = (scenario) => `${api}/faults/${scenario}/hooks-${process.pid}-${++keys}`;

/** How many requests the fault route received for `base`. */
async function attempts(base) {
  const response = await fetch(`${base}/attempts`);
  return (await response.json()).attempts;
}

test("beforeRequest's headers reach the server on each attempt", async () => {
  const base = fault("request-ids");
  const ids = [];
  const client = new UsersClient({
    baseUrl: base,
    retries: 2,
    hooks: {
      beforeRequest: ({ attempt }) => ({ headers: { "x-request-id": `r-${attempt}` } }),
      beforeRetry: ({ error }) => { ids.push(error.body.result.requestId); },
    },
  });
  const page = await client.listUsers();
  assert.deepEqual([...ids, page.result.requestId], ["r-1", "r-2", "r-3"]);
  assert.equal(await attempts(base), 3);
});

test("afterResponse sees the response's headers, credentials redacted", async () => {
  const token = "t0k+en/with=signs-and-more-than-sixty-four-characters-0123456789-abcdefgh";
  const seen = [];
  const client = new UsersClient({
    baseUrl: fault("response-headers"),
    headers: { Authorization: `Bearer ${token}` },
    hooks: { afterResponse: (info) => { seen.push(info.responseHeaders); } },
  });
  const count = await client.countUsers();
  assert.equal(count.result.totalUsers, 7);
  assert.equal(seen.length, 1);
  const [headers] = seen;
  assert.equal(headers["x-ratelimit-remaining"], "41");
  assert.equal(headers["set-cookie"], "[REDACTED]");
  assert.equal(headers["x-echo"], "[REDACTED]");
  assert.equal(headers["content-type"], "application/json");
  const everything = JSON.stringify(seen);
  for (const piece of [token.slice(0, 8), "s3ss10n", "sixty-four"]) assert.ok(!everything.includes(piece), piece);
});

test("afterResponse sees a Response-like's headers as listed, a pair with a line feed left out", async () => {
  const seen = [];
  const headers = new Map([["X-A", "1"], ["x-bad", "two\nlines"], ["x-b\nx-c", "3"], ["x-d", "4"]]);
  const fetch = () => Promise.resolve({ status: 200, headers, text: () => Promise.resolve('{"status":200,"result":{"totalUsers":7}}') });
  const client = new UsersClient({ baseUrl: "http://127.0.0.1:9", fetch, hooks: { afterResponse: (info) => { seen.push(info.responseHeaders); } } });
  const count = await client.countUsers();
  assert.equal(count.result.totalUsers, 7);
  assert.deepEqual(seen, [{ "x-a": "1", "x-d": "4" }]);
});

test("an async beforeRequest that never settles ends with the caller's signal, nothing sent", async () => {
  const base = fault("ok");
  let called = 0;
  const client = new UsersClient({
    baseUrl: base,
    hooks: { beforeRequest: () => { called++; return new Promise(() => {}); } },
  });
  const controller = new AbortController();
  const call = client.countUsers({}, { signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(call, { name: "UsersApiError", kind: "aborted" });
  assert.equal(called, 1);
  assert.equal(await attempts(base), 0);
});

test("headers as fetch takes them reach the server: a Headers object, pairs and a Map, as client and call headers", async () => {
  const client = new UsersClient({ baseUrl: fault("echo"), headers: new Headers({ "x-a": "1" }) });
  const sent = (await client.countUsers({}, { headers: [["x-b", "2"]] })).result.headers;
  assert.deepEqual([sent["x-a"], sent["x-b"]], ["1", "2"]);
  const pairs = new UsersClient({ baseUrl: fault("echo"), headers: [["x-a", "3"]] });
  const called = (await pairs.countUsers({}, { headers: new Headers({ "x-b": "4" }) })).result.headers;
  assert.deepEqual([called["x-a"], called["x-b"]], ["3", "4"]);
  // Any iterable of pairs, as the types say: a Map, frozen tuples.
  const mapped = new UsersClient({ baseUrl: fault("echo"), headers: new Map([["x-a", "5"]]) });
  const frozen = Object.freeze([Object.freeze(["x-b", "6"])]);
  const iterated = (await mapped.countUsers({}, { headers: frozen })).result.headers;
  assert.deepEqual([iterated["x-a"], iterated["x-b"]], ["5", "6"]);
  const refused = { name: "UsersApiError", kind: "validation", param: "headers" };
  for (const bad of [{ "bad name": "v" }, [["bad name", "v"]]]) {
    const base = fault("echo");
    // A client's own headers are checked when it is made; a call's before it sends.
    assert.throws(() => new UsersClient({ baseUrl: base, headers: bad }), refused);
    await assert.rejects(new UsersClient(base).countUsers({}, { headers: bad }), refused);
    await assert.rejects(new UsersClient({ baseUrl: base, headers: () => bad }).countUsers(), refused);
    await assert.rejects(new UsersClient(base).countUsers({}, { headers: async () => bad }), refused);
    assert.equal(await attempts(base), 0);
  }
});

test("retries per call: 0 makes 1 request against 503s, 4 makes 5", async () => {
  for (const [retries, requests] of [[0, 1], [4, 5]]) {
    const base = fault("busy");
    const client = new UsersClient({ baseUrl: base, retries: 2 });
    await assert.rejects(client.countUsers({}, { retries }), { name: "UsersApiError", kind: "http", httpStatus: 503 });
    assert.equal(await attempts(base), requests);
  }
});

// A stall here would hang the run: the test's timeout turns one into a
// failure (no figure of time decides a pass).
test("a hook that calls the same client, and free() of the client from a hook while its call runs: neither traps nor deadlocks", { timeout: 60_000 }, async () => {
  const expected = await truth({});
  const inner = [];
  let calls = 0;
  const client = new UsersClient({
    baseUrl: api,
    hooks: {
      // The outer call's hooks each make a call of the same client (whose
      // own hooks then run too, without calling again).
      beforeRequest: async () => { if (calls++ == 0) inner.push(await client.countUsers()); },
      afterResponse: async () => { if (calls++ == 3) inner.push(await client.listUsers({ pageSize: 1 })); },
    },
  });
  const outer = await client.countUsers();
  assert.equal(outer.result.totalUsers, expected);
  assert.deepEqual(inner.map((envelope) => envelope.result.totalUsers), [expected, expected]);

  let freed = 0;
  const freeing = new UsersClient({ baseUrl: api, hooks: { afterResponse: () => { freeing.free(); freed++; } } });
  assert.equal((await freeing.countUsers()).result.totalUsers, expected, "the call under way settles");
  assert.equal(freed, 1);
  await assert.rejects(freeing.countUsers(), { name: "UsersApiError", kind: "validation", message: /this UsersClient was freed/ });
});
