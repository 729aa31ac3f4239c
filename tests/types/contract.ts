// Type test of the shipped declarations (pkg/index.d.ts), compiled with
// `tsc --noEmit --strict` by `make smoke`. Every export is used as the
// contract allows, and each `@ts-expect-error` line is a call the contract
// forbids: if the declarations loosened, that line would compile, the
// directive would be unused, and tsc would fail.
import {
  countUsers,
  listUsers,
  UsersClient,
  UsersApiError,
  type Active,
  type CallOptions,
  type RetryPolicy,
  type ClientOptions,
  type CountEnvelope,
  type CountParams,
  type ListEnvelope,
  type ListParams,
  type Envelope,
  type HeadersLike,
  type HeadersOption,
  type UsersApiErrorKind,
  type UsersApiErrorBase,
  type UsersApiErrorFields,
  isRetryable,
  type Hooks,
  type AttemptInfo,
  type ResponseInfo,
  type RetryInfo,
  type User,
  type UserPage,
} from "user-management-client";

export async function uses(signal: AbortSignal): Promise<number> {
  const active: Active = "true";
  const params: CountParams = { query: "ann", active };
  const count: CountEnvelope = await countUsers("http://127.0.0.1:8080", params, { retries: 0, signal });
  const total: number = count.result.totalUsers;
  const status: number = count.status;

  const list: ListEnvelope = await listUsers("http://127.0.0.1:8080", { active: false, page: 2, pageSize: 50 });
  const anything: unknown = list.result;
  // The caller may name the list's result shape, in both forms.
  interface Page { users: { username: string }[]; totalUsers: number }
  const named: Envelope<Page> = await listUsers<Page>("http://127.0.0.1:8080", { pageSize: 5 });
  const firstName: string | undefined = named.result.users[0]?.username;

  const refresh: HeadersOption = async () => ({ Authorization: "Bearer t" });
  const fixed: HeadersOption = { "X-Tenant": "a" };
  // Headers as fetch takes them: a record, a Headers object, [name, value] pairs, and a
  // function returning any of them.
  const forms: HeadersLike[] = [{ "x-a": "1" }, new Headers({ "x-a": "1" }), [["x-a", "1"]]];
  const returning: HeadersOption[] = [() => new Headers(), async () => [["x-a", "1"]], ...forms];
  // The DOM's HeadersInit stays the DOM's (it also takes other iterables).
  const dom: HeadersInit = new Headers();
  const options: ClientOptions = {
    baseUrl: "https://api.example.com/v2/",
    headers: refresh,
    paramsIn: "form",
    timeoutMs: 5000,
    retries: 2,
    credentials: "include",
    fetch: globalThis.fetch,
  };
  const client = new UsersClient(options);
  const byUrl = new UsersClient("http://127.0.0.1:8080");
  const call: CallOptions = { signal, timeoutMs: 0, headers: { "X-Request-Id": "1" } };
  const listParams: ListParams = { query: "x", sort: "name" };
  await client.countUsers({ active: true }, call);
  await byUrl.listUsers(listParams);
  await client.countUsers();
  const page: Envelope<Page> = await client.listUsers<Page>({ pageSize: 5 });
  const untyped: unknown = (await client.listUsers()).result;
  new UsersClient({ baseUrl: "http://x", headers: fixed });
  // free() and Symbol.dispose release the wasm side.
  byUrl.free();
  const dispose: () => void = client[Symbol.dispose];
  await client.countUsers({}, { headers: new Headers({ "x-a": "1" }), retries: 0 });
  await countUsers("http://x", {}, { headers: async () => [["x-a", "1"]], retries: 0, signal });
  await client.listUsers({}, { headers: [["x-a", "1"]], retries: 4 });
  new UsersClient({ baseUrl: "http://x", headers: () => new Headers({ "x-a": "1" }) });
  void [page, untyped, dom, dispose, firstName, returning];

  try {
    await client.countUsers({ active: "all" });
  } catch (err) {
    if (err instanceof UsersApiError) {
      const kind: "validation" | "network" | "timeout" | "aborted" | "http" | "decode" | "api" = err.kind;
      const named: UsersApiErrorKind = err.kind;
      const every: UsersApiErrorKind[] = ["validation", "network", "timeout", "aborted", "http", "decode", "api"];
      void [named, every];
      const name: "UsersApiError" = err.name;
      const details: [string | undefined, number | undefined, number | undefined, unknown, unknown] =
        [err.param, err.status, err.httpStatus, err.body, err.cause];
      const isError: Error = err;
      void [kind, name, details, isError];
      // The union narrows by kind.
      if (err.kind === "http") {
        const httpStatus: number = err.httpStatus;
        const status: number | undefined = err.status;
        void [httpStatus, status];
      } else if (err.kind === "validation") {
        const param: string = err.param;
        void param;
      } else if (err.kind === "api") {
        const status: number = err.status;
        void status;
      } else if (err.kind === "network") {
        // @ts-expect-error: a network error has no HTTP status to count on
        const httpStatus: number = err.httpStatus;
        void httpStatus;
      }
      switch (err.kind) {
        case "http": { const n: number = err.httpStatus; void n; break; }
        case "timeout": {
          // @ts-expect-error: only validation errors are sure to name a param
          const param: string = err.param;
          void param;
          break;
        }
        case "decode": {
          // @ts-expect-error: only api errors are sure to carry an envelope's status
          const status: number = err.status;
          void status;
          break;
        }
      }
    }
    // The client's own retry rule, for query libraries: anything may be asked.
    const retry: boolean = isRetryable(err);
    void retry;
  }
  const retryable: boolean[] = [isRetryable(new Error("x")), isRetryable(undefined), isRetryable("503")];
  void retryable;
  // @ts-expect-error: before narrowing, httpStatus may be missing
  ((e: UsersApiError): number => e.httpStatus);

  // @ts-expect-error: "yes" is not an Active value
  await countUsers("http://x", { active: "yes" });
  // @ts-expect-error: count takes only query and active (catches typos)
  await countUsers("http://x", { activ: "true" });
  // @ts-expect-error: timeoutMs is a number
  await countUsers("http://x", {}, { timeoutMs: "5" });
  // @ts-expect-error: paramsIn is "body" | "query" | "form"
  new UsersClient({ baseUrl: "http://x", paramsIn: "json" });
  // @ts-expect-error: the one-shot forms take no baseUrl option
  await listUsers("http://x", {}, { baseUrl: "http://y" });
  // @ts-expect-error: retries is a number or a RetryPolicy
  await client.countUsers({}, { retries: "3" });
  // A retry policy, on the client and per call (fields not given: the client's).
  const policy: RetryPolicy = { limit: 3, statusCodes: [503], maxRetryAfterMs: 1000, backoffLimitMs: 2000 };
  new UsersClient({ baseUrl: "http://x", retries: policy });
  await client.countUsers({}, { retries: { statusCodes: [429] } });
  await countUsers("http://x", {}, { retries: { limit: 0 } });
  // @ts-expect-error: statusCodes are numbers
  await client.countUsers({}, { retries: { statusCodes: ["503"] } });
  // @ts-expect-error: an unknown field of a RetryPolicy
  await client.countUsers({}, { retries: { retryOn: [503] } });
  // @ts-expect-error: query is a string
  await client.listUsers({ query: 5 });
  // @ts-expect-error: a pair is a name and a value
  new UsersClient({ baseUrl: "http://x", headers: [["x-a"]] });
  // @ts-expect-error: header values are strings
  await client.countUsers({}, { headers: { "x-a": 1 } });
  // @ts-expect-error: the list's result is unknown until the caller names it
  (await client.listUsers()).result.users;

  // Every page, of the reference server's shape unless the caller names a wider one.
  let seenUsers = 0;
  for await (const each of client.listPages({ active: true, pageSize: 100 }, { signal })) {
    const pageStatus: number = each.status;
    const users: User[] = each.result.users;
    const id: number | undefined = users[0]?.id;
    const field: unknown = users[0]?.username;
    const numbers: number[] = [each.result.totalUsers, each.result.page, each.result.pageSize];
    seenUsers += users.length;
    void [pageStatus, id, field, numbers];
    break;
  }
  interface NamedUser extends User { username: string }
  interface NamedPage extends UserPage { users: NamedUser[] }
  for await (const each of client.listPages<NamedPage>({ page: 2 })) {
    const username: string | undefined = each.result.users[0]?.username;
    void username;
  }
  const pages: AsyncIterable<Envelope<UserPage>> = client.listPages();
  const pageParams: ListParams = { page: 1, pageSize: 20, sort: "name" };
  void [seenUsers, pages, pageParams];
  // An async generator: `return()` stops it, as `break` does.
  const walk = client.listPages();
  const stopped: IteratorResult<Envelope<UserPage>, void> = await walk.return();
  void stopped;
  // The page's users typed without an intersection.
  const typedPage: UserPage<NamedUser> = { users: [{ id: 1, username: "ann" }], totalUsers: 1, page: 1, pageSize: 20 };
  const typedFirst: string | undefined = typedPage.users[0]?.username;
  for await (const each of client.listPages<UserPage<NamedUser>>()) {
    const username: string | undefined = each.result.users[0]?.username;
    void username;
  }
  void typedFirst;
  // Headers in every form the code takes: a Map, readonly tuples.
  new UsersClient({ baseUrl: "http://x", headers: new Map([["x-a", "1"]]) });
  const tuples: readonly (readonly [string, string])[] = [["x-b", "2"]] as const;
  await client.countUsers({}, { headers: tuples });
  // @ts-expect-error: header values are strings
  new UsersClient({ baseUrl: "http://x", headers: new Map([["x-a", 1]]) });
  // @ts-expect-error: listPages needs users and totalUsers in each result
  client.listPages<{ items: unknown[] }>();
  // @ts-expect-error: page is a number
  client.listPages({ page: "2" });
  // @ts-expect-error: pageSize is a number
  await client.listUsers({ pageSize: "20" });
  // @ts-expect-error: the pages are an async iterable, not a promise
  await client.listPages().then;

  // Tests and mocks construct errors as the client does: kind, message, fields.
  const mock = new UsersApiError("http", "HTTP 503", { httpStatus: 503 });
  const full = new UsersApiError("validation", "bad active", {
    param: "active", status: 400, httpStatus: 200, body: { status: 400 }, cause: new Error("x") });
  const bare: Error = new UsersApiError("network", "offline");
  const mockKind: UsersApiErrorKind = mock.kind;
  // A constructed error has the kind and the fields given: it is a UsersApiError where its
  // kind's fields were given, and narrows as one.
  const typed: UsersApiError[] = [mock, full, new UsersApiError("network", "offline"), new UsersApiError("api", "no", { status: 404 })];
  const mockStatus: 503 | number = mock.httpStatus;
  const fields: UsersApiErrorFields = { httpStatus: 503 };
  const general: UsersApiErrorBase = new UsersApiError("decode", "not JSON", fields);
  // A subclass, as tests make for mocks.
  class MockError extends UsersApiError {}
  const sub: UsersApiErrorBase = new MockError("timeout", "slow");
  void [full, bare, mockKind, typed, mockStatus, general, sub];
  // @ts-expect-error: an http error made without its httpStatus is no UsersApiError to narrow
  const unsure: UsersApiError = new UsersApiError("http", "HTTP 503");
  void unsure;
  // @ts-expect-error: the first argument is the kind, not the message
  new UsersApiError("HTTP 503");
  // @ts-expect-error: not a kind
  new UsersApiError("server", "HTTP 503");
  // @ts-expect-error: the fields are an object, not positional
  new UsersApiError("validation", "bad active", "active");
  // @ts-expect-error: httpStatus is a number
  new UsersApiError("http", "HTTP 503", { httpStatus: "503" });
  // @ts-expect-error: no such field
  new UsersApiError("http", "HTTP 503", { statusCode: 503 });

  // Hooks: what each one receives.
  const seen: string[] = [];
  const hooks: Hooks = {
    beforeRequest(info: AttemptInfo) { seen.push(`${info.operation} ${info.url} #${info.attempt} ${info.headers["accept"]}`); },
    afterResponse(info: ResponseInfo) { seen.push(`${info.httpStatus} in ${info.durationMs} ms`); },
    beforeRetry(info: RetryInfo) { const kind: UsersApiError["kind"] = info.error.kind; seen.push(`${kind} ${info.delayMs}`); },
  };
  new UsersClient({ baseUrl: "http://x", hooks });
  await countUsers("http://x", {}, { hooks: { beforeRetry: () => {} } });
  // Infos are read, never changed: a hook changes an attempt by what it returns.
  const readOnly: Hooks = {
    beforeRequest(info) {
      // @ts-expect-error: an info's headers are readonly
      info.headers["x-a"] = "1";
      // @ts-expect-error: an info's fields are readonly
      info.attempt = 2;
    },
    afterResponse(info) {
      // @ts-expect-error: the response's headers are readonly
      info.responseHeaders["x-a"] = "1";
    },
  };
  void readOnly;
  // @ts-expect-error: an unknown hook name
  new UsersClient({ baseUrl: "http://x", hooks: { beforeResponse: () => {} } });
  // @ts-expect-error: hooks are not call options
  await client.countUsers({}, { hooks });
  // Hooks that change an attempt: headers for it, a retry; at once or async.
  const changing: Hooks = {
    beforeRequest: ({ attempt }) => ({ headers: { "x-request-id": `r-${attempt}` } }),
    afterResponse: async ({ httpStatus, responseHeaders }) => {
      const remaining: string | undefined = responseHeaders["x-ratelimit-remaining"];
      seen.push(`${remaining}`);
      if (httpStatus === 401) return { retry: true };
    },
    beforeRetry: async () => {},
  };
  // beforeRetry may stop the retries: false, at once or async.
  new UsersClient({ baseUrl: "http://x", hooks: { beforeRetry: () => false } });
  new UsersClient({ baseUrl: "http://x", hooks: { beforeRetry: async ({ attempt }) => (attempt < 2 ? undefined : false) } });
  // @ts-expect-error: beforeRetry returns false or nothing
  new UsersClient({ baseUrl: "http://x", hooks: { beforeRetry: () => true } });
  new UsersClient({ baseUrl: "http://x", hooks: changing });
  // @ts-expect-error: retry is a boolean
  new UsersClient({ baseUrl: "http://x", hooks: { afterResponse: () => ({ retry: "yes" }) } });
  // @ts-expect-error: header values are strings
  new UsersClient({ baseUrl: "http://x", hooks: { beforeRequest: () => ({ headers: { "x-a": 1 } }) } });

  return total + status + (anything === undefined ? 0 : 1);
}

