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
  type ClientOptions,
  type CountEnvelope,
  type CountParams,
  type ListEnvelope,
  type ListParams,
  type Hooks,
  type AttemptInfo,
  type ResponseInfo,
  type RetryInfo,
} from "user-management-client";

export async function uses(signal: AbortSignal): Promise<number> {
  const active: Active = "true";
  const params: CountParams = { query: "ann", active };
  const count: CountEnvelope = await countUsers("http://127.0.0.1:8080", params, { retries: 0, signal });
  const total: number = count.result.totalUsers;
  const status: number = count.status;

  const list: ListEnvelope = await listUsers("http://127.0.0.1:8080", { active: false, page: 2, pageSize: 50 });
  const anything: unknown = list.result;

  const options: ClientOptions = {
    baseUrl: "https://api.example.com/v2/",
    headers: async () => ({ Authorization: "Bearer t" }),
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

  try {
    await client.countUsers({ active: "all" });
  } catch (err) {
    if (err instanceof UsersApiError) {
      const kind: "validation" | "network" | "timeout" | "aborted" | "http" | "decode" | "api" = err.kind;
      const name: "UsersApiError" = err.name;
      const details: [string | undefined, number | undefined, number | undefined, unknown, unknown] =
        [err.param, err.status, err.httpStatus, err.body, err.cause];
      const isError: Error = err;
      void [kind, name, details, isError];
    }
  }

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
  // @ts-expect-error: call options carry no retries
  await client.countUsers({}, { retries: 3 });
  // @ts-expect-error: query is a string
  await client.listUsers({ query: 5 });

  // Hooks: what each one receives.
  const seen: string[] = [];
  const hooks: Hooks = {
    beforeRequest(info: AttemptInfo) { seen.push(`${info.operation} ${info.url} #${info.attempt} ${info.headers["accept"]}`); },
    afterResponse(info: ResponseInfo) { seen.push(`${info.httpStatus} in ${info.durationMs} ms`); },
    beforeRetry(info: RetryInfo) { const kind: UsersApiError["kind"] = info.error.kind; seen.push(`${kind} ${info.delayMs}`); },
  };
  new UsersClient({ baseUrl: "http://x", hooks });
  await countUsers("http://x", {}, { hooks: { beforeRetry: () => {} } });
  // @ts-expect-error: an unknown hook name
  new UsersClient({ baseUrl: "http://x", hooks: { beforeResponse: () => {} } });
  // @ts-expect-error: hooks are not call options
  await client.countUsers({}, { hooks });

  return total + status + (anything === undefined ? 0 : 1);
}
