/**
 * @jest-environment node
 */
// Jest's node environment against a running server: the client's numbers
// must be the server's own (read with a raw fetch). USERS_API_URL, default
// http://127.0.0.1:8080 (`make demo`). `npx jest`.
const { countUsers, listUsers, UsersApiError } = require("user-management-client");

const api = process.env.USERS_API_URL || "http://127.0.0.1:8080";

async function raw(path, params) {
  const response = await fetch(api + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return (await response.json()).result;
}

test("runs under node", () => {
  expect(typeof window).toBe("undefined");
});

test("counts and lists the active users as the server does", async () => {
  const { totalUsers } = await raw("/api/users/count", { active: "true" });

  const count = await countUsers(api, { active: "true" });
  const page = await listUsers(api, { active: true, pageSize: 5 });

  expect(count).toEqual({ status: 200, result: { totalUsers } });
  expect(page.status).toBe(200);
  expect(page.result.totalUsers).toBe(totalUsers);
  expect(page.result.users).toHaveLength(Math.min(5, totalUsers));
});

test("a bad `active` is a UsersApiError", async () => {
  const err = await countUsers(api, { active: "yes" }).catch((e) => e);
  expect(err).toBeInstanceOf(UsersApiError);
  expect(err).toMatchObject({ kind: "validation", param: "active" });
});
