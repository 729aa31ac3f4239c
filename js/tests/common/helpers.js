// JS side of the shared wasm test suite: a scriptable fake `fetch` that
// records what the client sent, and small readers for errors and requests.
// The same file serves the Node run and the headless-browser run.

/**
 * A fake `fetch`. `script` is an array of steps, one per attempt (the last
 * one repeats): { status, body, headers, delayMs } answers; { reject: true }
 * fails like a refused connection; { hang: true } never answers (until the
 * request's signal aborts, as a real fetch does).
 */
export function fakeFetch(script) {
  const calls = [];
  const fetch = function (url, init) {
    const step = script[Math.min(calls.length, script.length - 1)];
    const headers = {};
    for (const [name, value] of new Headers(init.headers)) headers[name] = value;
    calls.push({ url, method: init.method, headers, body: init.body, signal: init.signal,
      credentials: init.credentials, thisIsUndefined: this === undefined });
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
      if (init.signal.aborted) return onAbort();
      init.signal.addEventListener("abort", onAbort);
      if (step.hang) return;
      if (step.reject) return reject(new TypeError(step.message ?? "fetch failed: connection refused"));
      if (step.authorize && headers.authorization !== step.authorize) {
        return resolve(new Response('{"status":401,"result":{"error":"token expired"}}', { status: 401 }));
      }
      if (step.like) {
        // A Response-like answer, whose headers a platform's Response
        // would filter (set-cookie): what a caller's fetch may resolve with.
        return resolve({ status: step.status ?? 200, headers: new Map(Object.entries(step.headers)),
          text: () => Promise.resolve(step.body ?? "") });
      }
      if (step.stall) {
        // Headers arrive, then the body stops half-way and never ends.
        const stream = new ReadableStream({
          start(c) { c.enqueue(new TextEncoder().encode('{"status":')); },
        });
        return resolve(new Response(stream, { status: 200 }));
      }
      const answer = () => resolve(new Response(step.body ?? "", {
        status: step.status ?? 200,
        headers: step.headers ?? { "content-type": "application/json" },
      }));
      if (step.delayMs) setTimeout(answer, step.delayMs); else answer();
    });
  };
  return { fetch, calls };
}

/**
 * A `fetch` that ignores the request's signal, shaped like `fakeFetch`'s:
 * with `never` "fetch" its promise never settles; with "body" it answers 200
 * at once, with a body whose `text()` never settles.
 */
export function neverSettling(never) {
  const calls = [];
  const fetch = (url, init) => {
    calls.push({ url, signal: init.signal });
    if (never === "fetch") return new Promise(() => {});
    return Promise.resolve({ status: 200, headers: new Headers(), text: () => new Promise(() => {}) });
  };
  return { fetch, calls };
}

export function callCount(fake) { return fake.calls.length; }
export function call(fake, i) { return fake.calls[i]; }
export function callSignalAborted(fake, i) { return fake.calls[i].signal.aborted; }

/** An answer body of `n` characters that is not JSON. */
export function bigText(n) { return "x".repeat(n); }

export function json(v) { return JSON.stringify(v); }
export function parse(text) { return JSON.parse(text); }

export function describeError(err) {
  return {
    isError: err instanceof Error,
    className: err && err.constructor && err.constructor.name,
    name: err && err.name,
    kind: err && err.kind,
    param: err && err.param,
    status: err && err.status,
    httpStatus: err && err.httpStatus,
    body: err && err.body,
    message: err && err.message,
    hasCause: err != null && "cause" in err,
    everything: err == null ? "" : [
      String(err), err.message, err.stack, JSON.stringify(err),
      typeof err.body === "string" ? err.body : JSON.stringify(err.body),
      err.cause === undefined ? "" : String(err.cause), err.cause && err.cause.stack,
    ].join("\n"),
  };
}

/** The params the client put in a URL's query string, as an object. */
export function queryOf(url) {
  return Object.fromEntries(new URL(url).searchParams);
}
/** The params of a form body, as an object. */
export function formOf(body) {
  return Object.fromEntries(new URLSearchParams(body));
}

/** Ground truth from the reference server, with a raw fetch. */
export async function rawCount(baseUrl, params) {
  const r = await fetch(baseUrl + "/api/users/count", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params),
  });
  return (await r.json()).result.totalUsers;
}

