// Runs the Rust example (examples/rust) in Node against the server at
// USERS_API_URL and checks its numbers against raw fetches. Builds nothing:
// it loads the output of
//   wasm-pack build --target nodejs --dev examples/rust
// (examples/rust/pkg, or the directory in RUST_EXAMPLE_PKG).
// scripts/rust-example.sh does both.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.env.RUST_EXAMPLE_PKG ?? path.join(here, "pkg"));
const { run } = createRequire(import.meta.url)(path.join(pkg, "user_management_client_example.js"));

const base = process.env.USERS_API_URL;
assert.ok(base, "set USERS_API_URL (scripts/with-server.sh does)");

/** The `result` of a raw POST to the server. */
async function raw(route, params) {
  const response = await fetch(new URL(route, base.endsWith("/") ? base : base + "/"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  assert.equal(response.status, 200, `${route}: HTTP ${response.status}`);
  const envelope = await response.json();
  assert.equal(envelope.status, 200, `${route}: status ${envelope.status}`);
  return envelope.result;
}

const summary = await run(base);
console.log(JSON.stringify(summary));

const active = await raw("api/users/count", { active: "true" });
const all = await raw("api/users/count", {});
const list = await raw("api/users", { active: "true", page: 1, pageSize: 5 });
assert.equal(summary.activeUsers, active.totalUsers, "active users");
assert.equal(summary.allUsers, all.totalUsers, "all users");
assert.ok(summary.activeUsers > 0 && summary.activeUsers <= summary.allUsers);
assert.equal(summary.listTotal, active.totalUsers, "the list's total");
assert.equal(summary.page, 1);
assert.equal(summary.pageSize, 5);
assert.deepEqual(summary.firstPage, list.users.map((u) => u.username), "the first page");
assert.equal(summary.refused, "validation:base_url");

// A failed call rejects with the app's own JS error, carrying the kind.
const failure = await run("http://127.0.0.1:9/").then(
  (value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`),
  (error) => error,
);
assert.ok(failure instanceof Error, String(failure));
assert.equal(failure.kind, "network", failure.message);

// The app's .wasm holds the Rust API only: none of the npm package's JS
// exports (countUsers, listUsers, the UsersClient class), and its glue
// neither requires the JS layer's snippet (UsersApiError) nor has it
// copied. The glue requires the library's own snippet, its fetch
// transport's JS side (bridge.js), which wasm-bindgen copies beside it.
const wasm = readdirSync(pkg).find((name) => name.endsWith(".wasm"));
const module = new WebAssembly.Module(readFileSync(path.join(pkg, wasm)));
const exported = WebAssembly.Module.exports(module).map((e) => e.name);
console.log(`exports of ${wasm}: ${exported.join(", ")}`);
const ours = exported.filter((name) => /countusers|listusers|usersclient/i.test(name));
assert.deepEqual(ours, [], "the library's JS exports are in the Rust app's .wasm");
assert.ok(exported.includes("run"), "the app's own export is there");
const glue = readFileSync(path.join(pkg, "user_management_client_example.js"), "utf8");
const required = [...new Set(glue.match(/\.\/snippets\/[^'"`]+/g) ?? [])];
console.log(`snippets the glue requires: ${required.join(", ")}`);
assert.deepEqual(required.filter((m) => /user-management-client-js-/.test(m)), [], "the Rust app's glue requires the JS layer's snippet");
const bridge = required.find((m) => /\/user-management-client-[0-9a-f]+\/src\/transport\/fetch\/bridge\.js$/.test(m));
assert.ok(bridge, "the library's bridge.js is not required by the glue");
assert.ok(existsSync(path.join(pkg, bridge)), `${bridge} is not beside the glue`);
const copied = existsSync(path.join(pkg, "snippets")) ? readdirSync(path.join(pkg, "snippets")) : [];
assert.deepEqual(copied.filter((dir) => dir.startsWith("user-management-client-js-")), [], "wasm-bindgen copied the JS layer's snippet for the app");

console.log("rust example: ok");
