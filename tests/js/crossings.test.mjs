// How many times one call crosses between JavaScript and the .wasm: every
// call of the glue's imports (wasm calling JS) and of the instance's
// exports (JS calling wasm), counted by wrapping each before the glue
// instantiates the .wasm. Unlike a time, the count does not move with the
// machine's load: this test holds today's figure exactly, so a change that
// adds crossings to the hot path fails here, and one that removes some
// updates the figure (docs/src/performance.md gives it, with the breakdown).
// One countUsers, one-shot, against a canned answer from a `fetch` option,
// after a first call has warmed the instance; and one call of a client with
// all three hooks, each an async function. No server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pkg } from "../lib/harness.mjs";

/** Crossings of one warm one-shot countUsers on the glue of pkg/web/. */
const EXPECTED = 20;
/** Crossings of one warm call of a UsersClient made once with all three
 * hooks, each an async function returning nothing. */
const EXPECTED_HOOKED = 29;

const Instance = WebAssembly.Instance;
let counting = false;
const crossings = new Map();
const count = (name) => { if (counting) crossings.set(name, (crossings.get(name) ?? 0) + 1); };
/** `fns` with each function wrapped to count its calls as `kind name`. */
function counted(fns, kind) {
  const out = {};
  for (const [name, value] of Object.entries(fns)) {
    const shown = `${kind} ${name.replace(/_[0-9a-f]{16}$/, "")}`;
    out[name] = typeof value != "function" ? value : function (...args) {
      count(shown);
      return value.apply(this, args);
    };
  }
  return out;
}
WebAssembly.Instance = function (module, imports) {
  const wrapped = Object.fromEntries(Object.entries(imports).map(([ns, fns]) => [ns, counted(fns, "import")]));
  return { exports: counted(new Instance(module, wrapped).exports, "export") };
};
const lib = await import(join(pkg, "web/user_management_client.js"));
lib.initSync({ module: readFileSync(join(pkg, "web/user_management_client_bg.wasm")) });
WebAssembly.Instance = Instance;

const BODY = '{"status":200,"result":{"totalUsers":7}}';
const fetch = () => Promise.resolve(new Response(BODY, { headers: { "content-type": "application/json" } }));

/** The crossings of `call()` (after one call to warm up), with their breakdown. */
async function crossingsOf(call) {
  await call();
  crossings.clear();
  counting = true;
  const envelope = await call();
  counting = false;
  assert.equal(envelope.result.totalUsers, 7);
  const total = [...crossings.values()].reduce((a, b) => a + b, 0);
  const breakdown = [...crossings].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${n} ${name}`);
  return { total, breakdown: breakdown.join(", ") };
}

test(`one countUsers crosses between JS and wasm ${EXPECTED} times`, async (t) => {
  const { total, breakdown } = await crossingsOf(() => lib.countUsers("http://127.0.0.1:9", {}, { fetch }));
  t.diagnostic(`${total} crossings: ${breakdown}`);
  assert.equal(total, EXPECTED, `crossings of one call (the figure in docs/src/performance.md): ${breakdown}`);
});

test(`one call of a client with three async hooks crosses ${EXPECTED_HOOKED} times`, async (t) => {
  let seen = 0;
  const hook = async () => void seen++;
  const client = new lib.UsersClient({
    baseUrl: "http://127.0.0.1:9",
    fetch,
    hooks: { beforeRequest: hook, afterResponse: hook, beforeRetry: hook },
  });
  const { total, breakdown } = await crossingsOf(() => client.countUsers());
  // beforeRequest and afterResponse ran for each call (no retry: no beforeRetry).
  assert.equal(seen, 4);
  t.diagnostic(`${total} crossings: ${breakdown}`);
  assert.equal(total, EXPECTED_HOOKED, `crossings of one hooked call (docs/src/performance.md): ${breakdown}`);
});

// The calls are driven from JS (the snippet's driver steps the call
// machine): the .wasm holds no executor, no future awaiting a promise and
// no closure handed to JS. What those would bring shows in its imports and
// exports: wasm-bindgen-futures' queueMicrotask and its closures' invokers,
// and the stop of bridge.js that the library's Rust driver races waits with.
test("the npm .wasm holds no executor and hands JS no closure", () => {
  const module = new WebAssembly.Module(readFileSync(join(pkg, "web/user_management_client_bg.wasm")));
  const names = [
    ...WebAssembly.Module.imports(module).map(({ name }) => `import ${name}`),
    ...WebAssembly.Module.exports(module).map(({ name }) => `export ${name}`),
  ];
  assert.ok(names.some((name) => /^import __wbg_attempt_/.test(name)), `not the package's .wasm: ${names.join(", ")}`);
  const async = names.filter((name) =>
    /queueMicrotask|closure|__wbg_(stop|race|watch|then)_|_wbg_cb_unref/.test(name));
  assert.deepEqual(async, [], "the async machinery in the .wasm");
});
