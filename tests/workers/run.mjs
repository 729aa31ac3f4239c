// The packed package where importing must never wait for the .wasm, in the
// browser engines, against the reference server (USERS_API_URL, from
// scripts/with-server.sh). The tarball from `npm pack` is installed into a
// scratch project, as a user would, and:
//
//   - A page imports the package from a plain module (an import map to the
//     browser entry) while the test server holds the .wasm back until the
//     page has signalled that its own code ran: the page's code must run
//     first (else the .wasm is released after 15 s and the check fails), a
//     call it made then must succeed once the .wasm arrives, and a
//     UsersClient it made then with bad options must reject its first call
//     with the error construction throws once loaded.
//   - A module Web Worker that calls the API (count, list, a validation
//     error): examples/worker-web built by webpack (the page's
//     `new Worker(new URL(…))` in a web-target build, and the worker alone
//     for `target: "webworker"`), by Vite (its default worker format) and by
//     esbuild, and examples/worker-plain unbundled; and examples/worker-plain's
//     module service worker. Each page posts its first message right after
//     starting the worker and is opened 3 times: every one must be answered
//     with the server's real numbers.
//
// Each page check runs in Chromium, Firefox and WebKit
// (tests/lib/browsers.mjs). Prints `workers: N passed, M failed` and exits
// non-zero on any failure.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";
import { apiUrl, bin, expectedSummary, npmInstall, pack, repo } from "../lib/harness.mjs";
import { serve } from "../lib/pages.mjs";

const OPENS = 3;

const api = apiUrl();

// --- the scratch project ----------------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), "umc-workers-"));
const packed = pack(scratch);
writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "workers", private: true, type: "module" }));
npmInstall(scratch, packed);
const installedWasm = join(scratch, "node_modules/user-management-client/web/user_management_client_bg.wasm");

// --- the truth, from the server itself --------------------------------------
const expected = await expectedSummary(api);
const { totalActive } = expected;

// --- helpers ----------------------------------------------------------------
function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", timeout: 180_000, stdio: ["ignore", "pipe", "pipe"] });
}

/** Opens `url` in a new page of `browser`; resolves to the page's `window.summary` (any page error fails it). */
async function summaryOf(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.pw?.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(url);
    // Until the page's script sets it, `window.summary` is the page's
    // <pre id="summary"> (named access): wait for the script's promise.
    // The limit only turns a page that never answers into a failure (the
    // answer's value is the verdict): longer than HOLD_MS, so that a page
    // held back by the .wasm fails by the order of events.
    await page.waitForFunction(() => window.summary !== undefined && !(window.summary instanceof Node), null, { timeout: HOLD_MS + 30_000 })
      .catch((err) => { throw new Error(`${err.message}; ${errors.join("; ")}`); });
    const got = await page.evaluate(() => window.summary);
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    return got;
  } finally {
    await page.close();
  }
}

/** `url` opened OPENS times, each answered with `expected`. */
async function everyOpen(browser, url) {
  for (let i = 1; i <= OPENS; i++) {
    const got = await summaryOf(browser, url);
    if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`open ${i} of ${OPENS}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }
}

/**
 * A static server for `dir` whose .wasm responses wait until `GET /ran`;
 * `events` is the order things happened in, and that order is the verdict.
 * A page that waits for the .wasm before its own code runs never asks for
 * `/ran`: after HOLD_MS the .wasm is sent anyway, so that such a page fails
 * by the order of events instead of hanging. HOLD_MS only ends a deadlock;
 * it is generous because a page that works signals as soon as it has run.
 */
const HOLD_MS = 90_000;
async function holdingServer(dir) {
  const events = [];
  let ran;
  const signalled = new Promise((resolve) => { ran = resolve; });
  const server = await serve(dir, {
    headers: { "cache-control": "no-store" },
    handle(path, res) {
      if (path !== "/ran") return false;
      events.push("page ran");
      ran();
      res.writeHead(204).end();
      return true;
    },
    async beforeFile(file) {
      if (!file.endsWith(".wasm")) return;
      events.push("wasm requested");
      const timedOut = await Promise.race([signalled.then(() => false), new Promise((r) => setTimeout(r, HOLD_MS, true).unref())]);
      events.push(timedOut ? `wasm sent after ${HOLD_MS} ms without the page's signal` : "wasm sent");
    },
  });
  return { server, events };
}

// The page for the held-back .wasm: it calls, makes a client with bad
// options, then signals that it ran; only then does the .wasm arrive.
const HOLD_PAGE = `<!doctype html>
<meta charset="utf-8">
<script type="importmap">{ "imports": { "user-management-client": "/node_modules/user-management-client/browser.js" } }</script>
<script type="module">
  import { countUsers, UsersClient, UsersApiError } from "user-management-client";
  const api = new URLSearchParams(location.search).get("api");
  const bad = { baseUrl: api, timeoutMs: -1 };
  const describe = (e) => e instanceof UsersApiError ? { kind: e.kind, param: e.param, message: e.message } : String(e);
  const first = countUsers(api, { active: "true" });
  let early, earlyCalls;
  try {
    early = new UsersClient(bad);
    earlyCalls = [early.countUsers({ active: "true" }), early.listUsers({})].map((p) => p.then(() => "resolved", describe));
  } catch (e) {
    earlyCalls = [{ constructionThrew: describe(e) }];
  }
  fetch("/ran");
  window.summary = (async () => {
    const count = await first.then((r) => r.result.totalUsers, describe);
    let late = "constructed";
    try { new UsersClient(bad); } catch (e) { late = describe(e); }
    return { count, earlyCalls: await Promise.all(earlyCalls), late, instance: early instanceof UsersClient };
  })();
</script>
<pre id="summary"></pre>
`;

