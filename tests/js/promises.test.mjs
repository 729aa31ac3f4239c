// Promises of the contract checked through the built package (pkg/node.mjs)
// with a custom `fetch` and, where time is the subject, Node's fake timers
// (node:test `mock.timers`): the order of timers and the count of attempts
// decide, never the wall clock. No server.
//   - a hook that throws, or returns a rejected promise, is reported
//     (`globalThis.reportError` where there is one, else `console.error`)
//     and changes nothing about the call;
//   - a hook that mutates its `info` cannot change the request, nor the
//     pause before a retry;
//   - `Retry-After` above 60 s (seconds or an HTTP date) is waited as 60 s;
//   - without it, retry n waits its `delayMs`, between half and all of
//     300 · 2^(n−1) ms, attempt by attempt;
//   - the default `timeoutMs` is 10 s, and `timeoutMs: 0` means none (an
//     answer long after 10 s still comes);
//   - the entries a browser, a Web Worker or a bundler loads build for an
//     ES2017 target (no top-level `await`).
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { pkg } from "../lib/harness.mjs";

const lib = await import(join(pkg, "node.mjs"));
const { countUsers, listUsers, UsersClient, UsersApiError } = lib;
const BASE = "http://127.0.0.1:9/prefix";
const COUNT = '{"status":200,"result":{"totalUsers":7}}';

/**
 * A `fetch` answering `steps` in turn (the last one repeats): `{ status,
 * body, headers }`, or `{ hang: true }` (no answer until the request's
 * signal aborts). `calls` records what each request carried.
 */
function scripted(steps) {
  const calls = [];
  const fetch = (url, init) => {
    const step = steps[Math.min(calls.length, steps.length - 1)];
    calls.push({ url, method: init.method, headers: Object.fromEntries(new Headers(init.headers)), body: init.body, signal: init.signal });
    if (step.hang) {
      return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
    }
    return Promise.resolve(new Response(step.body ?? COUNT, {
      status: step.status ?? 200,
      headers: step.headers ?? { "content-type": "application/json" },
    }));
  };
  return { fetch, calls };
}

// Loaded before any test fakes the timers: a first call waits for the .wasm.
await countUsers(BASE, {}, { fetch: scripted([{}]).fetch });

/** Lets every pending promise job and I/O callback run (setImmediate is not faked). */
const flush = () => new Promise((resolve) => setImmediate(resolve));
async function until(condition, what) {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await flush();
  }
  assert.fail(`never happened: ${what}`);
}

/** `promise`, with whether it has settled yet. */
function watched(promise) {
  const w = { settled: false, promise };
  promise.then(() => { w.settled = true; }, () => { w.settled = true; });
  return w;
}

/** The error a call rejected with. */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UsersApiError, `not a UsersApiError: ${error}`);
    return error;
  }
  assert.fail("the call resolved");
}

/** Hooks that each throw (`mode` "throw") or return a rejected promise ("reject"). */
function failingHooks(mode) {
  const thrown = [];
  const fail = (name) => (info) => {
    const error = new Error(`${name} failed on purpose`);
    thrown.push(error);
    if (mode === "throw") throw error;
    return Promise.reject(error);
  };
  return { thrown, hooks: { beforeRequest: fail("beforeRequest"), afterResponse: fail("afterResponse"), beforeRetry: fail("beforeRetry") } };
}

// A 503 with Retry-After: 0 then a 200: both attempts and a retry, so
// every hook runs.
const RETRIED = [{ status: 503, headers: { "retry-after": "0" }, body: '{"status":503,"result":{}}' }, {}];

/** What a call sent and came to, without hooks: the reference for "changes nothing". */
async function plainRun(steps, params) {
  const fake = scripted(steps);
  const outcome = await countUsers(BASE, params, { fetch: fake.fetch }).then((v) => ({ v }), (e) => ({ e: e.kind }));
  return { outcome, calls: fake.calls.map(({ signal, ...call }) => call) };
}

for (const mode of ["throw", "reject"]) {
  for (const reporter of ["reportError", "console.error"]) {
    test(`a hook that ${mode === "throw" ? "throws" : "returns a rejected promise"} is reported with ${reporter} and changes nothing`, async (t) => {
      const reports = [];
      // Where the platform has reportError, it is the one used; else
      // console.error. Each case gives this Node the one it is about.
      const had = Object.getOwnPropertyDescriptor(globalThis, "reportError");
      t.after(() => (had ? Object.defineProperty(globalThis, "reportError", had) : delete globalThis.reportError));
      if (reporter === "reportError") {
        globalThis.reportError = (error) => reports.push(error);
        t.mock.method(console, "error", () => reports.push("console.error was used beside reportError"));
      } else {
        delete globalThis.reportError;
        t.mock.method(console, "error", (error) => reports.push(error));
      }
      const expected = await plainRun(RETRIED, { active: "true" });
      const { thrown, hooks } = failingHooks(mode);
      const fake = scripted(RETRIED);
      const outcome = await countUsers(BASE, { active: "true" }, { fetch: fake.fetch, hooks }).then((v) => ({ v }), (e) => ({ e: e.kind }));
      assert.deepEqual(outcome, expected.outcome);
      assert.deepEqual(fake.calls.map(({ signal, ...call }) => call), expected.calls);
      // beforeRequest twice, afterResponse twice, beforeRetry once: each
      // failure reported, as the very error the hook threw or rejected with.
      assert.equal(thrown.length, 5);
      await until(() => reports.length >= thrown.length, "every failure reported");
      assert.equal(reports.length, thrown.length);
      reports.forEach((reported, i) => assert.equal(reported, thrown[i], `report ${i}: ${reported}`));
    });
  }
}

