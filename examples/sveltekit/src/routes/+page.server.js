// The page's server load: runs on the server at each request, with the
// package imported as any dependency. USERS_API_URL is the API's base URL.
import { env } from "node:process";
import { countUsers, listUsers, UsersApiError } from "user-management-client";

export async function load() {
  const baseUrl = env.USERS_API_URL ?? "http://127.0.0.1:8080";
  const active = await countUsers(baseUrl, { active: "true" });
  const page = await listUsers(baseUrl, { active: "true", pageSize: 5 });
  const refused = await countUsers(baseUrl, { active: "yes" }).catch((err) => err);
  return {
    summary: {
      totalActive: active.result.totalUsers,
      listed: page.result.users.length,
      listTotal: page.result.totalUsers,
      refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
    },
  };
}
