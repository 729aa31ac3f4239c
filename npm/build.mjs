// Assembles pkg/ into ONE npm package from wasm-bindgen's web target
// (pkg/web/) and nodejs target (pkg/node/): the entry modules and types from
// npm/, a package.json whose `exports` route each runtime to the entry that
// loads the .wasm the way that runtime allows, and nothing a user does not
// need. Run by scripts/package.sh after both wasm-pack builds.
import { readFileSync, writeFileSync, readdirSync, rmSync, copyFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
const npm = join(root, "npm");

const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, "m"))[1];

/** The snippet wasm-bindgen copied into a target, relative to that target. */
function snippet(target) {
  const dir = join(pkg, target, "snippets");
  const [crate] = readdirSync(dir);
  return `snippets/${crate}/js/snippet.js`;
}

// wasm-pack leaves a .gitignore of "*" in each output: npm pack would obey it.
for (const target of ["web", "node"]) {
  rmSync(join(pkg, target, ".gitignore"), { force: true });
  rmSync(join(pkg, target, "package.json"), { force: true });
}

// The nodejs target is CommonJS, but the snippet is an ES module: turn its
// `export`s into `module.exports`, and mark the folder CommonJS (the package
// itself is "type": "module").
const nodeSnippet = join(pkg, "node", snippet("node"));
let source = readFileSync(nodeSnippet, "utf8");
const names = [...source.matchAll(/^export (?:class|function|async function) (\w+)/gm)].map((m) => m[1]);
source = source.replace(/^export (class|function|async function) /gm, "$1 ");
if (/^export /m.test(source)) throw new Error("snippet.js has an export form build.mjs cannot convert");
writeFileSync(nodeSnippet, `"use strict";\n${source}\nmodule.exports = { ${names.join(", ")} };\n`);
writeFileSync(join(pkg, "node", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

// Ship the JS minified, as bundlers would (the readable source is js/ and
// wasm-bindgen's output): about 3 KB less gzipped for a browser, measured
// by bench/. Names that are exported stay as they are.
for (const target of ["web", "node"]) {
  for (const file of [join(pkg, target, "user_management_client.js"), join(pkg, target, snippet(target))]) {
    const { code } = transformSync(readFileSync(file, "utf8"), { minify: true, target: "es2020" });
    writeFileSync(file, code);
  }
}

const entries = { "browser.js": "web", "workerd.js": "web", "deno.js": "web", "node.mjs": "web", "node.cjs": "node" };
for (const [file, target] of Object.entries(entries)) {
  const text = readFileSync(join(npm, file), "utf8").replace("__SNIPPET__", snippet(target));
  writeFileSync(join(pkg, file), text);
}
copyFileSync(join(npm, "index.d.ts"), join(pkg, "index.d.ts"));
copyFileSync(join(npm, "README.md"), join(pkg, "README.md"));
for (const license of ["LICENSE", "LICENSE-MIT", "LICENSE-APACHE"]) {
  if (existsSync(join(root, license))) copyFileSync(join(root, license), join(pkg, license));
}

const manifest = {
  name: field("name"),
  version: field("version"),
  description: field("description"),
  license: field("license"),
  repository: { type: "git", url: field("repository") },
  type: "module",
  engines: { node: ">=18" },
  types: "./index.d.ts",
  main: "./node.cjs",
  module: "./browser.js",
  browser: "./browser.js",
  exports: {
    ".": {
      types: "./index.d.ts",
      workerd: "./workerd.js",
      worker: "./workerd.js",
      deno: "./deno.js",
      node: { import: "./node.mjs", require: "./node.cjs" },
      browser: "./browser.js",
      default: "./browser.js",
    },
    "./package.json": "./package.json",
  },
  // Every entry instantiates the .wasm when imported.
  sideEffects: ["./browser.js", "./workerd.js", "./deno.js", "./node.mjs", "./node.cjs"],
  files: [
    "index.d.ts",
    ...Object.keys(entries),
    "web/user_management_client.js",
    "web/user_management_client.d.ts",
    "web/user_management_client_bg.wasm",
    `web/${snippet("web")}`,
    "node/package.json",
    "node/user_management_client.js",
    "node/user_management_client.d.ts",
    "node/user_management_client_bg.wasm",
    `node/${snippet("node")}`,
  ],
  keywords: ["users", "api-client", "wasm", "webassembly", "fetch", "cloudflare-workers", "deno"],
};
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`pkg/: ${manifest.name}@${manifest.version} with entries ${Object.keys(entries).join(", ")}`);
