// The WASI transport waits without blocking the component's one thread:
// a Rust program for wasm32-wasip2 (component/examples/joined.rs, built by
// scripts/component.sh into target/component/joined.wasm) joins calls of
// the library under `wstd::runtime::block_on`, run here by the wasmtime CLI
// (`wasmtime run -S http`) against the reference server with --faults.
// The verdict is the order of the events the program logged (each call's
// beforeRequest and afterResponse hooks, the end of its future), not the
// clock: the milliseconds the calls took are reported as a diagnostic.
// JOINED_WASM runs another build of the program (one against an older
// library, say). Needs USERS_API_URL (scripts/with-server.sh --faults),
// `make component` and the wasmtime CLI in target/venv (scripts/setup.sh).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { apiUrl } from "../lib/harness.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const server = apiUrl();
const wasm = process.env.JOINED_WASM ?? `${root}target/component/joined.wasm`;
const wasmtime = `${root}target/venv/bin/wasmtime`;
const compiled = `${root}target/component/joined.cwasm`;

// Compiled ahead once, as the component's wasmtime CLI host does.
before(() => execFileSync(wasmtime, ["compile", wasm, "-o", compiled], { stdio: ["ignore", "inherit", "inherit"] }));

/** The program's report of `scenario`: { events, outcomes, elapsedMs }. */
function run(scenario, key) {
  const args = ["run", "-S", "http", "--allow-precompiled", compiled, scenario, server, key];
  return new Promise((resolve, reject) => {
    execFile(wasmtime, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`wasmtime run ${scenario}: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
    });
  });
}

/** Where `event` is in `events` (it must be there). */
function at(events, event) {
  const index = events.indexOf(event);
  assert.notEqual(index, -1, `${event} in ${JSON.stringify(events)}`);
  return index;
}

const key = (scenario) => `joined-${scenario}-${process.pid}`;

test("4 joined calls overlap: every request is out before the first answer", async (t) => {
  const { events, outcomes, elapsedMs } = await run("overlap", key("overlap"));
  t.diagnostic(`4 calls answered after 1 s each, joined: ${elapsedMs} ms`);
  assert.deepEqual(outcomes, [{ ok: 200 }, { ok: 200 }, { ok: 200 }, { ok: 200 }]);
  assert.equal(events.length, 12, JSON.stringify(events));
  const firstAnswer = events.findIndex((event) => event.startsWith("answered"));
  for (const i of [0, 1, 2, 3]) {
    assert.ok(at(events, `sent ${i}`) < firstAnswer, `sent ${i} before the first answer: ${JSON.stringify(events)}`);
    assert.ok(at(events, `answered ${i}`) < at(events, `ended ${i} ok`));
  }
});

test("a timeout fires while a joined call waits, which then succeeds", async (t) => {
  const { events, outcomes, elapsedMs } = await run("timeout", key("timeout"));
  t.diagnostic(`a 1 s call joined with a 300 ms timeout: ${elapsedMs} ms`);
  assert.deepEqual(outcomes[0], { ok: 200 });
  assert.equal(outcomes[1].error, "timeout", JSON.stringify(outcomes[1]));
  const timedOut = at(events, "ended 1 timeout");
  assert.ok(at(events, "sent 0") < timedOut && at(events, "sent 1") < timedOut, JSON.stringify(events));
  assert.ok(timedOut < at(events, "answered 0"), `the timeout before the other call's answer: ${JSON.stringify(events)}`);
  assert.ok(!events.includes("answered 1"), JSON.stringify(events));
});

test("a call's future dropped mid-wait: its request's connection closes at once, the next call works", async (t) => {
  const name = key("dropped");
  const { events, outcomes, elapsedMs } = await run("dropped", name);
  t.diagnostic(`a call given up after 300 ms, then another: ${elapsedMs} ms`);
  // The third outcome is the server's own record, read by the program
  // before it exits: the dropped call's connection closed before the
  // answer (a request still open would read 0 for 30 s).
  assert.deepEqual(outcomes, [{ gaveUp: true }, { ok: 200 }, { closed: 1 }]);
  assert.deepEqual(events, ["sent 0", "gave up 0", "sent 1", "answered 1", "ended 1 ok"]);
  const { attempts } = await (await fetch(`${server}/faults/held/${name}-0/attempts`)).json();
  assert.equal(attempts, 1);
});

test("hooks change an attempt on WASI: a token refreshed and the attempt made again, headers per attempt, response headers redacted", async () => {
  const name = key("hooks");
  const { outcomes } = await run("hooks", name);
  const [refreshed, requestId, headers] = outcomes;
  // 401 for the stale token, then 200 for the fresh one: two requests.
  assert.deepEqual(refreshed, { ok: 200 });
  const { attempts } = await (await fetch(`${server}/faults/token-expired/${name}-0/attempts`)).json();
  assert.equal(attempts, 2);
  // Attempt 3's own header, after two 503s.
  assert.equal(requestId, "r-3");
  assert.equal(headers["x-ratelimit-remaining"], "41");
  assert.equal(headers["set-cookie"], "[REDACTED]");
  assert.equal(headers["x-echo"], "[REDACTED]");
  const everything = JSON.stringify(headers);
  for (const piece of ["t0k+en/w", "s3ss10n", "sixty-four"]) assert.ok(!everything.includes(piece), `${piece} in ${everything}`);
});
