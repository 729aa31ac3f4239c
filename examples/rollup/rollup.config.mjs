// Two bundles of the same package with Rollup 4 and nothing configured for
// it beyond what any Rollup build of an npm package has:
//   - dist/page.js, for browsers (`browser` condition: browser.js). Rollup
//     leaves `new URL("./web/…wasm", import.meta.url)` as it is;
//     @web/rollup-plugin-import-meta-assets emits the .wasm it names beside
//     the bundle and rewrites the URL.
//   - dist/count.mjs, for Node.js (`node` condition: node.mjs, whose .wasm
//     is inside its JavaScript): no plugin but the resolver.
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { importMetaAssets } from "@web/rollup-plugin-import-meta-assets";

export default [
  {
    input: "src/page.js",
    output: { dir: "dist", format: "es" },
    plugins: [nodeResolve({ browser: true }), importMetaAssets()],
  },
  {
    input: "src/count.mjs",
    output: { file: "dist/count.mjs", format: "es" },
    external: [/^node:/],
    plugins: [nodeResolve({ exportConditions: ["node"] })],
  },
];