export function abortController() { return new AbortController(); }
export function abortedSignal() { const c = new AbortController(); c.abort(); return c.signal; }
export function abortLater(controller, ms) { setTimeout(() => controller.abort(), ms); }
export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
export function now() { return Date.now(); }
/** The client's clock in a JS host: monotonic, in milliseconds. */
export function monotonicNow() { return performance.now(); }
/**
 * Sets the wall clock (`Date.now`) back by `byMs`, `afterMs` from now, as a
 * system clock can jump; the returned function puts it right.
 */
export function wallClockJumpsBack(afterMs, byMs) {
  const original = Date.now;
  const timer = setTimeout(() => { Date.now = () => original.call(Date) - byMs; }, afterMs);
  return () => { clearTimeout(timer); Date.now = original; };
}
/**
 * Whether `promise` settles before a timer of `ms`, armed now, fires. Timers
 * fire in the order of their deadlines however busy the machine is, so this
 * compares with the client's own timers (its timeout, its pause), not with
 * the wall clock.
 */
export function settlesBefore(promise, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = () => { clearTimeout(timer); resolve(true); };
    promise.then(settled, settled);
  });
}

/** An instance of a class whose constructor sets `active`, and a null-prototype object with the same key. */
export function classInstance() { return new (class P { constructor() { this.active = "true"; } })(); }
export function nullPrototypeParams() { return Object.assign(Object.create(null), { active: "true" }); }

/**
 * Captures what the client reports (it calls `globalThis.reportError`
 * where there is one) in `reports`, until `restore()` puts back the
 * platform's own.
 */
export function capturingReports() {
  const had = Object.getOwnPropertyDescriptor(globalThis, "reportError");
  const reports = [];
  globalThis.reportError = (error) => { reports.push(error); };
  const restore = () => (had ? Object.defineProperty(globalThis, "reportError", had) : delete globalThis.reportError);
  return { reports, restore };
}
export function reportedMessages(capture) { return capture.reports.map((error) => String(error?.message)).join("\n"); }
export function restoreReports(capture) { capture.restore(); }

/** A `fetch` that fails as Deno's does, its message quoting the request URL. */
export function fetchQuotingTheUrl() {
  return (url) => Promise.reject(new TypeError(`error sending request for url (${url}): connection refused`));
}

/** A header provider that counts its calls. */
export function countingProvider(headers) {
  // "{n}" in a value of a plain JSON object becomes the call's number (1
  // for the first); any other headers value is returned as it is.
  let numbered = false;
  try { numbered = /\{n\}/.test(JSON.stringify(headers) ?? ""); } catch {}
  const provider = () => {
    provider.count += 1;
    if (!numbered) return Promise.resolve(headers);
    return Promise.resolve(JSON.parse(JSON.stringify(headers).replaceAll("{n}", provider.count)));
  };
  provider.count = 0;
  return provider;
}
export function providerCount(p) { return p.count; }
/** A provider whose promise never settles. */
export function hangingProvider() { return () => new Promise(() => {}); }
/**
 * A header function or hook whose promise never settles, counting its
 * calls (`providerCount`) and keeping the last info's error (`seenError`:
 * what a beforeRetry was shown).
 */
export function countedHanging() {
  const hook = (info) => {
    hook.count += 1;
    hook.seen = info?.error;
    return new Promise(() => {});
  };
  hook.count = 0;
  return hook;
}
export function seenError(hook) { return hook.seen; }
/** A header function that gives no headers after `ms`. */
export function slowProvider(ms) { return () => new Promise((resolve) => setTimeout(() => resolve({}), ms)); }
/** A params object whose getter throws. */
export function hostileParams() {
  return { get active() { throw new Error("boom"); } };
}
/** An object with an own "__proto__" key, as JSON.parse makes one. */
export function protoKeyObject() { return JSON.parse('{"__proto__": "x"}'); }
export function loneSurrogate() { return "a\uD800b"; }
export function httpDate(msFromNow) { return new Date(Date.now() + msFromNow).toUTCString(); }

/**
 * The hostile-input table: every validation rule with values a
 * careless or malicious caller may pass. Each case is a one-shot countUsers
 * (or listUsers with `list: true`) that must be refused with kind
 * "validation" and this `param`, without a request.
 */
