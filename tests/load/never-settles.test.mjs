// Load: promises that never settle cost nothing once the attempt's
// timeout or the caller's signal wins. Each scenario runs 10,000 calls with
// 1,000 in flight whose `fetch`, body `text()` or header provider never
// settles (and ignores the request's signal), or whose hook never settles
// (beforeRequest, afterResponse, beforeRetry), through the built package; every
// call must end with the contract's kind, and after a first batch has sized
// the module's memory, a second batch of 10,000 must grow neither the wasm
// linear memory nor the table of JS values the Rust side holds. No server:
// each call uses its own `fetch`, and nothing is ever sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { glue, unlessStalled } from "../lib/harness.mjs";

const { lib, wasm } = await glue();

const CALLS = 10_000;
const IN_FLIGHT = 1_000;
const BASE = "http://127.0.0.1:9";

const never = () => new Promise(() => {});
/** A `fetch` that ignores the request's signal and never settles. */
const hangingFetch = () => never();
/** A `fetch` whose answer arrives, but whose body never does. */
const stallingFetch = async () => ({ status: 200, headers: new Headers(), text: never });
/** A `fetch` that answers at once with `status` and an envelope. */
function answering(status) {
  return async () => new Response(`{"status":${status},"result":{"totalUsers":7}}`, { status });
}
/** A signal that aborts 1 ms from now. */
function abortSoon() {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 1);
  return controller.signal;
}

const scenarios = [
  {
    name: "fetch never settles, the timeout wins",
    kind: "timeout",
    client: { fetch: hangingFetch, timeoutMs: 1, retries: 0 },
    call: () => ({}),
  },
  {
    name: "fetch never settles, the signal wins",
    kind: "aborted",
    client: { fetch: hangingFetch, timeoutMs: 0, retries: 0 },
    call: () => ({ signal: abortSoon() }),
  },
  {
    name: "the body's text() never settles, the timeout wins",
    kind: "timeout",
    client: { fetch: stallingFetch, timeoutMs: 1, retries: 0 },
    call: () => ({}),
  },
  {
    name: "the header provider never settles, the signal wins",
    kind: "aborted",
    client: { fetch: hangingFetch, headers: never, retries: 0 },
    call: () => ({ signal: abortSoon() }),
  },
  {
    name: "beforeRequest never settles, the signal wins",
    kind: "aborted",
    client: { fetch: hangingFetch, hooks: { beforeRequest: never }, retries: 0 },
    call: () => ({ signal: abortSoon() }),
  },
  {
    name: "afterResponse never settles, the signal wins",
    kind: "aborted",
    oneShot: (hook) => ({ fetch: answering(200), hooks: { afterResponse: hook }, retries: 0 }),
  },
  {
    name: "beforeRetry never settles, the signal wins",
    kind: "aborted",
    oneShot: (hook) => ({ fetch: answering(503), hooks: { beforeRetry: hook }, retries: 1 }),
  },
];

/** How many times a one-shot scenario's hook was reached. */
let reached = 0;

/** One call of `scenario`: through `client`, or one-shot, with a hook of
 * its own that is counted, aborts the call's signal and never settles. */
function call(client, scenario) {
  if (!scenario.oneShot) return client.countUsers({}, scenario.call());
  const controller = new AbortController();
  const hook = () => {
    reached += 1;
    controller.abort();
    return never();
  };
  return lib.countUsers(BASE, {}, { ...scenario.oneShot(hook), signal: controller.signal });
}

/** CALLS calls, IN_FLIGHT at a time; returns how many did not end with `kind`. */
async function batch(client, scenario) {
  let next = 0;
  let wrong = 0;
  let ended = 0;
  const worker = async () => {
    while (next < CALLS) {
      next += 1;
      const got = await call(client, scenario).then(
        () => "resolved",
        (error) => (error?.name === "UsersApiError" ? error.kind : String(error)),
      );
      ended += 1;
      if (got !== scenario.kind) wrong += 1;
    }
  };
  await unlessStalled(Promise.all(Array.from({ length: IN_FLIGHT }, worker)), () => ended);
  return wrong;
}

/** The wasm side's size: linear memory and the table of JS values it holds. */
function footprint() {
  return { memory: wasm.memory.buffer.byteLength, handles: wasm.__wbindgen_externrefs.length };
}

for (const scenario of scenarios) {
  test(`${scenario.name}: ${CALLS} calls end "${scenario.kind}", without wasm growth`, async () => {
    const client = scenario.client && new lib.UsersClient({ baseUrl: BASE, ...scenario.client });
    reached = 0;
    assert.equal(await batch(client, scenario), 0, `every call ends with kind ${scenario.kind}`);
    if (scenario.oneShot) assert.equal(reached, CALLS, "every call reached its hook");
    const first = footprint();
    const started = performance.now();
    assert.equal(await batch(client, scenario), 0);
    const ms = performance.now() - started;
    const second = footprint();
    console.log(`${scenario.name}: ${Math.round(CALLS / (ms / 1000))} calls/s; wasm memory ${first.memory} -> ${second.memory} B (${second.memory - first.memory} B), JS handles ${first.handles} -> ${second.handles}`);
    assert.equal(second.memory, first.memory, "wasm linear memory grew between two equal batches");
    assert.equal(second.handles, first.handles, "the wasm side holds more JS values after the second batch");
  });
}

test("the module still answers after all of it", async () => {
  const answer = async () => new Response('{"status":200,"result":{"totalUsers":7}}', { status: 200 });
  const { result } = await lib.countUsers(BASE, {}, { fetch: answer });
  assert.equal(result.totalUsers, 7);
});
