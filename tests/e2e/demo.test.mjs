// End-to-end tests of the demo admin page (www/) in Chromium, Firefox and
// WebKit (tests/lib/browsers.mjs), against the reference server
// (scripts/with-server.sh) serving www/ and the built package (make build),
// through the proxy of helpers.mjs. Every expectation comes from direct API
// calls. The screenshots (and the dark color scheme they show) are taken in
// Chromium only; every behavioural check runs in each engine.
//
// Artifacts go to test-results/e2e/. UPDATE_SCREENSHOT=1 also copies the
// populated page to docs/src/screenshot.png (the README's and the book's image).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import {
  server, proxy, artifacts, enginesToRun, launch, LABELS, openDemo, apiCount, apiList, expectedView,
  readView, waitForView, bodyOf, RETRY_NOTICE, recordNotices, readTiming, downServerUrl, refusingServer,
} from "./helpers.mjs";

after(() => proxy.close());

/**
 * A query derived from a real username that matches a handful of users (2 to
 * 20, so one page holds them): the longest prefix of a username with that many
 * matches. Falls back to any username (at least one match).
 */
async function fewMatchesQuery() {
  const { users } = await apiList({ page: 3, pageSize: 20 });
  for (const { username } of users) {
    const lower = username.toLowerCase();
    for (let len = lower.length; len >= 3; len -= 1) {
      const query = lower.slice(0, len);
      const n = await apiCount({ query, active: "all" });
      if (n >= 2 && n <= 20) return query;
      if (n > 20) break;
    }
  }
  return users[0].username.toLowerCase();
}

/** An artifact's path: Chromium's under the plain name, the other engines' prefixed with theirs. */
const artifact = (name, engine = "chromium") =>
  fileURLToPath(new URL(engine === "chromium" ? name : `${engine}-${name}`, artifacts));

