// Shared pieces of the end-to-end tests of the demo page (www/): the browser
// engines, a proxy in front of the server that the page is loaded through
// (it sees, holds, answers or lets through each request, the same way in
// every engine), direct API calls for the expected values, and a reader of
// what the page shows.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { apiUrl, freePort, post } from "../lib/harness.mjs";

export { enginesToRun, launch, LABELS } from "../lib/browsers.mjs";

/** The reference server itself (the API calls that give the expected values go there). */
export const upstream = apiUrl();

assert.ok(
  existsSync(new URL("../../pkg/web/user_management_client.js", import.meta.url)),
  "pkg/web/ is missing: run `make build` first (the server serves it to the page)",
);

export const artifacts = new URL("../../test-results/e2e/", import.meta.url);
mkdirSync(artifacts, { recursive: true });

export const DESKTOP = { width: 1280, height: 800 };
const WAIT_MS = 15_000;

// Loaded first by every page the proxy serves (a same-origin script, so the
// page's Content-Security-Policy allows it): records uncaught errors, unhandled
// rejections, console.error calls and Content-Security-Policy violations, in
// sessionStorage so that they outlive a navigation.
const PROBE_PATH = "/__e2e/probe.js";
const PROBE = `(() => {
  const KEY = "__e2e";
  if (sessionStorage.getItem(KEY) === null) sessionStorage.setItem(KEY, '{"problems":[],"violations":[]}');
  const read = () => JSON.parse(sessionStorage.getItem(KEY));
  const note = (list, text) => { const log = read(); log[list].push(text); sessionStorage.setItem(KEY, JSON.stringify(log)); };
  addEventListener("error", (e) => note("problems", "pageerror: " + (e.error && e.error.message || e.message)));
  addEventListener("unhandledrejection", (e) => note("problems", "pageerror: " + (e.reason && e.reason.message || e.reason)));
  const error = console.error.bind(console);
  console.error = (...args) => { note("problems", "console: " + args.map(String).join(" ")); error(...args); };
  document.addEventListener("securitypolicyviolation", (e) => {
    note("violations", "CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline code") + " at " + e.sourceFile + ":" + e.lineNumber);
  });
})();
`;

/** What the probe recorded (run in the page). */
const readProbe = () => {
  const log = sessionStorage.getItem("__e2e");
  if (log === null) throw new Error("the probe script did not run in the page");
  return JSON.parse(log);
};

/** A Playwright-style glob over the whole URL: ** is anything, * anything but a slash. */
function globToRegExp(glob) {
  const source = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*\*|\*/g, (m) => (m === "**" ? ".*" : "[^/]*"));
  return new RegExp(`^${source}$`);
}

/**
 * One request the proxy received: its method, URL and body; `settled`
 * resolves to "finished" once its answer went out whole, or "aborted" if the
 * page dropped it first (a fetch aborted through its AbortSignal).
 */
class ProxiedRequest {
  constructor(req, res, body, origin) {
    this.req = req;
    this.res = res;
    this.body = body;
    this.href = new URL(req.url, origin).href;
    this.settled = new Promise((resolve) => {
      res.once("close", () => resolve(res.writableFinished ? "finished" : "aborted"));
    });
  }
  url() { return this.href; }
  method() { return this.req.method; }
  postDataJSON() { return this.body.length ? JSON.parse(this.body.toString("utf8")) : null; }
}

/**
 * The HTTP proxy the page is loaded through, in front of `target`. Routes
 * (the newest first) may hold a request, answer it themselves (fulfill) or
 * let it through (continue); the rest go through untouched. HTML answers get
 * the probe script; a static file the server does not find is a problem.
 */
