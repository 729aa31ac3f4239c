// Smoke tests of the packed npm package in every runtime and bundler it
// claims. The tarball from `npm pack` is installed into a scratch project,
// as a user would, and the examples/ are run there against the reference
// server (USERS_API_URL, from scripts/with-server.sh); each must report the
// server's real numbers. The bundler apps (examples/vite, examples/webpack)
// each get the tarball installed in their own folder and are built (or
// served by `vite`) with the tools from this repository's devDependencies.
// Each page is opened in Chromium, Firefox and WebKit (tests/lib/browsers.mjs).
// The type test (tests/types/contract.ts) is compiled there too, against
// the installed package, under each resolver, and so are the manual
// loader's and the query helpers' (whose subpath is also run in Node,
// imported and required). Prints `smoke: N passed, M
// failed` and exits non-zero on any failure.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiUrl, bin, expectedSummary, freePort, lastJson, npmInstall, pack, repo, startUntil, stop, tally } from "../lib/harness.mjs";
import { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";
import { serve } from "../lib/pages.mjs";

const api = apiUrl();

// --- the scratch project ----------------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), "umc-smoke-"));
const tarball = pack(scratch);
writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "smoke", private: true, type: "module" }));
npmInstall(scratch, tarball);
cpSync(join(repo, "examples"), join(scratch, "examples"), { recursive: true });
const wasm = join(scratch, "node_modules/user-management-client/web/user_management_client_bg.wasm");

// --- the truth, from the server itself --------------------------------------
const expected = await expectedSummary(api);

// --- helpers ----------------------------------------------------------------
function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, {
    cwd: scratch, encoding: "utf8", timeout: 120_000,
    env: { ...process.env, USERS_API_URL: api }, ...options,
  });
}

/**
 * A bundler app from examples/NAME, copied into the scratch folder with the
 * tarball installed in its own node_modules, as its user would have it. Its
 * devDependencies (the bundler) are left out: the tools come from this
 * repository's own devDependencies (npm ci), so nothing is downloaded here.
 */
function exampleApp(name) {
  const dir = join(scratch, "apps", name);
  cpSync(join(repo, "examples", name), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  delete manifest.devDependencies;
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  npmInstall(dir, tarball);
  return dir;
}

const { check, step, finish } = tally(expected);

// The browser pages are opened in every engine (tests/lib/browsers.mjs),
// each engine one check; a page check's own work (a build, a server) is a
// step, counted once if it fails.
const browsers = new Map();
async function inBrowser(engine, pageUrl) {
  if (!browsers.has(engine)) browsers.set(engine, await launch(engine));
  const page = await browsers.get(engine).newPage();
  // Uncaught errors are reported by Playwright (Chromium); in every engine
  // the page's script must finish with the server's numbers.
  const errors = [];
  page.pw?.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(pageUrl);
    // Until the page's script sets it, `window.summary` is the page's
    // <pre id="summary"> (named access): wait for the script's promise.
    // (The Vite dev server may reload the page once it has optimized a
    // dependency; the wait goes on in the new page.)
    await page.waitForFunction(() => window.summary !== undefined && !(window.summary instanceof Node), null, { timeout: 30_000 });
    const got = await page.evaluate(() => window.summary);
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    return got;
  } finally {
    await page.close();
  }
}
/** Per engine, how many page checks passed and failed. */
const perEngine = Object.fromEntries(enginesToRun().map((engine) => [engine, { passed: 0, failed: 0 }]));
/** The page in each engine, one after the other, each engine one check named `NAME (Engine)`. */
async function inBrowsers(name, pageUrl) {
  for (const engine of enginesToRun()) {
    const got = await check(`${name} (${LABELS[engine]})`, () => inBrowser(engine, pageUrl));
    perEngine[engine][got === undefined ? "failed" : "passed"] += 1;
  }
}

