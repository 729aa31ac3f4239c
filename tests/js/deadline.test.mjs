// An attempt's timeoutMs is one deadline, from its first header function
// to its last afterResponse, through the Node entry (node.mjs) with a
// `fetch` option: a header function or a hook that never settles ends the
// attempt as `timeout` (retried by the rule like any timeout), a header
// function and an answer that each fit but together do not time out too,
// timeoutMs: 0 leaves the caller's signal alone, and a beforeRetry that
// never settles ends the call with the very error it was shown. Ordered by
// what was called and sent, never by how long it took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg } from "../lib/harness.mjs";

const { UsersClient } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
const BASE = "http://127.0.0.1:9";
const COUNT = '{"status":200,"result":{"totalUsers":7}}';

/** A `fetch` answering `status` with `body` after `delayMs`, counting its requests and keeping their signals. */
function answering({ status = 200, body = COUNT, delayMs = 0 } = {}) {
  const signals = [];
  const fetch = (url, init) => {
    signals.push(init.signal);
    return new Promise((resolve, reject) => {
      init.signal.addEventListener("abort", () => reject(init.signal.reason));
      setTimeout(() => resolve(new Response(body, { status })), delayMs);
    });
  };
  return { fetch, signals };
}

/** A function whose promise never settles, counting its calls and keeping what it was shown. */
function hanging() {
  const hook = (info) => {
    hook.calls += 1;
    hook.seen = info;
    return new Promise(() => {});
  };
  hook.calls = 0;
  return hook;
}

for (const where of ["headers", "beforeRequest", "afterResponse"]) {
  test(`a ${where} that never settles ends the attempt as a timeout`, async () => {
    const fake = answering();
    const never = hanging();
    const client = new UsersClient({
      baseUrl: BASE, fetch: fake.fetch, timeoutMs: 200, retries: 0,
      ...(where == "headers" ? { headers: never } : { hooks: { [where]: never } }),
    });
    await assert.rejects(client.countUsers(), (error) => {
      assert.equal(error.kind, "timeout", error.message);
      assert.match(error.message, /timeoutMs \(200 ms\)/);
      return true;
    });
    assert.equal(never.calls, 1);
    assert.equal(fake.signals.length, where == "afterResponse" ? 1 : 0, "requests sent");
  });
}

test("with retries: 1, a header function that never settles is asked twice, then the call times out", async () => {
  const fake = answering();
  const never = hanging();
  const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 200, retries: 1, headers: never });
  await assert.rejects(client.countUsers(), { kind: "timeout" });
  assert.equal(never.calls, 2);
  assert.equal(fake.signals.length, 0);
});

test("a header function of 150 ms and an answer after 100 ms share one deadline of 200 ms", async () => {
  const fake = answering({ delayMs: 100 });
  const headers = () => new Promise((resolve) => setTimeout(() => resolve({}), 150));
  const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 200, retries: 0, headers });
  await assert.rejects(client.countUsers(), { kind: "timeout" });
  assert.equal(fake.signals.length, 1);
  assert.equal(fake.signals[0].aborted, true, "the request is aborted");
});

test("with timeoutMs: 0 only the caller's signal ends a hook that never settles", async () => {
  const fake = answering();
  const controller = new AbortController();
  const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 0, hooks: { beforeRequest: hanging() } });
  const call = client.countUsers({}, { signal: controller.signal });
  setTimeout(() => controller.abort(), 250);
  await assert.rejects(call, { kind: "aborted" });
  assert.equal(fake.signals.length, 0);
});

test("a beforeRetry that never settles ends the call with the 503 it was to retry", async () => {
  const fake = answering({ status: 503, body: '{"status":503,"result":{}}' });
  const never = hanging();
  const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 200, retries: 2, hooks: { beforeRetry: never } });
  const error = await client.countUsers().catch((error) => error);
  assert.equal(error.kind, "http", error.message);
  assert.equal(error.httpStatus, 503);
  assert.equal(never.calls, 1);
  assert.equal(fake.signals.length, 1, "no retry was sent");
  assert.equal(error, never.seen.error, "the very error beforeRetry was shown");
});
