// Type test of user-management-client/query (pkg/query.d.ts) with TanStack
// Query's core types (@tanstack/query-core, a devDependency of the
// repository), compiled with `tsc --noEmit --strict` by `make smoke`: the
// options go to fetchQuery and to a QueryObserver (what useQuery wraps) as
// they are, and `data` is inferred from them, with no annotation.
import { InfiniteQueryObserver, QueryClient, QueryObserver, hashKey } from "@tanstack/query-core";
import { UsersClient, type CountEnvelope, type Envelope, type UserPage, type UsersApiError } from "user-management-client";
import {
  countUsersQueryOptions,
  listUsersQueryOptions,
  listPagesInfiniteQueryOptions,
  usersQueryKeys,
  type CountUsersQueryKey,
  type UsersPage,
  type UsersPages,
  type ListUsersQueryKey,
  type TaggedQueryKey,
  type UsersQueryOptions,
} from "user-management-client/query";

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const same = <A, B>(check: Equal<A, B>): Equal<A, B> => check;

interface Page { users: { id: number }[]; totalUsers: number }

export async function uses(client: UsersClient, queries: QueryClient, signal: AbortSignal): Promise<number> {
  const count = await queries.fetchQuery(countUsersQueryOptions(client, { active: true }, { signal, retries: 0 }));
  same<typeof count, CountEnvelope>(true);
  const total: number = count.result.totalUsers;

  const list = await queries.fetchQuery(listUsersQueryOptions(client, { page: 2, pageSize: 50 }));
  same<typeof list, Envelope<unknown>>(true);
  const page = await queries.fetchQuery(listUsersQueryOptions<Page>(client, { query: "ann" }));
  same<typeof page, Envelope<Page>>(true);

  // What useQuery does with its options: data inferred as the envelope.
  const observer = new QueryObserver(queries, countUsersQueryOptions(client));
  const data = observer.getCurrentResult().data;
  same<typeof data, CountEnvelope | undefined>(true);
  // Spread and overridden, as a caller may.
  const stale = new QueryObserver(queries, { ...listUsersQueryOptions<Page>(client), staleTime: 60_000 });
  type ListKey = TaggedQueryKey<ListUsersQueryKey, Envelope<Page>>;
  same<typeof stale extends QueryObserver<Envelope<Page>, UsersApiError, Envelope<Page>, Envelope<Page>, ListKey> ? true : false, true>(true);

  // What useQuery returns (its result is the observer's): `error` is a
  // UsersApiError, narrowed by `kind`.
  const error = observer.getCurrentResult().error;
  same<typeof error, UsersApiError | null>(true);
  const status: number = error?.kind === "http" ? error.httpStatus : 0;

  // The keys carry their data's type: getQueryData needs no annotation.
  const cached = queries.getQueryData(countUsersQueryOptions(client).queryKey);
  same<typeof cached, CountEnvelope | undefined>(true);
  const keys = usersQueryKeys(client);
  const listed = queries.getQueryData(keys.list<Page>({ query: "ann" }));
  same<typeof listed, Envelope<Page> | undefined>(true);
  const paged = queries.getQueryData(keys.pages({ pageSize: 100 }));
  same<typeof paged, UsersPages<UserPage> | undefined>(true);
  await queries.invalidateQueries({ queryKey: keys.all });
  // A server client and a browser client on different base URLs share keys by keyBase.
  const shared = countUsersQueryOptions(client, {}, { keyBase: "users-api", retries: 1 }).queryKey;
  const sharedKeys = usersQueryKeys(client, { keyBase: "users-api" });
  same<typeof shared, ReturnType<typeof sharedKeys.count>>(true);
  // @ts-expect-error keyBase is a string
  usersQueryKeys(client, { keyBase: 1 });

  // The keys: the package's name, the base URL, the operation, the params.
  const key: CountUsersQueryKey = countUsersQueryOptions(client).queryKey;
  const [scope, baseUrl, operation] = key;
  same<typeof scope, "user-management-client">(true);
  same<typeof operation, "count">(true);
  const hash: string = hashKey(key) + baseUrl;
  await queries.invalidateQueries({ queryKey: ["user-management-client", baseUrl] });
  same<ReturnType<typeof countUsersQueryOptions>, UsersQueryOptions<CountEnvelope, CountUsersQueryKey>>(true);

  // An infinite query (what useInfiniteQuery wraps): pages inferred as the envelopes of the page shape.
  const pages = await queries.fetchInfiniteQuery(listPagesInfiniteQueryOptions(client, { pageSize: 100 }));
  same<typeof pages.pages, UsersPage<UserPage>[]>(true);
  const firstUsers: number = pages.pages[0]?.result.users.length ?? 0;
  const infinite = new InfiniteQueryObserver(queries, listPagesInfiniteQueryOptions(client, { active: true }));
  const more: boolean = infinite.getCurrentResult().hasNextPage;
  const before: boolean = infinite.getCurrentResult().hasPreviousPage;
  const infiniteError = infinite.getCurrentResult().error;
  same<typeof infiniteError, UsersApiError | null>(true);
  // @ts-expect-error listPages needs the page shape (users, totalUsers)
  listPagesInfiniteQueryOptions<{ rows: string[] }>(client);

  // The contract's declared return type (object) still holds.
  const plain: object = listUsersQueryOptions(client);

  // @ts-expect-error count takes only query and active
  countUsersQueryOptions(client, { page: 2 });
  // @ts-expect-error the first argument is a UsersClient
  countUsersQueryOptions("http://127.0.0.1:8080");
  // @ts-expect-error the options are CallOptions
  listUsersQueryOptions(client, {}, { retries: "2" });
  // @ts-expect-error the query's retry is the one layer's choice: false
  const layered: UsersQueryOptions<CountEnvelope, CountUsersQueryKey> = { ...countUsersQueryOptions(client), retry: 3 };

  return total + hash.length + (plain ? 1 : 0) + (layered ? 1 : 0) + (data?.status ?? 0) + firstUsers + (more ? 1 : 0)
    + (before ? 1 : 0) + status + (cached?.status ?? 0) + (listed?.status ?? 0) + (paged?.pages.length ?? 0) + shared.length;
}
