// Types of user-management-client/query: options objects that TanStack
// Query's QueryClient.fetchQuery, useQuery and their kin take as they are.
// They name no TanStack type (the package does not depend on it): the shape
// below is assignable to its query options, and `data` is inferred from
// queryFn (useQuery(countUsersQueryOptions(client)).data is a CountEnvelope).
import type { CallOptions, CountEnvelope, CountParams, Envelope, ListParams, UserPage, UsersClient } from "./index.js";

/**
 * A key the helpers make: the package's name, the client's base URL (parsed,
 * without a trailing slash), the operation and the params (keys sorted,
 * `undefined` and `null` left out, a boolean `active` as "true" or "false").
 * Equal params give equal keys; `["user-management-client"]` or
 * `["user-management-client", baseUrl]` match every query of the package or
 * of one API (invalidateQueries, cancelQueries).
 */
export type UsersQueryKey<Operation extends string, Params> =
  readonly [scope: "user-management-client", baseUrl: string, operation: Operation, params: Params];
export type CountUsersQueryKey = UsersQueryKey<"count", CountParams>;
export type ListUsersQueryKey = UsersQueryKey<"list", ListParams>;
export type ListPagesQueryKey = UsersQueryKey<"pages", ListParams>;

/**
 * Options for one query. `queryFn` makes one client call with the query's
 * signal (merged with `options.signal` where one was given). Retries are
 * the client's alone: `retry` is false, and the call retries as the
 * client's `retries` (or `retries` in the helper's options) says.
 */
export interface UsersQueryOptions<TData, TKey extends readonly unknown[]> {
  queryKey: TKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<TData>;
  retry: false;
}

/** Options for a query of `client.countUsers(params, options)`. */
export function countUsersQueryOptions(client: UsersClient, params?: CountParams, options?: CallOptions):
  UsersQueryOptions<CountEnvelope, CountUsersQueryKey>;
/** Options for a query of `client.listUsers<T>(params, options)`. */
export function listUsersQueryOptions<T = unknown>(client: UsersClient, params?: ListParams, options?: CallOptions):
  UsersQueryOptions<Envelope<T>, ListUsersQueryKey>;

/** Where an infinite query's next page is (opaque: the walk's own). */
export interface PageParam { readonly page: number; readonly seen: number }

/** A page of an infinite query: its envelope, and where the walk goes next (undefined after the last page). */
export type UsersPage<T> = Envelope<T> & { nextPageParam: PageParam | undefined };

/**
 * Options for one infinite query: `queryFn` fetches one page, with the
 * query's signal, and the client's rule (as `listPages` walks) decides the
 * next; retries are the client's alone, as for the other helpers.
 */
export interface UsersInfiniteQueryOptions<TPage, TKey extends readonly unknown[]> {
  queryKey: TKey;
  queryFn: (context: { pageParam: PageParam; signal: AbortSignal }) => Promise<TPage>;
  initialPageParam: PageParam;
  getNextPageParam: (lastPage: TPage) => PageParam | undefined;
  retry: false;
}

/** Options for an infinite query of `client.listPages<T>(params, options)`, one page per fetch. */
export function listPagesInfiniteQueryOptions<T extends UserPage = UserPage>(client: UsersClient, params?: ListParams, options?: CallOptions):
  UsersInfiniteQueryOptions<UsersPage<T>, ListPagesQueryKey>;
