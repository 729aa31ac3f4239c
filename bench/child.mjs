// One measurement in a fresh Node process (so module state and heap start
// clean): `instantiate` (compile + instantiate the web target's .wasm) or
// `memory` (wasm linear memory and JS heap around 20,000 calls). Prints JSON.
import { readFileSync } from "node:fs";

const web = new URL("../pkg/web/", import.meta.url);
const [what, url] = process.argv.slice(2);
const bytes = readFileSync(new URL("user_management_client_bg.wasm", web));
const lib = await import(new URL("user_management_client.js", web));

if (what === "instantiate") {
  const started = performance.now();
  lib.initSync({ module: bytes });
  console.log(JSON.stringify({ ms: performance.now() - started }));
} else {
  const exports = lib.initSync({ module: bytes });
  const client = new lib.UsersClient(url);
  const calls = async (n) => { for (let i = 0; i < n; i++) await client.countUsers({ active: "true" }); };
  const settle = async () => { for (let i = 0; i < 3; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); } };
  await calls(2_000);
  await settle();
  const before = { wasm: exports.memory.buffer.byteLength, heap: process.memoryUsage().heapUsed };
  await calls(20_000);
  await settle();
  const after = { wasm: exports.memory.buffer.byteLength, heap: process.memoryUsage().heapUsed };
  console.log(JSON.stringify({ before, after }));
}