// --- the runtimes -----------------------------------------------------------
/** A page check: it is given `open(url)`, which opens the page in every engine. */
const pageChecks = new Set();
const pageCheck = (fn) => { pageChecks.add(fn); return fn; };
const checks = {
  // One .wasm in the tarball, the one every entry uses (the smoke checks
  // below run each entry).
  "Package: one .wasm": () => {
    const installed = join(scratch, "node_modules/user-management-client");
    const wasms = readdirSync(installed, { recursive: true }).filter((f) => String(f).endsWith(".wasm"));
    if (wasms.join() !== "web/user_management_client_bg.wasm") throw new Error(`.wasm files in the tarball: ${wasms.join(", ")}`);
    return expected;
  },
  "Node ESM": () => lastJson(run("node", ["examples/node/count.mjs"])),
  "Node CommonJS": () => lastJson(run("node", ["examples/node/count.cjs"])),
  "Node, bundled by esbuild": () => {
    run(bin("esbuild"), ["examples/node/count.mjs", "--bundle", "--platform=node", "--format=esm",
      "--log-level=warning", "--outfile=dist-node/count.mjs"]);
    // Nothing copied beside the bundle: the Node entry carries its .wasm.
    return lastJson(run("node", ["dist-node/count.mjs"]));
  },
  Deno: () => {
    writeFileSync(join(scratch, "deno_smoke.test.js"), `
import { summary } from "./examples/deno/count.js";
Deno.test("the package works in Deno", async () => {
  const got = JSON.stringify(await summary(${JSON.stringify(api)}));
  if (got !== ${JSON.stringify(JSON.stringify(expected))}) throw new Error("got " + got);
});
`);
    run(bin("deno"), ["test", "--quiet", "--allow-net=127.0.0.1", "--allow-read", "deno_smoke.test.js"],
      { env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
    return expected;
  },
  "Cloudflare Workers (workerd via miniflare)": async () => {
    run(bin("esbuild"), ["examples/worker/src/index.js", "--bundle", "--format=esm", "--platform=neutral",
      "--conditions=workerd,worker,browser", "--loader:.wasm=copy", "--log-level=warning",
      "--outdir=dist-worker"]);
    const { Miniflare } = await import("miniflare");
    const mf = new Miniflare({
      modules: true,
      scriptPath: join(scratch, "dist-worker/index.js"),
      modulesRoot: join(scratch, "dist-worker"),
      modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
      compatibilityDate: "2026-04-01",
      bindings: { USERS_API_URL: api },
    });
    try {
      const response = await mf.dispatchFetch("http://worker.local/");
      return await response.json();
    } finally {
      await mf.dispose();
    }
  },
  "Browser, plain ES modules": pageCheck(async (open) => {
    const server = await serve(scratch);
    try {
      cpSync(join(scratch, "examples/browser"), join(scratch, "page"), { recursive: true });
      // The import map in index.html points at ./node_modules, beside the page.
      writeFileSync(join(scratch, "page/index.html"),
        readFileSync(join(scratch, "page/index.html"), "utf8").replace("./node_modules/", "../node_modules/"));
      await open(`http://127.0.0.1:${server.address().port}/page/index.html?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  }),
  "Browser, bundled by esbuild": pageCheck(async (open) => {
    run(bin("esbuild"), ["examples/browser/app.js", "--bundle", "--format=esm", "--platform=browser",
      "--log-level=warning", "--outfile=dist-page/app.js"]);
    mkdirSync(join(scratch, "dist-page/web"), { recursive: true });
    cpSync(wasm, join(scratch, "dist-page/web/user_management_client_bg.wasm"));
    writeFileSync(join(scratch, "dist-page/index.html"),
      readFileSync(join(scratch, "examples/browser/index.html"), "utf8").replace(/<script type="importmap">[\s\S]*?<\/script>\n/, ""));
    const server = await serve(join(scratch, "dist-page"));
    try {
      await open(`http://127.0.0.1:${server.address().port}/index.html?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  }),
  "Bun, import": () =>
    lastJson(run(bin("bun"), ["examples/bun/count.mjs"], { env: { ...process.env, USERS_API_URL: api, DO_NOT_TRACK: "1" } })),
  "Bun, require": () =>
    lastJson(run(bin("bun"), ["examples/bun/count.cjs"], { env: { ...process.env, USERS_API_URL: api, DO_NOT_TRACK: "1" } })),
  "Browser, Vite production build": pageCheck(async (open) => {
    const app = exampleApp("vite");
    run(bin("vite"), ["build", "--logLevel", "warn"], { cwd: app });
    const server = await serve(join(app, "dist"));
    try {
      await open(`http://127.0.0.1:${server.address().port}/index.html?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  }),
  "Browser, Vite dev server with its dependency pre-bundling": pageCheck(async (open) => {
    const app = join(scratch, "apps", "vite");
    const port = await freePort();
    // --force: pre-bundle the package afresh, whatever the build left in the cache.
    const dev = await startUntil(bin("vite"), ["--host", "127.0.0.1", "--port", String(port), "--strictPort", "--force"],
      { cwd: app, env: process.env }, /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/);
    try {
      await open(`${dev.match[1]}?api=${encodeURIComponent(api)}`);
      // The package really went through the pre-bundling (not served as is).
      const deps = join(app, "node_modules/.vite/deps/_metadata.json");
      const optimized = Object.keys(JSON.parse(readFileSync(deps, "utf8")).optimized ?? {});
      if (!optimized.includes("user-management-client")) throw new Error(`not pre-bundled: ${optimized}`);
    } finally {
      await stop(dev.child);
    }
  }),
  "Browser, webpack 5 production build": pageCheck(async (open) => {
    const app = exampleApp("webpack");
    run(bin("webpack"), ["--mode", "production", "--no-stats"], { cwd: app });
    const server = await serve(app);
    try {
      await open(`http://127.0.0.1:${server.address().port}/index.html?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  }),
};

// The type test under each resolver, against the installed package: each
// folder of tests/types/ (a tsconfig.json, and a package.json for the
// module format) gets contract.ts and is compiled with tsc --noEmit.
// Each must also get the declarations of the format it loads: index.d.cts
// for a CommonJS file under nodenext (node + require), else index.d.ts.
const declarationsFor = { "nodenext-esm": "index.d.ts", "nodenext-cjs": "index.d.cts", bundler: "index.d.ts" };
for (const [resolver, declarations] of Object.entries(declarationsFor)) {
  checks[`Types: contract.ts under ${resolver} (${declarations})`] = () => {
    const dir = join(scratch, "types", resolver);
    cpSync(join(repo, "tests/types", resolver), dir, { recursive: true });
    cpSync(join(repo, "tests/types/contract.ts"), join(dir, "contract.ts"));
    const files = run(bin("tsc"), ["-p", dir, "--explainFiles"]);
    const got = files.match(/^node_modules\/user-management-client\/(\S+)$/m)?.[1];
    if (got !== declarations) throw new Error(`resolved the package's types to ${got}, expected ${declarations}`);
    return expected;
  };
}

// --- the manual loader: user-management-client/manual and /wasm -------------
// examples/manual/ in Node (bytes, ESM and CommonJS), workerd (the Module
// that importing /wasm gives) and the browsers (its URL, from an import map);
// then tests/types/manual.ts under each resolver, checking which
// declaration files it got.
Object.assign(checks, {
  "Manual loader: Node ESM, init(bytes)": () => lastJson(run("node", ["examples/manual/count.mjs"])),
  "Manual loader: Node CommonJS, initSync(bytes)": () => lastJson(run("node", ["examples/manual/count.cjs"])),
  "Manual loader: workerd (miniflare), initSync(the imported Module)": async () => {
    run(bin("esbuild"), ["examples/manual/worker.js", "--bundle", "--format=esm", "--platform=neutral",
      "--conditions=workerd,worker,browser", "--loader:.wasm=copy", "--log-level=warning", "--outdir=dist-manual-worker"]);
    const { Miniflare } = await import("miniflare");
    const mf = new Miniflare({
      modules: true,
      scriptPath: join(scratch, "dist-manual-worker/worker.js"),
      modulesRoot: join(scratch, "dist-manual-worker"),
      modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
      compatibilityDate: "2026-04-01",
      bindings: { USERS_API_URL: api },
    });
    try {
      return await (await mf.dispatchFetch("http://worker.local/")).json();
    } finally {
      await mf.dispose();
    }
  },
  "Manual loader: browser, init(URL from an import map)": pageCheck(async (open) => {
    const server = await serve(scratch);
    try {
      cpSync(join(scratch, "examples/manual"), join(scratch, "manual-page"), { recursive: true });
      writeFileSync(join(scratch, "manual-page/index.html"),
        readFileSync(join(scratch, "manual-page/index.html"), "utf8").replaceAll("./node_modules/", "../node_modules/"));
      await open(`http://127.0.0.1:${server.address().port}/manual-page/index.html?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  }),
});
const manualDeclarations = {
  "nodenext-esm": ["manual.d.ts", "wasm.d.ts"],
  "nodenext-cjs": ["manual.d.cts", "wasm.d.cts"],
  bundler: ["manual.d.ts", "wasm.d.ts"],
};
for (const [resolver, declarations] of Object.entries(manualDeclarations)) {
  checks[`Types: manual.ts under ${resolver} (${declarations.join(", ")})`] = () => {
    const dir = join(scratch, "types-manual", resolver);
    cpSync(join(repo, "tests/types", resolver), dir, { recursive: true });
    cpSync(join(repo, "tests/types/manual.ts"), join(dir, "manual.ts"));
    writeFileSync(join(dir, "tsconfig.manual.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["manual.ts"] }));
    const files = run(bin("tsc"), ["-p", join(dir, "tsconfig.manual.json"), "--explainFiles"]);
    const got = [...files.matchAll(/^node_modules\/user-management-client\/((?:manual|wasm)\S*)$/gm)].map((m) => m[1]);
    if (got.join() !== declarations.join()) throw new Error(`resolved to ${got.join(", ")}, expected ${declarations.join(", ")}`);
    return expected;
  };
}

// --- the TanStack Query helpers: user-management-client/query --------------
// Imported and required by name beside the main entry, their queryFn run
// against the server; then tests/types/query-resolvers.ts under each
// resolver, checking which declarations each gets.
const querySample = (load) => `${load}
const client = new UsersClient(process.env.USERS_API_URL);
const options = countUsersQueryOptions(client, { active: "true" });
const count = await options.queryFn({ signal: new AbortController().signal });
if (options.retry !== false || options.queryKey[2] !== "count") throw new Error("options: " + JSON.stringify(options));
console.log(JSON.stringify({ totalActive: count.result.totalUsers }));`;
checks["Query helpers: Node ESM, import"] = () => {
  writeFileSync(join(scratch, "query.mjs"), querySample(
    'import { UsersClient } from "user-management-client";\nimport { countUsersQueryOptions } from "user-management-client/query";'));
  const got = lastJson(run("node", ["query.mjs"]));
  if (got.totalActive !== expected.totalActive) throw new Error(`got ${JSON.stringify(got)}`);
  return expected;
};
checks["Query helpers: Node CommonJS, require"] = () => {
  writeFileSync(join(scratch, "query.cjs"), `(async () => {${querySample(
    'const { UsersClient } = require("user-management-client");\nconst { countUsersQueryOptions } = require("user-management-client/query");')}
})().catch((error) => { console.error(error); process.exitCode = 1; });`);
  const got = lastJson(run("node", ["query.cjs"]));
  if (got.totalActive !== expected.totalActive) throw new Error(`got ${JSON.stringify(got)}`);
  return expected;
};
const queryDeclarations = { "nodenext-esm": "query.d.ts", "nodenext-cjs": "query.d.cts", bundler: "query.d.ts" };
for (const [resolver, declarations] of Object.entries(queryDeclarations)) {
  checks[`Types: query-resolvers.ts under ${resolver} (${declarations})`] = () => {
    const dir = join(scratch, "types-query", resolver);
    cpSync(join(repo, "tests/types", resolver), dir, { recursive: true });
    // query.d.ts reads TanStack's types from @tanstack/query-core, an
    // optional peer dependency, which a TanStack Query app has: the
    // repository's own copy (its lock's), beside the installed package.
    cpSync(join(repo, "node_modules/@tanstack/query-core"), join(scratch, "node_modules/@tanstack/query-core"), { recursive: true });
    cpSync(join(repo, "tests/types/query-resolvers.ts"), join(dir, "query-resolvers.ts"));
    writeFileSync(join(dir, "tsconfig.query.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["query-resolvers.ts"] }));
    const files = run(bin("tsc"), ["-p", join(dir, "tsconfig.query.json"), "--explainFiles"]);
    const got = [...files.matchAll(/^node_modules\/user-management-client\/(query\S*)$/gm)].map((m) => m[1]);
    if (got.join() !== declarations) throw new Error(`resolved to ${got.join(", ")}, expected ${declarations}`);
    return expected;
  };
}

for (const [name, fn] of Object.entries(checks)) {
  if (pageChecks.has(fn)) await step(name, () => fn((pageUrl) => inBrowsers(name, pageUrl)));
  else await check(name, fn);
}
for (const browser of browsers.values()) await browser.close();
rmSync(scratch, { recursive: true, force: true });
console.log(`expected in every runtime: ${JSON.stringify(expected)}`);
for (const [engine, n] of Object.entries(perEngine)) console.log(`smoke pages in ${LABELS[engine]}: ${n.passed} passed, ${n.failed} failed`);
finish("smoke");
