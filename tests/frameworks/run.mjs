// Framework checks of the packed npm package (issue 17), installed as a user
// would, against the reference server (USERS_API_URL, from
// scripts/with-server.sh):
//   - A Vite SSR bundle with `ssr.noExternal: true` (examples/vite-ssr), run
//     from a copy in another folder, with no node_modules in reach.
//   - Rollup 4 (examples/rollup): a Node.js bundle run from a copy, and a
//     page bundle in Chromium, Firefox and WebKit.
//   - Next.js 16 (examples/next): `next build` (Turbopack) with standalone
//     output, run from a copy of .next/standalone as Next's docs say;
//     `next dev`; `next build --webpack` run with `next start`. Each serves a
//     server component, a Node.js route handler, Edge route handlers (App
//     Router and Pages Router) and a "use client" page, checked in headless
//     Chromium with no console error; a build that prints anything about the
//     package fails.
// Each must report the server's real numbers. Next.js and Rollup are
// installed from their examples' locks in target/frameworks/NAME/, kept
// while the lock is unchanged. `node tests/frameworks/run.mjs [ssr]
// [rollup] [next]` runs some parts. Prints `frameworks: N passed, M failed`
// and exits non-zero on any failure.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";
import { serve } from "../lib/pages.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name) => join(repo, "node_modules", ".bin", name);
const api = process.env.USERS_API_URL;
if (!api) throw new Error("USERS_API_URL is not set: run through scripts/with-server.sh");
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ["ssr", "rollup", "next"];

const scratch = mkdtempSync(join(tmpdir(), "umc-frameworks-"));
const tarball = join(scratch, execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], {
  cwd: join(repo, "pkg"), encoding: "utf8",
}).trim().split("\n").pop());
const env = { ...process.env, USERS_API_URL: api, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1" };

// --- the truth, from the server itself --------------------------------------
async function post(path, params) {
  const r = await fetch(api + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
  return (await r.json()).result;
}
const totalActive = (await post("/api/users/count", { active: "true" })).totalUsers;
const expected = { totalActive, listed: Math.min(5, totalActive), listTotal: totalActive, refused: "validation:active" };

// --- helpers ----------------------------------------------------------------
function run(cmd, args, options) {
  return execFileSync(cmd, args, { encoding: "utf8", timeout: 300_000, env, stdio: ["ignore", "pipe", "pipe"], ...options });
}
/** Runs a build; returns everything it printed, stdout and stderr (where Next prints its warnings). */
function build(cmd, args, options) {
  const result = spawnSync(cmd, args, { encoding: "utf8", timeout: 300_000, env, stdio: ["ignore", "pipe", "pipe"], ...options });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw Object.assign(new Error(`${cmd} ${args.join(" ")}: ${result.error ?? `exit ${result.status}`}`), { stdout: output });
  return output;
}
const npmInstall = (cwd, ...args) =>
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...args], { cwd });

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a long-lived command until its output matches `ready`; returns the child and its output so far. */
function startUntil(cmd, args, options, ready, timeoutMs = 90_000) {
  const child = spawn(cmd, args, { env, ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(child); reject(new Error(`not ready in ${timeoutMs} ms: ${output}`)); }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      if (ready.test(output)) { clearTimeout(timer); resolve({ child, output: () => output }); }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}: ${output}`)); });
  });
}
/** Stops a command started by startUntil (its whole process group); resolves once it has exited. */
function stop(child) {
  child.removeAllListeners("exit");
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (signal) => { try { process.kill(-child.pid, signal); } catch { /* already gone */ } };
    const timer = setTimeout(() => kill("SIGKILL"), 10_000);
    child.once("exit", () => { clearTimeout(timer); resolve(); });
    kill("SIGTERM");
  });
}

async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}: ${text.slice(0, 2000)}`);
  return text;
}
/** The JSON in the page's <pre id="summary">, as React or the SSR app escaped it. */
async function htmlSummary(url) {
  const html = await get(url);
  const text = html.match(/<pre id="summary">([^<]*)<\/pre>/)?.[1];
  if (text === undefined) throw new Error(`no <pre id="summary"> in ${url}: ${html.slice(0, 2000)}`);
  const entities = { amp: "&", lt: "<", gt: ">", quot: '"' };
  return JSON.parse(text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi,
    (_, dec, hex, name) => (dec ? String.fromCharCode(dec) : hex ? String.fromCharCode(parseInt(hex, 16)) : entities[name])));
}

const browsers = new Map();
/**
 * Opens the page in `engine` (tests/lib/browsers.mjs), waits for
 * `window.summary`; in Chromium any console error or page error fails it.
 */
