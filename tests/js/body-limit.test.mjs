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
