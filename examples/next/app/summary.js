// The same four facts every example reports (examples/node/count.mjs), from
// whichever entry of the package the runtime at hand resolved.
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

/** The API's base URL on the server side (the client page gets it passed in). */
export const apiUrl = () => process.env.USERS_API_URL ?? "http://127.0.0.1:8080";
