// The manual loader in Node.js (ES modules), handed the .wasm's bytes:
// node count.mjs, against `make demo` or USERS_API_URL.
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { init, countUsers, listUsers, UsersApiError } from "user-management-client/manual";

await init(readFileSync(fileURLToPath(import.meta.resolve("user-management-client/wasm"))));

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