// No `any` where a type is known. An annotation of `unknown` (or of any
// other type) accepts `any`, so the checks above cannot see one: IsAny<T>
// is true exactly for `any` (only `any` makes `1 & T` accept 0), and
// AnyIn<T> looks for it in T's properties, parameters and results, a few
// levels down. The DOM's own types (AbortSignal, Headers, fetch) are not ours and
// stop the search; of an Iterable or an AsyncIterable only what it yields
// is ours (its TReturn and TNext are the lib's `any` defaults).
type IsAny<T> = 0 extends 1 & T ? true : false;
type Expect<T extends true> = T;
type Next<D extends unknown[]> = [...D, 0];
type AnyIn<T, D extends unknown[] = []> =
  IsAny<T> extends true ? true
  : D["length"] extends 6 ? false
  : T extends AbortSignal | Headers | typeof fetch ? false
  : T extends AsyncIterable<infer E> ? AnyIn<E, Next<D>>
  : T extends object & Iterable<infer E> ? AnyIn<E, Next<D>>
  : T extends abstract new (...args: infer A) => infer R ? AnyIn<A[number], Next<D>> | AnyIn<R, Next<D>>
  : T extends (...args: infer A) => infer R ? AnyIn<A[number], Next<D>> | AnyIn<R, Next<D>>
  : T extends PromiseLike<infer V> ? AnyIn<V, Next<D>>
  : T extends object ? false | { [K in keyof T]-?: AnyIn<T[K], Next<D>> }[keyof T]
  : false;
