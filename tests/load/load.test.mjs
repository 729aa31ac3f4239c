// Load: 10,000 calls with 1,000 in flight from Node, through the
// built package, against the reference server (scripts/with-server.sh). All
// must settle with the server's real numbers, and the wasm side must not
// grow: linear memory after a second batch equals that after the first (no
// leaked closures, buffers or handles). A batch fails if no call ends for a
// minute (tests/lib/harness.mjs unlessStalled), however long it takes otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { apiUrl, glue, truth, unlessStalled } from "../lib/harness.mjs";

const { lib, wasm } = await glue();
const server = apiUrl();

const CALLS = 10_000;
const IN_FLIGHT = 1_000;
const ACTIVE = ["true", "false", "all"];

/** CALLS calls, IN_FLIGHT at a time; returns how many came back wrong. */
async function batch(client, expected) {
  let next = 0;
  let wrong = 0;
  let ended = 0;
  const worker = async () => {
    while (next < CALLS) {
      const i = next++;
      const active = ACTIVE[i % 3];
      const got = i % 10 === 9
        ? await client.listUsers({ active, pageSize: 1 }).then((e) => e.result.totalUsers)
        : await client.countUsers({ active }).then((e) => e.result.totalUsers);
      ended += 1;
      if (got !== expected[active]) wrong += 1;
    }
  };
  await unlessStalled(Promise.all(Array.from({ length: IN_FLIGHT }, worker)), () => ended);
  return wrong;
}

test(`${CALLS} calls with ${IN_FLIGHT} in flight settle correctly, without wasm memory growth`, async () => {
  const expected = Object.fromEntries(await Promise.all(ACTIVE.map(async (active) => [active, await truth({ active })])));
  assert.equal(expected.true + expected.false, expected.all);
  // Generous timeouts: on 2 shared cores 1,000 queued requests take a while.
  const client = new lib.UsersClient({ baseUrl: server, timeoutMs: 60_000 });

  let started = performance.now();
  assert.equal(await batch(client, expected), 0, "every call returns the server's number");
  const first = { ms: performance.now() - started, memory: wasm.memory.buffer.byteLength };

  started = performance.now();
  assert.equal(await batch(client, expected), 0);
  const second = { ms: performance.now() - started, memory: wasm.memory.buffer.byteLength };

  console.log(`batch 1: ${Math.round(CALLS / (first.ms / 1000))} calls/s, wasm memory ${first.memory} B`);
  console.log(`batch 2: ${Math.round(CALLS / (second.ms / 1000))} calls/s, wasm memory ${second.memory} B`);
  assert.equal(second.memory, first.memory, "wasm linear memory grew between two equal batches");

  // And the module still answers a plain call.
  assert.equal((await client.countUsers()).result.totalUsers, expected.all);
});
