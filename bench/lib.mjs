// What the bench scripts share: the canned server in its own process,
// medians, timed calls, interleaved rounds whose ratios are taken within
// each round, so that the shared machine's drift cancels out, and the
// platform's share of a call.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pkg, repo } from "../tests/lib/harness.mjs";

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

/**
 * The platform's share of a count: what each of the client's attempts asks
 * of the platform through the built package's own bridge.js, and none of
 * the client's own work. One attempt step (the init, an AbortController, a
 * 10 s timer, the body read from its stream under the default cap, the
 * outcome told through one settle function), then take() (JSON.parse and
 * the envelope's fields). `fetch` is called as the client calls it
 * (undefined: the global one). Returns a function that makes one count.
 */
export async function platformShare(url, fetch) {
  const dir = readdirSync(join(pkg, "web/snippets")).find((d) => d.startsWith("user-management-client-") && !d.includes("-js-"));
  const bridge = await import(join(pkg, "web/snippets", dir, "src/transport/fetch/bridge.js"));
  const view = new Float64Array(8);
  const headers = "content-type\napplication/json\naccept\napplication/json";
  return () =>
    new Promise((resolve, reject) => {
      const settle = (_slot, outcome, handle) => (outcome == 1 ? resolve(bridge.take(handle, view)) : reject(new Error(`outcome ${outcome}`)));
      const body = JSON.stringify({ active: "true" });
      bridge.attempt(fetch, `${url}/api/users/count`, headers, body, undefined, 10000, undefined, 64 * 2 ** 20, false, 0, settle);
    });
}

/** The init of a raw `fetch` that POSTs the JSON `body`. */
export const post = (body) => ({ method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body });

/**
 * The contenders of a count that `make bench` and bench/instructions.mjs
 * measure, on the glue `lib` against the canned server at `url`: `raw`
 * (what a caller writes without the client: the params are an object too),
 * `client` (a UsersClient made once), `oneShot`, `withHooks` (a client with
 * all three hooks set, each doing a caller's least: the cost of hooks, and
 * that none is paid without them), `floor` (the platform's share: the
 * client can come no nearer to raw than this without giving up one of the
 * promises it keeps) and `timed` (the least any client that keeps a
 * timeout per attempt and cancels its request adds to raw: the request's
 * own AbortController and a timer, set and cleared, and nothing else);
 * and `hooksCalled()`, whether the hooks ran.
 */
export async function countContenders(lib, url) {
  const count = `${url}/api/users/count`;
  const raw = () => fetch(count, post(JSON.stringify({ active: "true" }))).then((r) => r.json());
  const client = new lib.UsersClient(url);
  let observed = 0;
  const hooked = new lib.UsersClient({
    baseUrl: url,
    hooks: { beforeRequest() { observed++; }, afterResponse(info) { observed += info.httpStatus; }, beforeRetry() { observed++; } },
  });
  const timed = async () => {
    const options = post(JSON.stringify({ active: "true" }));
    options.signal = new AbortController().signal;
    const timer = setTimeout(() => {}, 10000);
    try {
      return await fetch(count, options).then((r) => r.json());
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    raw,
    client: () => client.countUsers({ active: "true" }),
    oneShot: () => lib.countUsers(url, { active: "true" }),
    withHooks: () => hooked.countUsers({ active: "true" }),
    floor: await platformShare(url),
    timed,
    hooksCalled: () => observed > 0,
  };
}
