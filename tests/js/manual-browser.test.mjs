// The manual loader and the browser entry's failures in headless Chromium:
// pages served from loopback with pkg/ as is. The manual entry loads its
// .wasm from a URL; the browser entry, whose .wasm is missing or whose page's
// Content-Security-Policy refuses wasm compilation, still imports, and every
// call rejects naming the URL or the refusal. Against the reference server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const api = apiUrl();

// Every call, each outcome (what the Node tests report too).
const PROBE = `
const out = (m, e) => ({ error: e instanceof m.UsersApiError, kind: e.kind, param: e.param, message: e.message });
export async function probe(m, api) {
  const got = {};
  got.count = await m.countUsers(api, { active: "true" }).then((r) => r.result.totalUsers, (e) => out(m, e));
  got.list = await m.listUsers(api, { pageSize: 2 }).then((r) => r.result.users.length, (e) => out(m, e));
  try {
    const client = new m.UsersClient(api);
    got.client = await client.countUsers({ active: "true" }).then((r) => r.result.totalUsers, (e) => out(m, e));
    got.instance = client instanceof m.UsersClient;
  } catch (e) {
    got.client = out(m, e);
  }
  return got;
}
`;
const apiLiteral = JSON.stringify(api);
const PAGES = {
  // The manual entry through an import map, as a page without a bundler has it.
  "manual-url": {
    head: `<script type="importmap">{ "imports": { "user-management-client/manual": "/pkg/manual.js" } }</script>`,
    script: `import * as m from "user-management-client/manual";
      import { probe } from "./probe.js";
      const before = await probe(m, ${apiLiteral});
      await m.init(new URL("/pkg/web/user_management_client_bg.wasm", location.href));
      window.result = { before, after: await probe(m, ${apiLiteral}) };`,
  },
  "manual-missing": {
    script: `import * as m from "/pkg/manual.js";
      import { probe } from "./probe.js";
      const init = await m.init("/nowhere/user_management_client_bg.wasm").then(() => "loaded", (e) => e.message);
      window.result = { init, calls: await probe(m, ${apiLiteral}) };`,
  },
  // The browser entry where its .wasm is not found (404 under /missing/).
  "browser-missing": {
    script: `import * as m from "/missing/browser.js";
      import { probe } from "./probe.js";
      window.result = await probe(m, ${apiLiteral});`,
  },
  // The browser entry on a page whose CSP has no 'wasm-unsafe-eval'; and the control, with it.
  "browser-csp-refused": {
    csp: "default-src 'self'; script-src 'self'; connect-src 'self' http:",
    script: `import * as m from "/pkg/browser.js";
      import { probe } from "./probe.js";
      window.result = await probe(m, ${apiLiteral});`,
  },
  "browser-csp-allowed": {
    csp: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' http:",
    script: `import * as m from "/pkg/browser.js";
      import { probe } from "./probe.js";
      window.result = await probe(m, ${apiLiteral});`,
  },
};

const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
let server, origin, browser;

before(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const [, top, name] = path.match(/^\/([^/]+)\/(.*)$/) ?? [];
    const page = top === "page" && PAGES[name.replace(/\.(html|js)$/, "")];
    if (page) {
      res.setHeader("content-type", TYPES[extname(name)]);
      if (page.csp) res.setHeader("content-security-policy", page.csp);
      res.end(name.endsWith(".html")
        ? `<!doctype html><meta charset="utf-8">${page.head ?? ""}<script type="module" src="./${name.replace(".html", ".js")}"></script>`
        : page.script);
      return;
    }
    if (top === "page" && name === "probe.js") { res.setHeader("content-type", TYPES[".js"]); res.end(PROBE); return; }
    const file = normalize(join(pkg, name ?? ""));
    const served = (top === "pkg" || (top === "missing" && !file.endsWith(".wasm"))) && file.startsWith(join(pkg, "/"));
    try {
      if (!served) throw new Error("not served");
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(name) {
  const page = await browser.newPage();
  // An uncaught error (a failed import, a top-level await that threw)
  // ends the wait at once; console errors (a 404) are told if it times out.
  let failed;
  const errored = new Promise((_, reject) => { failed = reject; });
  const logged = [];
  page.on("pageerror", (e) => failed(new Error(`page error: ${e}`)));
  page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
  try {
    await page.goto(`${origin}/page/${name}.html`);
    await Promise.race([
      page.waitForFunction(() => window.result !== undefined, null, { timeout: 30_000 })
        .catch((e) => { throw new Error(`${e.message}; console errors: ${logged.join("; ")}`); }),
      errored,
    ]);
    return await page.evaluate(() => window.result);
  } finally {
    await page.close();
  }
}

function assertRefused(got, message) {
  for (const call of ["count", "list", "client"]) {
    assert.equal(got[call].error, true, `${call}: ${JSON.stringify(got[call])}`);
    assert.equal(got[call].kind, "validation", call);
    assert.equal(got[call].param, "init", call);
    assert.match(got[call].message, message, call);
    assert.match(got[call].message, /init\(\) from "user-management-client\/manual"/, call);
  }
}

test("a page loads the manual entry's .wasm from a URL; before that, calls reject", async () => {
  const got = await open("manual-url");
  assertRefused(got.before, /the \.wasm is not loaded/);
  const expected = await truth();
  assert.deepEqual(got.after, { count: expected, list: 2, client: expected, instance: true });
});

test("a page's init from a missing URL rejects naming it, and so do the calls", async () => {
  const got = await open("manual-missing");
  const url = `${origin}/nowhere/user_management_client_bg.wasm`;
  assert.match(got.init, /could not load the \.wasm from \/nowhere\/user_management_client_bg\.wasm/);
  assert.ok(got.init.includes(`404 Not Found fetching '${url}'`), got.init);
  assertRefused(got.calls, /could not load the \.wasm from \/nowhere\//);
});

test("the browser entry with its .wasm missing imports, and every call names the URL", async () => {
  const got = await open("browser-missing");
  assertRefused(got, new RegExp(`could not load the \\.wasm from ${origin}/missing/web/user_management_client_bg\\.wasm`));
});

test("the browser entry on a page whose CSP refuses wasm imports, and every call says so", async () => {
  assertRefused(await open("browser-csp-refused"),
    /this host refused to compile WebAssembly \(CompileError: .*Content Security Policy.*\); allow it \(a page's CSP: 'wasm-unsafe-eval' in script-src\)/);
});

test("the browser entry on a page whose CSP allows 'wasm-unsafe-eval' answers (control)", async () => {
  const expected = await truth();
  assert.deepEqual(await open("browser-csp-allowed"), { count: expected, list: 2, client: expected, instance: true });
});
