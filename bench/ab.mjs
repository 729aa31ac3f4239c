// Two builds of the .wasm side by side in one Node process: does a size step
// change the speed? `node bench/ab.mjs A.wasm B.wasm` loads the package's
// web glue twice (two module instances, each with its own .wasm), then runs
// alternating rounds against the canned server (bench/canned-server.mjs):
// 300 sequential countUsers calls, then 3,000 with 64 in flight. It prints
// the median over rounds of B's ratio to A measured in the same round, and
// every round's ratio, so the spread is in sight. The two builds must come
// from the same glue (the same Rust sources and wasm-bindgen run; only the
// wasm-opt passes differ): pass A.wasm as A.wasm too to see the noise.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg, repo } from "../tests/lib/harness.mjs";

const ROUNDS = 21;
const [fileA, fileB] = process.argv.slice(2);
if (!fileA || !fileB) {
  console.error("usage: node bench/ab.mjs A.wasm B.wasm (built from the glue in pkg/web)");
  process.exit(2);
}

const server = spawn(process.execPath, [join(repo, "bench/canned-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => server.kill());
const url = await new Promise((resolve, reject) => {
  server.stdout.once("data", (d) => resolve(String(d).trim()));
  server.once("exit", () => reject(new Error("canned server died")));
});

const glue = pathToFileURL(join(pkg, "web/user_management_client.js")).href;
async function client(tag, file) {
  const lib = await import(`${glue}?${tag}`); // a module instance of its own
  lib.initSync({ module: readFileSync(file) });
  return new lib.UsersClient(url);
}
const a = await client("a", fileA);
const b = await client("b", fileB);

const call = (c) => c.countUsers({ active: "true" });
async function sequentialMs(c, n = 300) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await call(c);
  return (performance.now() - t) / n;
}
async function callsPerS(c, total = 3000, inFlight = 64) {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => { while (next++ < total) await call(c); }));
  return total / ((performance.now() - t) / 1000);
}

await sequentialMs(a);
await sequentialMs(b);
const ratios = { sequential: [], inFlight: [] };
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [a, b] : [b, a];
  const seq = new Map();
  const flight = new Map();
  for (const c of order) seq.set(c, await sequentialMs(c));
  for (const c of order) flight.set(c, await callsPerS(c));
  ratios.sequential.push(seq.get(b) / seq.get(a));
  ratios.inFlight.push(flight.get(b) / flight.get(a));
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const line = (xs) => `median ${median(xs).toFixed(3)} [${xs.map((x) => x.toFixed(2)).join(" ")}]`;
console.log(`B/A time per sequential call: ${line(ratios.sequential)}`);
console.log(`B/A calls/s with 64 in flight: ${line(ratios.inFlight)}`);
process.exit(0);
