// The page's script: the manual entry, given the .wasm's URL (which the
// import map in index.html resolves).
import { init, countUsers, listUsers, UsersApiError } from "user-management-client/manual";

const baseUrl = new URLSearchParams(location.search).get("api") ?? "http://127.0.0.1:8080";

async function summary() {
  await init(import.meta.resolve("user-management-client/wasm"));
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

window.summary = summary().then((s) => {
  document.getElementById("active").textContent = String(s.totalActive);
  document.getElementById("summary").textContent = JSON.stringify(s, null, 2);
  return s;
}, (err) => ({ error: `${err.kind}: ${err.message}` }));
