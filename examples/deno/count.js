// Deno: deno run --allow-net=127.0.0.1 --allow-read --allow-env=USERS_API_URL count.js
// (from a project with user-management-client in its package.json / node_modules).
import { countUsers, listUsers, UsersApiError } from "user-management-client";

export async function summary(baseUrl) {
  const active = await countUsers(baseUrl, { active: "true" });
  const page = await listUsers(baseUrl, { active: "true", pageSize: 5 });
  const refused = await countUsers(baseUrl, { active: "yes" }).catch((err) => err);
  return {
    totalActive: active.result.totalUsers,
    listed: page.result.users.length,
    listTotal: page.result.totalUsers,
    refused: refused instanceof UsersApiError ? `${refused.kind}:${refused.param}` : String(refused),
  };
}

if (import.meta.main) {
  console.log(JSON.stringify(await summary(Deno.env.get("USERS_API_URL") ?? "http://127.0.0.1:8080")));
}