// --- the checks ---------------------------------------------------------------
const pageChecks = {
  "A page's own code runs before the .wasm arrives; its first call then succeeds": async (browser) => {
    mkdirSync(join(scratch, "hold"), { recursive: true });
    writeFileSync(join(scratch, "hold/index.html"), HOLD_PAGE);
    const { server, events } = await holdingServer(scratch);
    try {
      const got = await summaryOf(browser, `http://127.0.0.1:${server.address().port}/hold/index.html?api=${encodeURIComponent(api)}`);
      if (events.at(-1) !== "wasm sent" || !events.includes("page ran")) throw new Error(`the page's code did not run before the .wasm arrived: ${events.join(", ")}`);
      if (got.count !== totalActive) throw new Error(`the first call gave ${JSON.stringify(got.count)}, expected ${totalActive}`);
      if (got.instance !== true) throw new Error("the client made before the .wasm arrived is not a UsersClient");
      if (got.late?.kind !== "validation" || got.late.param !== "timeoutMs") throw new Error(`construction once loaded: ${JSON.stringify(got.late)}`);
      for (const call of got.earlyCalls) {
        if (JSON.stringify(call) !== JSON.stringify(got.late)) throw new Error(`a call of the client made early gave ${JSON.stringify(call)}, construction throws ${JSON.stringify(got.late)}`);
      }
    } finally {
      server.close();
    }
  },
};

// examples/worker-plain, served from the scratch project's root.
pageChecks["Module worker, unbundled (examples/worker-plain)"] = async (browser) => {
  const server = await serve(scratch);
  try {
    await everyOpen(browser, `http://127.0.0.1:${server.address().port}/examples/worker-plain/index.html?api=${encodeURIComponent(api)}`);
  } finally {
    server.close();
  }
};

// examples/worker-plain's module service worker: in Chromium registered
// afresh in each open (a new browser context each time); in Firefox and
// WebKit (windows of one WebDriver session) the first open registers it and
// the later ones find it active. Service workers need a secure context:
// http://127.0.0.1 is one.
pageChecks["Module service worker, unbundled (examples/worker-plain)"] = async (browser) => {
  const server = await serve(scratch);
  try {
    await everyOpen(browser, `http://127.0.0.1:${server.address().port}/examples/worker-plain/service-worker.html?api=${encodeURIComponent(api)}`);
  } finally {
    server.close();
  }
};

// examples/worker-web, built by each bundler (each build once, in the
// first engine's check): the folder served (in the app), the page opened
// there, and the build.
let app;
const once = (build) => { let done; return () => (done ??= build()); };
const webpack = once(() => run(bin("webpack"), ["--mode", "production", "--no-stats"], app));
const builds = {
  "webpack, the page's new Worker(new URL(…)) (web target)": [".", "webpack.html", webpack],
  'webpack, target: "webworker"': [".", "webworker.html", webpack],
  "Vite, its default worker format": ["dist", "index.html", once(() => run(bin("vite"), ["build", "--logLevel", "warn"], app))],
  "esbuild": [".", "esbuild.html", once(() => {
    run(bin("esbuild"), ["src/main.js", "src/worker.js", "--bundle", "--format=esm", "--log-level=warning", "--outdir=dist-esbuild"], app);
    // esbuild does not follow new URL(…, import.meta.url): the .wasm is copied beside.
    mkdirSync(join(app, "dist-esbuild/web"), { recursive: true });
    cpSync(installedWasm, join(app, "dist-esbuild/web/user_management_client_bg.wasm"));
  })],
};
const setup = {
  "examples/worker-web: npm install the tarball": () => {
    cpSync(join(repo, "examples"), join(scratch, "examples"), { recursive: true });
    app = join(scratch, "apps/worker-web");
    cpSync(join(repo, "examples/worker-web"), app, { recursive: true });
    // The tarball in the app's own node_modules; the bundlers from this
    // repository's devDependencies.
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    delete manifest.devDependencies;
    writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
    npmInstall(app, packed);
  },
};
for (const [name, [root, file, build]] of Object.entries(builds)) {
  pageChecks[`Module worker, ${name}`] = async (browser) => {
    if (!app) throw new Error("not installed");
    build();
    const server = await serve(join(app, root));
    try {
      await everyOpen(browser, `http://127.0.0.1:${server.address().port}/${file}?api=${encodeURIComponent(api)}`);
    } finally {
      server.close();
    }
  };
}

// --- running ------------------------------------------------------------------
let passed = 0, failed = 0;
/**
 * Runs a check, failing it if it has not settled within `limitMs`: not a
 * speed check (each check's verdict is its values and order of events),
 * only so that a check that never settles cannot hang the run. Generous:
 * a set-up may install packages and run a bundler, and a page check opens
 * its page OPENS times on a busy machine.
 */
async function timed(name, fn, limitMs = 15 * 60_000) {
  const started = Date.now();
  let timer;
  try {
    await Promise.race([fn(), new Promise((_, reject) => { timer = setTimeout(reject, limitMs, new Error(`not done in ${limitMs} ms`)); })]);
    passed += 1;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.stderr ?? ""}${err.stdout ?? ""}${err.message}`);
  } finally {
    clearTimeout(timer);
  }
}
try {
  for (const [name, fn] of Object.entries(setup)) await timed(name, fn);
  for (const engine of enginesToRun()) {
    const browser = await launch(engine);
    try {
      for (const [name, check] of Object.entries(pageChecks)) await timed(`${LABELS[engine]}: ${name}`, () => check(browser));
    } finally {
      await Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`expected from every worker: ${JSON.stringify(expected)}`);
console.log(`workers: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
