// The few things the client needs that Rust cannot express through
// wasm-bindgen: a real `Error` subclass, and small promise helpers that
// avoid a Rust closure (and its bookkeeping) per call. wasm-bindgen copies
// this file into the package as a snippet; see src/js.rs for the bindings.

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

export function newUsersApiError(kind, message, param, status, httpStatus, body, cause) {
  return new UsersApiError(kind, message, param, status, httpStatus, body, cause);
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

const TIMED_OUT = {};
const ABORTED = {};

/** 1 for a `Clock`'s result, 2 for an `AbortWatch`'s, 0 for anything else. */
export function tagOf(v) {
  return v === TIMED_OUT ? 1 : v === ABORTED ? 2 : 0;
}

/** A promise that resolves to TIMED_OUT after `ms`, until cancelled. */
export class Clock {
  constructor(ms) {
    this.promise = new Promise((resolve) => {
      this.id = setTimeout(() => resolve(TIMED_OUT), ms);
    });
  }
  cancel() {
    clearTimeout(this.id);
  }
}

/** A promise that resolves to ABORTED when `signal` aborts, until detached. */
export class AbortWatch {
  constructor(signal) {
    this.signal = signal;
    this.promise = new Promise((resolve) => {
      this.listener = () => resolve(ABORTED);
    });
    signal.addEventListener("abort", this.listener);
  }
  detach() {
    this.signal.removeEventListener("abort", this.listener);
  }
}
