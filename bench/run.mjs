// `make bench`: the client side by side with a raw `fetch(...).then(r =>
// r.json())`, in one run, in interleaved rounds (the order alternates), with
// medians and ratios. Nothing here passes or fails on speed: the machine is
// shared and noisy, so only ratios measured together mean anything. Prints a
// table, then one JSON line with every figure.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { glue, pkg, repo } from "../tests/lib/harness.mjs";
import { callsPerS, cannedServer, countContenders, median, post, perCallUs, rounds as interleaved } from "./lib.mjs";
import { startupDelays, startupRows } from "./startup.mjs";

// Many short rounds: the machine is shared and its speed drifts within a
// run, so each ratio is taken within a round (contenders back to back) and
// the median of those per-round ratios is reported.
const ROUNDS = 15;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const results = { date: new Date().toISOString().slice(0, 10), size: {}, node: { version: process.version }, chromium: {} };

// --- size ---------------------------------------------------------------------
function walk(dir) {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}
const shipped = walk(pkg).filter((f) => /\.(wasm|js|cjs|mjs)$/.test(f));
const sizes = shipped.map((f) => { const b = readFileSync(f); return { file: relative(pkg, f), raw: b.length, gzip9: gz(b) }; });
const web = sizes.filter((s) => s.file.startsWith("web/"));
results.size = {
  files: sizes,
  browserDownload: { raw: web.reduce((a, s) => a + s.raw, 0), gzip9: web.reduce((a, s) => a + s.gzip9, 0) },
};

// --- the canned server ------------------------------------------------------------
const { url, stop } = await cannedServer();

const { lib } = await glue();
const { raw, client: ours, oneShot, withHooks, floor, timed, hooksCalled } = await countContenders(lib, url);

const rounds = (contenders, measure) => interleaved(contenders, measure, ROUNDS);
// A contender's ratio to the timed, cancellable fetch: the median of the
// per-round ratios, each taken within its round as the ratios to raw are.
const vsTimed = (measured, name) => median(measured.ratios[name].map((x, r) => x / measured.ratios.timed[r]));

// --- Node: sequential calls ---------------------------------------------------------
for (let i = 0; i < 500; i++) { await raw(); await ours(); await oneShot(); await withHooks(); await floor(); await timed(); }
if ((await floor()).result?.totalUsers === undefined) throw new Error("the floor did not read a count");
const seq = await rounds({ raw, client: ours, oneShot, withHooks, floor, timed }, (f) => perCallUs(f, 500));
if (!hooksCalled()) throw new Error("the hooks were not called");
results.node.sequentialUs = seq;
results.node.sequentialRatio = seq.ratio.client;
results.node.oneShotRatio = seq.ratio.oneShot;
results.node.withHooksRatio = seq.ratio.withHooks;
results.node.floorRatio = seq.ratio.floor;
results.node.timedRatio = seq.ratio.timed;
results.node.sequentialVsTimed = vsTimed(seq, "client");
results.node.withHooksVsTimed = vsTimed(seq, "withHooks");

// --- Node: 64 in flight ---------------------------------------------------------------
const flight = await rounds({ raw, client: ours, withHooks, floor, timed }, (f) => callsPerS(f, 3000));
results.node.inFlight64CallsPerS = flight;
results.node.inFlight64Ratio = flight.ratio.client;
results.node.inFlight64WithHooksRatio = flight.ratio.withHooks;
results.node.inFlight64FloorRatio = flight.ratio.floor;
results.node.inFlight64TimedRatio = flight.ratio.timed;
results.node.inFlight64VsTimed = vsTimed(flight, "client");
results.node.inFlight64WithHooksVsTimed = vsTimed(flight, "withHooks");

// --- Node: big lists -------------------------------------------------------------------
for (const n of [10000, 100000]) {
  const rawList = () => fetch(`${url}/api/users?n=${n}`, post("{}")).then((r) => r.json());
  // The canned server picks the list by ?n=, so the client sends it in the query.
  const lister = new lib.UsersClient({ baseUrl: url, paramsIn: "query" });
  const clientList = () => lister.listUsers({ n: String(n) });
  const timeOne = async (f) => { const t = performance.now(); const v = await f(); if (v.result.users.length !== n) throw new Error("short list"); return performance.now() - t; };
  const list = await rounds({ raw: rawList, client: clientList }, timeOne);
  results.node[`list${n}Ms`] = list;
  results.node[`list${n}Ratio`] = list.ratio.client;
}