export function hostileCases() {
  const huge = "x".repeat(1 << 20);
  const lone = "a\uD800b";
  const cases = [];
  const add = (name, param, call) => cases.push({ name, param, ...call });
  const bad = {
    wrongTypes: [5, true, {}, [], () => "all", Symbol("s"), 10n, new Date(0), new Map()],
    numbers: [NaN, Infinity, -Infinity, -1, 0, 1e308],
    strings: ["TRUE", "True", "yes", "1", "", " all", "all ", "all\0", "true\r\n", "fa lse", lone, huge],
  };
  const notBooleans = bad.wrongTypes.filter((v) => typeof v !== "boolean");
  for (const v of [...notBooleans, ...bad.numbers, ...bad.strings]) add(`active=${describe(v)}`, "active", { params: { active: v } });
  for (const v of [...bad.wrongTypes, ...bad.numbers, lone, "\uDC00", "ok\uD83D"]) add(`query=${describe(v)}`, "query", { params: { query: v } });
  for (const v of ["active=true", 5, true, [], [["active", "true"]], () => ({}), Symbol("p"), 1n, new Map([["active", "true"]]), new Date(0)]) {
    add(`params=${describe(v)}`, "params", { params: v });
  }
  for (const key of ["__proto__", "constructor", "prototype", "activ", "Active", "", "toString", "hasOwnProperty"]) {
    add(`count key ${JSON.stringify(key)}`, key, { params: JSON.parse(`{${JSON.stringify(key)}: "x"}`) });
  }
  for (const v of [{}, [], NaN, Infinity, () => 1, Symbol("x"), 1n, lone]) {
    add(`list extra in query mode=${describe(v)}`, "filter", { list: true, params: { filter: v }, options: { paramsIn: "query" } });
    add(`list extra in form mode=${describe(v)}`, "filter", { list: true, params: { filter: v }, options: { paramsIn: "form" } });
  }
  for (const v of [NaN, Infinity, () => 1, Symbol("x"), 1n]) {
    add(`list extra in body mode=${describe(v)}`, "filter", { list: true, params: { filter: v } });
  }
  for (const v of ["", " ", "ftp://x", "http://", "http:x", "//x", "x.com", "http://x/?q", "http://x/#f", "http://u:p@x/",
    "javascript:alert(1)", "data:text/plain,x", "file:///etc/passwd", "http://[::1/", 5, null, undefined, {}, [], huge]) {
    add(`baseUrl=${describe(v)}`, "baseUrl", { baseUrl: v });
  }
  for (const v of ["5", null, true, {}, NaN, Infinity, -Infinity, -1, -0.001, 10n]) add(`timeoutMs=${describe(v)}`, "timeoutMs", { options: { timeoutMs: v } });
  // An object is a RetryPolicy: each of its fields is checked.
  for (const v of ["2", null, true, [], NaN, Infinity, -1, 1.5, 2n, { limit: -1 }, { limit: "2" }, { statusCodes: [600] },
    { statusCodes: [503.5] }, { statusCodes: "503" }, { statusCodes: [[503]] }, { maxRetryAfterMs: NaN }, { backoffLimitMs: -1 },
    { retryOn: [503] }]) add(`retries=${describe(v)}`, "retries", { options: { retries: v } });
  for (const v of ["JSON", "", "Body", null, 1]) add(`paramsIn=${describe(v)}`, "paramsIn", { options: { paramsIn: v } });
  for (const v of ["all", "", "INCLUDE", null, true]) add(`credentials=${describe(v)}`, "credentials", { options: { credentials: v } });
  for (const v of ["fetch", {}, null, 5]) add(`fetch=${describe(v)}`, "fetch", { options: { fetch: v } });
  for (const v of [{}, "signal", true, { aborted: false }, null]) add(`signal=${describe(v)}`, "signal", { options: { signal: v } });
  for (const h of [{ "bad name": "x" }, { "": "x" }, { "x:y": "z" }, { "é": "x" }, { x: "a\r\nInjected: 1" }, { x: "a\nb" },
    { x: "a\rb" }, { x: "a\0b" }, { x: "\u0100" }, { x: "☃" }, { x: lone }, { x: 5 }, { x: null }, { x: {} }, "Authorization: x", 5,
    // [name, value] pairs are headers too, held to the same rules.
    [["x"]], [["x", "y", "z"]], ["x"], [["bad name", "x"]], [["x", "a\nb"]], [["x", 5]], [[5, "x"]]]) {
    add(`headers=${describe(h)}`, "headers", { options: { headers: h } });
    add(`headers from a provider=${describe(h)}`, "headers", { options: { headers: async () => h } });
  }
  for (const key of ["timeout", "baseURL", "retry", "header", "method", "body", "__proto__"]) {
    add(`option ${JSON.stringify(key)}`, key, { options: JSON.parse(`{${JSON.stringify(key)}: 1}`) });
  }
  return cases;
}

