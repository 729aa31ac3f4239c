// Two webpack 5 builds of the same worker (src/worker.js), neither with a
// loader or a rule for the .wasm (an asset webpack finds through the
// package's `new URL(…, import.meta.url)`):
//   - dist-webpack/: the page (src/main.js, the default web target), whose
//     `new Worker(new URL("./worker.js", import.meta.url))` webpack builds
//     as a worker chunk; open webpack.html.
//   - dist-webworker/: the worker alone, built for `target: "webworker"`
//     (the `worker` export condition), which a page starts with
//     `new Worker("dist-webworker/worker.js")`; open webworker.html.
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default [
  { name: "page", entry: "./src/main.js", output: { path: here("dist-webpack"), filename: "main.js" } },
  { name: "webworker", target: "webworker", entry: "./src/worker.js", output: { path: here("dist-webworker"), filename: "worker.js" } },
];
