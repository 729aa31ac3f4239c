/**
 * @jest-environment jsdom
 */
// Jest's jsdom environment, as React apps are unit-tested: no server, the
// calls answered by a mocked `fetch` returning a plain object, as users
// mock it. No setup file and no Jest configuration: the docblock above is
// all it takes. `npx jest`.
const { countUsers, UsersClient, UsersApiError } = require("user-management-client");

const envelope = { status: 200, result: { totalUsers: 42 } };
const answer = (body) => ({
  status: 200,
  headers: { get: () => "application/json" },
  text: async () => JSON.stringify(body),
});

afterEach(() => {
  delete globalThis.fetch;
});

test("runs under jsdom", () => {
  expect(navigator.userAgent).toMatch(/jsdom/);
  expect(document.createElement("p").tagName).toBe("P");
});

test("a call through the fetch option", async () => {
  const fetch = jest.fn(async () => answer(envelope));
  const users = new UsersClient({ baseUrl: "https://api.example.com/v2", fetch });

  await expect(users.countUsers({ active: true })).resolves.toEqual(envelope);

  expect(fetch).toHaveBeenCalledTimes(1);
  const [url, init] = fetch.mock.calls[0];
  expect(url).toBe("https://api.example.com/v2/api/users/count");
  expect(init.method).toBe("POST");
  expect(JSON.parse(init.body)).toEqual({ active: "true" });
});

test("a call through globalThis.fetch replaced by jest.fn", async () => {
  globalThis.fetch = jest.fn(async () => answer(envelope));

  await expect(countUsers("https://api.example.com", { query: "ann" })).resolves.toEqual(envelope);

  expect(globalThis.fetch).toHaveBeenCalledTimes(1);
  expect(globalThis.fetch.mock.calls[0][0]).toBe("https://api.example.com/api/users/count");
});

test("a bad `active` is a UsersApiError, and nothing is sent", async () => {
  const fetch = jest.fn(async () => answer(envelope));

  const err = await countUsers("https://api.example.com", { active: "yes" }, { fetch }).catch((e) => e);

  expect(err).toBeInstanceOf(UsersApiError);
  expect(err).toBeInstanceOf(Error);
  expect(err).toMatchObject({ name: "UsersApiError", kind: "validation", param: "active" });
  expect(err.message).toMatch(/"yes"/);
  expect(fetch).not.toHaveBeenCalled();
});

test("the manual loader: initSync with the .wasm's bytes, then a mocked call", async () => {
  const manual = require("user-management-client/manual");
  const { readFileSync } = require("node:fs");

  await expect(manual.countUsers("https://api.example.com")).rejects.toMatchObject({ kind: "validation", param: "init" });
  manual.initSync(readFileSync(require.resolve("user-management-client/wasm")));
  const fetch = jest.fn(async () => answer(envelope));

  await expect(manual.countUsers("https://api.example.com", {}, { fetch })).resolves.toEqual(envelope);
  expect(fetch).toHaveBeenCalledTimes(1);
});
