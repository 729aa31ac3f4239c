// The manual loader in Node.js (CommonJS), handed the .wasm's bytes
// synchronously: node count.cjs, against `make demo` or USERS_API_URL.
const { readFileSync } = require("node:fs");
const { initSync, countUsers, listUsers, UsersApiError } = require("user-management-client/manual");

initSync(readFileSync(require.resolve("user-management-client/wasm")));

async function summary(baseUrl) {
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

module.exports = { summary };

if (require.main === module) {
  summary(process.env.USERS_API_URL || "http://127.0.0.1:8080").then((s) => console.log(JSON.stringify(s)));
}
