// Testing code that uses the client with MSW's setupServer (Node 22 and
// later: MSW 3 needs Promise.withResolvers), ES modules. The client calls
// the global fetch at call time, so MSW's interception sees every request;
// no server is needed. `node --test`.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { UsersApiError, UsersClient } from "user-management-client";

const API = "https://api.example.test";
const requests = [];

const server = setupServer(
  http.post(`${API}/api/users/count`, async ({ request }) => {
    const params = await request.json();
    requests.push({ path: "count", params, tenant: request.headers.get("x-tenant") });
    return HttpResponse.json({ status: 200, result: { totalUsers: params.active === "true" ? 42 : 50 } });
  }),
  http.post(`${API}/api/users`, async ({ request }) => {
    const params = await request.json();
    requests.push({ path: "list", params, tenant: request.headers.get("x-tenant") });
    const users = [{ id: 1, username: "ada" }, { id: 2, username: "grace" }];
    return HttpResponse.json({ status: 200, result: { users, totalUsers: 2, page: 1, pageSize: params.pageSize } });
  }),
);
before(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => { server.resetHandlers(); requests.length = 0; });
after(() => server.close());

const client = new UsersClient({ baseUrl: API, headers: { "x-tenant": "acme" }, retries: 0 });

test("count: the mock's answer, and the mock saw the params and the client's header", async () => {
  assert.deepEqual(await client.countUsers({ active: true }), { status: 200, result: { totalUsers: 42 } });
  assert.deepEqual(requests, [{ path: "count", params: { active: "true" }, tenant: "acme" }]);
});

test("list: the mock's users", async () => {
  const { result } = await client.listUsers({ active: "true", pageSize: 5 });
  assert.deepEqual(result.users.map((u) => u.username), ["ada", "grace"]);
  assert.deepEqual(requests, [{ path: "list", params: { active: "true", pageSize: 5 }, tenant: "acme" }]);
});

test("an HTTP error from the mock is a UsersApiError of kind http", async () => {
  server.use(http.post(`${API}/api/users/count`, () => HttpResponse.json({ error: "no such tenant" }, { status: 404 })));
  const err = await client.countUsers({}).catch((e) => e);
  assert.ok(err instanceof UsersApiError);
  assert.equal(err.kind, "http");
  assert.equal(err.httpStatus, 404);
  assert.deepEqual(err.body, { error: "no such tenant" });
});

test("a bad param is refused before any request reaches the mock", async () => {
  const err = await client.countUsers({ active: "yes" }).catch((e) => e);
  assert.equal(err.kind, "validation");
  assert.equal(err.param, "active");
  assert.deepEqual(requests, []);
});
