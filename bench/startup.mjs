// The start-up delay importing the package adds to a page, in headless
// Chromium with the network throttled through the DevTools protocol (cache
// off): when the page's own module starts running (performance.now() at
// its first statement) with the import (bench/startup/with.html: an import
// map to the browser entry) and without it (without.html), medians of 5
// loads each, the two pages alternating. With the import, the page must
// then count through the package (so the .wasm did load). Used by
// bench/run.mjs; `node bench/startup.mjs` (after `make build`) runs it alone.
import { fileURLToPath } from "node:url";
import { cannedServer, median } from "./lib.mjs";

const LOADS = 5;

/** The throttled networks: DevTools' throughputs are in bytes per second. */
export const NETWORKS = {
  "1.6 Mbit/s, 150 ms": { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 },
  "9 Mbit/s, 40 ms": { latency: 40, downloadThroughput: 9e6 / 8, uploadThroughput: 1.5e6 / 8 },
};

/** When a page's own module starts, with and without the import, on each network; `origin` serves bench/ and pkg/ (canned-server.mjs). */
export async function startupDelays(browser, origin) {
  const results = {};
  for (const [name, conditions] of Object.entries(NETWORKS)) {
    const got = { withImport: [], without: [] };
    for (let i = 0; i < LOADS; i++) {
      const order = i % 2 ? ["without", "withImport"] : ["withImport", "without"];
      for (const variant of order) {
        const page = await browser.newPage();
        try {
          const cdp = await page.context().newCDPSession(page);
          await cdp.send("Network.enable");
          await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
          await cdp.send("Network.emulateNetworkConditions", { offline: false, ...conditions });
          await page.goto(`${origin}/bench/startup/${variant === "withImport" ? "with" : "without"}.html`, { waitUntil: "commit" });
          await page.waitForFunction(() => window.started !== undefined, null, { timeout: 60_000 });
          got[variant].push(await page.evaluate(() => window.started));
          if (variant === "withImport") {
            const counted = await page.evaluate(() => window.counted);
            if (counted !== 1234) throw new Error(`the page's count through the package gave ${counted}`);
          }
        } finally {
          await page.close();
        }
      }
    }
    results[name] = { withImportMs: median(got.withImport), withoutMs: median(got.without), delayMs: median(got.withImport) - median(got.without) };
  }
  return results;
}

/** The table rows for bench/run.mjs's report: when the page's module starts, with and without the import; the delay in the last column. */
export const startupRows = (results) => Object.entries(results).map(([name, r]) =>
  [`Chromium start-up, ${name}`, `${r.withImportMs.toFixed(0)} ms vs ${r.withoutMs.toFixed(0)} ms without`, "", `+${r.delayMs.toFixed(0)} ms`]);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url, stop } = await cannedServer();
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const results = await startupDelays(browser, url);
    for (const [a, b, , d] of startupRows(results)) console.log(`${a.padEnd(46)} ${b.padEnd(34)} ${d}`);
    console.log(JSON.stringify({ startup: results }));
  } finally {
    await browser.close();
    stop();
  }
}
