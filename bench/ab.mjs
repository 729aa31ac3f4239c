// Two builds of the .wasm side by side in one Node process: does a size step
// change the speed? `node bench/ab.mjs A.wasm B.wasm` loads the package's
// web glue twice (two module instances, each with its own .wasm), then runs
// rounds against the canned server (bench/canned-server.mjs), the order
// alternating: 21 of 300 sequential countUsers calls, then 21 of 3,000 with
// 64 in flight. It prints the median over rounds of B's ratio to A measured
// in the same round, and every round's ratio, so the spread is in sight. The
// two builds must come from the same glue (the same Rust sources and
// wasm-bindgen run; only the wasm-opt passes differ): pass A.wasm as B too
// to see the noise.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg } from "../tests/lib/harness.mjs";
import { callsPerS, cannedServer, perCallUs, rounds } from "./lib.mjs";

const ROUNDS = 21;
const [fileA, fileB] = process.argv.slice(2);
if (!fileA || !fileB) {
  console.error("usage: node bench/ab.mjs A.wasm B.wasm (built from the glue in pkg/web)");
  process.exit(2);
}

const { url } = await cannedServer();

const glue = pathToFileURL(join(pkg, "web/user_management_client.js")).href;
async function client(tag, file) {
  const lib = await import(`${glue}?${tag}`); // a module instance of its own
  lib.initSync({ module: readFileSync(file) });
  const client = new lib.UsersClient(url);
  return () => client.countUsers({ active: "true" });
}
const contenders = { a: await client("a", fileA), b: await client("b", fileB) };

await perCallUs(contenders.a, 300);
await perCallUs(contenders.b, 300);
const sequential = await rounds(contenders, (call) => perCallUs(call, 300), ROUNDS);
const inFlight = await rounds(contenders, (call) => callsPerS(call, 3000), ROUNDS);
const line = ({ ratio, ratios }) => `median ${ratio.b.toFixed(3)} [${ratios.b.map((x) => x.toFixed(2)).join(" ")}]`;
console.log(`B/A time per sequential call: ${line(sequential)}`);
console.log(`B/A calls/s with 64 in flight: ${line(inFlight)}`);
process.exit(0);
