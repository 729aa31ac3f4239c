// Framework checks of the packed npm package, installed as a user
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
//   - SvelteKit 3 with adapter-node (examples/sveltekit): a page whose
//     server `load` calls the package; `vite build`, the built server
//     (`node build`) run and the page fetched.
//   - Nuxt 4 (examples/nuxt): a Nitro server route calling the package;
//     `nuxi build`, the .output server run from a copy in another folder
//     and the route fetched.
//   - Astro 7 with @astrojs/node (examples/astro): a page rendered on the
//     server that calls the package; `astro build`, dist/server/entry.mjs
//     run and the page fetched.
//   - wrangler 4 (examples/worker): `wrangler dev --local`, which bundles the
//     worker its own way and runs it in workerd; GET / fetched.
//   These four need Node.js 22 or later: they are built and run on Node 24
//   (tests/node-lines).
// Each must report the server's real numbers. Next.js and Rollup are
// installed from their examples' locks in target/frameworks/NAME/, as are
// SvelteKit and Nuxt, kept while the lock is unchanged. `node
// tests/frameworks/run.mjs [ssr] [rollup] [next] [sveltekit] [nuxt] [astro]
// [wrangler]` runs some parts. Prints `frameworks: N passed, M failed`
// and exits non-zero on any failure.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { apiUrl, bin, expectedSummary, freePort, lastJson, nodeBin, npmInstall, pack, repo, startUntil, stop, tally } from "../lib/harness.mjs";
import { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";
import { serve } from "../lib/pages.mjs";
import { lockedProject } from "../lib/projects.mjs";

const api = apiUrl();
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ["ssr", "rollup", "next", "sveltekit", "nuxt", "astro", "wrangler"];

const scratch = mkdtempSync(join(tmpdir(), "umc-frameworks-"));
const tarball = pack(scratch);
const env = { ...process.env, USERS_API_URL: api, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1" };

// --- the truth, from the server itself --------------------------------------
const expected = await expectedSummary(api);

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
/** A server or dev server, with this run's environment, until its output matches `ready`. */
const startServer = (cmd, args, options, ready) => startUntil(cmd, args, { env, ...options }, ready, 90_000);

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
const { check, step, finish } = tally(expected);

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
      const server = await startServer("node", ["server.js"], { cwd: built, env: { ...env, PORT: "0" } }, /Listening on (\S+)/);
      try {
        return await htmlSummary(server.match[1]);
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
  const app = await step("Rollup: the tarball over the locked install", () => lockedApp("rollup"));
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
    await check("Rollup, Node.js bundle run from a copy", () => lastJson(run("node", ["count.mjs"], { cwd: built })));
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
/** examples/NAME in target/frameworks/NAME: its locked dependencies (set-up installs them), then the tarball. */
const lockedApp = (name) => lockedProject(name, tarball);

/**
 * What a build printed about the package: each block of its output (blocks
 * are separated by blank lines) that names it. Must be nothing.
 */
function packageWarnings(output) {
  return output.split(/\n\s*\n/).filter((block) => /user-management-client/.test(block));
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

async function nextMode(label, make, start, options = {}) {
  const built = await step(`${label}: build`, () => {
    const warnings = packageWarnings(make());
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
  const app = await step("Next.js: the tarball over the locked install", () => lockedApp("next"));
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
    (port) => startServer("node", ["server.js"], { cwd: standalone, env: { ...env, PORT: String(port), HOSTNAME: "127.0.0.1" } }, ready));
  if (standalone) rmSync(standalone, { recursive: true, force: true, maxRetries: 3 });

  await nextMode("Next.js 16, next dev (Turbopack)",
    () => "",
    (port) => startServer(nextBin, ["dev", "-H", "127.0.0.1", "-p", String(port)], { cwd: app }, ready));

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
    (port) => startServer(nextBin, ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: app }, ready),
    // The browser entry has no top-level await: webpack, compiling for
    // Next's target ["web", "es6"], has nothing to warn about either.
    { appEdge: false });
}

/** The JSON in a page's <pre id="summary">, its HTML comments (hydration markers) left out. */
async function pageSummary(url) {
  const html = (await get(url)).replace(/<!--[\s\S]*?-->/g, "");
  const text = html.match(/<pre id="summary">([^<]*)<\/pre>/)?.[1];
  if (text === undefined) throw new Error(`no <pre id="summary"> in ${url}: ${html.slice(0, 2000)}`);
  const entities = { amp: "&", lt: "<", gt: ">", quot: '"' };
  return JSON.parse(text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi,
    (_, dec, hex, name) => (dec ? String.fromCharCode(dec) : hex ? String.fromCharCode(parseInt(hex, 16)) : entities[name])));
}

// --- SvelteKit 3, adapter-node ------------------------------------------------
async function sveltekit() {
  const node = nodeBin(24);
  const app = await step("SvelteKit: the tarball over the locked install", () => lockedApp("sveltekit"));
  if (!app) return;
  const built = await step("SvelteKit 3, adapter-node: vite build (Node 24)", () => {
    rmSync(join(app, "build"), { recursive: true, force: true });
    build(node, ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"], { cwd: app });
    return true;
  });
  if (!built) return;
  await check("SvelteKit 3, adapter-node: node build, the page's server load (Node 24)", async () => {
    const port = await freePort();
    const server = await startServer(node, ["build"], { cwd: app, env: { ...env, PORT: String(port), HOST: "127.0.0.1" } }, /Listening on/);
    try {
      return await pageSummary(`http://127.0.0.1:${port}/`);
    } finally {
      await stop(server.child);
    }
  });
}

// --- Nuxt 4, a Nitro server route ---------------------------------------------
async function nuxt() {
  const node = nodeBin(24);
  const app = await step("Nuxt: the tarball over the locked install", () => lockedApp("nuxt"));
  if (!app) return;
  const built = await step("Nuxt 4: nuxi build (Node 24)", () => {
    rmSync(join(app, ".output"), { recursive: true, force: true });
    build(node, ["node_modules/@nuxt/cli/bin/nuxi.mjs", "build"], { cwd: app });
    // The server alone, in a folder with no node_modules of the app above it.
    const copy = mkdtempSync(join(tmpdir(), "umc-nuxt-output-"));
    cpSync(join(app, ".output"), copy, { recursive: true });
    return copy;
  });
  if (!built) return;
  try {
    await check("Nuxt 4: the .output server run from a copy, GET /summary (Node 24)", async () => {
      const port = await freePort();
      const server = await startServer(node, ["server/index.mjs"], { cwd: built, env: { ...env, PORT: String(port), HOST: "127.0.0.1" } }, /Listening on/);
      try {
        return JSON.parse(await get(`http://127.0.0.1:${port}/summary`));
      } finally {
        await stop(server.child);
      }
    });
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}

// --- Astro 7, @astrojs/node ----------------------------------------------------
async function astro() {
  const node = nodeBin(24);
  const app = await step("Astro: the tarball over the locked install", () => lockedApp("astro"));
  if (!app) return;
  const astroEnv = { ...env, ASTRO_TELEMETRY_DISABLED: "1" };
  const built = await step("Astro 7, @astrojs/node: astro build (Node 24)", () => {
    rmSync(join(app, "dist"), { recursive: true, force: true });
    build(node, ["node_modules/astro/bin/astro.mjs", "build"], { cwd: app, env: astroEnv });
    return true;
  });
  if (!built) return;
  await check("Astro 7, @astrojs/node: dist/server/entry.mjs, the page rendered on the server (Node 24)", async () => {
    const port = await freePort();
    const server = await startServer(node, ["dist/server/entry.mjs"], { cwd: app, env: { ...astroEnv, PORT: String(port), HOST: "127.0.0.1" } }, /Server listening on|listening/i);
    try {
      return await pageSummary(`http://127.0.0.1:${port}/`);
    } finally {
      await stop(server.child);
    }
  });
}

// --- wrangler 4: wrangler dev, workerd ------------------------------------------
async function wrangler() {
  const node = nodeBin(24);
  const app = await step("wrangler: the tarball over the locked install", () => lockedApp("worker"));
  if (!app) return;
  await check("Cloudflare Workers: wrangler dev --local (workerd), GET / (Node 24)", async () => {
    const port = await freePort();
    const args = ["node_modules/wrangler/bin/wrangler.js", "dev", "--local", "--ip", "127.0.0.1", "--port", String(port),
      "--var", `USERS_API_URL:${api}`];
    const server = await startServer(node, args, { cwd: app, env: { ...env, WRANGLER_SEND_METRICS: "false", CI: "true" } }, /Ready on/);
    try {
      return JSON.parse(await get(`http://127.0.0.1:${port}/`));
    } finally {
      await stop(server.child);
    }
  });
}

try {
  if (parts.includes("ssr")) await viteSsr();
  if (parts.includes("rollup")) await rollup();
  if (parts.includes("next")) await next();
  if (parts.includes("sveltekit")) await sveltekit();
  if (parts.includes("nuxt")) await nuxt();
  if (parts.includes("astro")) await astro();
  if (parts.includes("wrangler")) await wrangler();
} finally {
  for (const browser of browsers.values()) await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`expected everywhere: ${JSON.stringify(expected)}`);
finish("frameworks");
