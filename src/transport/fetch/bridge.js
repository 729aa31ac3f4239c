// The fetch transport's JS side: the steps that would otherwise cross
// between wasm and JS many times, each made one call. Every rule stays in
// Rust (what is sent, how long an attempt or a pause lasts, the body's
// limit and its error); this only builds, waits and reads.

// kind(value): what the rules' Value needs of a JS value, in one call:
// 0 undefined, 1 null, 2 a boolean, 3 a number, 4 a string, 5 a function,
// 6 a symbol, 7 a bigint, 8 an array, 9 a plain object ("[object Object]",
// class instances included), 10 any other object. It throws for a revoked
// proxy.
export function kind(value) {
  if (value === undefined) return 0;
  if (value === null) return 1;
  const type = ["boolean", "number", "string", "function", "symbol", "bigint"].indexOf(typeof value);
  if (type >= 0) return type + 2;
  const tag = Object.prototype.toString.call(value);
  return tag == "[object Array]" ? 8 : tag == "[object Object]" ? 9 : 10;
}

// parseEnvelope(text, view): JSON.parse(text), and in `view` (seven
// numbers) what the envelope rules look at, each read once: the body's
// kind (as kind() numbers it), whether it has a `result` (1 or 0), the
// kinds of its `status` and `result`, and where `result` is a plain object
// the kind of its `totalUsers`; after each of those two kinds, the value
// where it is a number or a boolean (as a number), else NaN. A kind not
// read is -1. It throws what JSON.parse throws.
export function parseEnvelope(text, view) {
  const body = JSON.parse(text);
  view.fill(-1);
  const read = (value, at) => {
    view[at] = kind(value);
    view[at + 1] = view[at] == 2 || view[at] == 3 ? +value : NaN;
  };
  if ((view[0] = kind(body)) == 9) {
    view[1] = "result" in body ? 1 : 0;
    read(body.status, 2);
    if ((view[4] = kind(body.result)) == 9) read(body.result.totalUsers, 5);
  }
  return body;
}

// status(response): the status of what fetch resolved with, if it is a
// Response (an object with a text() method and a number status, read
// once), else NaN; retryAfter(it): its Retry-After header, if it has one it
// can tell. Either throws what a getter throws.
export function status(response) {
  if (typeof response != "object" || typeof response?.text != "function") return NaN;
  const status = response.status;
  return typeof status == "number" ? status : NaN;
}

export const retryAfter = (response) => response.headers?.get?.("retry-after");

// responseHeaders(response): its headers as "name\nvalue\nname\nvalue...",
// names in lower case, in the order its headers list them ("" where it has
// none it can list: a caller's fetch may answer with a Response-like
// object). A platform's Headers holds no line feed in a name or a value.
export function responseHeaders(response) {
  const lines = [];
  try {
    for (const [name, value] of response.headers) lines.push(String(name).toLowerCase(), String(value));
  } catch {}
  return lines.join("\n");
}

// stop(ms, signal, timedOut, aborted): a promise that rejects with
// `timedOut` after `ms` (no timer when undefined) or with `aborted` when
// `signal` aborts (at once if it has), whichever comes first: a race a stop
// wins is a rejection, so a race that `work` wins needs no look at what it
// resolved with. Its race(work, slot, settle) races `work` against it and
// its watch(slot, settle) waits for it alone; either then calls
// settle(slot, fulfilled, value) with the outcome (Rust's one function for
// every promise it awaits). Its end() resolves it with undefined, clears
// its timer and stops listening. Each stop owns its timer: Cloudflare
// Workers drop a timer when the request that set it ends, so one shared
// across calls would be lost. A signal was checked when the options were
// read (signals are duck-typed there): one whose getter or listener throws
// now counts as not aborted. Whoever makes a stop waits on it at once (a
// race, a pause), so its rejection is always handled.
export function stop(ms, signal, timedOut, aborted) {
  let resolve, reject, timer;
  const stopped = new Promise((settle, fail) => ((resolve = settle), (reject = fail)));
  const onAbort = () => reject(aborted);
  stopped.end = () => {
    clearTimeout(timer);
    try {
      signal?.removeEventListener("abort", onAbort);
    } catch {}
    resolve();
  };
  const watch = (promise, slot, settle) =>
    promise.then((value) => settle(slot, true, value), (error) => settle(slot, false, error));
  stopped.race = (work, slot, settle) => watch(Promise.race([work, stopped]), slot, settle);
  stopped.watch = (slot, settle) => watch(stopped, slot, settle);
  try {
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort);
  } catch {}
  if (ms !== undefined) timer = setTimeout(() => reject(timedOut), ms);
  return stopped;
}

// requestInit(headers, body, credentials): the RequestInit of a call's
// attempts: POST, `headers` (given as "name\nvalue\nname\nvalue...": the
// rules refuse a line feed in either) as a new array of pairs, and `body`
// and `credentials` where given (undefined: none, so no key is set).
export function requestInit(headers, body, credentials) {
  const lines = headers ? headers.split("\n") : [];
  const pairs = [];
  for (let i = 0; i < lines.length; i += 2) pairs.push([lines[i], lines[i + 1]]);
  const init = { method: "POST", headers: pairs };
  if (body !== undefined) init.body = body;
  if (credentials !== undefined) init.credentials = credentials;
  return init;
}

// controlled(init): a new AbortController, its signal set as `init`'s.
export function controlled(init) {
  const controller = new AbortController();
  init.signal = controller.signal;
  return controller;
}

// readCapped(response, cap, tooLarge) resolves with the body's
// text, decoded as text() decodes it, having held no more of it than `cap`
// bytes and one chunk (0: no cap). It rejects with `tooLarge`, reading
// nothing more, as soon as the Content-Length (when it is digits) or the
// bytes that have arrived pass the cap; the stream is then cancelled, which
// drops the connection, also where a caller's fetch ignores the request's
// signal.
// A body is read from its stream, counted chunk by chunk, whatever its
// headers say: a browser hides Content-Encoding from a cross-origin page,
// and a caller's Response may say any Content-Length. A caller's fetch may
// answer with a Response-like object without a stream: its text() is read
// whole (it is already in the caller's memory).
export async function readCapped(response, cap, tooLarge) {
  if (!cap) return response.text();
  let body, length;
  try {
    body = response.body;
    length = response.headers.get("content-length");
  } catch {}
  const reader = body?.getReader?.();
  const drop = () => {
    reader?.cancel().catch(() => {});
    throw tooLarge;
  };
  if (/^\d+$/.test(length) && +length > cap) drop();
  if (!reader) return response.text();
  const decoder = new TextDecoder();
  let text = "";
  for (let read = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    // A chunk that is not bytes has no byteLength, and decode() throws.
    if ((read += value.byteLength) > cap) drop();
    text += decoder.decode(value, { stream: true });
  }
}
