// Injected by build.mjs into node.cjs and manual.cjs wherever the bundled web glue names
// the globals TextDecoder and TextEncoder: Node's own classes from
// node:util, the very ones Node also puts on its global object. So both
// also load where the global object has neither, as in Jest's jsdom
// environment, which resolves `require` to node.cjs (its conditions include
// `node`) and runs it with jsdom's window as the global.
export { TextDecoder, TextEncoder } from "node:util";
