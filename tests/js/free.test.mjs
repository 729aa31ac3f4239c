// free() and Symbol.dispose on the package's UsersClient, in the ES module
// and CommonJS entries and in a client made while the .wasm still loads:
// after free() every call rejects with a validation UsersApiError saying
// the client was freed, free() twice does nothing, and a call already under
// way still settles. Against the reference server (USERS_API_URL).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const api = apiUrl();
const FREED = /this UsersClient was freed/;

/** That `promise` rejects with the freed error of the entry `m`. */
async function rejectsFreed(m, promise) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof m.UsersApiError, String(error));
    assert.equal(error.kind, "validation");
    assert.match(error.message, FREED);
    return true;
  });
}

const entries = {
  "ES module": () => import(pathToFileURL(join(pkg, "node.mjs")).href),
  CommonJS: async () => createRequire(join(pkg, "x.js"))("./node.cjs"),
};

for (const [name, load] of Object.entries(entries)) {
  test(`${name}: after free() every call rejects, and free() twice does nothing`, async () => {
    const m = await load();
    const expected = await truth();
    const client = new m.UsersClient(api);
    assert.ok(client instanceof m.UsersClient);
    const underWay = client.countUsers({ active: "true" });
    client.free();
    client.free();
    assert.equal((await underWay).result.totalUsers, expected, "a call under way still settles");
    await rejectsFreed(m, client.countUsers({ active: "true" }));
    await rejectsFreed(m, client.listUsers());
    client[Symbol.dispose]();

    const disposed = new m.UsersClient(api);
    disposed[Symbol.dispose]();
    await rejectsFreed(m, disposed.countUsers());

    // Another client is untouched by the first one's free().
    const other = new m.UsersClient(api);
    assert.equal((await other.countUsers({ active: "true" })).result.totalUsers, expected);
  });
}

test("a method called without its client rejects with a validation UsersApiError saying so, and sends nothing", async () => {
  const { UsersClient, UsersApiError } = await entries["ES module"]();
  let sent = 0;
  const client = new UsersClient({ baseUrl: api, fetch: (...args) => (sent++, fetch(...args)) });
  const { countUsers, listUsers, listPages } = client;
  const walk = async () => { for await (const _ of listPages({})) break; };
  for (const [method, promise] of [["countUsers", countUsers({})], ["listUsers", listUsers()], ["listPages", walk()]]) {
    await assert.rejects(promise, (error) => {
      assert.ok(error instanceof UsersApiError, `${method}: ${error}`);
      assert.equal(error.kind, "validation", method);
      assert.equal(error.param, "client", method);
      assert.equal(error.message, "a method was called off its UsersClient: call the API on a live one", method);
      return true;
    });
  }
  assert.equal(sent, 0);
  assert.equal((await countUsers.call(client, { active: "true" })).result.totalUsers, await truth({ active: "true" }));
  assert.equal(sent, 1);
});

test("a client made while the .wasm loads: free() before and after it is ready, and bad options", async () => {
  // browser.js in a fresh Node process, whose fetch holds the .wasm back
  // until the clients are made.
  const script = `
    import { readFileSync } from "node:fs";
    const api = ${JSON.stringify(api)};
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const url = String(input?.url ?? input);
      if (!url.startsWith("file:")) return realFetch(input, init);
      await held;
      return new Response(readFileSync(new URL(url)), { headers: { "content-type": "application/wasm" } });
    };
    const m = await import(${JSON.stringify(pathToFileURL(join(pkg, "browser.js")).href)});
    const outcome = (p) => p.then((r) => r.result.totalUsers,
      (e) => ({ error: e instanceof m.UsersApiError, kind: e.kind, param: e.param, message: e.message }));
    const early = new m.UsersClient(api);
    const freedEarly = new m.UsersClient(api);
    freedEarly.free();
    freedEarly.free();
    const bad = new m.UsersClient({ baseUrl: api, retries: -1 });
    const pending = outcome(early.countUsers({ active: "true" }));
    const freedPending = outcome(freedEarly.countUsers({ active: "true" }));
    release();
    const got = { early: await pending, freedEarly: await freedPending, bad: await outcome(bad.countUsers()) };
    early.free();
    early.free();
    got.afterFree = await outcome(early.countUsers());
    console.log(JSON.stringify(got));`;
  const got = await new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: pkg, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()));
    });
  });
  assert.equal(got.early, await truth());
  for (const what of ["freedEarly", "afterFree"]) {
    assert.equal(got[what].error, true, what);
    assert.equal(got[what].kind, "validation", what);
    assert.match(got[what].message, FREED, what);
  }
  assert.equal(got.bad.error, true);
  assert.equal(got.bad.kind, "validation");
  assert.equal(got.bad.param, "retries");
});

for (const [name, load] of Object.entries(entries)) {
  test(`${name}: a client made without options throws the validation error naming baseUrl`, async () => {
    const m = await load();
    for (const options of [undefined, null]) {
      assert.throws(() => new m.UsersClient(options), (error) => {
        assert.ok(error instanceof m.UsersApiError, String(error));
        assert.deepEqual([error.kind, error.param], ["validation", "baseUrl"]);
        return true;
      });
    }
  });
}
