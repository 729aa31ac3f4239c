// The built package (pkg/web/, web target) used from Node the way a caller
// would: the exports, a real count against the reference server, and a
// rejected call that never reaches the network.
import { test } from "node:test";
import assert from "node:assert/strict";
import { apiUrl, glue, truth } from "../lib/harness.mjs";

const { lib } = await glue();
const { countUsers, listUsers, UsersClient } = lib;
const server = apiUrl();

test("countUsers resolves to the server's envelope", async () => {
  const expected = await truth({ active: "true" });
  assert.ok(expected > 0);
  assert.deepEqual(await countUsers(server, { active: "true" }), {
    status: 200,
    result: { totalUsers: expected },
  });
});

test("an invalid active is rejected before any request", async () => {
  const realFetch = globalThis.fetch;
  let sent = 0;
  globalThis.fetch = (...args) => { sent += 1; return realFetch(...args); };
  try {
    await assert.rejects(countUsers(server, { active: "yes" }), (err) => {
      assert.ok(err instanceof Error);
      assert.equal(err.name, "UsersApiError");
      assert.equal(err.kind, "validation");
      assert.equal(err.param, "active");
      assert.match(err.message, /"yes"/);
      return true;
    });
    assert.equal(sent, 0);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("UsersClient lists with pagination", async () => {
  const client = new UsersClient({ baseUrl: server, paramsIn: "query" });
  const page = await client.listUsers({ active: false, page: 2, pageSize: 10 });
  assert.equal(page.status, 200);
  assert.equal(page.result.users.length, 10);
  assert.equal(page.result.totalUsers, await truth({ active: "false" }));
  assert.ok(page.result.users.every((u) => u.active === false));
  const once = await listUsers(server, { pageSize: 1 });
  assert.equal(once.result.users.length, 1);
});

test("the constructor throws a validation error at once", () => {
  assert.throws(() => new UsersClient("ftp://nope"), (err) => err.kind === "validation" && err.param === "baseUrl");
});
