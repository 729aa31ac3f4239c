// Assembles pkg/ into ONE npm package from wasm-bindgen's web target
// (pkg/web/): the entry modules and types from npm/, a package.json whose
// `exports` route each runtime to the entry that loads the .wasm the way that
// runtime allows, and nothing a user does not need. Every entry, CommonJS
// included, uses the one web/user_management_client_bg.wasm. Run by
// scripts/package.sh after the wasm-pack build.
import { readFileSync, writeFileSync, readdirSync, rmSync, copyFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync, transformSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
const npm = join(root, "npm");

const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, "m"))[1];

/** The snippet wasm-bindgen copied into a target, relative to that target. */
function snippet(target) {
  const dir = join(pkg, target, "snippets");
  const [crate] = readdirSync(dir);
  return `snippets/${crate}/snippet.js`;
}

// wasm-pack leaves a .gitignore of "*" in its output: npm pack would obey it.
rmSync(join(pkg, "web", ".gitignore"), { force: true });
rmSync(join(pkg, "web", "package.json"), { force: true });
// What an earlier build left: the nodejs target is no longer built.
rmSync(join(pkg, "node"), { recursive: true, force: true });

// Ship the JS minified, as bundlers would (the readable source is js/ and
// wasm-bindgen's output): about 3 KB less gzipped for a browser, measured
// by bench/. Names that are exported stay as they are.
for (const file of [join(pkg, "web", "user_management_client.js"), join(pkg, "web", snippet("web"))]) {
  const { code } = transformSync(readFileSync(file, "utf8"), { minify: true, target: "es2020" });
  writeFileSync(file, code);
}

const entries = ["browser.js", "workerd.js", "deno.js", "node.mjs"];
for (const file of entries) {
  const text = readFileSync(join(npm, file), "utf8").replace("__SNIPPET__", snippet("web"));
  writeFileSync(join(pkg, file), text);
}

// node.cjs: npm/node-cjs.mjs bundled into CommonJS with the web glue and
// snippet inlined, so `require` loads the same web/ .wasm as the other
// entries (no second wasm-bindgen target, no second .wasm). The glue's
// `import.meta.url` only serves its `init()` without arguments, which
// node.cjs never calls: it is left empty.
const cjsSource = join(pkg, ".node-cjs.mjs");
writeFileSync(cjsSource, readFileSync(join(npm, "node-cjs.mjs"), "utf8").replace("__SNIPPET__", snippet("web")));
try {
  buildSync({
    entryPoints: [cjsSource], outfile: join(pkg, "node.cjs"), bundle: true, format: "cjs",
    platform: "node", target: "node18", minify: true, logLevel: "warning", logOverride: { "empty-import-meta": "silent" },
    banner: { js: "// Node.js, CommonJS: the web target's glue and snippet, bundled by esbuild from npm/node-cjs.mjs.\n\"use strict\";" },
  });
} finally {
  rmSync(cjsSource, { force: true });
}

// Types: one declaration file per module format (attw, publint), the same
// declarations in each; index.d.cts is read as CommonJS, for node.cjs.
const declarations = readFileSync(join(npm, "index.d.ts"), "utf8");
writeFileSync(join(pkg, "index.d.ts"), declarations);
writeFileSync(join(pkg, "index.d.cts"), declarations);
copyFileSync(join(npm, "README.md"), join(pkg, "README.md"));
for (const license of ["LICENSE", "LICENSE-MIT", "LICENSE-APACHE"]) {
  if (existsSync(join(root, license))) copyFileSync(join(root, license), join(pkg, license));
}

// Every leaf names its types, so each resolver gets the declarations of
// the format it loads: ESM (index.d.ts) everywhere but node + require
// (index.d.cts). `main` and top-level `types` are for resolvers without
// `exports` (TypeScript's node10, old bundlers).
const esm = (file) => ({ types: "./index.d.ts", default: file });
const manifest = {
  name: field("name"),
  version: field("version"),
  description: field("description"),
  license: field("license"),
  repository: { type: "git", url: field("repository") },
  type: "module",
  engines: { node: ">=18" },
  types: "./index.d.cts",
  main: "./node.cjs",
  module: "./browser.js",
  exports: {
    ".": {
      workerd: esm("./workerd.js"),
      worker: esm("./workerd.js"),
      deno: esm("./deno.js"),
      node: {
        import: esm("./node.mjs"),
        require: { types: "./index.d.cts", default: "./node.cjs" },
      },
      browser: esm("./browser.js"),
      default: esm("./browser.js"),
    },
    "./package.json": "./package.json",
  },
  // Every entry instantiates the .wasm when loaded.
  sideEffects: ["./browser.js", "./workerd.js", "./deno.js", "./node.mjs", "./node.cjs"],
  files: [
    "index.d.ts",
    "index.d.cts",
    ...entries,
    "node.cjs",
    "web/user_management_client.js",
    "web/user_management_client_bg.wasm",
    `web/${snippet("web")}`,
  ],
  keywords: ["users", "api-client", "wasm", "webassembly", "fetch", "cloudflare-workers", "deno"],
};
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`pkg/: ${manifest.name}@${manifest.version} with entries ${[...entries, "node.cjs"].join(", ")}`);
