// The JS layer's only JS written by hand: a class that `extends Error` (so
// `instanceof UsersApiError` and `instanceof Error` both hold), which Rust
// cannot declare, and the steps that would cross between wasm and JS at
// every field or entry: the one walk over an iterable of headers, and a
// hook's info object. js/src/error.rs constructs the class; js/src/read.rs
// reads headers with headerPairs and makes hooks' infos with hookInfo. (The library's fetch
// transport has its own, src/transport/fetch/bridge.js; the rules, retries
// and redaction are Rust.)

// The class's prototype carries this brand, a registered symbol (the same in
// every copy of the package in a process or page), and `instanceof
// UsersApiError` looks for it: an error from one copy (the ES module and
// CommonJS entries, /manual, a bundled copy) is an instance of every copy's
// class.
const BRAND = Symbol.for("user-management-client.UsersApiError");
const KINDS = ["validation", "network", "timeout", "aborted", "http", "decode", "api"];

/**
 * Every failure of the client. See the README for the kinds.
 * `new UsersApiError(kind, message, { param, status, httpStatus, body, cause })`:
 * each field is set only where given.
 */
export class UsersApiError extends Error {
  constructor(kind, message, fields = {}) {
    if (!KINDS.includes(kind) || Object(fields) !== fields) {
      throw new TypeError(`new UsersApiError(kind, message, { param, status, httpStatus, body, cause }): kind is one of ${KINDS.join(", ")}`);
    }
    const { param, status, httpStatus, body, cause } = fields;
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    if (param !== undefined) this.param = param;
    if (status !== undefined) this.status = status;
    if (httpStatus !== undefined) this.httpStatus = httpStatus;
    if (body !== undefined) this.body = body;
    if (cause !== undefined && this.cause !== cause) this.cause = cause;
  }

  // On UsersApiError itself: any copy's instance. On a subclass: the
  // ordinary prototype check, so a subclass keeps its own identity.
  static [Symbol.hasInstance](value) {
    return this === UsersApiError ? value?.[BRAND] === true : super[Symbol.hasInstance](value);
  }
}
Object.defineProperties(UsersApiError.prototype, {
  name: { value: "UsersApiError", writable: true, configurable: true },
  [BRAND]: { value: true },
});

// headerPairs(value): the entries of an iterable of headers (a Headers
// object, an array of [name, value] pairs, a Map: any object with a
// Symbol.iterator method) as one flat array, name, value, name, value...;
// null when an entry is not an array of two whose first is a string;
// undefined when `value` is not such an object (it is then read as a
// record). It throws what the iteration throws.
export function headerPairs(value) {
  if (Object(value) !== value || typeof value[Symbol.iterator] != "function") return;
  const flat = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || entry.length != 2 || typeof entry[0] != "string") return null;
    flat.push(entry[0], entry[1]);
  }
  return flat;
}

// The mark of an error no attempt is made again for, whatever its kind (a
// setup error, a body over its limit): Rust decides, and sets and reads the
// mark through these two. A registered symbol, not enumerable: the same in
// every copy of the package, and no field of the class.
const NEVER_RETRIED = Symbol.for("user-management-client.neverRetried");
export function markNeverRetried(error) {
  Object.defineProperty(error, NEVER_RETRIED, { value: true });
}
export const isMarkedNeverRetried = (error) => error?.[NEVER_RETRIED] === true;

// hookInfo(operation, url, attempt, headers, httpStatus, durationMs,
// responseHeaders): what a hook gets, made in one call: an AttemptInfo,
// `{ operation, url, attempt, headers }`, and where `httpStatus` is given a
// ResponseInfo, which adds `{ httpStatus, durationMs, responseHeaders }`.
// Each set of headers comes as "name\nvalue\nname\nvalue..." (no name or
// value holds a line feed) and is given as a record.
export function hookInfo(operation, url, attempt, headers, httpStatus, durationMs, responseHeaders) {
  const info = { operation, url, attempt, headers: record(headers) };
  if (httpStatus === undefined) return info;
  info.httpStatus = httpStatus;
  info.durationMs = durationMs;
  info.responseHeaders = record(responseHeaders);
  return info;
}

function record(lines) {
  const record = {};
  const list = lines ? lines.split("\n") : [];
  for (let i = 0; i < list.length; i += 2) record[list[i]] = list[i + 1];
  return record;
}

