// A module Web Worker that calls the API: the page posts it the API's URL,
// it answers with what the server said. Bundled as it is by webpack (the
// page's `new Worker(new URL(…))`, or `target: "webworker"`), Vite or
// esbuild. The package starts loading its .wasm when this module is
// imported, without holding it back: onmessage is set before any message
// is handled, and the calls wait for the .wasm.
import { countUsers, listUsers, UsersApiError } from "user-management-client";

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

self.onmessage = async ({ data }) => {
  self.postMessage(await summary(data.api).catch((err) => ({ error: `${err.kind}: ${err.message}` })));
};
