// The server: node dist/server.js (PORT, default 3000; USERS_API_URL,
// default http://127.0.0.1:8080). Prints "Listening on URL" when ready.
import { createServer } from "node:http";
import { render } from "./render.js";

const api = process.env.USERS_API_URL ?? "http://127.0.0.1:8080";

const server = createServer(async (req, res) => {
  try {
    const html = await render(api);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(`${err.kind ?? "error"}: ${err.message}`);
  }
});
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${server.address().port}/`);
});
