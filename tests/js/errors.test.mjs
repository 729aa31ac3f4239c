// UsersApiError as callers meet it: `instanceof` holds across every copy of
// the package in one process (the ES module and CommonJS entries, each with
// its own instance of the glue; the manual loader in both formats; a copy
// bundled by esbuild), for errors the client makes and errors built with the
// constructor; the constructor builds the fields it is given; and every copy's
// isRetryable is the client's own retry rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { apiUrl, pkg } from "../lib/harness.mjs";

const require = createRequire(join(pkg, "x.js"));
const wasmBytes = readFileSync(join(pkg, "web/user_management_client_bg.wasm"));

/** An entry (node.mjs) bundled by esbuild into one file: a copy with its own glue and class. */
async function bundled(entry = "node.mjs") {
  const dir = mkdtempSync(join(tmpdir(), "umc-bundled-"));
  try {
    writeFileSync(join(dir, "entry.mjs"), `export * from ${JSON.stringify(join(pkg, entry))};\n`);
    buildSync({
      entryPoints: [join(dir, "entry.mjs")], outfile: join(dir, "bundle.mjs"), bundle: true,
      format: "esm", platform: "node", logLevel: "error",
    });
    return await import(join(dir, "bundle.mjs"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const manualCjs = require("./manual.cjs");
manualCjs.initSync(wasmBytes);
const copies = {
  "node.mjs": await import(join(pkg, "node.mjs")),
  "node.cjs": require("./node.cjs"),
  "manual.js": await import(join(pkg, "manual.js")),
  "manual.cjs": manualCjs,
  "a bundled copy of node.mjs": await bundled(),
};

/** What each copy makes: an error from the client (no request is sent) and one from the constructor. */
async function errorsOf(copy) {
  const refused = await copy.countUsers("http://127.0.0.1:9", { active: "yes" }).then(
    () => assert.fail("an invalid active resolved"), (error) => error);
  assert.equal(refused.kind, "validation");
  return { "the client's": refused, "the constructor's": new copy.UsersApiError("http", "HTTP 503", { httpStatus: 503 }) };
}

test("every copy of the package is a distinct module instance", () => {
  const classes = new Set(Object.values(copies).map((copy) => copy.UsersApiError));
  // node.mjs and manual.js share web/gate.js; every other copy has its own.
  assert.equal(classes.size, 4);
});

test("an error from any copy is instanceof every copy's UsersApiError, and of Error", async () => {
  for (const [from, copy] of Object.entries(copies)) {
    for (const [made, error] of Object.entries(await errorsOf(copy))) {
      assert.ok(error instanceof Error, `${made} error from ${from} instanceof Error`);
      for (const [to, other] of Object.entries(copies)) {
        assert.ok(error instanceof other.UsersApiError, `${made} error from ${from} instanceof ${to}'s UsersApiError`);
      }
    }
  }
});

test("what is not a UsersApiError is not instanceof it", () => {
  for (const [name, { UsersApiError }] of Object.entries(copies)) {
    for (const value of [new Error("HTTP 503"), Object.create(Error.prototype), { name: "UsersApiError", kind: "http" }, null, undefined, 7, "x"]) {
      assert.equal(value instanceof UsersApiError, false, `${name}: ${String(value)}`);
    }
  }
});

test("a subclass of UsersApiError stays sane", () => {
  const { UsersApiError } = copies["node.mjs"];
  class MockError extends UsersApiError {}
  const mock = new MockError("http", "HTTP 503", { httpStatus: 503 });
  assert.ok(mock instanceof MockError);
  assert.ok(mock instanceof Error);
  for (const [name, copy] of Object.entries(copies)) assert.ok(mock instanceof copy.UsersApiError, name);
  assert.equal(new UsersApiError("http", "HTTP 503") instanceof MockError, false);
  assert.equal(copies["node.cjs"].UsersApiError.prototype instanceof MockError, false);
  assert.equal(mock.httpStatus, 503);
});

test('new UsersApiError("http", "HTTP 503", { httpStatus: 503 }) builds the right fields', () => {
  for (const [name, { UsersApiError }] of Object.entries(copies)) {
    const error = new UsersApiError("http", "HTTP 503", { httpStatus: 503 });
    assert.equal(error.name, "UsersApiError", name);
    assert.equal(error.kind, "http", name);
    assert.equal(error.message, "HTTP 503", name);
    assert.equal(error.httpStatus, 503, name);
    for (const field of ["param", "status", "body", "cause"]) assert.equal(field in error, false, `${name}: ${field}`);
    assert.match(String(error), /^UsersApiError: HTTP 503$/, name);
  }
});

test("the constructor takes every field, and none", () => {
  const { UsersApiError } = copies["node.cjs"];
  const cause = new TypeError("fetch failed");
  const body = { status: 503, message: "down" };
  const error = new UsersApiError("api", "the server said no", { param: "active", status: 503, httpStatus: 200, body, cause });
  assert.deepEqual(
    { kind: error.kind, message: error.message, param: error.param, status: error.status, httpStatus: error.httpStatus, body: error.body, cause: error.cause },
    { kind: "api", message: "the server said no", param: "active", status: 503, httpStatus: 200, body, cause });
  const bare = new UsersApiError("network", "offline");
  assert.equal(bare.kind, "network");
  assert.equal("cause" in bare, false);
});

test("the constructor refuses what is not a kind, and fields that are not an object", () => {
  const { UsersApiError } = copies["node.mjs"];
  const says = { name: "TypeError", message: /^new UsersApiError\(kind, message, \{ param, status, httpStatus, body, cause \}\): kind is one of validation, network, timeout, aborted, http, decode, api$/ };
  assert.throws(() => new UsersApiError("HTTP 503"), says);
  assert.throws(() => new UsersApiError("server", "HTTP 503"), says);
  assert.throws(() => new UsersApiError("validation", "bad active", "active"), says);
  assert.throws(() => new UsersApiError("http", "HTTP 503", null), says);
});

// A copy of the manual loader with a gate of its own, not given the .wasm yet.
const uninitialised = await bundled("manual.js");

/** The error a one-shot count of the fault `scenario` rejects with (`retries: 1`), and how many requests the server received. */
async function faultCall(copy, scenario, options = {}) {
  const base = `${apiUrl()}/faults/${scenario}/errors-${Math.random().toString(36).slice(2)}`;
  const error = await copy.countUsers(base, {}, { retries: 1, timeoutMs: 2000, ...options }).then(
    () => assert.fail(`${scenario} resolved`), (e) => e);
  const { attempts } = await (await fetch(`${base}/attempts`)).json();
  return { error, attempts };
}

test("every copy's isRetryable agrees with the client's own retries, for errors from any copy", async () => {
  // Each fault route, and whether the client retries its failure.
  const routes = [["busy", "http", true], ["html-500", "http", true], ["envelope-404", "http", false],
    ["envelope-400", "http", false], ["status-403", "api", false], ["not-json", "decode", false]];
  for (const [from, copy] of Object.entries(copies)) {
    for (const [scenario, kind, retried] of routes) {
      const { error, attempts } = await faultCall(copy, scenario);
      assert.equal(error.kind, kind, `${scenario} from ${from}`);
      assert.equal(attempts, retried ? 2 : 1, `${scenario} from ${from}`);
      for (const [to, other] of Object.entries(copies)) {
        assert.equal(other.isRetryable(error), retried, `${scenario} from ${from}, asked to ${to}`);
      }
    }
  }
  const copy = copies["node.cjs"];
  const refused = await copy.countUsers("http://127.0.0.1:9", { active: "yes" }).catch((e) => e);
  assert.equal(copy.isRetryable(refused), false, "validation");
  const network = await copy.countUsers("http://127.0.0.1:9", {}, { retries: 0 }).catch((e) => e);
  assert.equal(network.kind, "network");
  assert.equal(copy.isRetryable(network), true, "network");
  const deadline = await copy.countUsers(`${apiUrl()}/faults/held/errors-deadline`, {},
    { signal: AbortSignal.timeout(100), retries: 2 }).catch((e) => e);
  assert.equal(deadline.kind, "timeout");
  assert.match(deadline.message, /^the caller's deadline passed/);
  assert.equal(copy.isRetryable(deadline), false, "the caller's deadline");
});

test("isRetryable: a hand-made UsersApiError by the same rule, anything else false", () => {
  for (const [name, { isRetryable, UsersApiError }] of Object.entries(copies)) {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      assert.equal(isRetryable(new UsersApiError("http", `HTTP ${status}`, { httpStatus: status })), true, `${name}: ${status}`);
    }
    for (const status of [400, 401, 404, 501]) {
      assert.equal(isRetryable(new UsersApiError("http", `HTTP ${status}`, { httpStatus: status })), false, `${name}: ${status}`);
    }
    for (const kind of ["network", "timeout"]) assert.equal(isRetryable(new UsersApiError(kind, "x")), true, `${name}: ${kind}`);
    for (const kind of ["validation", "aborted", "api", "decode"]) {
      assert.equal(isRetryable(new UsersApiError(kind, "x", { httpStatus: 503 })), false, `${name}: ${kind}`);
    }
    for (const value of [new Error("HTTP 503"), { name: "UsersApiError", kind: "http", httpStatus: 503 }, null, undefined, 503, "http"]) {
      assert.equal(isRetryable(value), false, `${name}: ${String(value)}`);
    }
  }
});

test("isRetryable before the manual loader has the .wasm: only what needs no rule", async () => {
  const { isRetryable, UsersApiError, countUsers, init } = uninitialised;
  assert.equal(isRetryable(new Error("HTTP 503")), false);
  assert.equal(isRetryable(undefined), false);
  // The loader's own refusal is a validation error: never retried.
  const refusal = await countUsers("http://127.0.0.1:9").catch((e) => e);
  assert.equal(refusal.param, "init");
  assert.equal(isRetryable(refusal), false);
  // Any other UsersApiError needs the rule, which is the .wasm's: it throws rather than guess.
  const says = (error) => error instanceof UsersApiError && error.kind === "validation" && error.param === "init"
    && /the \.wasm is not loaded/.test(error.message);
  assert.throws(() => isRetryable(new UsersApiError("http", "HTTP 503", { httpStatus: 503 })), says);
  assert.throws(() => isRetryable(new UsersApiError("validation", "x", { param: "active" })), says);
  await init(wasmBytes);
  assert.equal(isRetryable(new UsersApiError("http", "HTTP 503", { httpStatus: 503 })), true);
  assert.equal(isRetryable(refusal), false);
});

test("a headers iterable whose entries are not [name, value] arrays is a validation error, nothing sent", async () => {
  const { UsersClient } = require("./node.cjs");
  let sent = 0;
  const fetch = async () => { sent++; return Response.json({ status: 200, result: { totalUsers: 1 } }); };
  const client = new UsersClient({ baseUrl: "http://h.test", fetch });
  // A string of two characters has a length of 2 and a string at 0: still no pair.
  for (const headers of [new Set(["ab"]), [["x-a", "1"], "xy"]]) {
    await assert.rejects(client.countUsers({}, { headers }), { name: "UsersApiError", kind: "validation", param: "headers" });
  }
  assert.equal(sent, 0);
});
