// Shared pieces of the end-to-end tests of the demo page (www/): the browser,
// direct API calls for the expected values, and a reader of what the page shows.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { chromium } from "playwright-core";
import { apiUrl, freePort, post } from "../lib/harness.mjs";

export const server = apiUrl();

assert.ok(
  existsSync(new URL("../../pkg/web/user_management_client.js", import.meta.url)),
  "pkg/web/ is missing: run `make build` first (the server serves it to the page)",
);

export const artifacts = new URL("../../test-results/e2e/", import.meta.url);
mkdirSync(artifacts, { recursive: true });

export const DESKTOP = { width: 1280, height: 800 };
const WAIT_MS = 15_000;

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** A fresh context and page on the demo; closed when the test ends. */
export async function openDemo(t, browser, { viewport = DESKTOP, colorScheme = "light" } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, locale: "en-US", timezoneId: "UTC" });
  t.after(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = [];
  // The server sends the page with a strict Content-Security-Policy (no
  // inline script or style, no eval; 'wasm-unsafe-eval' for the client):
  // any violation fails the test. The init script below logs each
  // securitypolicyviolation event to the console (Chromium's own "Refused
  // to ..." report is not a console API call, so Playwright does not see it).
  const violations = [];
  t.after(() => assert.deepEqual(violations, [], "the page violated its Content-Security-Policy"));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text());
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  // Injected by the browser itself, so the page's CSP does not apply to it.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline code"} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const response = await page.goto(`${server}/`);
  const csp = response.headers()["content-security-policy"] ?? "";
  assert.match(csp, /(^|;)\s*script-src 'self' 'wasm-unsafe-eval'\s*(;|$)/, `the page's CSP: ${csp}`);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, `the page's CSP: ${csp}`);
  return { page, problems };
}

/** POSTs params as JSON to the API, the way the page's client does; the envelope's result (status 200). */
export const api = (path, params) => post(path, params, server);

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
    globalThis.__noticeLog = log;
  });
  return () => page.evaluate(() => globalThis.__noticeLog);
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
