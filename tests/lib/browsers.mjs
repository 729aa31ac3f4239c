// The one place the tests start a browser: Debian's Chromium (headless,
// through playwright-core), Firefox ESR (headless, through geckodriver) and
// WebKitGTK (MiniBrowser through WebKitWebDriver, on an X display: Xvfb
// when none is set). Playwright drives only its own builds of Firefox and
// WebKit, so those two are driven over W3C WebDriver, with the small client
// below (the protocol's HTTP endpoints through fetch).
//
// Every engine gives the same small page interface:
//   page.goto(url)                     loads a URL, resolves once it loaded
//   page.evaluate(fn, arg)             runs fn(arg) in the page (it may be async; arg is JSON)
//   page.waitForFunction(fn, arg, { timeout })  polls until fn(arg) is truthy
//   page.locator(css), page.getByRole(role, { name }), page.getByLabel(text)
//       -> first() click() fill(text) press(key) focus() blur() selectOption(value)
//          textContent() getAttribute(name) inputValue() isVisible() isHidden()
//          count() evaluate(fn)
//   page.keyboard.press(key), page.keyboard.type(text)
//   page.url(), page.screenshot({ path }), page.setDefaultTimeout(ms), page.close()
// and browser.newPage({ viewport }), browser.close(); pages are opened and
// used one at a time. In Chromium, `page.pw` is the Playwright page (for
// what only Chromium checks: screenshots, console and page-error events).
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { freePort } from "./harness.mjs";

export const ENGINES = ["chromium", "firefox", "webkit"];

/**
 * The engines a run covers: all three, or those named in BROWSERS
 * (comma-separated), for running one engine by hand.
 */
export function enginesToRun() {
  const named = (process.env.BROWSERS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const name of named) {
    if (!ENGINES.includes(name)) throw new Error(`BROWSERS: unknown engine ${JSON.stringify(name)} (known: ${ENGINES.join(", ")})`);
  }
  return named.length ? named : ENGINES;
}

/** The engine's name as reports show it. */
export const LABELS = { chromium: "Chromium", firefox: "Firefox", webkit: "WebKit" };

// No sandbox (the tests run as root), no background networking (only loopback is reachable).
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

/** Debian's Chromium through playwright-core, headless (the Playwright browser itself). */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Starts `engine` ("chromium", "firefox" or "webkit"); resolves to a browser with newPage() and close(). */
export async function launch(engine) {
  if (engine === "chromium") return new PlaywrightBrowser(await launchChromium());
  if (engine === "firefox") return WebDriverBrowser.start(engine);
  if (engine === "webkit") return WebDriverBrowser.start(engine);
  throw new Error(`unknown browser engine ${JSON.stringify(engine)} (known: ${ENGINES.join(", ")})`);
}

// --- Chromium: playwright-core -------------------------------------------------------------

class PlaywrightBrowser {
  constructor(browser) { this.engine = "chromium"; this.browser = browser; }
  async newPage({ viewport, colorScheme } = {}) {
    const context = await this.browser.newContext({ viewport: viewport ?? { width: 1280, height: 800 }, colorScheme, locale: "en-US", timezoneId: "UTC" });
    return new PlaywrightPage(context, await context.newPage());
  }
  close() { return this.browser.close(); }
}

class PlaywrightPage {
  constructor(context, page) {
    this.context = context;
    this.pw = page;
    this.keyboard = { press: (key) => page.keyboard.press(key), type: (text) => page.keyboard.type(text) };
  }
  setDefaultTimeout(ms) { this.pw.setDefaultTimeout(ms); }
  async goto(url) { await this.pw.goto(url); }
  evaluate(fn, arg) { return this.pw.evaluate(fn, arg); }
  async waitForFunction(fn, arg, { timeout = 30_000 } = {}) {
    return (await this.pw.waitForFunction(fn, arg, { timeout })).jsonValue();
  }
  locator(css) { return new PlaywrightLocator(this.pw.locator(css)); }
  getByRole(role, { name } = {}) { return new PlaywrightLocator(this.pw.getByRole(role, { name, exact: true })); }
  getByLabel(text) { return new PlaywrightLocator(this.pw.getByLabel(text, { exact: true })); }
  url() { return this.pw.url(); }
  screenshot(options) { return this.pw.screenshot({ animations: "disabled", ...options }); }
  close() { return this.context.close(); }
}

