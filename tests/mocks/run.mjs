// The mocks users' tests put in front of the client, with the packed
// package installed as a user would: each must intercept the client's calls
// (count, list, an HTTP error) and see the client's header. No server is
// needed: nothing reaches the network.
//
// - MSW 3's setupServer in Node 22, 24 and 26, ES modules and CommonJS
//   (examples/msw-node, `node --test`: 4 tests a file, 8 a Node line).
// - MSW 3's setupWorker in a page built by Vite (examples/msw-browser).
// - Vitest 5 browser mode with MSW's setupWorker (examples/msw-browser,
//   4 tests), on Node 24.
// - Playwright's page.route in front of a page that imports the package.
//
// Each project is its lock as set-up installed it in target/mocks/NAME
// (tests/lib/projects.mjs), then the tarball. The setupWorker page runs in
// Chromium, Firefox and WebKit (tests/lib/browsers.mjs). Two checks are
// Chromium's by nature: page.route is Playwright's API, and Playwright
// drives only Chromium here (Firefox and WebKit go through WebDriver, which
// cannot intercept requests); Vitest browser mode runs in Playwright's
// Chromium (@vitest/browser-playwright). Prints `mocks: N passed, M failed`
// and exits non-zero on any failure.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";
import { nodeBin, nodeLines, pack, repo } from "../lib/harness.mjs";
import { serve } from "../lib/pages.mjs";
import { lockedProject } from "../lib/projects.mjs";

const work = join(repo, "target", "mocks");


mkdirSync(work, { recursive: true });
const tarball = pack(work);

/** examples/NAME in target/mocks/NAME: its locked devDependencies (set-up installs them), then the tarball. */
const project = (name) => lockedProject(name, tarball);

function run(node, args, cwd) {
  return execFileSync(node, args, {
    cwd, encoding: "utf8", timeout: 180_000, stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PATH: `${join(node, "..")}:${process.env.PATH}`, NO_COLOR: "1", CI: "true" },
  });
}

// What every page check must report: the mocks' answers, and what the
// mocks saw (each request's params and the client's x-tenant header).
const expected = {
  totalActive: 42,
  listed: ["ada", "grace"],
  httpError: "http:404",
  requests: [
    { path: "count", params: { active: "true" }, tenant: "acme" },
    { path: "list", params: { active: "true", pageSize: 5 }, tenant: "acme" },
  ],
};

/** Opens `url` in a new page (after `prepare(page)`): its `window.summary`, with `seen()` as its requests when given, must be `expected`. */
async function summaryOf(browser, url, prepare = async () => {}, seen) {
  const page = await browser.newPage();
  const errors = [];
  page.pw?.on("pageerror", (e) => errors.push(String(e)));
  try {
    await prepare(page);
    await page.goto(url);
    await page.waitForFunction(() => window.summary !== undefined && !(window.summary instanceof Node), null, { timeout: 30_000 })
      .catch((err) => { throw new Error(`${err.message}; ${errors.join("; ")}`); });
    const got = await page.evaluate(() => window.summary);
    if (seen) got.requests = seen();
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  } finally {
    await page.close();
  }
}

// The page Playwright's page.route answers: the same calls as
// examples/msw-browser/app.js, with no mock of its own (what the mock saw
// is recorded by the route).
const ROUTE_PAGE = `<!doctype html>
<meta charset="utf-8">
<script type="importmap">{ "imports": { "user-management-client": "/node_modules/user-management-client/browser.js" } }</script>
<script type="module">
  import { UsersApiError, UsersClient } from "user-management-client";
  const client = new UsersClient({ baseUrl: "https://api.example.test", headers: { "x-tenant": "acme" }, retries: 0 });
  window.summary = (async () => {
    const count = await client.countUsers({ active: true });
    const page = await client.listUsers({ active: "true", pageSize: 5 });
    const error = await client.countUsers({ query: "missing" }).catch((e) => e);
    return {
      totalActive: count.result.totalUsers,
      listed: page.result.users.map((u) => u.username),
      httpError: error instanceof UsersApiError ? \`\${error.kind}:\${error.httpStatus}\` : String(error),
    };
  })().catch((err) => ({ error: String(err) }));
</script>
<pre id="summary"></pre>
`;