for (const engine of enginesToRun()) {
  describe(LABELS[engine], () => {
    let browser;
    before(async () => {
      browser = await launch(engine);
    });
    after(() => browser?.close());

    test("the first load shows the server's total and the first page", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      const expected = await expectedView({});
      assert.ok(expected.total > 20, "the seeded database should hold more than one page");
      await waitForView(page, expected);

      const { users } = await apiList({ active: "all", page: 1, pageSize: 20 });
      // The created date is shown readably, with the machine value kept in <time>.
      const first = page.locator("#rows tr").first().locator("time");
      assert.equal(await first.getAttribute("datetime"), users[0].createdAt);
      const shown = await first.textContent();
      assert.notEqual(shown, users[0].createdAt);
      assert.match(shown, /\b20\d\d\b/);
      assert.equal(await page.locator("#range").textContent(), `1–20 of ${expected.total.toLocaleString("en-US")}`);
      // The results are announced through a status live region.
      assert.equal(await page.locator("#summary").getAttribute("role"), "status");
      assert.equal(await page.locator("#base-url").inputValue(), new URL(server).origin);
      assert.deepEqual(await problems(), []);
    });

    test("typing a query shows exactly the API's count and rows", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));

      const query = await fewMatchesQuery();
      await page.getByRole("searchbox", { name: "Search" }).fill(query);
      const expected = await expectedView({ query });
      assert.ok(expected.total >= 1);
      await waitForView(page, { ...expected, query });
      assert.ok(await page.locator("#rows mark").count() >= 1, "the matches are highlighted");

      // Nothing matches: the empty state, one page, both buttons disabled.
      const nothing = "zq-no-such-user-qz";
      assert.equal(await apiCount({ query: nothing, active: "all" }), 0);
      await page.getByRole("searchbox", { name: "Search" }).fill(nothing);
      await waitForView(page, {
        ...(await expectedView({ query: nothing })),
        empty: `No users match “${nothing}”.`,
      });

      // The empty state's button clears the search.
      await page.getByRole("button", { name: "Clear search and filter" }).click();
      await waitForView(page, { ...(await expectedView({})), query: "", empty: null });
      assert.deepEqual(await problems(), []);
    });

    test("the Active filter and pagination change count and rows", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));

      await page.locator("label[for=active-false]").click();
      const inactive = await expectedView({ active: "false" });
      assert.ok(inactive.total > 20 && inactive.total < (await apiCount({ active: "all" })));
      await waitForView(page, inactive);
      assert.ok(inactive.rows.every(([, , status]) => status === "Inactive"));

      await page.getByRole("button", { name: "Next page" }).click();
      const page2 = await expectedView({ active: "false", page: 2 });
      assert.match(page2.pageInfo, /^Page 2 of \d+$/);
      await waitForView(page, { ...page2, prevDisabled: false });

      await page.locator("label[for=active-true]").click();
      await waitForView(page, await expectedView({ active: "true" })); // back to page 1

      await page.getByLabel("Rows per page").selectOption("100");
      const big = await expectedView({ active: "true", pageSize: 100 });
      await waitForView(page, big);

      // Walk to the last page: Next gets disabled there, Previous stays enabled.
      const pages = Math.max(1, Math.ceil(big.total / 100));
      assert.ok(pages <= 20, "a bounded walk");
      for (let p = 2; p <= pages; p += 1) {
        await page.getByRole("button", { name: "Next page" }).click();
        await waitForView(page, { pageInfo: `Page ${p} of ${pages}`, busy: "false" });
      }
      await waitForView(page, await expectedView({ active: "true", page: pages, pageSize: 100 }));

      // A new query resets to page 1 and keeps the filter and page size.
      const query = await fewMatchesQuery();
      await page.getByRole("searchbox", { name: "Search" }).fill(query);
      await waitForView(page, await expectedView({ query, active: "true", pageSize: 100 }));
      assert.deepEqual(await problems(), []);
    });

    test("keyboard only: slash focuses search, arrows move the filter", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));

      await page.keyboard.press("/");
      assert.equal(await page.evaluate(() => document.activeElement.id), "query");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement.id), "active-all");
      // The focused radio draws a visible focus ring on its label.
      const ring = (id) => page.locator(`label[for=${id}]`).evaluate((l) => getComputedStyle(l).outlineStyle);
      assert.equal(await ring("active-all"), "solid");
      await page.keyboard.press("ArrowRight");
      await waitForView(page, await expectedView({ active: "true" }));
      assert.equal(await page.evaluate(() => document.activeElement.id), "active-true");
      // So does the one the arrow key focused, but in WebKit: WebKitGTK 2.50
      // does not match :focus-visible on a radio that an arrow key focused.
      if (engine !== "webkit") assert.equal(await ring("active-true"), "solid");
      assert.deepEqual(await problems(), []);
    });

    test("a slow answer to an earlier query never overwrites the last one", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));

      const final = (await fewMatchesQuery()).slice(0, 5);
      assert.ok(final.length >= 3);
      const expected = await expectedView({ query: final });

      // Answers to every earlier query are held back 1.5 s; the final one is not.
      const held = [];
      await proxy.route("**/api/users**", async (route) => {
        const { query } = bodyOf(route.request());
        if (query === undefined || query === final) return route.continue();
        held.push(route.request().settled);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => {}); // the page may have aborted it
      });

      // Type one character at a time, each time waiting until both calls for it
      // (count and list) went out, so every earlier query is in flight.
      const sentFor = (prefix, path) =>
        proxy.waitForRequest((r) => new URL(r.url()).pathname === path && bodyOf(r).query === prefix);
      await page.getByRole("searchbox", { name: "Search" }).focus();
      for (let i = 1; i <= final.length; i += 1) {
        const prefix = final.slice(0, i);
        const sent = Promise.all([sentFor(prefix, "/api/users/count"), sentFor(prefix, "/api/users")]);
        await page.keyboard.type(final[i - 1]);
        await sent;
      }
      assert.equal(held.length, 2 * (final.length - 1), "both calls of every earlier query were held");

      await waitForView(page, { ...expected, query: final });
      // Let every held answer be released and land (or fail), then look again.
      const outcomes = await Promise.race([
        Promise.all(held),
        new Promise((_, reject) => setTimeout(() => reject(new Error("held requests never settled")), 10_000)),
      ]);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
      const now = await readView(page);
      for (const key of Object.keys(expected)) assert.deepEqual(now[key], expected[key], key);
      assert.equal(now.query, final);
      // The superseded calls were cancelled through their AbortSignal.
      assert.ok(outcomes.some((o) => /ABORTED/i.test(o)), `superseded requests aborted: ${outcomes.join(", ")}`);
      assert.deepEqual(await problems(), []);
    });

    test("a dead server, an invalid URL and HTTP errors show the banner; fixing recovers", async (t) => {
      const { page } = await openDemo(t, browser);
      const all = await expectedView({});
      await waitForView(page, all);
      const baseUrl = page.getByLabel("API base URL");

      // Nothing listens on port 9: kind network, no rows left up.
      await baseUrl.fill("http://127.0.0.1:9");
      await baseUrl.press("Enter");
      await waitForView(page, { alertKind: "network", rows: [], busy: "false" });
      const banner = page.getByRole("alert");
      assert.match(await banner.textContent(), /network/);
      assert.ok(await page.locator("#error-banner").isVisible());
      await page.screenshot({ path: artifact("error.png", engine), animations: "disabled" });

      // Back to the real server.
      await baseUrl.fill(server);
      await baseUrl.press("Enter");
      await waitForView(page, { ...all, alertKind: null });
      assert.equal(await page.locator("#error-banner").count(), 0);

      // Not an http(s) URL: the client's validation error, nothing sent.
      await baseUrl.fill("ftp://example.test");
      await baseUrl.press("Enter");
      await waitForView(page, { alertKind: "validation", rows: [] });
      assert.match(await banner.textContent(), /baseUrl/);
      await baseUrl.fill(server);
      await page.getByRole("button", { name: "Connect" }).click();
      await waitForView(page, { ...all, alertKind: null });

      // HTTP 500 from the API: kind http with the status.
      await proxy.route("**/api/users**", (route) =>
        route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ status: 500, result: { error: "database on fire" } }),
        }));
      await page.locator("label[for=active-true]").click();
      await waitForView(page, { alertKind: "http", rows: [] });
      assert.match(await banner.textContent(), /HTTP 500/);

      // A 200 that is not an envelope: kind decode.
      await proxy.unroute("**/api/users**");
      await proxy.route("**/api/users**", (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: '{"users":[]}' }));
      await page.locator("label[for=active-false]").click();
      await waitForView(page, { alertKind: "decode", rows: [] });

      // The next good call clears the banner; "Try again" is one.
      await proxy.unroute("**/api/users**");
      await page.getByRole("button", { name: "Try again" }).click();
      await waitForView(page, { ...(await expectedView({ active: "false" })), alertKind: null });
    });

    test("a server that is down: the page says it is retrying, attempt by attempt, then shows the error", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      const all = await expectedView({});
      await waitForView(page, all);
      const baseUrl = page.getByLabel("API base URL");
      const notice = page.locator("#notice");
      assert.ok(await notice.isHidden(), "no retry notice while nothing is retrying");

      // Nothing listens there: each call's connection is refused at once, and the
      // client (two retries) waits and tries again twice. Every state the page goes
      // through is logged.
      const down = await downServerUrl();
      const readLog = await recordNotices(page);
      await baseUrl.fill(down);
      await baseUrl.press("Enter");
      await waitForView(page, { alertKind: "network", rows: [], busy: "false" });
      const log = await readLog();
      const states = log.map(({ notice: n, banner }) => ({ notice: n, banner }));
      assert.deepEqual(states[0], { notice: null, banner: null }, "before: neither notice nor banner");
      assert.deepEqual(states.at(-1), { notice: null, banner: "network" }, "at the end: the banner, and the notice is gone");
      const retrying = log.slice(1, -1);
      assert.ok(retrying.length >= 2, `the retries were shown: ${JSON.stringify(states)}`);
      const attempts = [];
      const delays = { 2: [], 3: [] };
      for (const { notice: text, banner } of retrying) {
        assert.equal(banner, null, "no banner while retrying");
        const match = RETRY_NOTICE.exec(text);
        assert.ok(match, `the notice reads as specified: ${JSON.stringify(text)}`);
        const [, seconds, attempt, of] = match;
        assert.equal(of, "3", "three attempts in all (two retries)");
        assert.ok(Number(seconds) > 0 && Number(seconds) <= 60, `a plausible delay: ${seconds} s`);
        if (attempts.at(-1) !== Number(attempt)) attempts.push(Number(attempt));
        delays[attempt]?.push(Number(seconds));
      }
      assert.deepEqual(attempts, [2, 3], `attempt 2 of 3, then 3 of 3: ${JSON.stringify(states)}`);
      // The page really waited what it said before the error came (both pauses,
      // each shown rounded to 0.1 s: 50 ms slack apiece, plus the clock's).
      const waited = log.at(-1).at - log[1].at;
      const promised = (Math.min(...delays[2]) + Math.min(...delays[3])) * 1000;
      assert.ok(waited >= promised - 120, `the error came ${waited} ms after the first notice; the notices promised ${promised} ms`);
      assert.equal(await page.locator("#notice-text").textContent(), "");
      assert.ok(await notice.isHidden());

      // "Try again", with the second attempt of each call held back so the
      // notice can be looked at: it replaces the old banner while it shows.
      // (A server on that port now, whose answers lack CORS headers: each
      // attempt's preflight fails as a network error, as on a closed port.)
      const held = [];
      const sent = { "/api/users/count": 0, "/api/users": 0 };
      const closeRefusing = await refusingServer(down, async (path) => {
        sent[path] += 1;
        if (sent[path] === 2) {
          await new Promise((resolve) => held.push(resolve));
        }
      });
      await page.getByRole("button", { name: "Try again" }).click();
      const deadline = Date.now() + 10_000;
      while (held.length < 2) {
        assert.ok(Date.now() < deadline, `both second attempts were sent (${held.length} held)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.match(await notice.textContent(), /^\s*Server not answering, retrying in \d+\.\d s \(attempt 2 of 3\)…\s*$/);
      assert.ok(await notice.isVisible());
      assert.equal(await page.locator("#alerts").textContent(), "", "the old banner gave way to the notice");
      assert.equal(await page.locator("#results").getAttribute("aria-busy"), "true");
      await page.screenshot({ path: artifact("retrying.png", engine), animations: "disabled" });
      for (const release of held) release();
      await waitForView(page, { alertKind: "network", rows: [], busy: "false" });
      assert.ok(await notice.isHidden());
      assert.deepEqual(Object.keys(sent), ["/api/users/count", "/api/users"], "only the two calls were sent");
      assert.equal(Math.max(...Object.values(sent)), 3, `one call used all three attempts: ${JSON.stringify(sent)}`);
      await closeRefusing();

      // Back to the real server: no notice, no banner.
      await baseUrl.fill(server);
      await baseUrl.press("Enter");
      await waitForView(page, { ...all, alertKind: null });
      assert.ok(await notice.isHidden());
      const others = (await problems()).filter((p) => !/net::ERR_CONNECTION_REFUSED/.test(p));
      assert.deepEqual(others, []);
    });

    test("after each good answer the page shows how long the count and the list took", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));
      const timing = page.locator("#timing");
      const first = await readTiming(page);
      assert.ok(first.shown && (await timing.isVisible()), "the timing line is shown");
      assert.ok(first.count !== null, `"count N ms · list N ms": ${JSON.stringify(first.text)}`);
      for (const ms of [first.count, first.list]) assert.ok(Number.isInteger(ms) && ms >= 0, `${ms} ms`);
      // It says what it measures.
      assert.match(await timing.getAttribute("title"), /response headers/);

      // It is each call's own time: hold the list's answer back 2 s.
      await proxy.route("**/api/users", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await route.continue();
      });
      await page.locator("label[for=active-true]").click();
      await waitForView(page, await expectedView({ active: "true" }));
      const held = await readTiming(page);
      assert.ok(held.shown && held.count !== null, JSON.stringify(held));
      assert.ok(held.list >= 2000, `the held list took ${held.list} ms`);
      await proxy.unroute("**/api/users");

      // A failed load (a 404 is not retried) leaves no timing up; the next good one shows it again.
      await proxy.route("**/api/users/count", (route) =>
        route.fulfill({ status: 404, contentType: "text/plain", body: "no such route" }));
      await page.locator("label[for=active-false]").click();
      await waitForView(page, { alertKind: "http", rows: [], busy: "false" });
      assert.ok(await timing.isHidden(), "no timing after a failure");
      await proxy.unroute("**/api/users/count");
      const expectedAgain = await expectedView({ active: "false" });
      const clicked = Date.now();
      await page.getByRole("button", { name: "Try again" }).click();
      await waitForView(page, { ...expectedAgain, alertKind: null });
      const reloadTook = Date.now() - clicked;
      // The same list unheld: its time is this load's own, which lies inside
      // the span this test measured from the click to the view (1 ms for the
      // two clocks' rounding), not the held one's.
      const again = await readTiming(page);
      assert.ok(again.shown && again.count !== null && again.list <= reloadTook + 1, JSON.stringify({ held, again, reloadTook }));
      assert.deepEqual((await problems()).filter((p) => !/status of 404/.test(p)), []);
    });

    test("a link to a page past the end shows the last page", async (t) => {
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));
      const total = await apiCount({ active: "all" });
      const last = Math.ceil(total / 20);
      await page.goto(`${server}/?page=${last + 5}`);
      await waitForView(page, { ...(await expectedView({ page: last })), prevDisabled: last <= 1 });
      assert.equal(new URL(await page.url()).searchParams.get("page"), String(last));
      assert.deepEqual(await problems(), []);
    });

    // Screenshots, and the color-scheme emulation they use: Chromium only.
    (engine === "chromium" ? test : test.skip)("screenshots: desktop (light and dark) and phone", async (t) => {
      // The README's picture: a search with highlighted matches and the pager in view.
      const { page, problems } = await openDemo(t, browser);
      await waitForView(page, await expectedView({}));
      await page.getByLabel("Rows per page").selectOption("10");
      await page.getByRole("searchbox", { name: "Search" }).fill("an");
      await waitForView(page, await expectedView({ query: "an", pageSize: 10 }));
      await page.getByRole("searchbox", { name: "Search" }).blur();
      const populated = artifact("populated.png");
      await page.screenshot({ path: populated, animations: "disabled" });
      if (process.env.UPDATE_SCREENSHOT) {
        const docs = new URL("../../docs/src/", import.meta.url);
        mkdirSync(docs, { recursive: true });
        copyFileSync(populated, fileURLToPath(new URL("screenshot.png", docs)));
      }
      assert.deepEqual(await problems(), []);

      const dark = await openDemo(t, browser, { colorScheme: "dark" });
      await waitForView(dark.page, await expectedView({}));
      await dark.page.screenshot({ path: artifact("populated-dark.png"), animations: "disabled" });

      // On a phone nothing overflows sideways and the rows are readable cards.
      const phone = await openDemo(t, browser, { viewport: { width: 390, height: 844 } });
      await waitForView(phone.page, await expectedView({}));
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
      assert.ok(await phone.page.locator("#rows tr").first().isVisible());
      await phone.page.screenshot({ path: artifact("phone.png"), fullPage: true, animations: "disabled" });
      assert.deepEqual([...(await dark.problems()), ...(await phone.problems())], []);
    });
  });
}