test("a hook that mutates its info changes neither the request nor the pause", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const steps = [{ status: 503, headers: { "retry-after": "2" }, body: '{"status":503,"result":{}}' }, {}];
    // The same call without hooks: what it sends.
    const expected = await (async () => {
      const fake = scripted(steps);
      const call = countUsers(BASE, { query: "ann" }, { fetch: fake.fetch, headers: { "X-Tenant": "acme" } });
      await until(() => fake.calls.length === 1, "the first attempt");
      await flush();
      mock.timers.tick(2_000);
      await call;
      return fake.calls.map(({ signal, ...c }) => c);
    })();
    const vandal = (info) => {
      info.url = "http://evil.invalid/";
      info.attempt = 99;
      info.operation = "list";
      info.headers["x-injected"] = "1";
      info.headers["x-tenant"] = "evil";
      info.headers["X-Tenant"] = "evil";
      for (const name of Object.keys(info.headers)) if (name.toLowerCase() === "accept") delete info.headers[name];
      if ("delayMs" in info) info.delayMs = 0;
      if (info.error) { info.error.kind = "validation"; info.error.httpStatus = 200; }
    };
    const seen = [];
    const hooks = {
      beforeRequest: (info) => { seen.push(["beforeRequest", info.attempt]); vandal(info); },
      afterResponse: (info) => { seen.push(["afterResponse", info.attempt]); vandal(info); },
      beforeRetry: (info) => { seen.push(["beforeRetry", info.delayMs]); vandal(info); },
    };
    const fake = scripted(steps);
    const call = watched(countUsers(BASE, { query: "ann" }, { fetch: fake.fetch, headers: { "X-Tenant": "acme" }, hooks }));
    await until(() => seen.some(([name]) => name === "beforeRetry"), "the retry");
    await flush();
    // The pause is the server's 2 s, whatever beforeRetry wrote into delayMs.
    mock.timers.tick(1_999);
    await flush();
    assert.equal(fake.calls.length, 1, "retried before Retry-After's 2 s");
    mock.timers.tick(1);
    await until(() => call.settled, "the call settles");
    assert.deepEqual(await call.promise, JSON.parse(COUNT));
    assert.deepEqual(fake.calls.map(({ signal, ...c }) => c), expected);
    // And the hooks saw the real values each time, not what they wrote.
    assert.deepEqual(seen, [["beforeRequest", 1], ["afterResponse", 1], ["beforeRetry", 2000], ["beforeRequest", 2], ["afterResponse", 2]]);
  } finally {
    mock.timers.reset();
  }
});

for (const [what, retryAfter] of [
  ["3600 seconds", () => "3600"],
  ["an HTTP date an hour ahead", () => new Date(Date.now() + 3_600_000).toUTCString()],
]) {
  test(`Retry-After of ${what} is waited as 60 s`, async () => {
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      const fake = scripted([{ status: 503, headers: { "retry-after": retryAfter() }, body: '{"status":503,"result":{}}' }, {}]);
      const delays = [];
      const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, retries: 1, hooks: { beforeRetry: (info) => delays.push(info.delayMs) } });
      const call = watched(client.countUsers());
      await until(() => delays.length === 1, "the retry is decided");
      await flush();
      assert.deepEqual(delays, [60_000]);
      mock.timers.tick(59_999);
      await flush();
      assert.equal(fake.calls.length, 1, "retried before 60 s");
      assert.equal(call.settled, false);
      mock.timers.tick(1);
      await until(() => call.settled, "the call settles after the pause");
      assert.equal(fake.calls.length, 2);
      assert.equal((await call.promise).result.totalUsers, 7);
    } finally {
      mock.timers.reset();
    }
  });
}

