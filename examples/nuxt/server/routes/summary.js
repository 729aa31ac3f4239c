// A Nitro server route, GET /summary: the package called on the server, its
// answer as JSON. USERS_API_URL is the API's base URL.
import { countUsers, listUsers, UsersApiError } from "user-management-client";

export default defineEventHandler(async () => {
  const baseUrl = process.env.USERS_API_URL ?? "http://127.0.0.1:8080";
  const active = await countUsers(baseUrl, { active: "true" });
  const page = await listUsers(baseUrl, { active: "true", pageSize: 5 });
  const refused = await countUsers(baseUrl, { active: "yes" }).catch((err) => err);
  return {
    totalActive: active.result.totalUsers,
    listed: page.result.users.length,
    listTotal: page.result.totalUsers,
    refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
  };
});
