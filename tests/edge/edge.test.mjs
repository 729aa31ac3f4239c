// The two edge handlers, each a wasi:http handler served by `wasmtime
// serve` (the wasmtime CLI in target/venv) against the reference server
// (scripts/with-server.sh --faults): the handler on the library
// (component/examples/edge.rs: target/edge/handler.wasm) and a handler
// importing `users` composed with the component
// (component/examples/users_handler.rs: target/edge/composed.wasm), both
// built by `make component`. For each: the true count of active users; 502
// with kind "network" when the upstream is down; 504 with kind "timeout"
// when it never answers; 16 requests at once, each with the right count,
// while a request that waits on an upstream holds none of them.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { apiUrl, freePort, repo, startUntil, stop, truth } from "../lib/harness.mjs";

const server = apiUrl();
const wasmtime = join(repo, "target/venv/bin/wasmtime");
const started = [];
after(() => Promise.all(started.map(stop)));

/** `wasmtime serve` of `handler` with `env`; resolves to its URL. */
async function serve(handler, env) {
  assert.ok(existsSync(handler), `${handler} is missing: run make component`);
  const port = await freePort();
  const args = ["serve", "-S", "cli=y", "--addr", `127.0.0.1:${port}`];
  for (const [name, value] of Object.entries(env)) args.push("--env", `${name}=${value}`);
  const served = await startUntil(wasmtime, [...args, handler], {}, /Serving HTTP on (\S+)/);
  started.push(served.child);
  return `http://127.0.0.1:${port}/`;
}

/** GET `url`: the status and the parsed JSON body. */
async function get(url) {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

for (const name of ["handler", "composed"]) {
  describe(`target/edge/${name}.wasm`, () => {
    const handler = join(repo, `target/edge/${name}.wasm`);
    let good, down, hanging, waiting, key;
    before(async () => {
      key = `edge-${name}-${process.pid}`;
      const refused = `http://127.0.0.1:${await freePort()}`;
      [good, down, hanging, waiting] = await Promise.all([
        serve(handler, { USERS_API_BASE_URL: server }),
        serve(handler, { USERS_API_BASE_URL: refused }),
        // /faults/held answers after 30 s; the handler's upstream timeout is
        // 300 ms (its default, 10 s, would only make the test longer)...
        serve(handler, { USERS_API_BASE_URL: `${server}/faults/held/${key}`, USERS_API_TIMEOUT_MS: "300" }),
        // ... or none, so that a request waits for those 30 s.
        serve(handler, { USERS_API_BASE_URL: `${server}/faults/held/${key}-waiting`, USERS_API_TIMEOUT_MS: "0" }),
      ]);
    });

    test("GET / answers the upstream's count of active users", async () => {
      const { status, body } = await get(good);
      assert.equal(status, 200);
      assert.deepEqual(body, { activeUsers: await truth({ active: "true" }) });
    });

    test("an upstream that is down: 502, kind network", async () => {
      const { status, body } = await get(down);
      assert.equal(status, 502);
      assert.equal(body.error.kind, "network", body.error.message);
    });

    test("an upstream that never answers: 504, kind timeout, after its retries", async () => {
      const { status, body } = await get(hanging);
      assert.equal(status, 504);
      assert.equal(body.error.kind, "timeout", body.error.message);
      // The default retries: three requests reached the upstream.
      const { attempts } = await (await fetch(`${server}/faults/held/${key}/attempts`)).json();
      assert.equal(attempts, 3);
    });

    test("16 requests at once each get the right count, and a waiting one holds none of them", async () => {
      const expected = await truth({ active: "true" });
      // A request whose upstream answers only after 30 s, and which has no
      // timeout: it still waits when the 16 are answered (or the 16 waited for it).
      const gaveUp = new AbortController();
      let waitingDone = false;
      const slow = fetch(waiting, { signal: gaveUp.signal }).then(
        () => { waitingDone = true; },
        () => {},
      );
      const answers = await Promise.all(Array.from({ length: 16 }, () => get(good)));
      assert.equal(waitingDone, false, "the 16 waited for the waiting request");
      for (const { status, body } of answers) {
        assert.equal(status, 200);
        assert.deepEqual(body, { activeUsers: expected });
      }
      gaveUp.abort();
      await slow;
    });

    test("any other path is 404; another method 405", async () => {
      const other = await get(new URL("/elsewhere", good));
      assert.equal(other.status, 404);
      const posted = await fetch(good, { method: "POST" });
      assert.equal(posted.status, 405);
      assert.equal((await posted.json()).error.kind, "validation");
    });
  });
}