export async function startProxy(target) {
  const routes = [];
  const waiters = new Set();
  const documents = [];
  const problems = [];
  let origin;

  const forward = (request) => new Promise((resolve, reject) => {
    const { req, res, body } = request;
    if (res.destroyed) { reject(new Error("aborted by the page")); return; }
    const upstreamUrl = new URL(req.url, target);
    const out = httpRequest(upstreamUrl, { method: req.method, headers: { ...req.headers, host: upstreamUrl.host } }, (answer) => {
      const isHtml = /^text\/html/.test(answer.headers["content-type"] ?? "");
      if (answer.statusCode >= 400 && !upstreamUrl.pathname.startsWith("/api/")) {
        problems.push(`HTTP ${answer.statusCode} for ${upstreamUrl.pathname}`);
      }
      if (!isHtml) {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
        answer.once("end", resolve);
        return;
      }
      documents.push({ path: upstreamUrl.pathname, headers: answer.headers });
      const chunks = [];
      answer.on("data", (c) => chunks.push(c)).once("end", () => {
        const html = Buffer.concat(chunks).toString("utf8").replace(/<head>/i, `$&<script src="${PROBE_PATH}"></script>`);
        const headers = { ...answer.headers, "content-length": Buffer.byteLength(html) };
        res.writeHead(answer.statusCode, headers).end(html);
        resolve();
      });
    });
    out.once("error", (err) => { res.destroy(); reject(err); });
    res.once("close", () => { if (!res.writableFinished) out.destroy(); });
    out.end(body);
  });

  const server = createHttpServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c)).once("end", async () => {
      if (req.url === PROBE_PATH) {
        res.writeHead(200, { "content-type": "text/javascript" }).end(PROBE);
        return;
      }
      const request = new ProxiedRequest(req, res, Buffer.concat(chunks), origin);
      for (const waiter of waiters) waiter(request);
      const route = routes.find((r) => r.pattern.test(request.url()));
      if (!route) {
        forward(request).catch(() => {});
        return;
      }
      await route.handler({
        request: () => request,
        continue: () => forward(request),
        fulfill: ({ status = 200, contentType = "text/plain", body = "" }) => {
          if (!res.destroyed) res.writeHead(status, { "content-type": contentType }).end(body);
        },
      });
    });
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;

  return {
    origin,
    /** Sends requests whose URL matches `glob` to handler(route) (newest route first). */
    route(glob, handler) { routes.unshift({ glob, pattern: globToRegExp(glob), handler }); },
    unroute(glob) { for (let i = routes.length - 1; i >= 0; i -= 1) if (routes[i].glob === glob) routes.splice(i, 1); },
    unrouteAll() { routes.length = 0; },
    /** The next request for which predicate(request) is true. */
    waitForRequest(predicate, { timeout = WAIT_MS } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { waiters.delete(waiter); reject(new Error(`no such request in ${timeout} ms`)); }, timeout);
        const waiter = (request) => {
          if (!predicate(request)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(request);
        };
        waiters.add(waiter);
      });
    },
    /** The headers of the last HTML answer for `path`. */
    documentHeaders(path) { return documents.findLast((d) => d.path === path)?.headers ?? {}; },
    /** Static files not found since the last call (taken). */
    takeProblems() { return problems.splice(0); },
    close() { server.closeAllConnections(); return new Promise((resolve) => server.close(resolve)); },
  };
}

/** The proxy every page is loaded through; `server` is its origin, the page's origin. */
export const proxy = await startProxy(upstream);
export const server = proxy.origin;

/**
 * A fresh page on the demo; closed when the test ends, after checking it
 * broke no rule of its Content-Security-Policy. `problems()` lists its
 * uncaught errors, console errors and missing files so far.
 */
export async function openDemo(t, browser, { viewport = DESKTOP, colorScheme } = {}) {
  const page = await browser.newPage({ viewport, colorScheme });
  page.setDefaultTimeout(WAIT_MS);
  t.after(async () => {
    proxy.unrouteAll();
    let violations;
    try {
      violations = (await page.evaluate(readProbe)).violations;
    } finally {
      await page.close();
    }
    assert.deepEqual(violations, [], "the page violated its Content-Security-Policy");
  });
  proxy.takeProblems();
  await page.goto(`${server}/`);
  const csp = proxy.documentHeaders("/")["content-security-policy"] ?? "";
  assert.match(csp, /(^|;)\s*script-src 'self' 'wasm-unsafe-eval'\s*(;|$)/, `the page's CSP: ${csp}`);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, `the page's CSP: ${csp}`);
  const problems = async () => [...proxy.takeProblems(), ...(await page.evaluate(readProbe)).problems];
  return { page, problems };
}

/** POSTs params as JSON to the API, the way the page's client does; the envelope's result (status 200). */
export const api = (path, params) => post(path, params, upstream);

export const apiCount = async (params) => (await api("/api/users/count", params)).totalUsers;
export const apiList = (params) => api("/api/users", params);

/** What a row shows, as the tests compare it: [username, phone, status]. */
export const rowOf = (user) => [user.username, user.phone, user.active ? "Active" : "Inactive"];

/** The expected view for a filter, page and page size, straight from the API. */
export async function expectedView({ query, active = "all", page = 1, pageSize = 20 }) {
  const filter = { query: query || undefined, active };
  const total = await apiCount(filter);
  const list = await apiList({ ...filter, page, pageSize });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return {
    busy: "false",
    alert: "",
    total,
    rows: list.users.map(rowOf),
    pageInfo: `Page ${page} of ${pages}`,
    prevDisabled: page <= 1,
    nextDisabled: page >= pages,
  };
}