test("backoff without Retry-After: retry n waits its delayMs, between half and all of 300 · 2^(n−1) ms", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const busy = { status: 503, body: '{"status":503,"result":{}}' };
    const fake = scripted([busy, busy, busy, busy, {}]);
    const delays = [];
    const client = new UsersClient({ baseUrl: BASE, fetch: fake.fetch, retries: 4, hooks: { beforeRetry: (info) => delays.push(info.delayMs) } });
    const call = watched(client.countUsers());
    for (let n = 1; n <= 4; n++) {
      await until(() => delays.length === n, `retry ${n} is decided`);
      await flush();
      const full = 300 * 2 ** (n - 1);
      const delay = delays[n - 1];
      assert.ok(delay >= full / 2 && delay < full, `retry ${n} waits ${delay} ms, not from ${full / 2} to ${full}`);
      // The pause is that delay, in the whole milliseconds a timer takes.
      mock.timers.tick(Math.floor(delay) - 1);
      await flush();
      assert.equal(fake.calls.length, n, `retry ${n} was sent before its delay`);
      mock.timers.tick(1);
      await until(() => fake.calls.length === n + 1, `retry ${n} is sent once its delay is over`);
    }
    assert.equal((await call.promise).result.totalUsers, 7);
  } finally {
    mock.timers.reset();
  }
});

for (const [what, start] of [
  ["the one-shot countUsers", (fetch) => countUsers(BASE, {}, { fetch, retries: 0 })],
  ["a UsersClient's listUsers", (fetch) => new UsersClient({ baseUrl: BASE, fetch, retries: 0 }).listUsers()],
]) {
  test(`the default timeoutMs is 10 s (${what})`, async () => {
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      const fake = scripted([{ hang: true }]);
      const call = watched(start(fake.fetch));
      await until(() => fake.calls.length === 1, "the request is sent");
      await flush();
      mock.timers.tick(9_999);
      await flush();
      assert.equal(call.settled, false, "timed out before 10 s");
      assert.equal(fake.calls[0].signal.aborted, false);
      mock.timers.tick(1);
      await until(() => call.settled, "the call times out at 10 s");
      assert.equal((await rejection(call.promise)).kind, "timeout");
      assert.equal(fake.calls[0].signal.aborted, true, "the request in flight is cancelled");
    } finally {
      mock.timers.reset();
    }
  });
}

for (const [what, start] of [
  ["a client's timeoutMs: 0", (fetch) => new UsersClient({ baseUrl: BASE, fetch, retries: 0, timeoutMs: 0 }).countUsers()],
  ["a call's timeoutMs: 0 over the client's default", (fetch) => new UsersClient({ baseUrl: BASE, fetch, retries: 0 }).countUsers({}, { timeoutMs: 0 })],
  ["the one-shot's timeoutMs: 0", (fetch) => countUsers(BASE, {}, { fetch, retries: 0, timeoutMs: 0 })],
]) {
  test(`timeoutMs: 0 means none: an answer after an hour still comes (${what})`, async () => {
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      let answer;
      const requests = [];
      const fetch = (url, init) => {
        requests.push(init);
        return new Promise((resolve) => { answer = resolve; });
      };
      const call = watched(start(fetch));
      await until(() => requests.length === 1, "the request is sent");
      await flush();
      // Far past the default 10 s (and the longest timer the platform keeps).
      for (let i = 0; i < 6; i++) {
        mock.timers.tick(600_000);
        await flush();
      }
      assert.equal(call.settled, false, "the call ended without an answer");
      assert.equal(requests[0].signal.aborted, false, "the request was cancelled");
      answer(new Response(COUNT, { headers: { "content-type": "application/json" } }));
      await until(() => call.settled, "the answer is taken");
      assert.equal((await call.promise).result.totalUsers, 7);
    } finally {
      mock.timers.reset();
    }
  });
}

test("the entries a browser, a Web Worker or a bundler loads build for ES2017 (no top-level await)", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "umc-es2017-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(pkg, join(dir, "node_modules", "user-management-client"), "dir");
  writeFileSync(join(dir, "main.js"), 'import { countUsers } from "user-management-client";\nexport { countUsers };\n');
  writeFileSync(join(dir, "manual.js"), 'import { init, countUsers } from "user-management-client/manual";\nexport { init, countUsers };\n');
  for (const [name, conditions, format] of [
    ["browser, ESM", [], "esm"],
    ["browser, IIFE", [], "iife"],
    ["module Web Worker", ["worker"], "esm"],
    ["classic Web Worker (IIFE)", ["worker"], "iife"],
  ]) {
    for (const entry of ["main.js", "manual.js"]) {
      let errors = [];
      try {
        buildSync({
          entryPoints: [join(dir, entry)], bundle: true, write: false, platform: "browser",
          conditions, format, target: "es2017", logLevel: "silent",
          // The .wasm is fetched at run time; its URL is all the bundle keeps.
          loader: { ".wasm": "file" }, outdir: join(dir, "out"),
        });
      } catch (error) {
        errors = (error.errors ?? [error]).map((e) => e.text ?? String(e));
      }
      assert.deepEqual(errors, [], `${name}, ${entry}`);
    }
  }
});
