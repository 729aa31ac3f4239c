// Vitest browser mode (Chromium through Playwright) with MSW's setupWorker:
// the client's calls reach the mocked API in handlers.js. MSW's service
// worker script is public/mockServiceWorker.js (`npm run mock-worker`),
// which Vite serves at the root. `npx vitest run`.
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { setupWorker } from "msw/browser";
import { UsersApiError, UsersClient } from "user-management-client";
import { API, handlers, notFound, requests } from "./handlers.js";

const worker = setupWorker(...handlers);
beforeAll(() => worker.start({ quiet: true, onUnhandledRequest: "bypass" }));
afterEach(() => { worker.resetHandlers(); requests.length = 0; });
afterAll(() => worker.stop());

const client = new UsersClient({ baseUrl: API, headers: { "x-tenant": "acme" }, retries: 0 });

test("count: the mock's answer, and the mock saw the params and the client's header", async () => {
  expect(await client.countUsers({ active: true })).toEqual({ status: 200, result: { totalUsers: 42 } });
  expect(requests).toEqual([{ path: "count", params: { active: "true" }, tenant: "acme" }]);
});

test("list: the mock's users", async () => {
  const { result } = await client.listUsers({ active: "true", pageSize: 5 });
  expect(result.users.map((u) => u.username)).toEqual(["ada", "grace"]);
  expect(requests).toEqual([{ path: "list", params: { active: "true", pageSize: 5 }, tenant: "acme" }]);
});

test("an HTTP error from the mock is a UsersApiError of kind http", async () => {
  worker.use(notFound);
  const err = await client.countUsers({}).catch((e) => e);
  expect(err).toBeInstanceOf(UsersApiError);
  expect(err).toMatchObject({ kind: "http", httpStatus: 404, body: { error: "no such tenant" } });
});

test("a bad param is refused before any request reaches the mock", async () => {
  const err = await client.countUsers({ active: "yes" }).catch((e) => e);
  expect(err).toMatchObject({ kind: "validation", param: "active" });
  expect(requests).toEqual([]);
});