/** Reads what the page shows. */
export function readView(page) {
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const total = $("total");
    return {
      busy: $("results").getAttribute("aria-busy"),
      alert: $("alerts").textContent.trim(),
      alertKind: document.querySelector("#alerts .banner")?.dataset.kind ?? null,
      total: total ? Number(total.textContent.replace(/\D/g, "")) : null,
      rows: [...$("rows").rows].map((tr) => [
        tr.querySelector(".username").textContent,
        tr.querySelector(".phone").textContent,
        tr.querySelector(".badge").textContent,
      ]),
      pageInfo: $("page-info").textContent,
      prevDisabled: $("prev").disabled,
      nextDisabled: $("next").disabled,
      empty: $("empty").hidden ? null : $("empty-text").textContent,
      summary: $("summary").textContent,
      query: $("query").value,
    };
  });
}

function pick(view, keys) {
  return Object.fromEntries(keys.map((k) => [k, view[k]]));
}

/**
 * Waits (bounded) until every key of `expected` shows that value; on timeout
 * fails with a diff of what the page shows.
 */
export async function waitForView(page, expected, { timeout = WAIT_MS } = {}) {
  const keys = Object.keys(expected);
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = pick(await readView(page), keys);
    try {
      assert.deepStrictEqual(last, expected);
      return last;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The JSON body a request carries, or {}. */
export function bodyOf(request) {
  try {
    return request.postDataJSON() ?? {};
  } catch {
    return {};
  }
}

/** The retry notice (www/app.js, beforeRetry hook): delay in seconds, attempt, attempts. */
export const RETRY_NOTICE = /^Server not answering, retrying in (\d+\.\d) s \(attempt (\d+) of (\d+)\)…$/;
/** The timing line (afterResponse hook's durationMs of each call). */
export const TIMING = /^count (\d{1,3}(?:,\d{3})*) ms · list (\d{1,3}(?:,\d{3})*) ms$/;

/**
 * Logs, in the page, every distinct state of the retry notice and the error
 * banner from now on (a MutationObserver, so no state is missed however short
 * it is); the returned function reads the log: [{ notice, banner, at }], with
 * `notice` the visible notice's text or null, `banner` the banner's kind or null.
 */
export async function recordNotices(page) {
  await page.evaluate(() => {
    const log = [];
    const snapshot = () => {
      const notice = document.getElementById("notice");
      const state = {
        notice: notice.hidden ? null : notice.textContent.trim(),
        banner: document.querySelector("#alerts .banner")?.dataset.kind ?? null,
        at: Date.now(),
      };
      const last = log.at(-1);
      if (!last || last.notice !== state.notice || last.banner !== state.banner) log.push(state);
    };
    snapshot();
    new MutationObserver(snapshot).observe(document.body,
      { subtree: true, childList: true, characterData: true, attributes: true });
    window.__noticeLog = log;
  });
  return () => page.evaluate(() => window.__noticeLog);
}

/** The timing line: its text, whether it is shown, and its numbers in ms. */
export async function readTiming(page) {
  const { text, shown } = await page.evaluate(() => ({
    text: document.getElementById("timing-text").textContent,
    shown: !document.getElementById("timing").hidden,
  }));
  const match = TIMING.exec(text);
  const ms = (s) => Number(s.replaceAll(",", ""));
  return { text, shown, count: match ? ms(match[1]) : null, list: match ? ms(match[2]) : null };
}

/**
 * A loopback URL where nothing listens: a port the OS just handed out and
 * that was closed again, so connecting is refused (a server that is down).
 * Not port 9: Chromium blocks it as unsafe (ERR_UNSAFE_PORT) without trying.
 */
export async function downServerUrl() {
  return `http://127.0.0.1:${await freePort()}`;
}

/**
 * Listens on the port of `url` (see downServerUrl) and takes each request,
 * hands its path to onRequest and waits for it, then answers without CORS
 * headers: the page's cross-origin call (its preflight) fails as a network
 * error, as where nothing listens. (Dropping the connection instead would
 * not do: Firefox sends a request again, once, on a connection reset.)
 * Resolves to a close() function.
 */
export async function refusingServer(url, onRequest) {
  const dropping = createHttpServer(async (req, res) => {
    await onRequest(new URL(req.url, url).pathname, req.method);
    res.writeHead(204).end();
  });
  await new Promise((resolve, reject) => dropping.once("error", reject).listen(Number(new URL(url).port), "127.0.0.1", resolve));
  return () => { dropping.closeAllConnections(); return new Promise((resolve) => dropping.close(resolve)); };
}