function describe(v) {
  try {
    if (typeof v === "string") return JSON.stringify(v.length > 20 ? v.slice(0, 20) + "…" : v);
    if (typeof v === "function") return "function";
    if (typeof v === "symbol" || typeof v === "bigint") return `${typeof v} ${String(v)}`;
    if (Array.isArray(v)) return `array ${JSON.stringify(v)}`;
    if (v instanceof Date || v instanceof Map) return v.constructor.name;
    return typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
  } catch {
    return typeof v;
  }
}

/** How many requests a fault scenario received (GET {base}/attempts). */
export async function attemptsOf(base) {
  return (await (await fetch(`${base}/attempts`)).json()).attempts;
}
/** A key that keeps one test's attempt counts apart from every other's. */
export function uniqueKey() {
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

// For the Rust API tests (rust_api.rs): custom `fetch` functions that fail
// in the ways gloo-net 0.7 does not expect (a panic there would trap the
// module).

/** A `fetch` whose promise rejects with `reason` (any value, not an Error). */
export function fetchRejectingWith(reason) { return () => Promise.reject(reason); }
/** A `fetch` that throws `value` synchronously. */
export function fetchThrowing(value) { return () => { throw value; }; }
/** A `fetch` whose promise resolves with `value`. */
export function fetchResolvingWith(value) { return () => Promise.resolve(value); }
/** Things a broken `fetch` may resolve with instead of a Response. */
export function oddResponse(name) {
  switch (name) {
    case "empty": return {};
    case "number": return 5;
    case "no-status": return { text: () => Promise.resolve('{"status":200,"result":{"totalUsers":1}}') };
    case "bad-status": return { status: 1000, text: () => Promise.resolve("") };
    case "text-throws": return { status: 200, headers: new Headers(), text() { throw new Error("no body"); } };
    default: throw new Error(`unknown odd response ${name}`);
  }
}

// For the hooks tests (hooks.rs).

/**
 * Hooks that record each call as [name, info, Date.now()] in `calls`.
 * `mode`: undefined (record only), "throw" (each hook throws after
 * recording), "reject" (each returns a rejected promise), "async" (each is
 * an async function that throws), "then-throws" (each returns a thenable
 * whose `then` throws). `abortOnRetry`: an AbortController that beforeRetry
 * aborts.
 */
export function recordingHooks(mode, abortOnRetry) {
  const calls = [];
  const make = (name) => {
    const record = (info) => calls.push([name, info, Date.now()]);
    switch (mode) {
      case "throw": return (info) => { record(info); throw new Error(`${name} hook failed on purpose`); };
      case "reject": return (info) => { record(info); return Promise.reject(new Error(`${name} rejected on purpose`)); };
      case "async": return async (info) => { record(info); throw new Error(`${name} async hook failed on purpose`); };
      case "then-throws": return (info) => { record(info); return { then() { throw new Error("then failed on purpose"); } }; };
      default: return (info) => {
        record(info);
        if (name === "beforeRetry" && abortOnRetry) abortOnRetry.abort();
      };
    }
  };
  const hooks = { beforeRequest: make("beforeRequest"), afterResponse: make("afterResponse"), beforeRetry: make("beforeRetry") };
  return { hooks, calls };
}
/**
 * Recording hooks whose `beforeRetry` aborts `controller` `abortMs` later
 * (inside the pause when the pause is longer) and arms a timer as long as
 * the pause before the client arms its own: `pauseOver(rec)` says whether
 * that timer has fired, that is whether the pause would be over.
 */
export function abortingInPause(controller, abortMs) {
  const rec = recordingHooks(undefined, undefined);
  const record = rec.hooks.beforeRetry;
  rec.pauseOver = false;
  rec.hooks.beforeRetry = (info) => {
    record(info);
    setTimeout(() => controller.abort(), abortMs);
    setTimeout(() => { rec.pauseOver = true; }, info.delayMs);
  };
  return rec;
}
export function pauseOver(rec) { return rec.pauseOver; }
export function hooksOf(rec) { return rec.hooks; }
/** How many times hook `name` was called. */
export function hookCount(rec, name) { return rec.calls.filter((c) => c[0] === name).length; }
/** The names of the hooks called, in order, comma-separated. */
export function hookSequence(rec) { return rec.calls.map((c) => c[0]).join(","); }
/** The info of the `i`-th call of hook `name`. */
export function hookInfo(rec, name, i) { return rec.calls.filter((c) => c[0] === name)[i][1]; }
/** When (Date.now()) the `i`-th call of hook `name` happened. */
export function hookTime(rec, name, i) { return rec.calls.filter((c) => c[0] === name)[i][2]; }
/** A header's value in an info's `headers`, its name matched case-insensitively. */
export function infoHeader(info, name) {
  const found = Object.entries(info.headers ?? {}).filter(([n]) => n.toLowerCase() === name.toLowerCase());
  return found.length === 1 ? found[0][1] : found.length === 0 ? undefined : `${found.length} headers named ${name}`;
}
/**
 * Everything any hook received, as text: JSON of every info, plus (for a
 * beforeRetry's error, which JSON shows little of) its message, stack, body
 * and cause.
 */
export function everythingHooksSaw(rec) {
  return rec.calls.map(([name, info]) => {
    let text = `${name} ${JSON.stringify(info)}`;
    if (info && info.error) text += `\n${describeError(info.error).everything}`;
    return text;
  }).join("\n");
}
/** A hooks object whose `beforeRequest` getter throws. */
export function throwingHooksGetter() {
  return { get beforeRequest() { throw new Error("hooks getter failed on purpose"); } };
}
/** A hooks object that is a proxy whose ownKeys trap throws. */
export function hooksProxy() {
  return new Proxy({}, { ownKeys() { throw new Error("ownKeys trap failed on purpose"); } });
}
/** Bad `hooks` values, each of which must be a validation error with param "hooks". */
export function badHooks() {
  const f = () => {};
  return [
    ["unknown key onRequest", { onRequest: f }],
    ["unknown key before_request", { before_request: f }],
    ["unknown key beforerequest", { beforerequest: f }],
    ["unknown key beside good ones", { beforeRequest: f, afterResponse: f, onError: f }],
    ["unknown key __proto__", JSON.parse('{"__proto__": 1}')],
    ["beforeRequest: 5", { beforeRequest: 5 }],
    ["beforeRequest: string", { beforeRequest: "console.log" }],
    ["afterResponse: null", { afterResponse: null }],
    ["afterResponse: object", { afterResponse: {} }],
    ["beforeRetry: true", { beforeRetry: true }],
    ["beforeRetry: array", { beforeRetry: [f] }],
    ["hooks: a function", f],
    ["hooks: a string", "beforeRequest"],
    ["hooks: null", null],
    ["hooks: 5", 5],
    ["hooks: an array", [f]],
    ["hooks: a Map", new Map([["beforeRequest", f]])],
    ["a throwing getter", throwingHooksGetter()],
    ["a proxy that cannot be listed", hooksProxy()],
  ];
}
/** `promise`, marked handled: for calls started together and awaited one by one. */
export function handled(promise) { promise.catch(() => {}); return promise; }

// --- A replaced global fetch, revoked
// proxies, credentials deep in a cause. ---

/** Replaces `globalThis.fetch` as a test suite's stub would; returns the
 *  function that puts the real one back. `kind`: "empty-object" resolves to
 *  `{}`, "string" rejects with a string, "throws" throws at once. */
export function stubGlobalFetch(kind) {
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if (kind === "throws") throw "no network in this test";
    if (kind === "string") return Promise.reject("offline");
    return Promise.resolve({});
  };
  return () => { globalThis.fetch = real; };
}
export function restore(undo) { undo(); }

