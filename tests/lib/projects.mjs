// The example projects the tests install from their own locks, each in a
// work folder under target/ as its user has it: its locked dependencies,
// then the packed tarball. The committed package.json names the package as
// a user's does (`^0.1.0`, not in the lock: it is not taken from a
// registry here); the work copy leaves it out, and the tarball is installed
// with --no-save.
//
// The locks are installed by set-up (scripts/setup.sh runs this file), each
// only when it changed since its last install. The test targets find every
// install current and add only the tarball, with npm's --offline (see
// harness.mjs), so they read no registry: a lock that changed after set-up
// fails the test, naming the set-up.
//
//   node tests/lib/projects.mjs    installs every project's lock (set-up)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { npmInstall, quiet, repo } from "./harness.mjs";

/**
 * examples/NAME → the test that installs it (its work folder is
 * target/TEST/NAME) and how. `npm: "install"`: `npm install` honouring the lock,
 * not `npm ci`, for the projects whose locks lack other platforms' builds
 * of optional native packages (next's, rollup's): this machine's registry
 * mirror does not serve them, so the locks written here lack them and
 * `npm ci` refuses those locks.
 */
export const projects = {
  next: { test: "frameworks", npm: "install" },
  rollup: { test: "frameworks", npm: "install" },
  sveltekit: { test: "frameworks", npm: "install" },
  nuxt: { test: "frameworks", npm: "install" },
  astro: { test: "frameworks", npm: "install" },
  worker: { test: "frameworks", npm: "install" },
  jest: { test: "runners", npm: "ci" },
  vitest: { test: "runners", npm: "ci" },
  "msw-node": { test: "mocks", npm: "ci" },
  "msw-browser": { test: "mocks", npm: "ci" },
};

// What a work copy never takes from examples/: installs and build outputs.
const generated = /(^|\/)(node_modules|\.next|\.nuxt|\.output|\.svelte-kit|build|dist)(\/|$)/;

/** The sha-256 of a project's lock, which its install's stamp holds. */
const lockHash = (dir) => createHash("sha256").update(readFileSync(join(dir, "package-lock.json"))).digest("hex");
const stampOf = (dir) => join(dir, "node_modules", ".lock-stamp");
const current = (dir) => existsSync(stampOf(dir)) && readFileSync(stampOf(dir), "utf8") === lockHash(dir);

/** examples/NAME copied afresh into its work folder (its node_modules kept); the folder. */
function workCopy(name) {
  const dir = join(repo, "target", projects[name].test, name);
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(dir)) if (entry !== "node_modules") rmSync(join(dir, entry), { recursive: true, force: true });
  cpSync(join(repo, "examples", name), dir, { recursive: true, filter: (src) => !generated.test(relative(repo, src)) });
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  delete manifest.dependencies["user-management-client"];
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  return dir;
}

/**
 * Installs examples/NAME's lock in its work folder unless it is installed
 * already (set-up). Resolves to whether it installed; rejects, with npm's
 * errors, when npm fails.
 */
export async function installLock(name) {
  const dir = workCopy(name);
  if (current(dir)) return false;
  // The committed lock's hash: `npm install` may rewrite the copy.
  const lock = lockHash(dir);
  rmSync(join(dir, "node_modules"), { recursive: true, force: true });
  const npm = spawn("npm", [projects[name].npm, ...quiet], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  npm.stderr.setEncoding("utf8").on("data", (chunk) => { errors += chunk; });
  const [code] = await once(npm, "close");
  if (code !== 0) throw new Error(`npm ${projects[name].npm} in ${relative(repo, dir)} failed:\n${errors}`);
  writeFileSync(stampOf(dir), lock);
  return true;
}

/**
 * examples/NAME in its work folder with `tarball` installed, for a test:
 * its lock must have been installed by set-up. The folder.
 */
export function lockedProject(name, tarball) {
  const dir = workCopy(name);
  if (!current(dir)) throw new Error(`examples/${name}: its lock is not installed in ${relative(repo, dir)}: run scripts/setup.sh`);
  npmInstall(dir, "--no-save", tarball);
  // Vite's pre-bundled copy (Vitest's browser mode, Vite's dev server) is
  // keyed by the lock, which the tarball does not change: dropped, so each
  // run uses this build.
  rmSync(join(dir, "node_modules", ".vite"), { recursive: true, force: true });
  return dir;
}

// Three installs at once: npm spends much of each waiting on the registry
// and the disk, and the projects' downloads do not overlap much.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const queue = Object.keys(projects);
  const worker = async () => {
    for (let name; (name = queue.shift()); ) {
      const started = performance.now();
      if (await installLock(name)) console.log(`[setup]   npm ${projects[name].npm} in examples/${name}'s work copy: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
}