async function inBrowser(engine, pageUrl) {
  if (!browsers.has(engine)) browsers.set(engine, await launch(engine));
  const page = await browsers.get(engine).newPage();
  const errors = [];
  page.pw?.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.pw?.on("console", (msg) => { if (msg.type() === "error") errors.push(`console: ${msg.text()} (${msg.location().url})`); });
  try {
    await page.goto(pageUrl);
    // Until the page's script sets it, `window.summary` is the page's
    // <pre id="summary"> (named access): wait for the script's object.
    await page.waitForFunction(() => window.summary !== undefined && !(window.summary instanceof Node), null, { timeout: 60_000 })
      .catch((err) => { throw new Error(`${err.message}; ${errors.join("; ")}`); });
    const got = await page.evaluate(() => window.summary);
    if (errors.length) throw new Error(errors.join("; "));
    return got;
  } finally {
    await page.close();
  }
}

// --- reporting --------------------------------------------------------------
/** What a failure says: a command's output (its last 4,000 characters) and the error's message. */
const details = (err) => `${`${err.stdout ?? ""}${err.stderr ?? ""}`.slice(-4000)}${err.message.slice(0, 4000)}`;
let passed = 0, failed = 0;
async function check(name, fn) {
  const started = Date.now();
  try {
    const got = await fn();
    if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    passed += 1;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${details(err)}`);
  }
}
/** A step the checks after it need (a build, a server start): timed; a failure counts once, and the caller skips what needed it. */
async function step(name, fn) {
  const started = Date.now();
  try {
    const value = await fn();
    console.log(`     ${name} (${Date.now() - started} ms)`);
    return value;
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${details(err)}`);
    return undefined;
  }
}

