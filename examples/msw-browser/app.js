// A page whose calls MSW's service worker answers (setupWorker): what a
// user's end-to-end test or local development against a mocked API does.
// Unhandled requests (the page's own files, the .wasm) go through.
import { setupWorker } from "msw/browser";
import { UsersApiError, UsersClient } from "user-management-client";
import { API, handlers, notFound, requests } from "./handlers.js";

const worker = setupWorker(...handlers);

async function summary() {
  await worker.start({ quiet: true, onUnhandledRequest: "bypass" });
  const client = new UsersClient({ baseUrl: API, headers: { "x-tenant": "acme" }, retries: 0 });
  const count = await client.countUsers({ active: true });
  const page = await client.listUsers({ active: "true", pageSize: 5 });
  worker.use(notFound);
  const error = await client.countUsers({}).catch((e) => e);
  return {
    totalActive: count.result.totalUsers,
    listed: page.result.users.map((u) => u.username),
    httpError: error instanceof UsersApiError ? `${error.kind}:${error.httpStatus}` : String(error),
    requests,
  };
}

window.summary = summary().then((s) => {
  document.getElementById("summary").textContent = JSON.stringify(s, null, 2);
  return s;
}, (err) => ({ error: String(err) }));
