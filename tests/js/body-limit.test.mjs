// maxBodyBytes through the package's Node entry: an answer's body is read
// up to the limit and no further. Against the reference server (endless
// and Content-Length routes of its fault mode), and against a `fetch`
// option whose body stream counts what is read of it, so that the test
// checks how many chunks were read and that the stream was cancelled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { apiUrl, pkg } from "../lib/harness.mjs";

const { countUsers, UsersClient } = await import(join(pkg, "node.mjs"));

const CHUNK = 64 * 1024;
const BASE = "http://127.0.0.1:9";

/** A fault route of the server, with a key of its own. */
const fault = (scenario) => `${apiUrl()}/faults/${scenario}/${randomUUID()}`;
const attempts = async (base) => (await (await fetch(`${base}/attempts`)).json()).attempts;

/**
 * A `fetch` answering 200 with a body of `chunks` CHUNK-byte chunks (by
 * default endless) and `headers`, counting the requests, the chunks read
 * and the cancels.
 */
function endless(headers = {}, chunks = Infinity) {
  const seen = { requests: 0, pulled: 0, cancelled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const fetch = () => {
    seen.requests += 1;
    const body = new ReadableStream({
      pull(controller) {
        if (seen.pulled === chunks) return controller.close();
        seen.pulled += 1;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled += 1;
      },
    }, { highWaterMark: 0 });
    return Promise.resolve(new Response(body, { headers: { "content-type": "application/json", ...headers } }));
  };
  return { fetch, seen };
}

const rejection = (promise) => promise.then(
  (value) => assert.fail(`resolved with ${JSON.stringify(value)}`),
  (error) => error,
);

test("an endless body from the server: decode at the default 64 MiB, never retried, and the next call answers", async () => {
  const base = fault("endless");
  const error = await rejection(countUsers(base));
  assert.equal(error.kind, "decode", error.message);
  assert.equal(error.httpStatus, 200);
  assert.equal(error.body, undefined);
  assert.match(error.message, /larger than 67108864 bytes, the maxBodyBytes option/);
  assert.equal(await attempts(base), 1);
  const ok = await countUsers(fault("ok"));
  assert.equal(ok.result.totalUsers, 7);
});

test("a Content-Length over maxBodyBytes from the server is refused", async () => {
  // `big` is 10 MiB, with its Content-Length.
  const client = new UsersClient({ baseUrl: fault("big"), maxBodyBytes: 1_000_000 });
  const error = await rejection(client.countUsers());
  assert.equal(error.kind, "decode", error.message);
  assert.equal(error.httpStatus, 200);
  assert.match(error.message, /larger than 1000000 bytes, the maxBodyBytes option/);
});

test("a body is read chunk by chunk up to maxBodyBytes, then its stream is cancelled", async () => {
  const { fetch, seen } = endless();
  const error = await rejection(countUsers(BASE, {}, { fetch, maxBodyBytes: 1_000_000 }));
  assert.equal(error.kind, "decode", error.message);
  assert.equal(error.httpStatus, 200);
  // 15 chunks (983,040 bytes) fit; the 16th passes the limit and is the last read.
  assert.equal(seen.pulled, 16);
  assert.equal(seen.cancelled, 1);
  assert.equal(seen.requests, 1, "never retried");
});

test("the default limit reads 64 MiB and one chunk, no more", async () => {
  const { fetch, seen } = endless();
  const error = await rejection(countUsers(BASE, {}, { fetch }));
  assert.equal(error.kind, "decode", error.message);
  assert.equal(seen.pulled, 64 * 1024 * 1024 / CHUNK + 1);
  assert.equal(seen.cancelled, 1);
});

test("a Content-Length over maxBodyBytes: nothing of the body is read, and its stream is cancelled", async () => {
  const { fetch, seen } = endless({ "content-length": "2000000" });
  const error = await rejection(countUsers(BASE, {}, { fetch, maxBodyBytes: 1_000_000 }));
  assert.equal(error.kind, "decode", error.message);
  assert.match(error.message, /larger than 1000000 bytes/);
  assert.equal(seen.pulled, 0);
  assert.equal(seen.cancelled, 1);
});

test("a body exactly at maxBodyBytes is read; 0 means no limit", async () => {
  const body = '{"status":200,"result":{"totalUsers":7}}';
  const fetch = () => Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } }));
  const exact = await countUsers(BASE, {}, { fetch, maxBodyBytes: body.length });
  assert.equal(exact.result.totalUsers, 7);
  const over = await rejection(countUsers(BASE, {}, { fetch, maxBodyBytes: body.length - 1 }));
  assert.equal(over.kind, "decode");
  // No limit: a body past the default 64 MiB is read whole (and, spaces
  // only, judged not JSON).
  const chunks = 64 * 1024 * 1024 / CHUNK + 16;
  const { fetch: big, seen } = endless({}, chunks);
  const whole = await rejection(countUsers(BASE, {}, { fetch: big, maxBodyBytes: 0, retries: 0 }));
  assert.equal(whole.kind, "decode");
  assert.doesNotMatch(whole.message, /larger than/);
  assert.equal(seen.pulled, chunks);
  assert.equal(seen.cancelled, 0);
});