// --- bundled SSR: Vite, ssr.noExternal ----------------------------------------
async function viteSsr() {
  const app = join(scratch, "vite-ssr");
  const built = await step("Vite SSR, noExternal: vite build", () => {
    cpSync(join(repo, "examples/vite-ssr"), app, { recursive: true, filter: (src) => !/(^|\/)(node_modules|dist)(\/|$)/.test(relative(repo, src)) });
    // The tarball in the app's own node_modules; Vite from this repository's devDependencies.
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    delete manifest.devDependencies;
    writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
    npmInstall(app, tarball);
    const output = build(bin("vite"), ["build", "--logLevel", "warn"], { cwd: app });
    if (output.trim()) throw new Error(`vite build warned:\n${output}`);
    // The bundle alone, in a folder with no node_modules above it.
    const copy = mkdtempSync(join(tmpdir(), "umc-vite-ssr-dist-"));
    cpSync(join(app, "dist"), copy, { recursive: true });
    return copy;
  });
  if (!built) return;
  try {
    await check("Vite SSR, noExternal: the bundle run from a copy (node server.js)", async () => {
      const server = await startUntil("node", ["server.js"], { cwd: built, env: { ...env, PORT: "0" } }, /Listening on (\S+)/);
      try {
        return await htmlSummary(server.output().match(/Listening on (\S+)/)[1]);
      } finally {
        await stop(server.child);
      }
    });
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}

// --- Rollup 4 ---------------------------------------------------------------
async function rollup() {
  const app = await step("Rollup: npm install (when its lock changed) and the tarball", () => lockedApp("rollup"));
  if (!app) return;
  const built = await step("Rollup: rollup -c (a page bundle and a Node.js bundle)", () => {
    const output = build(join(app, "node_modules/.bin/rollup"), ["-c", "--silent"], { cwd: app });
    if (output.trim()) throw new Error(`rollup printed:\n${output}`);
    // Both bundles alone, in a folder with no node_modules above it.
    const copy = mkdtempSync(join(tmpdir(), "umc-rollup-dist-"));
    cpSync(join(app, "dist"), copy, { recursive: true });
    cpSync(join(app, "index.html"), join(copy, "index.html"));
    return copy;
  });
  if (!built) return;
  try {
    await check("Rollup, Node.js bundle run from a copy", () => JSON.parse(run("node", ["count.mjs"], { cwd: built }).trim().split("\n").pop()));
    for (const engine of enginesToRun()) {
      await check(`Rollup, page bundle with @web/rollup-plugin-import-meta-assets (${LABELS[engine]})`, async () => {
        const server = await serve(built);
        try {
          return await inBrowser(engine, `http://127.0.0.1:${server.address().port}/index.html?api=${encodeURIComponent(api)}`);
        } finally {
          server.close();
        }
      });
    }
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}

// --- Next.js 16 ---------------------------------------------------------------
/**
 * examples/NAME in target/frameworks/NAME, as its user has it: its locked
 * dependencies, then the tarball. The committed package.json names the
 * package as a user's does (`^0.1.0`, not in the lock: it is not taken from
 * a registry here); the work copy leaves it out and the tarball is installed
 * with --no-save. The install is kept while the lock is unchanged. It is
 * `npm install` honouring the lock, not `npm ci`: this machine's registry
 * mirror lacks the other platforms' builds of next's and rollup's optional
 * native packages, so the locks written here lack them and `npm ci`
 * refuses them.
 */
function lockedApp(name) {
  const app = join(repo, "target/frameworks", name);
  mkdirSync(app, { recursive: true });
  for (const entry of readdirSync(app)) if (entry !== "node_modules") rmSync(join(app, entry), { recursive: true, force: true });
  cpSync(join(repo, "examples", name), app, { recursive: true, filter: (src) => !/(^|\/)(node_modules|\.next|dist)(\/|$)/.test(relative(repo, src)) });
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  delete manifest.dependencies["user-management-client"];
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
  const lock = createHash("sha256").update(readFileSync(join(app, "package-lock.json"))).digest("hex");
  const stamp = join(app, "node_modules/.frameworks-stamp");
  if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lock) {
    rmSync(join(app, "node_modules"), { recursive: true, force: true });
    npmInstall(app);
    writeFileSync(stamp, lock);
  }
  npmInstall(app, "--no-save", tarball);
  return app;
}

/**
 * What a build printed about the package: each block of its output (blocks
 * are separated by blank lines) that names it, less those `tolerated`
 * matches. Must be nothing.
 */
function packageWarnings(output, tolerated) {
  return output.split(/\n\s*\n/).filter((block) => /user-management-client/.test(block) && !tolerated?.test(block));
}

/**
 * The checks on a running Next.js server at `base`. `appEdge: false` leaves
 * out the App Router's Edge route handler (see nextWebpack).
 */
async function nextChecks(label, base, { appEdge = true } = {}) {
  await check(`${label}: server component (HTML)`, () => htmlSummary(`${base}/`));
  await check(`${label}: route handler, Node.js runtime (JSON)`, async () => JSON.parse(await get(`${base}/api/count`)));
  if (appEdge) await check(`${label}: route handler, Edge runtime (JSON)`, async () => JSON.parse(await get(`${base}/api/edge`)));
  await check(`${label}: Pages Router API route, Edge runtime (JSON)`, async () => JSON.parse(await get(`${base}/api/edge-pages`)));
  await check(`${label}: "use client" page, calls in the browser (Chromium)`, () => inBrowser("chromium", `${base}/client`));
}

async function nextMode(label, make, start, { tolerated, ...options } = {}) {
  const built = await step(`${label}: build`, () => {
    const warnings = packageWarnings(make(), tolerated);
    if (warnings.length) throw new Error(`the build printed about the package:\n${warnings.join("\n\n")}`);
    return true;
  });
  if (!built) return;
  const port = await freePort();
  const server = await step(`${label}: start`, () => start(port));
  if (!server) return;
  try {
    await nextChecks(label, `http://127.0.0.1:${port}`, options);
  } finally {
    await stop(server.child);
  }
}

async function next() {
  const app = await step("Next.js: npm install (when its lock changed) and the tarball", () => lockedApp("next"));
  if (!app) return;
  const nextBin = join(app, "node_modules/.bin/next");
  const ready = /Ready in/;

  let standalone;
  await nextMode("Next.js 16, next build (Turbopack), output: standalone",
    () => {
      const output = build(nextBin, ["build"], { cwd: app });
      // As Next's docs say: the standalone folder, with .next/static beside
      // its server.js; copied where no node_modules of the app is in reach.
      standalone = mkdtempSync(join(tmpdir(), "umc-next-standalone-"));
      cpSync(join(app, ".next/standalone"), standalone, { recursive: true });
      cpSync(join(app, ".next/static"), join(standalone, ".next/static"), { recursive: true });
      return output;
    },
    (port) => startUntil("node", ["server.js"], { cwd: standalone, env: { ...env, PORT: String(port), HOSTNAME: "127.0.0.1" } }, ready));
  if (standalone) rmSync(standalone, { recursive: true, force: true, maxRetries: 3 });

  await nextMode("Next.js 16, next dev (Turbopack)",
    () => "",
    (port) => startUntil(nextBin, ["dev", "-H", "127.0.0.1", "-p", String(port)], { cwd: app }, ready));

  // Next.js 16.4.6's `next build --webpack` fails on any App Router route
  // handler on the Edge runtime, with or without this package (ENOENT
  // …/app/api/edge/route_client-reference-manifest.js: its edge function
  // lists a manifest its webpack build does not write). This build leaves
  // app/api/edge out; the Pages Router's Edge API route stands for it.
  console.log("     Next.js 16, next build --webpack: without app/api/edge (Next's own failure on App Router Edge route handlers)");
  await nextMode("Next.js 16, next build --webpack, next start",
    () => {
      rmSync(join(app, "app/api/edge"), { recursive: true });
      return build(nextBin, ["build", "--webpack"], { cwd: app });
    },
    (port) => startUntil(nextBin, ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: app }, ready),
    // Next's webpack compiles for the target ["web", "es6"], so webpack
    // warns that browser.js's top-level await makes async code, which every
    // browser Next.js 16 supports runs (the client page below proves it in
    // Chromium). That warning, and its import trace, is the one tolerated.
    { appEdge: false, tolerated: /module is using "topLevelAwait"|^Import trace for requested module:\n\.\/node_modules\/user-management-client\/browser\.js\n/ });
}

try {
  if (parts.includes("ssr")) await viteSsr();
  if (parts.includes("rollup")) await rollup();
  if (parts.includes("next")) await next();
} finally {
  for (const browser of browsers.values()) await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`expected everywhere: ${JSON.stringify(expected)}`);
console.log(`frameworks: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