class PlaywrightLocator {
  constructor(locator) { this.l = locator; }
  first() { return new PlaywrightLocator(this.l.first()); }
  locator(css) { return new PlaywrightLocator(this.l.locator(css)); }
  click() { return this.l.click(); }
  fill(text) { return this.l.fill(text); }
  press(key) { return this.l.press(key); }
  focus() { return this.l.focus(); }
  blur() { return this.l.blur(); }
  selectOption(value) { return this.l.selectOption(value); }
  textContent() { return this.l.textContent(); }
  getAttribute(name) { return this.l.getAttribute(name); }
  inputValue() { return this.l.inputValue(); }
  isVisible() { return this.l.isVisible(); }
  isHidden() { return this.l.isHidden(); }
  count() { return this.l.count(); }
  evaluate(fn) { return this.l.evaluate(fn); }
}

// --- Firefox and WebKit: W3C WebDriver -----------------------------------------------------

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
// The WebDriver key codes of the keys the tests press.
const KEYS = { Enter: "\uE007", Tab: "\uE004", Escape: "\uE00C", Backspace: "\uE003",
  ArrowLeft: "\uE012", ArrowUp: "\uE013", ArrowRight: "\uE014", ArrowDown: "\uE015" };
const keyOf = (key) => KEYS[key] ?? (key.length === 1 ? key : (() => { throw new Error(`no WebDriver code for key ${key}`); })());

/** The MiniBrowser the WebKitGTK package installs, in its library folder. */
export function miniBrowser() {
  const candidates = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/libexec"]
    .map((dir) => `${dir}/webkit2gtk-4.1/MiniBrowser`);
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`MiniBrowser not found (looked at ${candidates.join(", ")}): run scripts/setup.sh (webkit2gtk-driver)`);
  return found;
}

const DRIVERS = {
  firefox: {
    command: () => process.env.GECKODRIVER ?? "geckodriver",
    args: (port) => [`--port=${port}`, "--log=fatal"],
    capabilities: () => ({
      browserName: "firefox",
      "moz:firefoxOptions": {
        binary: process.env.FIREFOX_BIN ?? "/usr/bin/firefox-esr",
        args: ["-headless"],
        // Only loopback is reachable: no update checks, telemetry or remote settings.
        prefs: { "app.update.enabled": false, "datareporting.policy.dataSubmissionEnabled": false,
          "toolkit.telemetry.enabled": false, "network.captive-portal-service.enabled": false,
          "browser.safebrowsing.update.enabled": false },
      },
    }),
  },
  webkit: {
    command: () => process.env.WEBKITWEBDRIVER ?? "WebKitWebDriver",
    args: (port) => [`--port=${port}`],
    capabilities: () => ({
      "webkitgtk:browserOptions": { binary: miniBrowser(), args: ["--automation"] },
    }),
    display: true,
  },
};

// The process groups started here, ended if this process exits without
// closing its browsers (a test that threw, for example).
const running = new Set();
process.once("exit", () => {
  for (const pid of running) {
    try { process.kill(-pid, "SIGKILL"); } catch { /* already gone */ }
  }
});

/** Starts a command in its own process group; returns it with a stop() that ends the group. */
function startProcess(command, args, env, stdio = ["ignore", "ignore", "pipe"]) {
  const child = spawn(command, args, { env, stdio, detached: true });
  running.add(child.pid);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (s) => { stderr = (stderr + s).slice(-4000); });
  const exited = new Promise((resolve) => child.once("exit", (code) => { running.delete(child.pid); resolve(code); }));
  child.once("error", (err) => { stderr += String(err); });
  return {
    child, exited, stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ }
        const timer = setTimeout(() => { try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ } }, 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** An X display for MiniBrowser: $DISPLAY if set, else a new Xvfb (stopped with the browser). */
