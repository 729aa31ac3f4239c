// A Cloudflare Worker: GET / answers a summary of the users API at
// env.USERS_API_URL. `npx wrangler dev` with wrangler.toml beside it.
import { countUsers, listUsers, UsersApiError } from "user-management-client";

export default {
  async fetch(request, env) {
    const baseUrl = env.USERS_API_URL;
    try {
      const active = await countUsers(baseUrl, { active: "true" });
      const page = await listUsers(baseUrl, { active: "true", pageSize: 5 });
      const refused = await countUsers(baseUrl, { active: "yes" }).catch((err) => err);
      return Response.json({
        totalActive: active.result.totalUsers,
        listed: page.result.users.length,
        listTotal: page.result.totalUsers,
        refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
      });
    } catch (err) {
      const status = err instanceof UsersApiError && err.kind === "validation" ? 400 : 502;
      return Response.json({ error: err.kind ?? "unknown", message: err.message }, { status });
    }
  },
};
