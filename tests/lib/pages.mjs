// What the page checks (smoke, frameworks, workers, mocks) share to show a
// built page to a browser: a static file server for a folder. The browsers
// themselves are started by tests/lib/browsers.mjs.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** Serves the files of `dir` on a free loopback port; resolves to the listening server. */
export function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      const body = readFileSync(path);
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch { res.writeHead(404).end(); }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
