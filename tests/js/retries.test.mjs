// The retry policy through the Node entry (node.mjs) with a `fetch` option:
// `retries: number | RetryPolicy`, its statuses and limit, a Retry-After cut
// to maxRetryAfterMs, a call's policy over its client's field by field,
// beforeRetry returning false, and a hook's retries counted apart (at most
// max(1, limit)), so that a token refresh works with `retries: 0`. Counted
// by requests made, never by how long they took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg } from "../lib/harness.mjs";

const { UsersClient, countUsers } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
const BASE = "http://127.0.0.1:9";
const COUNT = '{"status":200,"result":{"totalUsers":7}}';

/** A `fetch` answering each request with the next of `answers` (the last one again), counting them. */
function answering(...answers) {
  const fake = (url, init) => {
    const answer = answers[Math.min(fake.requests.length, answers.length - 1)];
    fake.requests.push(new Headers(init.headers));
    const { status = 200, body = COUNT, headers = {} } = answer;
    return Promise.resolve(new Response(body, { status, headers }));
  };
  fake.requests = [];
  return fake;
}

const busy = (status = 503, retryAfter = "0") => ({
  status, body: `{"status":${status},"result":{}}`, headers: { "retry-after": retryAfter },
});

test("retries: { limit: 3, statusCodes: [503] } makes 4 requests against 503s and 1 against 500s", async () => {
  const retries = { limit: 3, statusCodes: [503] };
  const fetch503 = answering(busy(503));
  await assert.rejects(countUsers(BASE, {}, { fetch: fetch503, retries }), { kind: "http", httpStatus: 503 });
  assert.equal(fetch503.requests.length, 4);
  const fetch500 = answering(busy(500));
  await assert.rejects(countUsers(BASE, {}, { fetch: fetch500, retries }), { kind: "http", httpStatus: 500 });
  assert.equal(fetch500.requests.length, 1);
});

test("maxRetryAfterMs: 1000 cuts a Retry-After: 5 to one second", async () => {
  const fetch = answering(busy(503, "5"), {});
  const delays = [];
  const client = new UsersClient({
    baseUrl: BASE, fetch, retries: { maxRetryAfterMs: 1000 },
    hooks: { beforeRetry: (info) => { delays.push(info.delayMs); } },
  });
  const got = await client.countUsers();
  assert.equal(got.result.totalUsers, 7);
  assert.deepEqual(delays, [1000]);
});

test("a call's policy overrides its client's field by field, and a call's number sets the limit alone", async () => {
  const fetch503 = answering(busy(503));
  const client = new UsersClient({ baseUrl: BASE, fetch: fetch503, retries: { limit: 3, statusCodes: [500] } });
  await assert.rejects(client.countUsers({}, { retries: { statusCodes: [503] } }), { httpStatus: 503 });
  assert.equal(fetch503.requests.length, 4, "the call's statuses, the client's limit");
  const fetch500 = answering(busy(500));
  const other = new UsersClient({ baseUrl: BASE, fetch: fetch500, retries: { limit: 3, statusCodes: [500] } });
  await assert.rejects(other.countUsers({}, { retries: 1 }), { httpStatus: 500 });
  assert.equal(fetch500.requests.length, 2, "the client's statuses, the call's limit");
});

test("beforeRetry returning false stops the retries: one request, and the call rejects with info.error", async () => {
  for (const later of [false, true]) {
    const seen = [];
    const stop = (info) => { seen.push(info.error); return false; };
    const beforeRetry = later ? async (info) => stop(info) : stop;
    const fetch = answering(busy(503));
    const error = await countUsers(BASE, {}, { fetch, hooks: { beforeRetry } }).then(
      () => assert.fail("resolved"), (e) => e);
    assert.equal(error.kind, "http");
    assert.equal(error.httpStatus, 503);
    assert.equal(fetch.requests.length, 1);
    assert.equal(seen.length, 1);
    assert.equal(error, seen[0], "the very object beforeRetry saw");
  }
});

test("with retries: 0, a 401 refreshed by afterResponse resolves after exactly 2 requests", async () => {
  let token = "old";
  const fetch = (url, init) => {
    fetch.requests += 1;
    const ok = new Headers(init.headers).get("authorization") === "Bearer new";
    return Promise.resolve(ok ? new Response(COUNT) : new Response('{"status":401,"result":{}}', { status: 401 }));
  };
  fetch.requests = 0;
  const client = new UsersClient({
    baseUrl: BASE, fetch, retries: 0,
    headers: () => ({ Authorization: `Bearer ${token}` }),
    hooks: { afterResponse: async (info) => { if (info.httpStatus === 401) { token = "new"; return { retry: true }; } } },
  });
  const got = await client.countUsers();
  assert.equal(got.result.totalUsers, 7);
  assert.equal(fetch.requests, 2);
});

test("a hook that always asks for a retry makes max(1, limit) + 1 requests, then the 401's error", async () => {
  for (const [limit, requests] of [[0, 2], [1, 2], [3, 4]]) {
    const fetch = answering({ status: 401, body: '{"status":401,"result":{}}' });
    const hooks = { afterResponse: () => ({ retry: true }) };
    await assert.rejects(countUsers(BASE, {}, { fetch, retries: limit, hooks }), { kind: "http", httpStatus: 401 });
    assert.equal(fetch.requests.length, requests, `limit ${limit}`);
  }
});

test("a bad policy is a validation error with param \"retries\", and nothing is sent", async () => {
  for (const retries of [{ limit: -1 }, { statusCodes: [99] }, { statusCodes: "503" }, { backoffLimitMs: -1 }, { retryOn: [503] }]) {
    const fetch = answering({});
    await assert.rejects(countUsers(BASE, {}, { fetch, retries }), { kind: "validation", param: "retries" });
    assert.equal(fetch.requests.length, 0, JSON.stringify(retries));
  }
  assert.throws(() => new UsersClient({ baseUrl: BASE, retries: { statusCodes: [600] } }), {
    kind: "validation", param: "retries",
    message: "retries.statusCodes must be an array of whole numbers from 100 to 599; got 600",
  });
});
