// Types of user-management-client/wasm, the .wasm file itself. A host that
// imports a .wasm as a module (Cloudflare Workers, through wrangler or
// miniflare) hands over a compiled WebAssembly.Module, which init() and
// initSync() of user-management-client/manual take as it is. Bundlers that
// give a URL instead (Vite's "?url") type that suffix themselves; Node.js
// resolves the file's path with import.meta.resolve or require.resolve.
// build.mjs writes wasm.d.cts, for `require`, with `export = wasm`.
declare const wasm: WebAssembly.Module;
export default wasm;
