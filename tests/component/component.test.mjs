// The component (target/component/user-management-client.wasm) against the
// reference server, in four hosts: transpiled by jco and run here in Node;
// the wasmtime CLI (`wasmtime run -S http --invoke`, one process a call, the
// component compiled ahead once); wasmtime-py (python_host.py, one instance
// for the whole run); and transpiled by jco for browsers (JSPI) in headless
// Chromium. All run the one table in cases.json; after every failure the
// next call (on the same instance, where the host keeps one) must work; and
// every host must have run every case. examples/python/count_users.py runs
// too. Needs USERS_API_URL (scripts/with-server.sh --faults), `make
// component`, and the wasmtime CLI and wasmtime-py in target/venv
// (scripts/setup.sh).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "../lib/browsers.mjs";
import { apiUrl, freePort } from "../lib/harness.mjs";
import { serve } from "../lib/pages.mjs";
import { leakedPiece } from "../../js/tests/common/helpers.js";
import { invocation, parse } from "./wave.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const server = apiUrl();
const wasm = `${root}target/component/user-management-client.wasm`;
const transpiled = `${root}target/component/jco/user-management-client.js`;
const venv = `${root}target/venv/bin`;
const { cases } = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
/** The start of the `big` fault scenarios' text (server/src/faults.rs) before its pair. */
const numbers = Array.from({ length: 20_000 }, (_, n) => `${n} `).join("");

// jco gives s64 and u64 as BigInt and `option` none as undefined: as JSON.
const plain = (value) =>
  JSON.parse(JSON.stringify(value, (_, v) => (typeof v === "bigint" ? Number(v) : v)));

/** The component transpiled by jco, in this process. */
async function jcoHost() {
  const { users } = await import(pathToFileURL(transpiled).href);
  return {
    async call(op, options, params) {
      try {
        const value = op === "count" ? users.countUsers(options, params) : users.listUsers(options, params);
        return { ok: plain(value) };
      } catch (error) {
        return error?.payload ? { error: plain(error.payload) } : { trap: String(error) };
      }
    },
    close() {},
  };
}

/**
 * The component in the wasmtime CLI, as its users run it: compiled ahead
 * once (`wasmtime compile`), then one `wasmtime run -S http --invoke` per
 * call, the call written in WAVE and its printed result read back. An
 * `err(...)` is printed and exits 0 like an `ok(...)`; a trap exits non-zero.
 */
async function wasmtimeCliHost() {
  const wasmtime = `${venv}/wasmtime`;
  const compiled = `${root}target/component/user-management-client.cwasm`;
  execFileSync(wasmtime, ["compile", wasm, "-o", compiled], { stdio: ["ignore", "inherit", "inherit"] });
  const run = (expression) =>
    new Promise((resolve) => {
      const child = spawn(wasmtime, ["run", "-S", "http", "--allow-precompiled", "--invoke", expression, compiled], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
      child.on("error", (error) => resolve({ trap: `wasmtime did not start (${error.message}): run scripts/setup.sh` }));
      child.on("close", (code) => resolve(code === 0 ? parse(stdout.trim()) : { trap: `wasmtime exited ${code}: ${stderr}` }));
    });
  return {
    call: (op, options, params) => run(invocation(op, options, params)),
    close() {},
  };
}

/** The component in wasmtime-py (python_host.py): one JSON line per call, one instance. */
async function pythonHost() {
  const child = spawn(`${venv}/python`, [fileURLToPath(new URL("./python_host.py", import.meta.url)), wasm], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  // A host that died is reported by `exited`, not by a write to its stdin.
  child.stdin.on("error", () => {});
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => {
    child.on("exit", (code) => resolve({ trap: `the host exited (${code})` }));
    child.on("error", (error) => resolve({ trap: `the host did not start (${error.message}): run scripts/setup.sh` }));
  });
  return {
    async call(op, options, params) {
      child.stdin.write(`${JSON.stringify({ op, options, params })}\n`);
      const next = lines.next().then(({ value, done }) => (done ? { trap: "the host closed stdout" } : JSON.parse(value)));
      return Promise.race([next, exited]);
    },
    close() {
      child.stdin.end();
    },
  };
}

/** The component transpiled for browsers, in a page of headless Chromium. */
async function chromiumHost() {
  const shim = "/node_modules/@bytecodealliance/preview2-shim/dist/browser";
  const imports = Object.fromEntries(
    ["cli", "clocks", "http", "io", "random"].map((name) => [`@bytecodealliance/preview2-shim/${name}`, `${shim}/${name}.js`]),
  );
  const files = await serve(root.replace(/\/$/, ""));
  const browser = await launchChromium();
  const page = await browser.newPage();
  writeFileSync(
    `${root}target/component/jco-browser/test.html`,
    `<!doctype html><script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module">import { users } from "./user-management-client.js"; window.users = users;</script>`,
  );
  await page.goto(`http://127.0.0.1:${files.address().port}/target/component/jco-browser/test.html`);
  await page.waitForFunction(() => window.users);
  return {
    async call(op, options, params) {
      const answer = await page.evaluate(
        async ([op, options, params]) => {
          const json = (value) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? Number(v) : v));
          try {
            const value = await (op === "count" ? users.countUsers(options, params) : users.listUsers(options, params));
            return json({ ok: value });
          } catch (error) {
            return error?.payload ? json({ error: error.payload }) : json({ trap: String(error) });
          }
        },
        [op, options, params],
      );
      return JSON.parse(answer);
    },
    async close() {
      await browser.close();
      files.close();
    },
  };
}

