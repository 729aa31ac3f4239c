// The manual loader in a Cloudflare Worker, handed the compiled
// WebAssembly.Module that importing "user-management-client/wasm" gives
// (wrangler and miniflare compile an imported .wasm). GET / answers a
// summary of the users API at env.USERS_API_URL.
import wasm from "user-management-client/wasm";
import { initSync, countUsers, listUsers, UsersApiError } from "user-management-client/manual";

initSync(wasm);

export default {
  async fetch(request, env) {
    const baseUrl = env.USERS_API_URL;
    const active = await countUsers(baseUrl, { active: "true" });
    const page = await listUsers(baseUrl, { active: "true", pageSize: 5 });
    const refused = await countUsers(baseUrl, { active: "yes" }).catch((err) => err);
    return Response.json({
      totalActive: active.result.totalUsers,
      listed: page.result.users.length,
      listTotal: page.result.totalUsers,
      refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
    });
  },
};
