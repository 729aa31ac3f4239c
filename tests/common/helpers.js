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

/** A header provider that counts its calls. */
export function countingProvider(headers) {
  const provider = () => { provider.count += 1; return Promise.resolve(headers); };
  provider.count = 0;
  return provider;
}
export function providerCount(p) { return p.count; }
/** A provider whose promise never settles. */
export function hangingProvider() { return () => new Promise(() => {}); }
/** A params object whose getter throws. */
export function hostileParams() {
  return { get active() { throw new Error("boom"); } };
}
/** An object with an own "__proto__" key, as JSON.parse makes one. */
export function protoKeyObject() { return JSON.parse('{"__proto__": "x"}'); }
export function loneSurrogate() { return "a\uD800b"; }
export function httpDate(msFromNow) { return new Date(Date.now() + msFromNow).toUTCString(); }
