// A module Web Worker, unbundled: workers have no import maps, so the
// package's browser entry is imported by its path from the server's root.
// Importing it starts loading the .wasm without holding this module back:
// onmessage is set before any message is handled; the calls wait for it.
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

self.onmessage = async ({ data }) => {
  self.postMessage(await summary(data.api).catch((err) => ({ error: `${err.kind}: ${err.message}` })));
};