// --- Node: instantiation and memory, each in fresh processes ------------------------------
const child = (...args) => JSON.parse(execFileSync(process.execPath, ["--expose-gc", join(repo, "bench/child.mjs"), ...args], { encoding: "utf8" }));
results.node.instantiateMs = median(Array.from({ length: ROUNDS }, () => child("instantiate").ms));
const mem = child("memory", url);
results.node.memoryAfter20000Calls = {
  wasmBytesBefore: mem.before.wasm, wasmBytesAfter: mem.after.wasm, wasmGrowth: mem.after.wasm - mem.before.wasm,
  heapBytesBefore: mem.before.heap, heapBytesAfter: mem.after.heap, heapGrowth: mem.after.heap - mem.before.heap,
};

// --- Chromium: sequential calls and instantiation ------------------------------------------
const { launchChromium } = await import("../tests/lib/browsers.mjs");
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(url + "/");
  await page.waitForFunction(() => window.ready === true);
  const seqB = await page.evaluate(async (ROUNDS) => {
    const { raw, ours } = window.bench;
    const perCall = async (f, n) => { const t = performance.now(); for (let i = 0; i < n; i++) await f(); return ((performance.now() - t) / n) * 1000; };
    for (let i = 0; i < 300; i++) { await raw(); await ours(); }
    const got = { raw: [], client: [] };
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2) { got.client.push(await perCall(ours, 250)); got.raw.push(await perCall(raw, 250)); }
      else { got.raw.push(await perCall(raw, 250)); got.client.push(await perCall(ours, 250)); }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return { raw: median(got.raw), client: median(got.client), ratio: median(got.client.map((x, r) => x / got.raw[r])) };
  }, ROUNDS);
  results.chromium.sequentialUs = seqB;
  results.chromium.sequentialRatio = seqB.ratio;
  results.chromium.instantiateMs = await page.evaluate(async (ROUNDS) => {
    const bytes = await (await fetch("/pkg/web/user_management_client_bg.wasm")).arrayBuffer();
    const times = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t = performance.now();
      const module = new WebAssembly.Module(bytes);
      times.push(performance.now() - t);
      void module;
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  }, ROUNDS);
  // --- Chromium: a page's start-up, throttled, with and without the import ----------------
  results.chromium.startup = await startupDelays(browser, url);
} finally {
  await browser.close();
  stop();
}

