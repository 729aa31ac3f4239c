// `timeoutMs` in Cloudflare Workers (workerd, through miniflare). workerd
// ties each timer to the request that set it and drops it when that request
// ends, so each call needs a timer of its own: one shared across calls would
// leave a later request's call with no deadline at all. Each request here
// is a separate worker invocation, as in production: a quick call first,
// then calls against a server that never answers, one after the other and
// two at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { bin, pkg } from "../lib/harness.mjs";

const TIMEOUT_MS = 400;
// Only a hang guard: a call that never ends is the failure looked for.
const GUARD_MS = 30_000;

/** A server that answers `/quick/...` with a count and never answers `/stall/...`. */
async function startServer() {
  const held = new Set();
  const server = createServer((req, res) => {
    if (req.url.startsWith("/quick/")) {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ status: 200, result: { totalUsers: 3 } }));
    } else {
      held.add(res);
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    for (const res of held) res.destroy();
    server.closeAllConnections?.();
    server.close();
  };
  return { url: `http://127.0.0.1:${server.address().port}`, close };
}

const WORKER = `
import { UsersClient } from "${join(pkg, "workerd.js")}";
export default {
  async fetch(request) {
    const { searchParams } = new URL(request.url);
    const client = new UsersClient({ baseUrl: searchParams.get("api"), timeoutMs: ${TIMEOUT_MS}, retries: 0 });
    try {
      const got = await client.countUsers({ active: "true" });
      return Response.json({ ok: got.result.totalUsers });
    } catch (err) {
      return Response.json({ kind: err.kind });
    }
  },
};
`;

test("timeoutMs holds in every request of a Cloudflare Worker", { timeout: GUARD_MS * 2 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "umc-workerd-"));
  writeFileSync(join(dir, "src.js"), WORKER);
  execFileSync(bin("esbuild"), [join(dir, "src.js"), "--bundle", "--format=esm",
    "--platform=neutral", "--loader:.wasm=copy", "--log-level=warning", `--outdir=${join(dir, "out")}`]);
  const server = await startServer();
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(dir, "out/src.js"),
    modulesRoot: join(dir, "out"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
  });
  t.after(async () => {
    await mf.dispose();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const ask = async (path) => {
    let guard;
    const hung = new Promise((resolve) => { guard = setTimeout(() => resolve({ hung: true }), GUARD_MS); });
    const api = encodeURIComponent(`${server.url}${path}`);
    const got = await Promise.race([mf.dispatchFetch(`http://worker.local/?api=${api}`).then((r) => r.json()), hung]);
    clearTimeout(guard);
    return got;
  };

  assert.deepEqual(await ask("/quick/1"), { ok: 3 });
  // The quick request has ended; a stalled call in the next one must still time out.
  assert.deepEqual(await ask("/stall/1"), { kind: "timeout" });
  assert.deepEqual(await ask("/quick/2"), { ok: 3 });
  // Two requests at once: the first ends quickly, the second stalls.
  const [quick, stalled] = await Promise.all([ask("/quick/3"), ask("/stall/2")]);
  assert.deepEqual(quick, { ok: 3 });
  assert.deepEqual(stalled, { kind: "timeout" });
});
