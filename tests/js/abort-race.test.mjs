// An abort that lands after the body was read but before the call's promise
// settled: the contract says an aborted call rejects with `aborted`, and
// the caller's promise had not settled yet, so the abort must win. The
// custom `fetch` hands back a body whose thenable queues the abort right
// behind the body's delivery: exactly that window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { glue } from "../lib/harness.mjs";

const { lib } = await glue();

const body = JSON.stringify({ status: 200, result: { totalUsers: 5 } });

function answering(abortAfterBody) {
  return async () => ({
    status: 200,
    headers: new Headers({ "content-type": "application/json" }),
    text: () => ({
      then(deliver) {
        deliver(body);
        if (abortAfterBody) queueMicrotask(abortAfterBody);
      },
    }),
  });
}

test("an abort between the body and settling rejects with aborted", async () => {
  const controller = new AbortController();
  const reason = new Error("user left the page");
  const client = new lib.UsersClient({
    baseUrl: "http://127.0.0.1:9/",
    fetch: answering(() => controller.abort(reason)),
  });
  await assert.rejects(client.countUsers({}, { signal: controller.signal }), (err) => {
    assert.equal(err.kind, "aborted");
    assert.equal(err.cause, reason);
    return true;
  });
});

test("without the abort the same answer resolves", async () => {
  const controller = new AbortController();
  const client = new lib.UsersClient({ baseUrl: "http://127.0.0.1:9/", fetch: answering(null) });
  assert.deepEqual(await client.countUsers({}, { signal: controller.signal }),
    { status: 200, result: { totalUsers: 5 } });
});