/** A user's Playwright test: page.route answers the API (and its CORS preflight) and records in `requests` what it saw. */
async function routeApi({ pw: page }, requests) {
  const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST" };
  await page.route("https://api.example.test/api/**", async (route) => {
    const request = route.request();
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    const params = request.postDataJSON();
    if (params.query === "missing") return route.fulfill({ status: 404, headers: cors, json: { error: "no such tenant" } });
    const path = new URL(request.url()).pathname === "/api/users/count" ? "count" : "list";
    requests.push({ path, params, tenant: await request.headerValue("x-tenant") });
    return route.fulfill({
      headers: cors,
      json: path === "count"
        ? { status: 200, result: { totalUsers: 42 } }
        : { status: 200, result: { users: [{ id: 1, username: "ada" }, { id: 2, username: "grace" }], totalUsers: 2, page: 1, pageSize: params.pageSize } },
    });
  });
}

// --- the checks -----------------------------------------------------------------
const checks = {};
let nodeProject, browserProject;

checks["examples/msw-node: the tarball over the locked install"] = () => { nodeProject = project("msw-node"); };
for (const line of nodeLines) {
  checks[`MSW setupServer, Node ${line}, ES modules and CommonJS (8 tests)`] = () => {
    const version = run(nodeBin(line), ["--version"], nodeProject).trim();
    if (!version.startsWith(`v${line}.`)) throw new Error(`node${line} is ${version}`);
    let out;
    try {
      out = run(nodeBin(line), ["--test", "--test-reporter=tap", "users.test.mjs", "users.test.cjs"], nodeProject);
    } catch (err) {
      throw new Error(`${err.stdout}${err.stderr}`);
    }
    const [pass, fail] = [/^# pass (\d+)$/m, /^# fail (\d+)$/m].map((re) => Number(out.match(re)?.[1]));
    if (pass !== 8 || fail !== 0) throw new Error(`${pass} passed, ${fail} failed, 8 expected:\n${out}`);
  };
}

checks["examples/msw-browser: the tarball over the locked install, msw init, vite build"] = () => {
  browserProject = project("msw-browser");
  run(process.execPath, ["node_modules/msw/cli/index.js", "init", "public", "--no-save"], browserProject);
  rmSync(join(browserProject, "dist"), { recursive: true, force: true });
  run(process.execPath, ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"], browserProject);
};

checks["Vitest 5 browser mode (Chromium) with MSW setupWorker, Node 24 (4 tests)"] = () => {
  const out = join(browserProject, "report.json");
  rmSync(out, { force: true });
  try {
    run(nodeBin(24), ["node_modules/vitest/vitest.mjs", "run", "--reporter=json", `--outputFile=${out}`], browserProject);
  } catch (err) {
    if (!existsSync(out)) throw new Error(`${err.stdout}${err.stderr}`);
  }
  const report = JSON.parse(readFileSync(out, "utf8"));
  if (report.numFailedTests || report.numPassedTests !== 4 || report.numTotalTests !== 4) {
    const failures = report.testResults.flatMap((f) => [f.message, ...f.assertionResults.filter((t) => t.status !== "passed").map((t) => `${t.title}: ${t.failureMessages.join(" ")}`)]);
    throw new Error(`${report.numPassedTests} of ${report.numTotalTests} passed, 4 expected\n${failures.join("\n")}`);
  }
};

// Each page check with the engines it runs in.
const pageChecks = {
  "MSW setupWorker in a page built by Vite": [enginesToRun(), async (browser) => {
    const server = await serve(join(browserProject, "dist"));
    try {
      await summaryOf(browser, `http://127.0.0.1:${server.address().port}/index.html`);
    } finally {
      server.close();
    }
  }],
  "Playwright page.route in front of a page that imports the package": [["chromium"], async (browser) => {
    writeFileSync(join(browserProject, "route.html"), ROUTE_PAGE);
    const server = await serve(browserProject);
    try {
      const requests = [];
      await summaryOf(browser, `http://127.0.0.1:${server.address().port}/route.html`, (page) => routeApi(page, requests), () => requests);
    } finally {
      server.close();
    }
  }],
};

// --- running --------------------------------------------------------------------
let passed = 0, failed = 0;
async function timed(name, fn) {
  const started = Date.now();
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.message}`);
  }
}
for (const [name, fn] of Object.entries(checks)) await timed(name, fn);
for (const engine of enginesToRun()) {
  const browser = await launch(engine);
  try {
    for (const [name, [engines, check]] of Object.entries(pageChecks)) {
      if (engines.includes(engine)) await timed(`${LABELS[engine]}: ${name}`, () => check(browser));
    }
  } finally {
    await browser.close();
  }
}
console.log(`mocks: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
