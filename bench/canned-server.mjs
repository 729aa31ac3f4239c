// A canned-answer server for the benchmarks, in its own process: every body
// is computed once at start, so per request it only writes bytes (HTTP/1.1
// keep-alive). It also serves the benchmark page, pkg/ and the start-up
// pages (bench/startup/) for Chromium, from the same origin. Prints its
// URL; binds 127.0.0.1 only.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const count = Buffer.from('{"status":200,"result":{"totalUsers":1234}}');
function list(n) {
  const users = [];
  for (let i = 1; i <= n; i++) {
    users.push({ id: i, username: `user.${i}`, phone: `+1-555-01${String(i % 100).padStart(2, "0")}-${String(i % 10000).padStart(4, "0")}`, active: i % 3 !== 0, createdAt: "2024-03-01T12:00:00Z" });
  }
  return Buffer.from(JSON.stringify({ status: 200, result: { users, totalUsers: n, page: 1, pageSize: n } }));
}
const lists = { 10000: list(10_000), 100000: list(100_000) };
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

const server = createServer((req, res) => {
  if (req.method === "POST") {
    req.resume();
    req.on("end", () => {
      const url = new URL(req.url, "http://x");
      const body = url.pathname.endsWith("/count") ? count : lists[url.searchParams.get("n")] ?? lists[10000];
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
    return;
  }
  const path = req.url === "/" ? join(repo, "bench/page.html")
    : req.url.startsWith("/bench/startup/") ? normalize(join(repo, req.url))
    : normalize(join(repo, "pkg", req.url.replace(/^\/pkg\//, "")));
  let body;
  try {
    body = readFileSync(path);
  } catch {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