/** What the server itself answers to the same call. */
async function direct(op, params) {
  const path = op === "count" ? "/api/users/count" : "/api/users";
  const response = await fetch(`${server}${path}`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return response.json();
}

/** `actual` has every key of `expected` with the same value, deeply. */
function includes(actual, expected, where = "") {
  if (expected === null || typeof expected !== "object") {
    assert.deepEqual(actual, expected, where);
    return;
  }
  assert.ok(actual && typeof actual === "object", `${where} is an object: ${JSON.stringify(actual)}`);
  for (const [key, value] of Object.entries(expected)) includes(actual[key], value, `${where}.${key}`);
}

const hosts = [["jco", jcoHost], ["wasmtime CLI", wasmtimeCliHost], ["wasmtime-py", pythonHost], ["chromium", chromiumHost]];
/** How many cases each host ran to the end. */
const ran = Object.fromEntries(hosts.map(([hostName]) => [hostName, 0]));
for (const [hostName, makeHost] of hosts) {
  describe(`component in ${hostName}`, () => {
    let host;
    let refused;
    before(async () => {
      host = await makeHost();
      refused = `http://127.0.0.1:${await freePort()}`;
    });
    after(async () => host?.close());

    cases.forEach((c, index) => {
      test(c.name, async () => {
        const key = `${hostName.replace(/\W+/g, "-")}-${index}-${process.pid}`;
        let scenario;
        const baseUrl = c.options.baseUrl
          .replace("{server}", server)
          .replace("{refused}", refused)
          .replace(/\{faults:([a-z0-9-]+)\}/, (_, name) => {
            scenario = name;
            return `${server}/faults/${name}/${key}`;
          });
        const options = { headers: [], ...c.options, baseUrl };
        const started = performance.now();
        const outcome = await host.call(c.op, options, c.params);
        const elapsed = performance.now() - started;
        const expect = c.expect;
        assert.equal(outcome.trap, undefined, `the call trapped: ${outcome.trap}`);

        if (expect.error) {
          assert.ok(outcome.error, `an error, not ${JSON.stringify(outcome)}`);
          const error = outcome.error;
          includes(error, expect.error, "error");
          for (const key of expect.absent ?? []) assert.equal(error[key], undefined, `error.${key} is absent`);
          if (expect.messageIncludes) assert.ok(error.message.includes(expect.messageIncludes), error.message);
          if (expect.bodyIncludes) assert.ok(error.body?.includes(expect.bodyIncludes), error.body);
          if (expect.bodyIsNumbers) {
            // The `big` fault scenarios' text: "0 1 2 …", each number followed
            // by a space, its first `before` characters, then `then`.
            const { before, then } = expect.bodyIsNumbers;
            const expected = numbers.slice(0, before) + then;
            assert.equal(error.body.length, expected.length, "the body's length in UTF-16 units");
            assert.ok(error.body === expected, "the body is not the text's first units");
          }
        } else {
          assert.ok("ok" in outcome, `a result, not ${JSON.stringify(outcome)}`);
          const value = c.op === "list" ? JSON.parse(outcome.ok) : outcome.ok;
          if (expect.sameAsServer) {
            const answer = await direct(c.op, c.params);
            const expected = c.op === "count" ? { status: answer.status, totalUsers: answer.result.totalUsers } : answer;
            assert.deepEqual(value, expected);
          }
          if (expect.okIncludes) includes(value, expect.okIncludes, "result");
          if (expect.okText !== undefined) assert.equal(outcome.ok, expect.okText);
        }
        if (expect.secret) {
          // Each string the host handed back, as it is (not JSON-quoted again).
          const strings = (v) => (typeof v == "string" ? [v] : Object.values(v ?? {}).flatMap(strings));
          for (const text of strings(outcome)) assert.equal(leakedPiece(text, expect.secret), null, text);
        }
        if (expect.attempts !== undefined) {
          const { attempts } = await (await fetch(`${server}/faults/${scenario}/${key}/attempts`)).json();
          assert.equal(attempts, expect.attempts, "the requests the server received");
        }
        // Lower bounds: a wait the server asked for was kept.
        if (expect.slowerThanMs) assert.ok(elapsed >= expect.slowerThanMs, `${elapsed} ms`);
        // No upper bound on `elapsed`: that a timeout came before the
        // server's answer is shown by the outcome itself (kind "timeout", no
        // httpStatus, the attempts counted), not by the clock.

        // The same instance answers the next call.
        const next = await host.call("count", { baseUrl: server, headers: [] }, {});
        assert.equal(next.ok?.status, 200, `the next call: ${JSON.stringify(next)}`);
        ran[hostName] += 1;
      });
    });
  });
}

// Runs after every host's cases: each ran the whole table.
test("every host ran every case", () => {
  assert.ok(cases.length > 0, "cases.json has cases");
  assert.deepEqual(ran, Object.fromEntries(hosts.map(([hostName]) => [hostName, cases.length])));
});

// examples/python: a user's program calling the component through wasmtime-py.
test("examples/python/count_users.py prints the server's count of active users", async () => {
  const out = execFileSync(`${venv}/python`, [`${root}examples/python/count_users.py`, wasm, server], { encoding: "utf8" });
  const answer = await direct("count", { active: "true" });
  assert.deepEqual(JSON.parse(out), { status: 200, totalUsers: answer.result.totalUsers });
});