test("a Content-Length that is small, or not a number, does not lift the limit: the bytes are counted", async () => {
  for (const length of ["10", "abc", "100, 100", "1e3"]) {
    const { fetch, seen } = endless({ "content-length": length });
    const error = await rejection(countUsers(BASE, {}, { fetch, maxBodyBytes: 100_000, retries: 0 }));
    assert.equal(error.kind, "decode", `${length}: ${error.message}`);
    assert.match(error.message, /larger than 100000 bytes/, length);
    assert.equal(seen.pulled, 2, length);
    assert.equal(seen.cancelled, 1, length);
  }
});

test("chunks of any byte view are counted, and a chunk that is not bytes fails the read", async () => {
  const stream = (chunk) => () => Promise.resolve(new Response(new ReadableStream({
    pull(controller) { controller.enqueue(chunk()); },
  }, { highWaterMark: 0 })));
  // DataViews of 64 KiB each: past 100,000 bytes on the second.
  const views = await rejection(countUsers(BASE, {}, { fetch: stream(() => new DataView(new ArrayBuffer(CHUNK))), maxBodyBytes: 100_000 }));
  assert.equal(views.kind, "decode", views.message);
  assert.match(views.message, /larger than 100000 bytes/);
  // undici's Response refuses a chunk that is not a Uint8Array; a caller's
  // Response-like with such a stream fails the same way, as a network error.
  const text = {
    status: 200,
    headers: new Headers(),
    body: new ReadableStream({ pull(controller) { controller.enqueue("not bytes"); } }),
    text: () => Promise.resolve(""),
  };
  const strings = await rejection(countUsers(BASE, {}, { fetch: () => Promise.resolve(text), retries: 0 }));
  assert.equal(strings.kind, "network", strings.message);
});

test("a Response-like without a stream is read by its text(), and a null text is not taken for a body over the limit", async () => {
  const like = (text) => ({ status: 200, headers: new Headers(), text: () => Promise.resolve(text) });
  const ok = await countUsers(BASE, {}, { fetch: () => Promise.resolve(like('{"status":200,"result":{"totalUsers":7}}')) });
  assert.equal(ok.result.totalUsers, 7);
  for (const maxBodyBytes of [0, 1_000]) {
    const error = await rejection(countUsers(BASE, {}, { fetch: () => Promise.resolve(like(null)), maxBodyBytes, retries: 0 }));
    assert.equal(error.kind, "decode", error.message);
    assert.doesNotMatch(error.message, /larger than/, `${maxBodyBytes}: ${error.message}`);
  }
});

test("headers that throw do not stop the body being read under the limit", async () => {
  const { fetch: endlessFetch, seen } = endless();
  const fetch = async (...args) => {
    const response = await endlessFetch(...args);
    return {
      status: 200,
      get headers() { throw new Error("no headers"); },
      body: response.body,
      text: () => response.text(),
    };
  };
  const error = await rejection(countUsers(BASE, {}, { fetch, maxBodyBytes: 100_000, retries: 0 }));
  assert.equal(error.kind, "decode", error.message);
  assert.equal(seen.pulled, 2);
});

test("a status read once: a getter that answers 200, then something else, still settles the call", async () => {
  let reads = 0;
  const fetch = async () => ({
    get status() { reads += 1; return reads === 1 ? 200 : 10n; },
    headers: new Headers(),
    text: () => Promise.resolve('{"status":200,"result":{"totalUsers":7}}'),
  });
  const ok = await countUsers(BASE, {}, { fetch });
  assert.equal(ok.result.totalUsers, 7);
  assert.equal(reads, 1);
});
