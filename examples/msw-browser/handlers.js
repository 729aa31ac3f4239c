// The mocked API, shared by the page (app.js) and the Vitest browser test:
// MSW request handlers for the two calls, recording what each request
// carried (its params and the client's x-tenant header) in `requests`.
import { http, HttpResponse } from "msw";

export const API = "https://api.example.test";
export const requests = [];

export const handlers = [
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
];

/** Answers count with HTTP 404, in front of `handlers` (worker.use(notFound)). */
export const notFound = http.post(`${API}/api/users/count`, () => HttpResponse.json({ error: "no such tenant" }, { status: 404 }));
