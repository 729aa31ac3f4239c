// Renders the page on the server: the package runs inside the bundle.
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

const escape = (text) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function render(baseUrl) {
  const s = await summary(baseUrl);
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>user-management-client, server-rendered</title>
<h1>Users</h1>
<p>Active users: <output id="active">${s.totalActive}</output></p>
<pre id="summary">${escape(JSON.stringify(s))}</pre>
`;
}
