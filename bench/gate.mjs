// `node bench/gate.mjs` (after `make build`): what the gate in front of the
// glue (npm/gate.js) costs per call, in Node. The entry's exports (through
// the gate) and the glue's own, on the same instantiated .wasm, side by side
// in interleaved rounds (the order alternates); each ratio is the median
// over rounds of gate / glue measured in the same round. Speed is only
// reported, never checked. Prints a table, then one JSON line.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = 15;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = spawn(process.execPath, [join(repo, "bench/canned-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => server.kill());
const url = await new Promise((resolve, reject) => {
  server.stdout.once("data", (d) => resolve(String(d).trim()));
  server.once("exit", () => reject(new Error("canned server died")));
});

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

async function perCall(f, n) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - t) / n) * 1000;
}

const results = {};
for (const [name, { n, glue: g, gate: x }] of Object.entries(cases)) {
  await perCall(g, n / 10);
  await perCall(x, n / 10);
  const got = { glue: [], gate: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [["gate", x], ["glue", g]] : [["glue", g], ["gate", x]];
    for (const [k, f] of order) got[k].push(await perCall(f, n / ROUNDS));
  }
  results[name] = {
    glueUs: median(got.glue), gateUs: median(got.gate), ratio: median(got.gate.map((v, i) => v / got.glue[i])),
  };
  const { glueUs, gateUs, ratio } = results[name];
  console.log(`${name.padEnd(38)} glue ${glueUs.toFixed(2).padStart(8)} µs  gate ${gateUs.toFixed(2).padStart(8)} µs  ratio ${ratio.toFixed(3)}`);
}
console.log(JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, gate: results }));
process.exit(0);
