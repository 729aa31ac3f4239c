// Node.js (ES modules): node count.mjs, against `make demo` or USERS_API_URL.
import { pathToFileURL } from "node:url";
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

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await summary(process.env.USERS_API_URL ?? "http://127.0.0.1:8080")));
}
