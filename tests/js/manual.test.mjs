// The manual loader (pkg/manual.js, manual.cjs) and the failures every entry
// reports instead of failing its import: each case runs in a fresh Node
// process, whose .wasm is not loaded yet, and prints what the package did
// as JSON. Against the reference server (USERS_API_URL).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const wasmPath = join(pkg, "web/user_management_client_bg.wasm");
const api = apiUrl();

// Serves the .wasm at /ok.wasm (application/wasm) and nothing else (404).
let wasmServer, wasmUrl, missingUrl;
before(async () => {
  const bytes = readFileSync(wasmPath);
  wasmServer = createServer((req, res) => {
    if (req.url === "/ok.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(bytes);
    else res.writeHead(404).end("not here");
  });
  await new Promise((resolve) => wasmServer.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${wasmServer.address().port}`;
  wasmUrl = `${base}/ok.wasm`;
  missingUrl = `${base}/missing/user_management_client_bg.wasm`;
});
after(() => wasmServer.close());

// What the child runs: `probe(m)` calls everything an entry exports and
// reports each outcome; `sent` counts the requests that left for the API.
const PRELUDE = `
const api = ${JSON.stringify(api)};
let sent = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  if (String(input?.url ?? input).startsWith(api)) sent += 1;
  return realFetch(input, init);
};
const outcome = (m, e) => ({ error: e instanceof m.UsersApiError, kind: e.kind, param: e.param, message: e.message, cause: String(e.cause) });
async function probe(m) {
  const got = {};
  got.count = await m.countUsers(api, { active: "true" }).then((r) => r.result.totalUsers, (e) => outcome(m, e));
  got.list = await m.listUsers(api, { pageSize: 2 }).then((r) => r.result.users.length, (e) => outcome(m, e));
  try {
    const client = new m.UsersClient(api);
    got.client = await client.countUsers({ active: "true" }).then((r) => r.result.totalUsers, (e) => outcome(m, e));
    got.instance = client instanceof m.UsersClient;
    client.free();
  } catch (e) {
    got.client = outcome(m, e);
  }
  got.sent = sent;
  return got;
}
const report = (value) => console.log(JSON.stringify(value));
`;

/** Runs `body` (ES module code after PRELUDE) in a fresh Node process; returns what it reported. */
function fresh(body, { cwd = pkg } = {}) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", PRELUDE + body], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()));
    });
  });
}

/** Every call rejected (the constructor threw) with validation/init and a message matching `message`, and nothing was sent. */
function assertRefused(got, message) {
  for (const what of ["count", "list", "client"]) {
    assert.equal(got[what].error, true, `${what}: not a UsersApiError: ${JSON.stringify(got[what])}`);
    assert.equal(got[what].kind, "validation", what);
    assert.equal(got[what].param, "init", what);
    assert.match(got[what].message, message, what);
    assert.match(got[what].message, /init\(\) from "user-management-client\/manual"/, what);
  }
  assert.equal(got.sent, 0, "a request left");
}

test("before init(), every call of the manual entry rejects with validation/init", async () => {
  assertRefused(await fresh(`report(await probe(await import("./manual.js")));`), /the \.wasm is not loaded/);
  assertRefused(await fresh(`const { createRequire } = await import("node:module");
    report(await probe(createRequire(${JSON.stringify(join(pkg, "x.js"))})("./manual.cjs")));`), /the \.wasm is not loaded/);
});

test("init() and initSync() load the .wasm from every kind of source", async () => {
  const expected = await truth();
  const sources = {
    "initSync, bytes": `m.initSync(readFileSync(wasm));`,
    "initSync, a Module": `m.initSync(new WebAssembly.Module(readFileSync(wasm)));`,
    "init, bytes": `await m.init(readFileSync(wasm));`,
    "init, an ArrayBuffer": `const b = readFileSync(wasm); await m.init(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));`,
    "init, a Module": `await m.init(await WebAssembly.compile(readFileSync(wasm)));`,
    "init, a Response": `await m.init(await fetch(${JSON.stringify(wasmUrl)}));`,
    "init, a promise of a Response": `await m.init(fetch(${JSON.stringify(wasmUrl)}));`,
    "init, a URL": `await m.init(new URL(${JSON.stringify(wasmUrl)}));`,
    "init, a string": `await m.init(${JSON.stringify(wasmUrl)});`,
  };
  await Promise.all(Object.entries(sources).map(async ([name, load]) => {
    const got = await fresh(`
      import { readFileSync } from "node:fs";
      const wasm = ${JSON.stringify(wasmPath)};
      const m = await import("./manual.js");
      ${load}
      report(await probe(m));`);
    assert.deepEqual(got, { count: expected, list: 2, client: expected, instance: true, sent: 3 }, name);
  }));
});

test("the CommonJS manual entry loads with initSync", async () => {
  const got = await fresh(`
    import { readFileSync } from "node:fs";
    import { createRequire } from "node:module";
    const m = createRequire(${JSON.stringify(join(pkg, "x.js"))})("./manual.cjs");
    m.initSync(readFileSync(${JSON.stringify(wasmPath)}));
    report(await probe(m));`);
  assert.deepEqual(got, { count: await truth(), list: 2, client: await truth(), instance: true, sent: 3 });
});

test("a failed init names what it tried, calls then say so, and a later init still works", async () => {
  const got = await fresh(`
    import { readFileSync } from "node:fs";
    const m = await import("./manual.js");
    const failed = {};
    failed.url = await m.init(${JSON.stringify(missingUrl)}).then(() => "loaded", (e) => outcome(m, e));
    failed.calls = await probe(m);
    try { m.initSync(new Uint8Array([0, 97, 115, 109, 9, 9])); } catch (e) { failed.bytes = outcome(m, e); }
    failed.none = await m.init().then(() => "loaded", (e) => outcome(m, e));
    await m.init(readFileSync(${JSON.stringify(wasmPath)}));
    failed.after = await probe(m);
    report(failed);`);
  assert.equal(got.url.error, true);
  assert.equal(got.url.param, "init");
  assert.ok(got.url.message.includes(missingUrl), got.url.message);
  assert.match(got.url.message, /404/);
  assertRefused(got.calls, new RegExp(`could not load the \\.wasm from ${missingUrl.replace(/[.?]/g, "\\$&")}`));
  assert.equal(got.bytes.kind, "validation");
  assert.match(got.bytes.message, /the Uint8Array given \(CompileError/);
  assert.equal(got.none.param, "init");
  assert.match(got.none.message, /init\(source\) needs the \.wasm/);
  const expected = await truth();
  assert.deepEqual(got.after, { count: expected, list: 2, client: expected, instance: true, sent: 3 });
});

test("without WebAssembly, importing works and every call says so (Node entries, react-native, manual)", async () => {
  const noWasm = /this JavaScript engine has no WebAssembly/;
  const entries = {
    "node.mjs": `await import("./node.mjs")`,
    "node.cjs": `(await import("node:module")).createRequire(${JSON.stringify(join(pkg, "x.js"))})("./node.cjs")`,
    "react-native.js": `await import("./react-native.js")`,
    "manual.js": `await import("./manual.js")`,
  };
  await Promise.all(Object.entries(entries).map(async ([name, load]) => {
    const got = await fresh(`delete globalThis.WebAssembly; const m = ${load}; report(await probe(m));`);
    try {
      assertRefused(got, noWasm);
    } catch (err) {
      err.message = `${name}: ${err.message}`;
      throw err;
    }
  }));
  // initSync of the manual entry says the same.
  const got = await fresh(`delete globalThis.WebAssembly; const m = await import("./manual.js");
    try { m.initSync(new Uint8Array(8)); report("loaded"); } catch (e) { report(outcome(m, e)); }`);
  assert.equal(got.param, "init");
  assert.match(got.message, noWasm);
});

test("where the .wasm is missing, importing works and every call names the path tried", async (t) => {
  const copy = mkdtempSync(join(tmpdir(), "umc-nowasm-"));
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(pkg, copy, { recursive: true, filter: (src) => !src.endsWith(".wasm") });
  const tried = join(copy, "web/user_management_client_bg.wasm");
  // (node.mjs reads no .wasm file: the next test.)
  for (const [name, load] of Object.entries({
    "node.cjs": `(await import("node:module")).createRequire(${JSON.stringify(join(copy, "x.js"))})("./node.cjs")`,
  })) {
    const got = await fresh(`const m = ${load}; report(await probe(m));`, { cwd: copy });
    try {
      assertRefused(got, /could not load the \.wasm from .*ENOENT/);
      assert.ok(got.count.message.includes(tried), got.count.message);
    } catch (err) {
      err.message = `${name}: ${err.message}`;
      throw err;
    }
  }
});

test("node.mjs carries its .wasm (wasm-bytes.js): it answers with every .wasm file removed", async (t) => {
  const copy = mkdtempSync(join(tmpdir(), "umc-nowasm-"));
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(pkg, copy, { recursive: true, filter: (src) => !src.endsWith(".wasm") });
  const expected = await truth();
  const got = await fresh(`report(await probe(await import("./node.mjs")));`, { cwd: copy });
  assert.deepEqual(got, { count: expected, list: 2, client: expected, instance: true, sent: 3 });
});