// --- report ------------------------------------------------------------------------------
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
console.log(`\nuser-management-client benchmark, ${results.date}, Node.js ${process.version} (medians of ${ROUNDS} interleaved rounds; ratios are medians of per-round ratios)\n`);
console.log("size (gzip -9)");
for (const s of sizes) console.log(`  ${s.file.padEnd(64)} ${String(s.raw).padStart(7)} B raw  ${String(s.gzip9).padStart(6)} B gz`);
console.log(`  browser download, web target: ${kb(results.size.browserDownload.raw)} raw, ${kb(results.size.browserDownload.gzip9)} gzip -9 (target <= 42,000 B)`);
console.log("  anchors measured earlier (esbuild-minified, gzip -9): openapi-fetch 0.17 2.8 KB, ky 1.14 5.0 KB, ky 2.1 8.9 KB, axios 1.21 22 KB\n");
const n = results.node, c = results.chromium;
const rows = [
  ["Node: sequential countUsers (UsersClient)", `${f1(n.sequentialUs.client)} µs vs raw ${f1(n.sequentialUs.raw)} µs`, f2(n.sequentialRatio), ""],
  ["Node: sequential countUsers (one-shot)", `${f1(n.sequentialUs.oneShot)} µs vs raw ${f1(n.sequentialUs.raw)} µs`, f2(n.oneShotRatio), ""],
  ["Node: sequential countUsers (three hooks)", `${f1(n.sequentialUs.withHooks)} µs vs raw ${f1(n.sequentialUs.raw)} µs`, f2(n.withHooksRatio), ""],
  ["Node: sequential, the platform's share", `${f1(n.sequentialUs.floor)} µs vs raw ${f1(n.sequentialUs.raw)} µs`, f2(n.floorRatio), ""],
  ["Node: sequential, a timed, cancellable fetch", `${f1(n.sequentialUs.timed)} µs vs raw ${f1(n.sequentialUs.raw)} µs`, f2(n.timedRatio), ""],
  ["Node: sequential, UsersClient / the timed fetch", `${f1(n.sequentialUs.client)} µs vs ${f1(n.sequentialUs.timed)} µs`, f2(n.sequentialVsTimed), "<= 1.08"],
  ["Node: sequential, three hooks / the timed fetch", `${f1(n.sequentialUs.withHooks)} µs vs ${f1(n.sequentialUs.timed)} µs`, f2(n.withHooksVsTimed), ""],
  ["Chromium: sequential countUsers", `${f1(c.sequentialUs.client)} µs vs raw ${f1(c.sequentialUs.raw)} µs`, f2(c.sequentialRatio), ""],
  ["Node: 64 in flight, calls/s", `${f1(n.inFlight64CallsPerS.client)} vs raw ${f1(n.inFlight64CallsPerS.raw)}`, f2(n.inFlight64Ratio), ""],
  ["Node: 64 in flight, three hooks, calls/s", `${f1(n.inFlight64CallsPerS.withHooks)} vs raw ${f1(n.inFlight64CallsPerS.raw)}`, f2(n.inFlight64WithHooksRatio), ""],
  ["Node: 64 in flight, the platform's share", `${f1(n.inFlight64CallsPerS.floor)} vs raw ${f1(n.inFlight64CallsPerS.raw)}`, f2(n.inFlight64FloorRatio), ""],
  ["Node: 64 in flight, a timed, cancellable fetch", `${f1(n.inFlight64CallsPerS.timed)} vs raw ${f1(n.inFlight64CallsPerS.raw)}`, f2(n.inFlight64TimedRatio), ""],
  ["Node: 64 in flight, UsersClient / the timed fetch", `${f1(n.inFlight64CallsPerS.client)} vs ${f1(n.inFlight64CallsPerS.timed)}`, f2(n.inFlight64VsTimed), ">= 0.92"],
  ["Node: 64 in flight, three hooks / the timed fetch", `${f1(n.inFlight64CallsPerS.withHooks)} vs ${f1(n.inFlight64CallsPerS.timed)}`, f2(n.inFlight64WithHooksVsTimed), ">= 0.85"],
  ["Node: listUsers 10,000 users", `${f1(n.list10000Ms.client)} ms vs raw ${f1(n.list10000Ms.raw)} ms`, f2(n.list10000Ratio), ""],
  ["Node: listUsers 100,000 users", `${f1(n.list100000Ms.client)} ms vs raw ${f1(n.list100000Ms.raw)} ms`, f2(n.list100000Ratio), "<= 1.00"],
  ["Node: instantiate (compile + instantiate)", `${f2(n.instantiateMs)} ms`, "", ""],
  ["Chromium: compile the .wasm", `${f2(c.instantiateMs)} ms`, "", ""],
  ["Node: wasm memory growth over 20,000 calls", `${n.memoryAfter20000Calls.wasmGrowth} B (of ${n.memoryAfter20000Calls.wasmBytesAfter})`, "", "0"],
  ["Node: JS heap growth over 20,000 calls", `${n.memoryAfter20000Calls.heapGrowth} B`, "", "~0"],
  ...startupRows(c.startup),
];
console.log(`${"measure".padEnd(50)} ${"value".padEnd(34)} ${"ratio".padEnd(6)} target`);
for (const [a, b, r, t] of rows) console.log(`${a.padEnd(50)} ${b.padEnd(34)} ${r.padEnd(6)} ${t}`);
console.log(JSON.stringify(results));
