// The JS half of the client. Rust (src/) checks everything, builds each
// request and judges each answer, synchronously; this file does only what
// has to wait: `fetch`, the body, the header provider, the timeout, the
// caller's signal and the pause before a retry. So the `.wasm` needs no
// async runtime (wasm-bindgen-futures and an async state machine cost about
// 24 KB), and a call crosses into wasm three times.
//
// wasm-bindgen copies this file into the package as a snippet; see
// src/js.rs for the bindings and src/call.rs for the Rust side of a call.

/** Every failure of the client. See the README for the kinds. */
export class UsersApiError extends Error {
  constructor(kind, message, param, status, httpStatus, body, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    if (param !== undefined) this.param = param;
    if (status !== undefined) this.status = status;
    if (httpStatus !== undefined) this.httpStatus = httpStatus;
    if (body !== undefined) this.body = body;
    if (cause !== undefined && this.cause !== cause) this.cause = cause;
  }
}
Object.defineProperty(UsersApiError.prototype, "name", {
  value: "UsersApiError",
  writable: true,
  configurable: true,
});

/** A `UsersApiError`, with the call's credentials (`secrets`: the values
 *  Rust chose, joined by "\n", which header values cannot hold) cut out of
 *  its message, body and cause: a server can echo a token back, and a
 *  custom `fetch` can throw an error quoting it. */
export function newUsersApiError(kind, message, param, status, httpStatus, body, cause, secrets) {
  if (secrets) {
    const list = secrets.split("\n");
    message = redact(message, list);
    if (typeof body === "string") {
      body = redact(body, list);
    } else if (body !== undefined) {
      try {
        const json = JSON.stringify(body);
        const clean = redact(json, list);
        if (clean !== json) body = parseJson(clean) ?? clean;
      } catch {}
    }
    if (cause !== undefined) {
      const shown = safely(() => String(cause));
      const clean = redact(shown, list);
      const stack = safely(() => cause.stack);
      if (clean !== shown || (typeof stack === "string" && redact(stack, list) !== stack)) {
        // A fresh Error: its stack quotes only the cleaned message.
        cause = new Error(clean);
      }
    }
  }
  return new UsersApiError(kind, message, param, status, httpStatus, body, cause);
}

const REDACTED = "[REDACTED]";

function redact(text, secrets) {
  for (const secret of secrets) {
    if (text.includes(secret)) text = text.split(secret).join(REDACTED);
  }
  return text;
}

function safely(read) {
  try {
    return read();
  } catch {
    return "";
  }
}

/** The first 65,536 UTF-16 units of `text`, not splitting a surrogate pair. */
export function cutBody(text) {
  if (text.length <= 65536) return text;
  const last = text.charCodeAt(65535);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? 65535 : 65536);
}

const toStringTag = Object.prototype.toString;

/** 0 undefined, 1 null, 2 boolean, 3 number, 4 string, 5 array,
 *  6 function, 7 plain object, 8 symbol, 9 bigint, 10 any other object. */
