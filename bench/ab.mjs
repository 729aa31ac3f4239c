// Two builds side by side in one Node process: does a change change the
// speed? Each build is its own module instance of a web glue, instantiated
// (initSync) with its own .wasm:
//   node bench/ab.mjs A.wasm B.wasm       the glue in pkg/web with each
//     .wasm (two builds of that same glue: other wasm-opt passes, say)
//   node bench/ab.mjs --pkg A_PKG B_PKG   each package directory's
//     web/user_management_client.js with its web/user_management_client_bg.wasm
// Then, after a warm-up of 300 calls on each client, rounds against the
// canned server (bench/canned-server.mjs), the order alternating: 21 of 300
// sequential countUsers calls on a client without hooks; 21 of 300 on a
// client with all three hooks set, each only counting (as in bench/run.mjs;
// every call must have run beforeRequest and afterResponse once, with status
// 200); then 21 of 3,000 calls with 64 in flight, without hooks. For each it
// prints the median over rounds of B's ratio to A measured in the same
// round, every round's ratio, so the spread is in sight, and each build's
// median. Pass A as B too to see the noise.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg } from "../tests/lib/harness.mjs";
import { callsPerS, cannedServer, perCallUs, rounds } from "./lib.mjs";

const ROUNDS = 21;
const SEQUENTIAL = 300; // calls a round, one at a time
const args = process.argv.slice(2);
const byPkg = args[0] === "--pkg";
const [a, b] = byPkg ? args.slice(1) : args;
if (!a || !b) {
  console.error("usage: node bench/ab.mjs A.wasm B.wasm (built from the glue in pkg/web)\n" +
    "       node bench/ab.mjs --pkg A_PKG_DIR B_PKG_DIR (each with its own web/ glue and .wasm)");
  process.exit(2);
}
// The glue and the .wasm of a contender.
const build = (arg) => byPkg
  ? { glue: join(resolve(arg), "web/user_management_client.js"), wasm: join(resolve(arg), "web/user_management_client_bg.wasm") }
  : { glue: join(pkg, "web/user_management_client.js"), wasm: arg };

const { url } = await cannedServer();

// A contender's calls: on a client without hooks, on one with all three
// hooks set (each doing a caller's least), and what those hooks saw.
async function contender(tag, { glue, wasm }) {
  const lib = await import(`${pathToFileURL(glue).href}?${tag}`); // a module instance of its own
  lib.initSync({ module: readFileSync(wasm) });
  const plain = new lib.UsersClient(url);
  const seen = { requests: 0, statuses: 0, retries: 0 };
  const hooked = new lib.UsersClient({
    baseUrl: url,
    hooks: { beforeRequest() { seen.requests++; }, afterResponse(info) { seen.statuses += info.httpStatus; }, beforeRetry() { seen.retries++; } },
  });
  return {
    plain: () => plain.countUsers({ active: "true" }),
    hooked: () => hooked.countUsers({ active: "true" }),
    seen,
  };
}
const A = await contender("a", build(a));
const B = await contender("b", build(b));

for (const c of [A, B]) { await perCallUs(c.plain, SEQUENTIAL); await perCallUs(c.hooked, SEQUENTIAL); }
const sequential = await rounds({ a: A.plain, b: B.plain }, (call) => perCallUs(call, SEQUENTIAL), ROUNDS);
const hooked = await rounds({ a: A.hooked, b: B.hooked }, (call) => perCallUs(call, SEQUENTIAL), ROUNDS);
const inFlight = await rounds({ a: A.plain, b: B.plain }, (call) => callsPerS(call, 3000), ROUNDS);
// Every hooked call, the warm-up's too, ran beforeRequest and afterResponse
// once, with status 200 (the canned server gives no cause to retry).
for (const { seen } of [A, B]) {
  if (seen.requests !== SEQUENTIAL * (ROUNDS + 1) || seen.statuses !== 200 * seen.requests || seen.retries !== 0) {
    throw new Error(`the hooks did not run once per call: ${JSON.stringify(seen)}`);
  }
}
const line = ({ ratio, ratios, a, b }, unit) =>
  `median ${ratio.b.toFixed(3)} [${ratios.b.map((x) => x.toFixed(2)).join(" ")}] (A ${a.toFixed(1)} ${unit}, B ${b.toFixed(1)} ${unit})`;
console.log(`B/A time per sequential call: ${line(sequential, "µs")}`);
console.log(`B/A time per sequential call, three hooks: ${line(hooked, "µs")}`);
console.log(`B/A calls/s with 64 in flight: ${line(inFlight, "calls/s")}`);
process.exit(0);
