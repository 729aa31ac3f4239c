// A host that refuses to compile WebAssembly (an edge runtime without wasm
// code generation): @edge-runtime/vm's EdgeVM, the sandbox of Vercel's Edge
// Runtime, with `codeGeneration: { wasm: false }`. The package, bundled by
// esbuild into one script as an edge bundler would, must import, and every
// call must reject with a UsersApiError that names the refusal and the
// manual loader. The same bundles in an EdgeVM that allows wasm are the
// control: they load and answer with the reference server's numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { EdgeVM } from "@edge-runtime/vm";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const api = apiUrl();

/** `entry` bundled into one script that sets globalThis.umc to its exports. */
function bundle(entry) {
  const { outputFiles } = buildSync({
    entryPoints: [join(pkg, entry)], bundle: true, write: false, format: "iife", globalName: "umc",
    platform: "browser", target: "es2022", loader: { ".wasm": "binary" }, logLevel: "error",
    logOverride: { "empty-import-meta": "silent" },
  });
  return outputFiles[0].text;
}

// Run inside the VM: `load` (code), then every call, each outcome as JSON.
const probe = (load) => `(async () => {
  const out = (e) => ({ error: e instanceof umc.UsersApiError, kind: e.kind, param: e.param, message: e.message });
  const got = {};
  try { ${load} } catch (e) { got.load = out(e); }
  got.count = await umc.countUsers(api, { active: "true" }).then((r) => r.result.totalUsers, out);
  got.list = await umc.listUsers(api, { pageSize: 2 }).then((r) => r.result.users.length, out);
  try { got.client = await new umc.UsersClient(api).countUsers({ active: "true" }).then((r) => r.result.totalUsers, out); }
  catch (e) { got.client = out(e); }
  return JSON.stringify(got);
})()`;

async function inEdgeVM(wasm, script, load) {
  const vm = new EdgeVM({ codeGeneration: { strings: false, wasm } });
  vm.context.api = api;
  vm.context.wasmBytes = new Uint8Array(readFileSync(join(pkg, "web/user_management_client_bg.wasm")));
  vm.evaluate(script);
  return JSON.parse(await vm.evaluate(probe(load)));
}

function assertRefused(got, what) {
  for (const call of ["count", "list", "client"]) {
    assert.equal(got[call].error, true, `${what}, ${call}: ${JSON.stringify(got[call])}`);
    assert.equal(got[call].kind, "validation");
    assert.equal(got[call].param, "init");
    assert.match(got[call].message, /this host refused to compile WebAssembly \(CompileError: .*disallowed by embedder\)/, `${what}, ${call}`);
    assert.match(got[call].message, /init\(\) from "user-management-client\/manual"/);
  }
}

const cases = {
  // The Workers entry, with its .wasm import bundled as bytes.
  "workerd.js, its .wasm bundled as bytes": ["workerd.js", ""],
  "manual.js, initSync(bytes)": ["manual.js", "umc.initSync(wasmBytes);"],
  "manual.js, await init(bytes)": ["manual.js", "await umc.init(wasmBytes);"],
};

for (const [name, [entry, load]] of Object.entries(cases)) {
  test(`EdgeVM refusing wasm: ${name} imports, and every call says why`, async () => {
    const got = await inEdgeVM(false, bundle(entry), load);
    assertRefused(got, name);
    if (load) assert.match(got.load.message, /refused to compile WebAssembly/);
  });

  test(`EdgeVM allowing wasm (control): ${name} answers`, async () => {
    const expected = await truth();
    assert.deepEqual(await inEdgeVM(true, bundle(entry), load), { count: expected, list: 2, client: expected });
  });
}
