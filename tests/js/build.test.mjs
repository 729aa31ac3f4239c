// npm/build.mjs assembles the package from wasm-pack's output
// (target/wasm-pack/web/, left by `make build`) and npm/ alone: run twice
// into the same folder, it writes the same files, byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo } from "../lib/harness.mjs";

/** Every file below `dir`: its path relative to `dir` and its bytes. */
function snapshot(dir) {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(files.map((entry) => {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    return [path.slice(dir.length + 1), readFileSync(path)];
  }).sort(([a], [b]) => a.localeCompare(b)));
}

test("npm/build.mjs run twice on the same folder writes the same files", (t) => {
  const out = mkdtempSync(join(tmpdir(), "umc-build-"));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const build = () => execFileSync(process.execPath, [join(repo, "npm/build.mjs"), out], { cwd: repo, encoding: "utf8" });

  build();
  const first = snapshot(out);
  assert.ok(first.has("web/user_management_client_bg.wasm") && first.has("package.json") && first.has("node.cjs"),
    `not a package: ${[...first.keys()].join(", ")}`);
  build();
  const second = snapshot(out);

  assert.deepEqual([...second.keys()], [...first.keys()]);
  const changed = [...first].filter(([path, bytes]) => !bytes.equals(second.get(path))).map(([path]) => path);
  assert.deepEqual(changed, [], "files the second run wrote differently");
});