// The driver of one call (drive.rs): what must wait, and nothing else. The
// call (the Rust JsCall, over the library's call machine) decides every
// step and starts each wait through the methods below; what a wait comes
// to goes back through call.step(driver, outcome, value, tell, left),
// numbered as bridge.js numbers an attempt's outcomes (0 rejected, 1
// fulfilled, 2 timed out, 3 the caller's signal aborted, ...) and THREW
// for a function that threw, with what is left of the last wait's
// deadline (undefined: it had none). A step is never entered during
// another of the same call: what comes then (an abort dispatched while a
// step calls the caller's code) is told a microtask later.
const REJECTED = 0;
const FULFILLED = 1;
const TIMED_OUT = 2;
const ABORTED = 3;
const THREW = 8;

// drive(call, signal): the promise of `call`, driven from its first step;
// `signal` is the caller's.
export function drive(call, signal) {
  const driver = new Driver(call, signal);
  driver.next(FULFILLED);
  return driver.promise;
}

const later = (then) => void Promise.resolve().then(then);

class Driver {
  constructor(call, signal) {
    this.call = call;
    this.signal = signal;
    this.promise = new Promise((resolve, reject) => ((this.resolve = resolve), (this.reject = reject)));
    // What an attempt of bridge.js tells: settle(slot, outcome, value), a
    // microtask later (an abort queued behind the body's arrival still
    // comes before the call settles).
    this.tell = (slot, outcome, value) => later(() => this.next(outcome, value));
    this.kept = this.until = this.stepping = this.over = undefined;
  }

  next(outcome, value) {
    const call = this.call;
    if (!call) return;
    if (this.stepping) return later(() => this.next(outcome, value));
    this.stepping = true;
    try {
      const left = this.until === undefined ? undefined : Math.max(0, this.until - performance.now());
      call.step(this, outcome, value, this.tell, left);
    } finally {
      this.stepping = false;
    }
    if (this.over) {
      this.call = undefined;
      call.free();
    }
  }

  // The call is over: its promise settles with `value`.
  done(failed, value) {
    this.over = true;
    (failed ? this.reject : this.resolve)(value);
  }

  // run(fn, arg, ms): calls fn(arg), then steps the call with what came
  // of it, within `ms` (undefined: no deadline).
  run(fn, arg, ms) {
    this.keep(fn, arg, ms);
    this.waitKept();
  }

  // keep(fn, arg, ms): calls fn(arg) now, its deadline `ms` from now
  // (undefined: none); waitKept() steps the call with what came of it:
  // THREW and what it threw, what it returned, or what its promise (a
  // thenable, then read once) settles with, as soon as the caller's signal
  // allows, or TIMED_OUT once the deadline passed.
  keep(fn, arg, ms) {
    this.until = ms === undefined ? undefined : performance.now() + ms;
    try {
      this.kept = [FULFILLED, fn(arg)];
    } catch (error) {
      this.kept = [THREW, error];
    }
  }

  waitKept() {
    const [outcome, value] = this.kept;
    this.kept = undefined;
    let then;
    try {
      then = outcome == FULFILLED ? value?.then : undefined;
    } catch {}
    if (typeof then != "function") return later(() => this.next(outcome, value));
    const ms = this.until === undefined ? undefined : Math.max(0, this.until - performance.now());
    this.wait(value, ms, TIMED_OUT);
  }

  // pause(ms): steps the call after `ms`, or as soon as the caller's
  // signal aborts.
  pause(ms) {
    this.wait(PAUSE, ms, FULFILLED);
  }

  // wait(work, ms, timer): steps the call with what `work` settles with
  // (PAUSE: nothing), with `timer` once `ms` passed (undefined: no timer),
  // or with ABORTED as soon as the caller's signal aborts (a signal whose
  // getter or listener throws counts as not aborted: it was checked when
  // the options were read).
  wait(work, ms, timer) {
    const signal = this.signal;
    let over = false;
    let clock, onAbort;
    const end = (outcome, value) => {
      if (over) return;
      over = true;
      clearTimeout(clock);
      try {
        if (onAbort) signal.removeEventListener("abort", onAbort);
      } catch {}
      this.next(outcome, value);
    };
    try {
      if (signal?.aborted) return later(() => end(ABORTED));
      if (signal) signal.addEventListener("abort", (onAbort = () => end(ABORTED)));
    } catch {}
    if (ms !== undefined) clock = setTimeout(() => end(timer), ms);
    if (work !== PAUSE) Promise.resolve(work).then((value) => end(FULFILLED, value), (error) => end(REJECTED, error));
  }
}

// What a pause waits for: nothing but its timer.
const PAUSE = {};
