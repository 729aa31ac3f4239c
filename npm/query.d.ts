// Types of user-management-client/query: options objects that TanStack
// Query's QueryClient.fetchQuery, useQuery and their kin take as they are,
// typed as TanStack's own queryOptions and infiniteQueryOptions are: `data`
// is the envelope, `error` is UsersApiError, and each key is tagged with
// its data's type (queryClient.getQueryData reads it). The types come from
// @tanstack/query-core, an optional peer dependency that every TanStack
// Query adapter brings; nothing of it is imported at runtime.
import type { DataTag, InfiniteData, InfiniteQueryObserverOptions, QueryObserverOptions } from "@tanstack/query-core";
import type { CallOptions, CountEnvelope, CountParams, Envelope, ListParams, UserPage, UsersApiError, UsersClient } from "./index.js";

/**
 * A key the helpers make: the package's name, the API's name in keys (the
 * client's base URL, parsed, without a trailing slash; or `keyBase`), the
 * operation and the params (keys sorted, `undefined` and `null` left out,
 * a boolean `active` as "true" or "false"). Equal params give equal keys;
 * `usersQueryKeys(client).all` matches every query of one client's API
 * (invalidateQueries, cancelQueries).
 */
export type UsersQueryKey<Operation extends string, Params> =
  readonly [scope: "user-management-client", baseUrl: string, operation: Operation, params: Params];
export type CountUsersQueryKey = UsersQueryKey<"count", CountParams>;
export type ListUsersQueryKey = UsersQueryKey<"list", ListParams>;
export type ListPagesQueryKey = UsersQueryKey<"pages", ListParams>;

/** A key tagged, as TanStack's queryOptions tags its keys, with its data's type and UsersApiError. */
export type TaggedQueryKey<TKey extends readonly unknown[], TData> = DataTag<TKey, TData, UsersApiError>;

/** What the helpers take beyond a call's options. */
export interface QueryKeyOptions {
  /**
   * The API's name in the keys, instead of the client's base URL: a server
   * client and a browser client on different base URLs (an internal URL
   * and a public one) that give the same `keyBase` make the same keys, so
   * a server render's cache hydrates in the browser. Default: the base URL.
   */
  keyBase?: string;
}

/** The options a helper takes: a call's, and `keyBase`. */
export type UsersQueryCallOptions = CallOptions & QueryKeyOptions;

/**
 * Options for one query, as TanStack's `queryOptions` returns them.
 * `queryFn` makes one client call with the query's signal (merged with
 * `options.signal` where one was given). Retries are the client's alone:
 * `retry` is false, and the call retries as the client's `retries` (or
 * `retries` in the helper's options) says.
 */
export interface UsersQueryOptions<TData, TKey extends readonly unknown[]>
  extends Omit<QueryObserverOptions<TData, UsersApiError, TData, TData, TaggedQueryKey<TKey, TData>>, "queryKey" | "queryFn" | "retry"> {
  queryKey: TaggedQueryKey<TKey, TData>;
  queryFn: (context: { signal: AbortSignal }) => Promise<TData>;
  retry: false;
}

/** Options for a query of `client.countUsers(params, options)`. */
export function countUsersQueryOptions(client: UsersClient, params?: CountParams, options?: UsersQueryCallOptions):
  UsersQueryOptions<CountEnvelope, CountUsersQueryKey>;
/** Options for a query of `client.listUsers<T>(params, options)`. */
export function listUsersQueryOptions<T = unknown>(client: UsersClient, params?: ListParams, options?: UsersQueryCallOptions):
  UsersQueryOptions<Envelope<T>, ListUsersQueryKey>;

/** Where an infinite query's page is (opaque: the walk's own). */
export interface PageParam { readonly page: number; readonly seen: number }

/**
 * A page of an infinite query: its envelope, where the walk goes next
 * (undefined after the last page) and the page before it (undefined for
 * page 1).
 */
export type UsersPage<T> = Envelope<T> & { nextPageParam: PageParam | undefined; previousPageParam: PageParam | undefined };

/** What an infinite query of pages holds: TanStack's InfiniteData of them. */
export type UsersPages<T> = InfiniteData<UsersPage<T>, PageParam>;

/**
 * Options for one infinite query, as TanStack's `infiniteQueryOptions`
 * returns them: `queryFn` fetches one page, with the query's signal; the
 * client's rule (as `listPages` walks) decides the next page, and the one
 * before is the page number before; retries are the client's alone, as for
 * the other helpers.
 */
export interface UsersInfiniteQueryOptions<TPage, TKey extends readonly unknown[]>
  extends Omit<
    InfiniteQueryObserverOptions<TPage, UsersApiError, InfiniteData<TPage, PageParam>, TaggedQueryKey<TKey, InfiniteData<TPage, PageParam>>, PageParam>,
    "queryKey" | "queryFn" | "retry" | "initialPageParam" | "getNextPageParam" | "getPreviousPageParam"
  > {
  queryKey: TaggedQueryKey<TKey, InfiniteData<TPage, PageParam>>;
  queryFn: (context: { pageParam: PageParam; signal: AbortSignal }) => Promise<TPage>;
  initialPageParam: PageParam;
  getNextPageParam: (lastPage: TPage) => PageParam | undefined;
  getPreviousPageParam: (firstPage: TPage) => PageParam | undefined;
  retry: false;
}

/** Options for an infinite query of `client.listPages<T>(params, options)`, one page per fetch. */
export function listPagesInfiniteQueryOptions<T extends UserPage = UserPage>(client: UsersClient, params?: ListParams, options?: UsersQueryCallOptions):
  UsersInfiniteQueryOptions<UsersPage<T>, ListPagesQueryKey>;

/**
 * The keys of one client's queries: `all`, a prefix of every key the
 * helpers make for it (invalidateQueries, cancelQueries), and each
 * helper's key by its params, tagged with its data's type (getQueryData).
 */
export interface UsersQueryKeys {
  readonly all: readonly [scope: "user-management-client", baseUrl: string];
  count(params?: CountParams): TaggedQueryKey<CountUsersQueryKey, CountEnvelope>;
  list<T = unknown>(params?: ListParams): TaggedQueryKey<ListUsersQueryKey, Envelope<T>>;
  pages<T extends UserPage = UserPage>(params?: ListParams): TaggedQueryKey<ListPagesQueryKey, UsersPages<T>>;
}

/** The keys of `client`'s queries (with `options.keyBase`, the keys helpers given that `keyBase` make). */
export function usersQueryKeys(client: UsersClient, options?: QueryKeyOptions): UsersQueryKeys;
