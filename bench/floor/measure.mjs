// What a page downloads for the floor crate (bench/floor/src/lib.rs) beside
// what it downloads for the package, both gzip -9 with Node's zlib as the
// size test measures. The floor is built the way scripts/package.sh builds
// the package: the release profile, wasm-bindgen's web target, the
// wasm-opt passes of js/Cargo.toml and the glue minified as npm/build.mjs
// minifies it; the snippet, the gate and browser.js are the package's own
// (pkg/, so run `make build` first). `node bench/floor/measure.mjs`
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { transformSync } from "esbuild";
import { bin, pkg, repo } from "../../tests/lib/harness.mjs";

const crate = join(repo, "bench/floor");
const target = join(repo, "target/floor");
const out = join(target, "web");
const run = (cmd, args, options = {}) => execFileSync(cmd, args, { stdio: "inherit", ...options });

run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--manifest-path", join(crate, "Cargo.toml")], {
  env: { ...process.env, CARGO_TARGET_DIR: target },
});
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run("wasm-bindgen", ["--target", "web", "--out-dir", out, "--out-name", "floor", join(target, "wasm32-unknown-unknown/release/floor.wasm")]);

const manifest = readFileSync(join(repo, "js/Cargo.toml"), "utf8");
const passes = JSON.parse(manifest.match(/^wasm-opt = (\[.*\])$/m)[1]);
run(bin("wasm-opt"), [...passes, join(out, "floor_bg.wasm"), "-o", join(out, "floor_bg.wasm")]);

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const minified = (file) => transformSync(readFileSync(file, "utf8"), { minify: true, target: "es2020" }).code;
const web = join(pkg, "web");
const snippet = execFileSync("find", [join(web, "snippets"), "-name", "*.js"], { encoding: "utf8" }).trim();
const shared = {
  "snippet (the package's)": gz(readFileSync(snippet)),
  "gate.js (the package's)": gz(readFileSync(join(web, "gate.js"))),
  "browser.js (the package's)": gz(readFileSync(join(pkg, "browser.js"))),
};
const rows = (own) => Object.entries({ ...own, ...shared });
const floor = rows({
  ".wasm": gz(readFileSync(join(out, "floor_bg.wasm"))),
  glue: gz(minified(join(out, "floor.js"))),
});
const client = rows({
  ".wasm": gz(readFileSync(join(web, "user_management_client_bg.wasm"))),
  glue: gz(readFileSync(join(web, "user_management_client.js"))),
});
const total = (list) => list.reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(`${"gzip -9".padEnd(28)} ${"floor".padStart(7)} ${"package".padStart(8)}`);
floor.forEach(([name, bytes], i) => console.log(`${name.padEnd(28)} ${String(bytes).padStart(7)} ${String(client[i][1]).padStart(8)}`));
console.log(`${"what a page downloads".padEnd(28)} ${String(total(floor)).padStart(7)} ${String(total(client)).padStart(8)}`);
console.log(`the client's rules and features: ${total(client) - total(floor)} B`);