export function typeCode(v) {
  switch (typeof v) {
    case "undefined": return 0;
    case "boolean": return 2;
    case "number": return 3;
    case "string": return 4;
    case "function": return 6;
    case "symbol": return 8;
    case "bigint": return 9;
  }
  if (v === null) return 1;
  if (Array.isArray(v)) return 5;
  return toStringTag.call(v) === "[object Object]" ? 7 : 10;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is valid Unicode (no lone surrogate), as UTF-8 needs. */
export function isWellFormed(s) {
  return !LONE_SURROGATE.test(s);
}

/** Why `fetch` failed, in a few words: its message, and the code or message
 *  of its cause (Node's undici hides ECONNREFUSED there). Never throws. */
export function failureDetail(e) {
  try {
    let text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const inner = e && e.cause;
    if (inner) text += ` (${inner.code || inner.message || String(inner)})`;
    return text.slice(0, 300);
  } catch {
    return "unknown error";
  }
}

/** Duck-typed, so that signals from other realms and polyfills pass. */
export function isAbortSignal(v) {
  return v !== null && typeof v === "object" && typeof v.aborted === "boolean"
    && typeof v.addEventListener === "function" && typeof v.removeEventListener === "function";
}

/** `JSON.parse`, or `undefined` (which JSON cannot produce) for what is
 *  not JSON: no exception to cross into wasm. */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the envelope checks read of a parsed body (a plain object):
 *  `[status, "result" in body, result, result.totalUsers]`. */
export function envelopeFields(body) {
  const result = body.result;
  return [body.status, "result" in body, result, typeCode(result) === 7 ? result.totalUsers : undefined];
}

export function pair(a, b) {
  return [a, b];
}

export function headerList(lines) {
  const list = [];
  if (lines === "") return list;
  const parts = lines.split("\n");
  for (let i = 0; i < parts.length; i += 2) list.push([parts[i], parts[i + 1]]);
  return list;
}

/** The `RequestInit` of a POST. `credentials` only where given: workerd
 *  rejects the member. */
export function requestInit(headers, body, credentials) {
  return credentials === undefined
    ? { method: "POST", headers, body, signal: undefined }
    : { method: "POST", headers, body, credentials, signal: undefined };
}

// What `Call.fail` is told went wrong; the numbers are `call::Failed` in Rust.
const PROVIDER_THREW = 0, PROVIDER_REJECTED = 1, ABORTED = 2, TIMED_OUT = 3,
  FETCH_FAILED = 4, BODY_FAILED = 5, NOT_A_RESPONSE = 6, SIGNAL_FAILED = 7;

/** What a wait resolves with when the signal or the clock wins. */
const ABORT = { failed: ABORTED }, TIMEOUT = { failed: TIMED_OUT };

/**
 * Runs one call: `call` is the Rust `Call`, checked and ready; `signal` the
 * caller's (not aborted), `provider` the client's header function, `fetchFn`
 * the client's `fetch`, `timeoutMs` per attempt (undefined: none).
 * Resolves with the envelope or rejects with the `UsersApiError` Rust made.
 */
export async function drive(call, signal, provider, fetchFn, timeoutMs) {
  // Each wait is one promise whose `resolve` is also handed to whatever can
  // end it early (the signal here, the deadline timer): no `Promise.race`,
  // no promise per contender. Resolving twice is a no-op.
  let wake, aborted = false, listening = false;
  const onAbort = () => {
    aborted = true;
    if (wake) wake(ABORT);
  };
  const wait = (start) => new Promise((resolve, reject) => {
    wake = resolve;
    if (aborted) resolve(ABORT);
    else start(resolve, reject);
  });
  try {
    if (signal) {
      try {
        signal.addEventListener("abort", onAbort);
        listening = true;
      } catch (e) {
        call.fail(SIGNAL_FAILED, e); // throws the error to reject with
      }
    }
    let given;
    if (provider) {
      let code = PROVIDER_THREW;
      try {
        given = provider();
        code = PROVIDER_REJECTED;
        given = await wait((resolve, reject) => Promise.resolve(given).then(resolve, reject));
      } catch (e) {
        call.fail(code, e);
      }
      if (given === ABORT) call.fail(ABORTED);
    }
    const [url, init] = call.prepare(given);
    for (;;) {
      const controller = new AbortController();
      init.signal = controller.signal;
      const run = { clock: undefined, done: false };
      const outcome = await wait((resolve) => attempt(resolve, url, init, fetchFn, timeoutMs, run));
      clearTimeout(run.clock);
      // Cancels the request or the body still in flight. Not after a whole
      // body: there is nothing left to cancel, and `abort()` builds a
      // DOMException (with a stack) each time, a cost per call.
      if (!run.done) controller.abort();
      // An abort that came after the body but before this line still wins:
      // the caller's promise has not settled yet.
      if (aborted) call.fail(ABORTED);
      // Returns the envelope, or the wait before the next attempt, or
      // throws the error to reject with.
      const next = outcome.failed === undefined
        ? call.settle(outcome.status, outcome.text, outcome.retryAfter)
        : call.fail(outcome.failed, outcome.cause);
      if (typeof next !== "number") return next;
      let timer;
      const woke = await wait((resolve) => { timer = setTimeout(resolve, next); });
      clearTimeout(timer);
      if (woke === ABORT) call.fail(ABORTED);
    }
  } finally {
    try {
      if (listening) signal.removeEventListener("abort", onAbort);
    } catch {}
    call.free();
  }
}

/** Starts one attempt: `fetch` and the whole body, within one deadline.
 *  Calls `resolve` with `{ status, text, retryAfter }`, or `{ failed,
 *  cause }` for `Call.fail`; never throws. Notes its deadline and whether
 *  the body was read whole in `run`, for `drive` to clean up after. */
function attempt(resolve, url, init, fetchFn, timeoutMs, run) {
  if (timeoutMs !== undefined) run.clock = setTimeout(() => resolve(TIMEOUT), timeoutMs);
  let failed = FETCH_FAILED;
  const fail = (cause) => resolve({ failed, cause });
  const read = (response) => {
    let body, status, retryAfter = null;
    try {
      if (response === null || typeof response !== "object" || typeof response.text !== "function") {
        return resolve({ failed: NOT_A_RESPONSE });
      }
      failed = BODY_FAILED;
      status = response.status;
      if (status >= 408) {
        try { retryAfter = response.headers.get("retry-after"); } catch {}
      }
      body = response.text();
    } catch (cause) {
      return fail(cause);
    }
    Promise.resolve(body).then((text) => {
      run.done = true;
      resolve({ status, text, retryAfter });
    }, fail);
  };
  try {
    // The global `fetch` is looked up here, so its absence is a `network` error.
    Promise.resolve(fetchFn ? fetchFn(url, init) : fetch(url, init)).then(read, fail);
  } catch (cause) {
    fail(cause);
  }
}