async function xDisplay() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: async () => {} };
  // -displayfd: Xvfb picks a free display number and writes it to fd 3.
  const xvfb = startProcess("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
    process.env, ["ignore", "ignore", "pipe", "pipe"]);
  const number = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display in 10 s: ${xvfb.stderr()}`)), 10_000);
    xvfb.child.stdio[3].setEncoding("utf8").on("data", (s) => {
      out += s;
      if (out.includes("\n")) { clearTimeout(timer); resolve(out.trim()); }
    });
    xvfb.exited.then((code) => { clearTimeout(timer); reject(new Error(`Xvfb exited with ${code}: ${xvfb.stderr()} (is xvfb installed? scripts/setup.sh)`)); });
  });
  return { display: `:${number}`, stop: xvfb.stop };
}

class WebDriverBrowser {
  static async start(engine) {
    const spec = DRIVERS[engine];
    const x = spec.display ? await xDisplay() : null;
    const port = await freePort();
    // The locale and time zone the tests expect (as Chromium's pages get from Playwright).
    const env = { ...process.env, LANG: "en_US.UTF-8", LANGUAGE: "en_US", TZ: "UTC", ...(x ? { DISPLAY: x.display } : {}) };
    const driver = startProcess(spec.command(), spec.args(port), env);
    const base = `http://127.0.0.1:${port}`;
    const stopAll = async () => { await driver.stop(); await x?.stop(); };
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        if (driver.child.exitCode !== null) throw new Error(`${spec.command()} exited: ${driver.stderr()}`);
        try {
          if ((await (await fetch(`${base}/status`)).json()).value?.ready !== undefined) break;
        } catch { /* not listening yet */ }
        if (Date.now() > deadline) throw new Error(`${spec.command()} did not answer in 20 s: ${driver.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } catch (err) {
      await stopAll();
      throw err;
    }
    return new WebDriverBrowser(engine, base, spec, stopAll);
  }

  constructor(engine, base, spec, stopAll) {
    this.engine = engine;
    this.base = base;
    this.spec = spec;
    this.stopAll = stopAll;
    this.pages = new Set();
  }

  /**
   * A new page: a new window of the browser's one WebDriver session (started
   * with the first page; its first window stays open and unused, so that
   * closing a page never ends the session). WebKitWebDriver serves one
   * session at a time, and a new session is a new browser process.
   */
  async newPage({ viewport, colorScheme } = {}) {
    if (colorScheme) throw new Error(`${LABELS[this.engine]}: WebDriver cannot emulate a color scheme (Chromium only)`);
    if (!this.session) {
      const created = await call(this.base, "POST", "/session", { capabilities: { alwaysMatch: this.spec.capabilities() } });
      this.session = `${this.base}/session/${created.sessionId}`;
      await call(this.session, "POST", "/timeouts", { script: 60_000, pageLoad: 60_000 });
      this.home = this.current = await call(this.session, "GET", "/window");
    }
    // New Window needs a current window: the first one.
    await this.switchTo(this.home);
    const { handle } = await call(this.session, "POST", "/window/new", { type: "window" });
    const page = new WebDriverPage(this, handle);
    this.pages.add(page);
    await page.cmd("POST", "/window/rect", viewport ?? { width: 1280, height: 800 });
    return page;
  }

  /** Makes `handle` the window the session's commands go to. */
  async switchTo(handle) {
    if (this.current === handle) return;
    await call(this.session, "POST", "/window", { handle });
    this.current = handle;
  }

  async close() {
    if (this.session) await call(this.session, "DELETE", "").catch(() => {});
    await this.stopAll();
  }
}

/** One WebDriver command; resolves to its value, or throws the driver's error. */
async function call(base, method, path, body) {
  const response = await fetch(base + path, {
    method, headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(90_000),
  });
  const text = await response.text();
  let parsed;
  try { parsed = JSON.parse(text); } catch { throw new Error(`WebDriver ${method} ${path}: HTTP ${response.status}: ${text.slice(0, 500)}`); }
  if (!response.ok || parsed.value?.error) {
    const error = parsed.value ?? {};
    throw new Error(`WebDriver ${method} ${path}: ${error.error ?? response.status}: ${error.message ?? text.slice(0, 500)}`);
  }
  return parsed.value;
}

// Finds elements in the page: by CSS, or by ARIA role and accessible name, or
// by label text (exact, after collapsing white space), each inside the
// elements the previous step found. Run in the page.
const FIND = function find(steps) {
  const norm = (s) => (s ?? "").replace(/\s+/g, " ").trim();
  const IMPLICIT = {
    button: "button, input[type=button], input[type=submit], input[type=reset], [role=button]",
    searchbox: "input[type=search], [role=searchbox]",
    textbox: "input:not([type]), input[type=text], input[type=url], input[type=email], textarea, [role=textbox]",
    alert: "[role=alert]", status: "[role=status]", link: "a[href], [role=link]",
    radio: "input[type=radio], [role=radio]", combobox: "select, [role=combobox]",
  };
  const labelsOf = (el) => [...(el.labels ?? [])].map((l) => norm(l.textContent));
  const nameOf = (el) => {
    if (el.getAttribute("aria-labelledby")) {
      return norm(el.getAttribute("aria-labelledby").split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "").join(" "));
    }
    if (el.getAttribute("aria-label")) return norm(el.getAttribute("aria-label"));
    const labels = labelsOf(el);
    if (labels.length) return labels.join(" ");
    if (el.matches("input[type=button], input[type=submit]")) return norm(el.value);
    // The content's text, without what is aria-hidden.
    const text = (node) => node.nodeType === 3 ? node.data
      : node.nodeType === 1 && node.getAttribute("aria-hidden") === "true" ? ""
        : [...node.childNodes].map(text).join("");
    return norm(text(el));
  };
  const hidden = (el) => el.closest("[hidden], [aria-hidden=true]") !== null;
  let found = [document];
  for (const step of steps) {
    const next = [];
    for (const root of found) {
      if (step.css) next.push(...root.querySelectorAll(step.css));
      if (step.role) {
        const selector = IMPLICIT[step.role] ?? `[role=${step.role}]`;
        next.push(...[...root.querySelectorAll(selector)]
          .filter((el) => !hidden(el) && (step.name === undefined || nameOf(el) === norm(step.name))));
      }
      if (step.label) {
        const wanted = norm(step.label);
        next.push(...[...root.querySelectorAll("input, select, textarea, button, [aria-label], [aria-labelledby]")]
          .filter((el) => labelsOf(el).includes(wanted) || norm(el.getAttribute("aria-label")) === wanted));
      }
    }
    found = step.first ? next.slice(0, 1) : [...new Set(next)];
  }
  return found;
};

class WebDriverPage {
  constructor(browser, handle) {
    this.browser = browser;
    this.handle = handle;
    this.closed = false;
    this.timeout = 15_000;
    this.keyboard = {
      press: (key) => this.keys([keyOf(key)]),
      type: (text) => this.keys([...text].map(keyOf)),
    };
  }
  /** A command of the session, in this page's window. */
  async cmd(method, path, body) {
    if (this.closed) throw new Error("the page is closed");
    await this.browser.switchTo(this.handle);
    return call(this.browser.session, method, path, body);
  }

  /** How long a locator waits for its element. */
  setDefaultTimeout(ms) { this.timeout = ms; }
  async goto(url) { await this.cmd("POST", "/url", { url }); }
  async url() { return this.cmd("GET", "/url"); }

  /**
   * fn(arg) in the page; an async fn is awaited (execute/async with the
   * callback). The value comes back as JSON made in the page, so that objects
   * keep their keys' order (drivers' own serialization may sort them).
   */
  evaluate(fn, arg) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn})(${JSON.stringify(arg ?? null)}))
        .then((value) => done({ json: JSON.stringify(value === undefined ? null : value) }), (e) => done({ thrown: String(e && e.stack || e) }));`;
    return this.cmd("POST", "/execute/async", { script, args: [] }).then((got) => {
      if ("thrown" in got) throw new Error(`in the page: ${got.thrown}`);
      return JSON.parse(got.json);
    });
  }

  async waitForFunction(fn, arg, { timeout = 30_000 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      let value, error;
      try { value = await this.evaluate(fn, arg); } catch (err) {
        // A navigation in between (e.g. a dev server reloading the page) is retried.
        error = err;
      }
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`waitForFunction: not true in ${timeout} ms${error ? `: ${error.message}` : ""}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  locator(css) { return new WebDriverLocator(this, [{ css }]); }
  getByRole(role, { name } = {}) { return new WebDriverLocator(this, [{ role, name }]); }
  getByLabel(label) { return new WebDriverLocator(this, [{ label }]); }

  /** Key presses (each down then up) sent to the focused element. */
  async keys(codes) {
    const actions = codes.flatMap((value) => [{ type: "keyDown", value }, { type: "keyUp", value }]);
    await this.cmd("POST", "/actions", { actions: [{ type: "key", id: "keyboard", actions }] });
    await this.cmd("DELETE", "/actions");
  }

  async screenshot({ path }) {
    writeFileSync(path, Buffer.from(await this.cmd("GET", "/screenshot"), "base64"));
  }

  async close() {
    if (this.closed) return;
    await this.cmd("DELETE", "/window");
    this.closed = true;
    this.browser.current = undefined;
    this.browser.pages.delete(this);
  }
}

class WebDriverLocator {
  constructor(page, steps) { this.page = page; this.steps = steps; }
  first() { return new WebDriverLocator(this.page, [...this.steps.slice(0, -1), { ...this.steps.at(-1), first: true }]); }
  locator(css) { return new WebDriverLocator(this.page, [...this.steps, { css }]); }
  describe() { return JSON.stringify(this.steps); }

  /** Runs fn(elements, arg) in the page on what the locator finds. */
  all(fn, arg) {
    return this.page.evaluate(`({ steps, arg }) => (${fn})((${FIND})(steps), arg)`, { steps: this.steps, arg });
  }
  /** The one element (a WebDriver reference), waiting (the page's default timeout) for it to appear. */
  async element() {
    const script = `const found = (${FIND})(arguments[0]); return found.length === 1 ? found[0] : found.length;`;
    const deadline = Date.now() + this.page.timeout;
    for (;;) {
      const got = await this.page.cmd("POST", "/execute/sync", { script, args: [this.steps] });
      if (got && typeof got === "object" && got[ELEMENT]) return got[ELEMENT];
      if (got > 1) throw new Error(`${this.describe()}: ${got} elements match, expected one`);
      if (Date.now() > deadline) throw new Error(`${this.describe()}: no element in ${this.page.timeout} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  async one(fn, arg) {
    await this.element();
    return this.all(`(els, arg) => (${fn})(els[0], arg)`, arg);
  }

  async click() { await this.page.cmd("POST", `/element/${await this.element()}/click`, {}); }
  /**
   * Replaces the value as typing over a selection does (input events, and no
   * change event: WebDriver's Element Clear would blur the field and fire one).
   */
  async fill(text) {
    await this.one((el) => { el.focus(); el.select(); });
    await this.page.keys(text ? [...text] : [KEYS.Backspace]);
  }
  async press(key) {
    await this.focus();
    await this.page.keyboard.press(key);
  }
  focus() { return this.one((el) => el.focus()); }
  blur() { return this.one((el) => el.blur()); }
  selectOption(value) {
    return this.one((el, value) => {
      el.value = value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }, value);
  }
  textContent() { return this.one((el) => el.textContent); }
  getAttribute(name) { return this.one((el, name) => el.getAttribute(name), name); }
  inputValue() { return this.one((el) => el.value); }
  isVisible() {
    return this.all((els) => els.length > 0 && els[0].checkVisibility() && els[0].getClientRects().length > 0);
  }
  async isHidden() { return !(await this.isVisible()); }
  count() { return this.all((els) => els.length); }
  evaluate(fn) { return this.one(fn); }
}
