// Vitest's global setup: the server's own numbers, read with a raw fetch
// from Node, handed to every project's tests with `provide`.
export async function setup({ provide }) {
  const api = process.env.USERS_API_URL ?? "http://127.0.0.1:8080";
  const response = await fetch(`${api}/api/users/count`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ active: "true" }),
  });
  provide("api", api);
  provide("totalActive", (await response.json()).result.totalUsers);
}