type NoAny<T> = true extends AnyIn<T> ? false : true;

// The checks check: each would fail on `any`, here or deep inside.
type SelfTests = [
  Expect<IsAny<any>>,
  Expect<NoAny<unknown>>,
  Expect<NoAny<{ a: string; f(x: number): Promise<unknown> }>>,
  // @ts-expect-error: IsAny<unknown> is false
  Expect<IsAny<unknown>>,
  // @ts-expect-error: any itself
  Expect<NoAny<any>>,
  // @ts-expect-error: any in a property
  Expect<NoAny<{ a: { b: any } }>>,
  // @ts-expect-error: any as a parameter
  Expect<NoAny<(x: any) => void>>,
  // @ts-expect-error: any as a result inside a promise
  Expect<NoAny<() => Promise<{ result: any }>>>,
  Expect<NoAny<AsyncIterable<{ result: unknown }>>>,
  // @ts-expect-error: any in what an async iterable yields
  Expect<NoAny<AsyncIterable<{ result: any }>>>,
  Expect<NoAny<Iterable<readonly [string, string]>>>,
  // @ts-expect-error: any in what an iterable yields
  Expect<NoAny<Iterable<readonly [string, any]>>>,
];

// Every export, its values and its types.
type Exported = [
  Expect<NoAny<typeof countUsers>>,
  Expect<NoAny<typeof listUsers>>,
  Expect<NoAny<typeof UsersClient>>,
  Expect<NoAny<UsersClient>>,
  Expect<NoAny<typeof UsersApiError>>,
  Expect<NoAny<UsersApiError>>,
  Expect<NoAny<Active>>,
  Expect<NoAny<CallOptions>>,
  Expect<NoAny<ClientOptions>>,
  Expect<NoAny<CountEnvelope>>,
  Expect<NoAny<CountParams>>,
  Expect<NoAny<ListEnvelope>>,
  Expect<NoAny<ListParams>>,
  Expect<NoAny<Envelope<unknown>>>,
  Expect<NoAny<HeadersOption>>,
  Expect<NoAny<HeadersLike>>,
  Expect<NoAny<typeof isRetryable>>,
  Expect<NoAny<UsersApiErrorBase>>,
  Expect<NoAny<UsersApiErrorFields>>,
  Expect<NoAny<UsersApiErrorKind>>,
  Expect<NoAny<Hooks>>,
  Expect<NoAny<AttemptInfo>>,
  Expect<NoAny<ResponseInfo>>,
  Expect<NoAny<RetryInfo>>,
  Expect<NoAny<User>>,
  Expect<NoAny<UserPage>>,
  // What the calls resolve with, by name.
  Expect<NoAny<Awaited<ReturnType<typeof countUsers>>>>,
  Expect<NoAny<Awaited<ReturnType<UsersClient["listUsers"]>>>>,
  Expect<NoAny<ReturnType<UsersClient["listPages"]>>>,
  Expect<NoAny<UsersApiError["body"]>>,
  Expect<NoAny<UsersApiError["cause"]>>,
];
export type { SelfTests, Exported };
