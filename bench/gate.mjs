// `node bench/gate.mjs` (after `make build`): what the gate in front of the
// glue (npm/gate.js) costs per call, in Node. The entry's exports (through
// the gate) and the glue's own, on the same instantiated .wasm, side by side
// in interleaved rounds (the order alternates); each ratio is the median
// over rounds of gate / glue measured in the same round. Speed is only
// reported, never checked. Prints a table, then one JSON line.
import { join } from "node:path";
import { repo } from "../tests/lib/harness.mjs";
import { cannedServer, perCallUs, rounds } from "./lib.mjs";

const ROUNDS = 15;
const { url } = await cannedServer();

// node.mjs instantiates the .wasm and opens the gate; the glue module is the
// very one it opened the gate with.
const gate = await import(join(repo, "pkg/node.mjs"));
const glue = await import(join(repo, "pkg/web/user_management_client.js"));

const refused = (lib) => () => lib.countUsers(url, { active: "yes" }).catch((e) => e);
const gateClient = new gate.UsersClient(url);
const glueClient = new glue.UsersClient(url);
const cases = {
  // The cheapest whole call: checked in the .wasm, rejected, nothing sent.
  "one-shot, refused (no request)": { n: 20_000, glue: refused(glue), gate: refused(gate) },
  "one-shot countUsers (canned server)": {
    n: 500, glue: () => glue.countUsers(url, { active: "true" }), gate: () => gate.countUsers(url, { active: "true" }),
  },
  "client.countUsers (canned server)": {
    n: 500, glue: () => glueClient.countUsers({ active: "true" }), gate: () => gateClient.countUsers({ active: "true" }),
  },
  "new UsersClient + free": {
    n: 20_000, glue: () => new glue.UsersClient(url).free(), gate: () => new gate.UsersClient(url).free(),
  },
};

const results = {};
for (const [name, { n, glue: g, gate: x }] of Object.entries(cases)) {
  await perCallUs(g, n / 10);
  await perCallUs(x, n / 10);
  const got = await rounds({ glue: g, gate: x }, (f) => perCallUs(f, n / ROUNDS), ROUNDS);
  results[name] = { glueUs: got.glue, gateUs: got.gate, ratio: got.ratio.gate };
  const { glueUs, gateUs, ratio } = results[name];
  console.log(`${name.padEnd(38)} glue ${glueUs.toFixed(2).padStart(8)} µs  gate ${gateUs.toFixed(2).padStart(8)} µs  ratio ${ratio.toFixed(3)}`);
}
console.log(JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, gate: results }));
process.exit(0);
