// The fetch transport's JS side: the steps that would otherwise cross
// between wasm and JS many times, each made one call. Every rule stays in
// Rust (what is sent, how long an attempt or a pause lasts, the body's
// limit and its error, what a status or an envelope means); this only
// builds, waits and reads.

// How a promise Rust awaits settled, as Rust's settle(slot, outcome,
// value) is told: what it fulfilled or rejected with, or how an attempt
// ended without an answer.
const REJECTED = 0;
const FULFILLED = 1;
const TIMED_OUT = 2;
const ABORTED = 3;
const TOO_LARGE = 4;
const NO_FETCH = 5;
const BODY_FAILED = 6;
const NOT_A_RESPONSE = 7;

// kind(value): what the rules' Value needs of a JS value, in one call:
// 0 undefined, 1 null, 2 a boolean, 3 a number, 4 a string, 5 a function,
// 6 a symbol, 7 a bigint, 8 an array, 9 a plain object ("[object Object]",
// its prototype null or an Object.prototype, of any realm), 10 any other
// object, 11 an instance of a class ("[object Object]", its prototype a
// class's). It throws for a revoked proxy, or a proxy whose trap throws.
export function kind(value) {
  if (value === undefined) return 0;
  if (value === null) return 1;
  const type = ["boolean", "number", "string", "function", "symbol", "bigint"].indexOf(typeof value);
  if (type >= 0) return type + 2;
  const tag = Object.prototype.toString.call(value);
  if (tag != "[object Object]") return tag == "[object Array]" ? 8 : 10;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null ? 9 : 11;
}

// entries(value, known, also, view): the own enumerable entries of a plain
// object (and of a value of the kind `also`: a class's instance, an array)
// as one flat array, key, value, key, value..., each getter run once;
// undefined for any other value. In `view` (NaN where not read): view[0] is the value's
// kind (as kind() numbers it; a proxy that throws counts as 10), view[1]
// the number of entries, then for each of the first (view.length - 2) / 3
// entries the index of its key among `known` ("\n"-separated names; -1
// for any other), its value's kind, and the value itself where it is a
// boolean or a number. It throws what Object.keys or a getter throws.
export function entries(value, known, also, view) {
  view.fill(NaN);
  const type = (view[0] = kindOr10(value));
  if (type != 9 && type != also) return;
  const names = known.split("\n");
  const flat = [];
  for (const key of Object.keys(value)) {
    const item = value[key];
    const at = 2 + 1.5 * flat.length;
    if (at + 2 < view.length) {
      view[at] = names.indexOf(key);
      const type = (view[at + 1] = kindOr10(item));
      if (type == 2 || type == 3) view[at + 2] = +item;
    }
    flat.push(key, item);
  }
  view[1] = flat.length / 2;
  return flat;
}

function kindOr10(value) {
  try {
    return kind(value);
  } catch {
    return 10;
  }
}

// What a stop rejects with: objects of the module's own, which no promise
// it races can reject with.
const TIMER = { outcome: TIMED_OUT };
const SIGNAL = { outcome: ABORTED };

// stop(ms, signal): a promise that rejects after `ms` (no timer when
// undefined) or when `signal` aborts (at once if it has), whichever comes
// first. Its race(work, slot, settle) races `work` against it and its
// watch(slot, settle) waits for it alone; either then calls settle(slot,
// outcome, value) (Rust's one function for every promise it awaits), with
// TIMED_OUT or ABORTED when the stop came first. Its end() resolves it
// with undefined, clears its timer and stops listening. A signal was
// checked when the options were read (signals are duck-typed there): one
// whose getter or listener throws now counts as not aborted. Whoever makes
// a stop waits on it at once (a race, a pause), so its rejection is always
// handled.
export function stop(ms, signal) {
  let resolve, reject, timer;
  const stopped = new Promise((settle, fail) => ((resolve = settle), (reject = fail)));
  const onAbort = () => reject(SIGNAL);
  stopped.end = () => {
    clearTimeout(timer);
    try {
      signal?.removeEventListener("abort", onAbort);
    } catch {}
    resolve();
  };
  const watch = (promise, slot, settle) =>
    promise.then(
      (value) => settle(slot, FULFILLED, value),
      (error) => (error === TIMER || error === SIGNAL ? settle(slot, error.outcome) : settle(slot, REJECTED, error)),
    );
  stopped.race = (work, slot, settle) => watch(Promise.race([work, stopped]), slot, settle);
  stopped.watch = (slot, settle) => watch(stopped, slot, settle);
  try {
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort);
  } catch {}
  if (ms !== undefined) timer = setTimeout(() => reject(TIMER), ms);
  return stopped;
}

