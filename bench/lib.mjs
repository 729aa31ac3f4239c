// What the bench scripts share: the canned server in its own process,
// medians, timed calls, and interleaved rounds whose ratios are taken
// within each round, so that the shared machine's drift cancels out.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { repo } from "../tests/lib/harness.mjs";

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Starts bench/canned-server.mjs in its own process: its URL, once it
 * listens, and `stop` (also called when this process exits).
 */
export async function cannedServer() {
  const server = spawn(process.execPath, [join(repo, "bench/canned-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  const stop = () => server.kill();
  process.on("exit", stop);
  const url = await new Promise((resolve, reject) => {
    server.stdout.once("data", (d) => resolve(String(d).trim()));
    server.once("exit", () => reject(new Error("canned server died")));
  });
  return { url, stop };
}

/** µs per call of `n` sequential calls of the async `f`. */
export async function perCallUs(f, n) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - t) / n) * 1000;
}

/** Calls/s for `total` calls of the async `f`, `inFlight` at a time. */
export async function callsPerS(f, total, inFlight = 64) {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => { while (next++ < total) await f(); }));
  return total / ((performance.now() - t) / 1000);
}

/**
 * `count` rounds of `measure` over each contender, the order reversed every
 * other round: each contender's median, and for each contender but the
 * first its ratio to the first measured in the same round, as the median
 * (`ratio`) and round by round (`ratios`).
 */
export async function rounds(contenders, measure, count) {
  const got = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < count; r++) {
    const order = Object.entries(contenders);
    if (r % 2) order.reverse();
    for (const [name, f] of order) got[name].push(await measure(f));
  }
  const [base, ...others] = Object.keys(contenders);
  const out = Object.fromEntries(Object.entries(got).map(([k, xs]) => [k, median(xs)]));
  out.ratios = Object.fromEntries(others.map((k) => [k, got[k].map((x, r) => x / got[base][r])]));
  out.ratio = Object.fromEntries(others.map((k) => [k, median(out.ratios[k])]));
  return out;
}
