// A module service worker that calls the API, unbundled: service workers
// allow no top-level await and no import(), so the package's browser entry
// is imported statically and starts loading its .wasm without holding this
// module back; the calls wait for it. The page (service-worker.html) posts
// the API's URL with a MessagePort for the answer.
import { countUsers, listUsers, UsersApiError } from "/node_modules/user-management-client/browser.js";

async function summary(api) {
  const active = await countUsers(api, { active: "true" });
  const page = await listUsers(api, { active: "true", pageSize: 5 });
  const refused = await countUsers(api, { active: "yes" }).catch((err) => err);
  return {
    totalActive: active.result.totalUsers,
    listed: page.result.users.length,
    listTotal: page.result.totalUsers,
    refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
  };
}

self.onmessage = (event) => {
  const [port] = event.ports;
  event.waitUntil(summary(event.data.api)
    .catch((err) => ({ error: `${err.kind}: ${err.message}` }))
    .then((s) => port.postMessage(s)));
};
