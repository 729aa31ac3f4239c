// What the page checks (smoke, frameworks, workers, mocks) share to show a
// built page to a browser: a static file server for a folder. The browsers
// themselves are started by tests/lib/browsers.mjs.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/**
 * Serves the files of `dir` on a free loopback port; resolves to the
 * listening server. `handle(path, res)`, when given, sees each request first
 * and answers it itself by returning true; `beforeFile(file)` is awaited
 * before a file is sent; `headers` go with every file.
 */
export function serve(dir, { handle, beforeFile, headers = {} } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x").pathname;
    if (handle?.(url, res)) return;
    const path = normalize(join(dir, decodeURIComponent(url)));
    if (!path.startsWith(dir)) { res.writeHead(403).end(); return; }
    let body;
    try { body = readFileSync(path); } catch { res.writeHead(404).end(); return; }
    await beforeFile?.(path);
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream", ...headers }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
