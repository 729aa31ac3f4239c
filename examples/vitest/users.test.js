// A plain import of the package in every environment vitest.config.js
// lists. `npx vitest run`.
import { describe, expect, inject, test } from "vitest";
import { countUsers, listUsers, UsersApiError } from "user-management-client";

const api = inject("api");
const environment = inject("environment");

/** Which environment this file really runs in, from what the globals show. */
function detected() {
  if (typeof window === "undefined") return "node";
  if (/jsdom/.test(navigator.userAgent)) return "jsdom";
  if (/HappyDOM/.test(navigator.userAgent)) return "happy-dom";
  if (typeof process === "undefined" && /Chrome/.test(navigator.userAgent)) return "browser";
  return navigator.userAgent;
}

describe(environment, () => {
  test("runs in the environment its project names", () => {
    expect(detected()).toBe(environment);
  });

  test("counts and lists the active users as the server does", async () => {
    const totalUsers = inject("totalActive");

    const count = await countUsers(api, { active: "true" });
    const page = await listUsers(api, { active: true, pageSize: 5 });

    expect(count).toEqual({ status: 200, result: { totalUsers } });
    expect(page.result.totalUsers).toBe(totalUsers);
    expect(page.result.users).toHaveLength(Math.min(5, totalUsers));
  });

  test("a bad `active` is a UsersApiError", async () => {
    const err = await countUsers(api, { active: "yes" }).catch((e) => e);
    expect(err).toBeInstanceOf(UsersApiError);
    expect(err).toMatchObject({ kind: "validation", param: "active" });
  });
});