/** An object whose proxy has been revoked: every look at it throws. */
export function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A fetch that fails with an error whose cause's cause quotes the
 *  Authorization header it was given, and carries the headers too. */
export function fetchLeakingDeepInCause() {
  return (url, init) => {
    const auth = new Headers(init.headers).get("authorization");
    const inner = new Error(`denied for ${auth}`);
    return Promise.reject(new TypeError("fetch failed", { cause: new Error("proxy said no", { cause: inner }) }));
  };
}

/** Hooks whose beforeRequest aborts `controller`. */
export function abortingHooks(controller) {
  return { beforeRequest() { controller.abort(); } };
}

// For the secrets tests (secrets.rs): a server that echoes a token back.

/**
 * The answers a hostile server may echo `token` in, one scripted step each
 * (`name` says the form): JSON-escaped with `\u002B` and `\/`, every
 * character `\u`-escaped, percent-encoded in a URL inside JSON, as a count
 * that is a string, across the 65,536-character cut of a text body, and
 * the plain forms (a JSON value and key, an `api` envelope, a short text).
 */
export function echoSteps(token) {
  const escaped = JSON.stringify(token).slice(1, -1).replace(/\//g, "\\/").replace(/\+/g, "\\u002B");
  const everyChar = [...token].map((c) => c.codePointAt(0) > 0xffff
    ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  const envelope = (status, result) => `{"status":${status},"result":${result}}`;
  const text = { "content-type": "text/plain" };
  return [
    { name: "JSON-escaped", kind: "http", status: 401, body: envelope(401, `{"echo":"${escaped}","why":"expired"}`) },
    { name: "every character escaped", kind: "http", status: 401, body: envelope(401, `{"echo":"${everyChar}","why":"expired"}`) },
    { name: "percent-encoded in a URL", kind: "http", status: 401,
      body: envelope(401, `{"next":"https://id.example/?t=${encodeURIComponent(token)}","why":"expired"}`) },
    { name: "a count that is the token", kind: "decode", body: envelope(200, JSON.stringify({ totalUsers: token })) },
    { name: "a count's result that is a text ending in the token, past the quote's 64 characters",
      kind: "decode", body: envelope(200, JSON.stringify(`${"x".repeat(50)}${token}`)) },
    { name: "across the body cut", kind: "http", status: 500, headers: text, body: `${"#".repeat(65_536 - 20)}${token} is not valid` },
    { name: "as a JSON value", kind: "http", status: 401, body: envelope(401, JSON.stringify({ echo: `Bearer ${token}`, why: "expired" })) },
    { name: "as a JSON key", kind: "http", status: 401, body: envelope(401, JSON.stringify({ [token]: true, why: "expired" })) },
    { name: "an api error", kind: "api", body: envelope(403, JSON.stringify(token)) },
    { name: "a short text", kind: "http", status: 500, headers: text, body: `token=${token}` },
  ];
}

/**
 * A 12-character piece of `token` (or the whole of a shorter one) found in
 * `text` as it is, with its JSON escapes read, or percent-decoded; else null.
 */
export function leakedPiece(text, token) {
  const unescaped = text.replace(/\\u([0-9a-fA-F]{4})|\\(.)/g, (_, hex, c) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" })[c] ?? c);
  const percentDecoded = (s) => new TextDecoder().decode(new Uint8Array(
    (s.match(/%[0-9a-fA-F]{2}|[^]/gu) ?? []).flatMap((unit) => unit.length === 3 && unit[0] === "%"
      ? [parseInt(unit.slice(1), 16)] : [...new TextEncoder().encode(unit)])));
  const views = [text, unescaped, percentDecoded(text), percentDecoded(text.replace(/\+/g, " ")), percentDecoded(unescaped)];
  const chars = [...token];
  const width = Math.min(12, chars.length);
  for (let i = 0; i + width <= chars.length; i++) {
    const piece = chars.slice(i, i + width).join("");
    if (views.some((view) => view.includes(piece))) return piece;
  }
  return null;
}

export function stepName(step) { return step.name; }

// For the setup errors (retries.rs).

/** A `fetch` that resolves with `value` (not a Response), counting its calls as `fakeFetch` does. */
export function fetchAnswering(value) {
  const calls = [];
  return { calls, fetch: (url) => { calls.push({ url }); return Promise.resolve(value); } };
}

/**
 * Starts `start()` (a call) with no global `fetch`, as in a host that has
 * none, and puts it back once the call settles. The attempts are counted
 * by a `beforeRequest` hook in `attempts.count`.
 */
export function withoutGlobalFetch(start) {
  const saved = globalThis.fetch;
  globalThis.fetch = undefined;
  const attempts = { count: 0 };
  const promise = start({ beforeRequest: () => { attempts.count += 1; } });
  const restore = () => { globalThis.fetch = saved; };
  promise.then(restore, restore);
  return { promise, attempts };
}

/**
 * Options for a client that refreshes its token after a 401: its headers
 * function sends `Bearer ${token}` (first "old"), and its afterResponse
 * hook, on a 401, sets the token to "new" (after a timer: an async hook)
 * and asks for the attempt again. `seen` records each afterResponse's
 * status and Authorization as the hook saw it.
 */
export function refreshingOptions() {
  let token = "old";
  const seen = [];
  const options = {
    headers: () => ({ Authorization: `Bearer ${token}` }),
    hooks: {
      afterResponse: async (info) => {
        seen.push([info.httpStatus, info.headers.Authorization]);
        if (info.httpStatus !== 401) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
        token = "new";
        return { retry: true };
      },
    },
  };
  return { options, seen };
}
/** Hooks whose beforeRequest gives each attempt `x-request-id: r-<attempt>`. */
export function requestIdHooks() {
  return { beforeRequest: (info) => ({ headers: { "x-request-id": `r-${info.attempt}` } }) };
}
/** `{ hooks, calls }`: hooks whose beforeRequest returns a promise that never settles, and how often it was called. */
export function hangingHooks() {
  const hanging = { calls: 0, hooks: { beforeRequest: () => { hanging.calls += 1; return new Promise(() => {}); } } };
  return hanging;
}
// For idioms.rs: a caller's deadline, headers in the forms fetch takes, and
// the errors isRetryable is asked about.

/** `AbortSignal.timeout(ms)`. */
export function timeoutSignal(ms) { return AbortSignal.timeout(ms); }
/** `AbortSignal.any([AbortSignal.timeout(ms), a signal that never aborts])`, or null where the host has no `AbortSignal.any`. */
export function anyTimeoutSignal(ms) {
  return typeof AbortSignal.any == "function" ? AbortSignal.any([AbortSignal.timeout(ms), new AbortController().signal]) : null;
}
/** A `Headers` object made from `init`. */
export function headersObject(init) { return new Headers(init); }
/** A function returning `value`, and one returning a promise of it. */
export function returning(value) { return () => value; }
export function resolvingTo(value) { return async () => value; }
/** Hooks whose beforeRetry counts its calls (`retriesCounted(hooks)`). */
export function countingRetries() {
  const beforeRetry = () => { beforeRetry.count += 1; };
  beforeRetry.count = 0;
  return { beforeRetry };
}
export function retriesCounted(hooks) { return hooks.beforeRetry.count; }
/** A new UsersApiError made with the class of `like` (an error a call rejected with). */
export function madeLike(like, kind, message, fields) { return new like.constructor(kind, message, fields); }
/** Values that are no UsersApiError, however they look. */
export function notUsersApiErrors() {
  return [undefined, null, 503, "http", new Error("HTTP 503"), new TypeError("fetch failed"),
    { kind: "http", httpStatus: 503, name: "UsersApiError" }, { kind: "network" },
    Object.assign(new Error("x"), { kind: "timeout" })];
}
/** The header `name` as the echo fault route saw it. */
export function echoedHeader(envelope, name) { return envelope.result.headers[name]; }
/**
 * A `fetch` that passes every request on to the platform's `fetch` and
 * records it as `fakeFetch` does (its URL and body), so that a test can count
 * the requests a call made to the reference server.
 */
export function countingFetch() {
  const calls = [];
  const fetch = (url, init) => {
    calls.push({ url, body: init.body });
    return globalThis.fetch(url, init);
  };
  return { fetch, calls };
}
