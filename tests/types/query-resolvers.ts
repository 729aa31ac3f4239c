// Type test of user-management-client/query under each resolver (query.d.ts
// or query.d.cts), compiled with `tsc --noEmit` by tests/smoke/run.mjs in
// its scratch project, beside the installed package: the helpers take the
// main entry's UsersClient and their queryFn resolves to its envelope.
import { UsersClient, type CountEnvelope, type Envelope } from "user-management-client";
import { countUsersQueryOptions, listUsersQueryOptions, type CountUsersQueryKey } from "user-management-client/query";

export async function uses(client: UsersClient, signal: AbortSignal): Promise<number> {
  const options = countUsersQueryOptions(client, { active: true }, { retries: 0 });
  const key: CountUsersQueryKey = options.queryKey;
  const count: CountEnvelope = await options.queryFn({ signal });
  const list: Envelope<{ users: unknown[] }> = await listUsersQueryOptions<{ users: unknown[] }>(client).queryFn({ signal });
  const retry: false = options.retry;
  return count.result.totalUsers + list.result.users.length + key.length + (retry ? 1 : 0);
}
