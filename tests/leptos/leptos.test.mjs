// The Leptos app (examples/leptos) against the server at USERS_API_URL,
// both ways it runs: rendered on the server by its native program
// (`render`: the client's native transport on tokio), and mounted in a page
// in Chromium, Firefox and WebKit (wasm32: the client's fetch transport).
// Each shows the server's own count of active users; and, when the API
// cannot be reached, the client's network error. Builds nothing: it runs
// what scripts/leptos.sh built into target/leptos/ (`make leptos` does both).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { ENGINES, LABELS, launch } from "../lib/browsers.mjs";
import { apiUrl, repo, truth } from "../lib/harness.mjs";
import { serve } from "../lib/pages.mjs";

const built = process.env.LEPTOS_TARGET_DIR ?? join(repo, "target", "leptos");
const render = join(built, "debug", "render");
for (const file of [render, join(built, "pkg", "user_management_client_leptos_example_bg.wasm")]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run scripts/leptos.sh (make leptos builds it)`);
}
// An address where nothing listens (the discard port), and a base URL the
// client refuses before any call.
const UNREACHABLE = "http://127.0.0.1:9/";
const INVALID = "not a url";

/** The text of the page's `<p id="active">` in `html`, Leptos's `<!>` markers dropped. */
function activeLine(html) {
  const line = /<p id="active"( role="alert")?>(.*?)<\/p>/s.exec(html);
  assert.ok(line, `no <p id="active"> in ${html}`);
  return { alert: line[1] !== undefined, text: line[2].replaceAll("<!>", "") };
}

const run = promisify(execFile);

/** What the render prints for `api` when it must fail: it exits 1; its alert line's text. */
async function failedRender(api) {
  const failed = await run(render, [api]).then(
    (out) => assert.fail(`expected exit 1, got ${JSON.stringify(out)}`),
    (error) => error,
  );
  assert.equal(failed.code, 1);
  const line = activeLine(failed.stdout);
  assert.equal(line.alert, true);
  return line.text;
}

describe("server render (natively, on tokio)", () => {
  test("shows the server's count of active users", async () => {
    const { stdout } = await run(render, [apiUrl()]);
    assert.deepEqual(activeLine(stdout), { alert: false, text: `${await truth()} active users` });
  });

  test("shows the network error, and exits 1, when the API cannot be reached", async () => {
    assert.match(await failedRender(UNREACHABLE), /^network: the request failed for POST http:\/\/127\.0\.0\.1:9\/api\/users\/count/);
  });

  test("shows the validation error, and exits 1, for a base URL the client refuses", async () => {
    assert.match(await failedRender(INVALID), /^validation: /);
  });
});

describe("page (wasm32, in the browser engines)", () => {
  // target/leptos/pkg beside the example's index.html, served three times,
  // its data-api naming the server (/index.html), an address where nothing
  // listens (/unreachable.html), and no URL at all (/invalid.html).
  const page = readFileSync(join(repo, "examples", "leptos", "index.html"), "utf8");
  assert.match(page, /<body data-api="[^"]*">/);
  const pages = { "/index.html": apiUrl(), "/unreachable.html": UNREACHABLE, "/invalid.html": INVALID };
  let files;
  before(async () => {
    files = await serve(built, {
      handle(path, res) {
        if (!(path in pages)) return false;
        res.writeHead(200, { "content-type": "text/html" }).end(page.replace(/data-api="[^"]*"/, `data-api="${pages[path]}"`));
        return true;
      },
    });
  });
  after(() => files?.close());

  for (const engine of ENGINES) {
    test(`in ${LABELS[engine]}: the server's count, the network error for an unreachable API, the validation error for an invalid URL`, async () => {
      const browser = await launch(engine);
      try {
        /** What the page at `path` shows once the call has ended. */
        const shown = async (path) => {
          const tab = await browser.newPage();
          try {
            await tab.goto(`http://127.0.0.1:${files.address().port}${path}`);
            return await tab.waitForFunction(() => {
              const line = document.getElementById("active");
              return line && !line.hasAttribute("aria-busy") ? { alert: line.getAttribute("role") === "alert", text: line.textContent } : null;
            }, null, { timeout: 60_000 });
          } finally {
            await tab.close();
          }
        };
        assert.deepEqual(await shown("/index.html"), { alert: false, text: `${await truth()} active users` });
        for (const [path, kind] of [["/unreachable.html", "network"], ["/invalid.html", "validation"]]) {
          const line = await shown(path);
          assert.equal(line.alert, true, path);
          assert.match(line.text, new RegExp(`^${kind}: `), path);
        }
      } finally {
        await browser.close();
      }
    });
  }
});