// attempt(fetch, url, headers, body, credentials, ms, signal, cap, early,
// slot, settle): one attempt, from the request to its parsed body, told
// to Rust through settle(slot, outcome, value) once, or twice when `early`:
// FULFILLED with this attempt's handle when the response's headers arrive
// (the handle's read(slot) then goes on to the body), then FULFILLED with
// the handle again once the body is there. `fetch` is the caller's, else
// the global one looked up now; it is called as fetch(url, init), the init
// a POST with `headers` ("name\nvalue\nname\nvalue...": the rules refuse a
// line feed in either) as pairs, `body` and `credentials` where given, and
// a signal of the attempt's own. The attempt ends with TIMED_OUT after
// `ms` (0: no timer) or ABORTED when the caller's `signal` aborts, whatever
// the caller's fetch does with the request's signal; then and on any other
// failure the request is aborted. A fetch that throws or rejects ends it
// with REJECTED and what it threw, one that resolves with what is not a
// Response (an object with a text() method) with NOT_A_RESPONSE and that value,
// an answer it cannot read with BODY_FAILED, one whose body is over `cap`
// bytes with TOO_LARGE. The handle's cancel() ends an attempt Rust no
// longer waits for.
export function attempt(fetch, url, headers, body, credentials, ms, signal, cap, early, slot, settle) {
  const lines = headers ? headers.split("\n") : [];
  const pairs = [];
  for (let i = 0; i < lines.length; i += 2) pairs.push([lines[i], lines[i + 1]]);
  const init = { method: "POST", headers: pairs };
  if (body !== undefined) init.body = body;
  if (credentials !== undefined) init.credentials = credentials;
  const attempt = new Attempt(signal, cap, early, slot, settle);
  init.signal = attempt.controller.signal;
  try {
    if (signal?.aborted) return attempt.later(ABORTED);
    if (signal) signal.addEventListener("abort", (attempt.onAbort = () => attempt.end(ABORTED)));
  } catch {}
  fetch ??= globalThis.fetch;
  if (typeof fetch != "function") return attempt.later(NO_FETCH);
  if (ms) attempt.timer = setTimeout(() => attempt.end(TIMED_OUT), ms);
  let returned;
  try {
    returned = fetch(url, init);
  } catch (error) {
    returned = Promise.reject(error);
  }
  // Promise.resolve() of a platform's promise is that promise: no more
  // turns of the microtask queue than fetch's own.
  Promise.resolve(returned).then(
    (response) => attempt.arrived(response),
    (error) => attempt.end(REJECTED, error),
  );
  return attempt;
}

// An attempt under way: the handle attempt() returns.
class Attempt {
  constructor(signal, cap, early, slot, settle) {
    this.controller = new AbortController();
    this.signal = signal;
    this.cap = cap;
    this.early = early;
    this.slot = slot;
    this.settle = settle;
    this.status = NaN;
    this.response = this.text = this.timer = this.ended = this.kept = this.onAbort = undefined;
  }

  // Ends the attempt, telling Rust later, never during the call that made it.
  later(outcome) {
    Promise.resolve().then(() => this.end(outcome));
    return this;
  }

  arrived(response) {
    if (this.ended) return;
    if (typeof response != "object" || typeof response?.text != "function") return this.end(NOT_A_RESPONSE, response);
    this.response = response;
    try {
      const status = response.status;
      if (typeof status == "number") this.status = status;
    } catch {}
    if (this.early) this.tell(FULFILLED, this);
    else this.body();
  }

  body() {
    readCapped(this.response, this.cap).then(
      (text) => {
        // What a caller's Response-like resolves with may not be text.
        this.text = typeof text == "string" ? text : "";
        this.end(FULFILLED, this);
      },
      (error) => this.end(error === TOO_LARGE ? TOO_LARGE : BODY_FAILED, error),
    );
  }

