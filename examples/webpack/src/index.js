// The page's script (src/index.js, webpack's default entry), built as it is:
// webpack 5 follows the browser entry's `new URL(…, import.meta.url)` to the
// .wasm (an asset), which starts loading when the page imports the package.
import { countUsers, listUsers, UsersApiError } from "user-management-client";

const baseUrl = new URLSearchParams(location.search).get("api") ?? "http://127.0.0.1:8080";

async function summary() {
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
