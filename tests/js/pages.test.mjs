// listPages through the package's entries (the gate's async generator over
// the glue's listPage), against the reference server (USERS_API_URL): every
// page once and no request more, `break` stops fetching, bad params reject
// the first next() with nothing sent, a freed client's walk rejects like
// its other calls (and an unused one leaves no unhandled rejection), a
// result that is not a page is `decode`, and a client made while the .wasm
// loads walks too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { apiUrl, pkg, truth } from "../lib/harness.mjs";

const api = apiUrl();

const entries = {
  "ES module": () => import(pathToFileURL(join(pkg, "node.mjs")).href),
  CommonJS: async () => createRequire(join(pkg, "x.js"))("./node.cjs"),
};

/** A fetch that passes requests on and records each one's JSON body. */
function counting() {
  const bodies = [];
  const fetch = (url, init) => {
    bodies.push(JSON.parse(init.body));
    return globalThis.fetch(url, init);
  };
  return { fetch, bodies };
}

/** A fetch that answers every request with `result` in a 200 envelope. */
function answering(result) {
  const bodies = [];
  const fetch = async (url, init) => {
    bodies.push(JSON.parse(init.body));
    return new Response(JSON.stringify({ status: 200, result }), { headers: { "content-type": "application/json" } });
  };
  return { fetch, bodies };
}

for (const [name, load] of Object.entries(entries)) {
  test(`${name}: for await walks every page once, and no request more`, async () => {
    const m = await load();
    const expected = await truth({ active: "true" });
    assert.ok(expected > 100, `the seeded server has ${expected} active users`);
    const { fetch, bodies } = counting();
    const client = new m.UsersClient({ baseUrl: api, fetch });
    const walk = client.listPages({ active: true, pageSize: 100 });
    assert.equal(typeof walk[Symbol.asyncIterator], "function");
    let users = 0;
    let pages = 0;
    for await (const envelope of walk) {
      pages += 1;
      assert.equal(envelope.status, 200);
      assert.equal(envelope.result.page, pages);
      assert.equal(envelope.result.totalUsers, expected);
      users += envelope.result.users.length;
    }
    assert.equal(users, expected);
    assert.equal(pages, Math.ceil(expected / 100));
    assert.deepEqual(bodies.map((body) => body.page), Array.from({ length: pages }, (_, i) => i + 1));
    assert.deepEqual(bodies[0], { active: "true", pageSize: 100, page: 1 });
  });

  test(`${name}: break after the first page sends one request`, async () => {
    const m = await load();
    const { fetch, bodies } = counting();
    const client = new m.UsersClient({ baseUrl: api, fetch });
    for await (const envelope of client.listPages({ active: true, pageSize: 100 })) {
      assert.equal(envelope.result.users.length, 100);
      break;
    }
    // A call after it is the second request the fetch sees, and the last.
    await client.countUsers();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(bodies.length, 2);
    assert.deepEqual(bodies[1], {});
  });

  test(`${name}: bad params reject the first next() with nothing sent`, async () => {
    const m = await load();
    const { fetch, bodies } = counting();
    const client = new m.UsersClient({ baseUrl: api, fetch });
    for (const [params, param] of [[{ active: "yes" }, "active"], [{ page: 0 }, "page"], [{ pageSize: "20" }, "pageSize"], [[], "params"]]) {
      const walk = client.listPages(params);
      await assert.rejects(walk[Symbol.asyncIterator]().next(), (error) => {
        assert.ok(error instanceof m.UsersApiError, String(error));
        assert.equal(error.kind, "validation");
        assert.equal(error.param, param);
        return true;
      });
    }
    assert.equal(bodies.length, 0);
  });

  test(`${name}: a result that is not a page is decode, saying what listPages needs`, async () => {
    const m = await load();
    const { fetch, bodies } = answering({ items: [] });
    const client = new m.UsersClient({ baseUrl: api, fetch });
    const iterator = client.listPages()[Symbol.asyncIterator]();
    await assert.rejects(iterator.next(), (error) => {
      assert.ok(error instanceof m.UsersApiError, String(error));
      assert.equal(error.kind, "decode");
      assert.equal(error.status, 200);
      assert.match(error.message, /^listPages needs each result to be a page: an object with a users array and a whole totalUsers/);
      return true;
    });
    assert.deepEqual(await iterator.next(), { value: undefined, done: true });
    assert.equal(bodies.length, 1);
  });

  test(`${name}: a freed client's walk rejects as its other calls do; an unused one rejects nothing`, async () => {
    const m = await load();
    const unhandled = [];
    const onUnhandled = (reason) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const client = new m.UsersClient(api);
      client.free();
      client.listPages();
      await assert.rejects(client.listPages()[Symbol.asyncIterator]().next(), (error) => {
        assert.ok(error instanceof m.UsersApiError, String(error));
        assert.equal(error.kind, "validation");
        assert.match(error.message, /this UsersClient was freed/);
        return true;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
}

test("a client made while the .wasm loads walks its pages once it is ready", async () => {
  // browser.js in a fresh Node process, whose fetch holds the .wasm back
  // until the walk has been asked for its first page.
  const script = `
    import { readFileSync } from "node:fs";
    const api = ${JSON.stringify(api)};
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const realFetch = globalThis.fetch;
    let requests = 0;
    globalThis.fetch = async (input, init) => {
      const url = String(input?.url ?? input);
      if (!url.startsWith("file:")) { requests += 1; return realFetch(input, init); }
      await held;
      return new Response(readFileSync(new URL(url)), { headers: { "content-type": "application/wasm" } });
    };
    const m = await import(${JSON.stringify(pathToFileURL(join(pkg, "browser.js")).href)});
    const client = new m.UsersClient(api);
    const walked = (async () => {
      let users = 0, pages = 0;
      for await (const envelope of client.listPages({ active: "true", pageSize: 300 })) {
        users += envelope.result.users.length;
        pages += 1;
      }
      return { users, pages };
    })();
    const early = requests;
    release();
    console.log(JSON.stringify({ early, ...(await walked), requests }));`;
  const got = await new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: pkg, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()));
    });
  });
  const expected = await truth({ active: "true" });
  assert.equal(got.early, 0, "nothing is sent before the .wasm is ready");
  assert.equal(got.users, expected);
  assert.equal(got.pages, Math.ceil(expected / 300));
  assert.equal(got.requests, got.pages);
});