  // Goes on to the body of an attempt made early, telling `slot`.
  read(slot) {
    this.slot = slot;
    if (this.kept) this.tell(...this.kept);
    else this.body();
  }

  // Ends an attempt Rust no longer waits for.
  cancel() {
    this.end(ABORTED);
  }

  end(outcome, value) {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    try {
      if (this.onAbort) this.signal.removeEventListener("abort", this.onAbort);
    } catch {}
    if (outcome != FULFILLED) this.controller.abort();
    this.tell(outcome, value);
  }

  // Settles the slot Rust waits on, or keeps the outcome for read().
  tell(outcome, value) {
    if (this.slot === undefined) return void (this.kept ??= [outcome, value]);
    const slot = this.slot;
    this.slot = undefined;
    this.settle(slot, outcome, value);
  }
}

// take(handle, view): the parsed body of an attempt that read one, and in
// `view` (eight numbers) the status, then what the envelope rules look at,
// each read once: the body's kind (as kind() numbers it, -1 when the text
// is not JSON), whether it has a `result` (1 or 0), the kinds of its
// `status` and `result`, and where `result` is a plain object the kind of
// its `totalUsers`; after each of those two kinds, the value where it is a
// number or a boolean (as a number), else NaN. A kind not read is -1.
export function take(handle, view) {
  view.fill(-1);
  view[0] = handle.status;
  let body;
  try {
    body = JSON.parse(handle.text);
  } catch {
    return undefined;
  }
  const read = (value, at) => {
    view[at] = kind(value);
    view[at + 1] = view[at] == 2 || view[at] == 3 ? +value : NaN;
  };
  if ((view[1] = kind(body)) == 9) {
    view[2] = "result" in body ? 1 : 0;
    read(body.status, 3);
    if ((view[5] = kind(body.result)) == 9) read(body.result.totalUsers, 6);
  }
  return body;
}

// responseHeaders(handle): its response's headers as
// "name\nvalue\nname\nvalue...", names in lower case, in the order its
// headers list them ("" where it has none it can list: a caller's fetch may
// answer with a Response-like object). A platform's Headers holds no line feed in a name or a value; a
// pair of a Response-like's that holds one is left out.
export function responseHeaders(handle) {
  const lines = [];
  try {
    for (const [name, value] of handle.response.headers) {
      const pair = [String(name).toLowerCase(), String(value)];
      if (!pair.some((text) => text.includes("\n"))) lines.push(...pair);
    }
  } catch {}
  return lines.join("\n");
}

// retryAfter(handle): its response's Retry-After header, if it has one it
// can tell. It throws what a getter throws.
export const retryAfter = (handle) => handle.response.headers?.get?.("retry-after");

// readCapped(response, cap) resolves with the body's text, decoded as
// text() decodes it, having held no more of it than `cap` bytes and one
// chunk, and then their one copy while they are decoded (0: no cap). It
// rejects with TOO_LARGE, reading nothing more, as soon as the
// Content-Length (when it is digits) or the bytes that have arrived pass
// the cap; the stream is then cancelled, which drops the connection, also
// where a caller's fetch ignores the request's signal.
// A body is read from its stream, counted chunk by chunk, whatever its
// headers say: a browser hides Content-Encoding from a cross-origin page,
// and a caller's Response may say any Content-Length. A caller's fetch may
// answer with a Response-like object without a stream: its text() is read
// whole (it is already in the caller's memory). The chunks are decoded
// once, at the end: decoding each as it comes costs a large body far more.
export async function readCapped(response, cap) {
  if (!cap) return response.text();
  let body, length;
  try {
    body = response.body;
    length = response.headers.get("content-length");
  } catch {}
  const reader = body?.getReader?.();
  const drop = () => {
    reader?.cancel().catch(() => {});
    throw TOO_LARGE;
  };
  if (/^\d+$/.test(length) && +length > cap) drop();
  if (!reader) return response.text();
  const chunks = [];
  for (let read = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!ArrayBuffer.isView(value)) throw new TypeError("the body's stream gave a chunk that is not bytes");
    if ((read += value.byteLength) > cap) drop();
    chunks.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  }
  if (chunks.length == 1) return decoder.decode(chunks[0]);
  const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return decoder.decode(whole);
}

// One decoder for every body: decode() without `stream` keeps no state.
const decoder = new TextDecoder();
