// Types of user-management-client: every export of the package, as the
// book's reference documents them, and Symbol.dispose for projects whose
// TypeScript lib lacks it (at the end). The repository's type test compiles
// against this file with `tsc --strict`, including the calls it must refuse.

export type Active = "all" | "true" | "false";

export interface CountParams { query?: string; active?: Active | boolean }
export interface ListParams  { query?: string; active?: Active | boolean; page?: number; pageSize?: number; [param: string]: unknown }

export interface Envelope<T> { status: number; result: T }
export interface CountResult { totalUsers: number }
export type CountEnvelope = Envelope<CountResult>;
export type ListEnvelope  = Envelope<unknown>;
// The reference server's page (openapi/): the spec does not show the list's shape, so
// listUsers stays generic; listPages needs `users` and `totalUsers` in each result.
export interface User { id: number; [field: string]: unknown }
export interface UserPage<U extends User = User> { users: U[]; totalUsers: number; page: number; pageSize: number }

export type ParamsIn = "body" | "query" | "form";
// Headers as fetch takes them: a record, a Headers object, or any iterable of
// [name, value] pairs (an array of them, readonly tuples, a Map).
// (Not named HeadersInit: that name is the DOM's.)
export type HeadersLike = Record<string, string> | Headers | Iterable<readonly [string, string]>;
// Or a function returning one, called before every attempt (a retry carries a fresh token).
export type HeadersOption = HeadersLike | (() => HeadersLike | Promise<HeadersLike>);

// What a hook sees. A hook changes an attempt only by what it returns: changing
// an info changes nothing, so its fields are readonly.
export interface AttemptInfo {
  readonly operation: "count" | "list";
  readonly url: string;                      // the full request URL (query mode: with its query string)
  readonly attempt: number;                  // 1 for the first attempt
  readonly headers: Readonly<Record<string, string>>;  // as sent, credential values replaced by "[REDACTED]"
}
export interface ResponseInfo extends AttemptInfo {
  readonly httpStatus: number; readonly durationMs: number;
  readonly responseHeaders: Readonly<Record<string, string>>;  // lower-case names; credentials and set-cookie as "[REDACTED]"
}
export interface RetryInfo { readonly operation: "count" | "list"; readonly attempt: number; readonly error: UsersApiError; readonly delayMs: number }
type Maybe<T> = T | void | Promise<T | void>;
export interface Hooks {
  beforeRequest?(info: AttemptInfo): Maybe<{ headers?: HeadersLike }>;  // before each attempt's fetch;
                                                                          // headers merged over that attempt's
  afterResponse?(info: ResponseInfo): Maybe<{ retry?: boolean }>;      // when an attempt's response headers arrived;
                                                                          // retry: make the attempt again (at most
                                                                          // max(1, limit) per call, apart from the policy's)
  beforeRetry?(info: RetryInfo): Maybe<false>;                         // when a failed attempt will be retried after delayMs;
                                                                          // false: do not retry (the call rejects with info.error)
}

export interface ClientOptions {
  baseUrl: string;          // http(s) URL, may carry a path prefix; a trailing slash is optional
  headers?: HeadersOption;  // sent with every call; a function is called before every attempt (token refresh)
  paramsIn?: ParamsIn;      // default "body": JSON object body
  timeoutMs?: number;       // per attempt, from its header function to its last hook; default 10000; 0 means none
  retries?: number | RetryPolicy; // a number is RetryPolicy.limit; see Retries
  maxBodyBytes?: number;    // the most of an answer's body read; default 67108864 (64 MiB); 0 means no limit
  credentials?: "omit" | "same-origin" | "include"; // default "same-origin"
  fetch?: typeof fetch;     // default globalThis.fetch, called unbound
  hooks?: Hooks;            // see Hooks
}
export interface CallOptions {
  signal?: AbortSignal;     // a TimeoutError reason (AbortSignal.timeout) ends the call as kind "timeout"
  timeoutMs?: number;
  retries?: number | RetryPolicy; // overrides the client's for this call (fields not given: the client's)
  headers?: HeadersOption;  // merged over the client's
}
export interface RetryPolicy {
  limit?: number;           // extra attempts after a retryable failure; default 2
  statusCodes?: number[];   // HTTP statuses retried; default [408, 429, 500, 502, 503, 504]
  maxRetryAfterMs?: number; // the longest Retry-After honoured (a longer one is cut to it); default 60000
  backoffLimitMs?: number;  // the longest pause the backoff makes without a Retry-After; default 10000
}

export class UsersClient {
  constructor(options: ClientOptions | string); // a string is the baseUrl
  countUsers(params?: CountParams, options?: CallOptions): Promise<CountEnvelope>;
  // The list's result shape is not in the spec: the caller may name it (as ky's json<T>()).
  listUsers<T = unknown>(params?: ListParams, options?: CallOptions): Promise<Envelope<T>>;
  // Every page from params.page (default 1): stops after a page with fewer than pageSize
  // users, an empty page, or when totalUsers is reached; `break` stops fetching.
  listPages<T extends UserPage = UserPage>(params?: ListParams, options?: CallOptions): AsyncGenerator<Envelope<T>, void, undefined>;
  free(): void;                // releases the wasm side at once (else the GC does); twice is harmless;
                               // a later call rejects with a UsersApiError (kind "validation", param "client") saying so
  [Symbol.dispose](): void;    // the same, for `using client = new UsersClient(...)`
}

// One-shot forms of the same calls.
export function countUsers(baseUrl: string, params?: CountParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<CountEnvelope>;
export function listUsers<T = unknown>(baseUrl: string, params?: ListParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<Envelope<T>>;

export type UsersApiErrorKind =
  "validation" | "network" | "timeout" | "aborted" | "http" | "decode" | "api";

// The client's own retry rule (see Retries), for query libraries and callers: true for a
// network error, a timeout (not the caller's deadline: a TimeoutError cause) and HTTP 408,
// 429, 500, 502, 503, 504; false for any other error and anything that is not a UsersApiError.
// The rule is the .wasm's: before a browser entry has loaded it, a UsersApiError that no call
// made (one constructed by hand) makes it throw a UsersApiError of kind "validation", param
// "init" (an error a call rejected with is always answered: calls wait for the .wasm).
export function isRetryable(error: unknown): boolean;

// What a UsersApiError of any kind has.
export interface UsersApiErrorBase<K extends UsersApiErrorKind = UsersApiErrorKind> extends Error {
  name: "UsersApiError";
  kind: K;
  param?: string;       // validation (always): what is at fault: "active", "query", an unknown key itself,
                        // "params" (not an object), "headers", the option's name ("baseUrl", "timeoutMs", ...),
                        // "init" (no .wasm yet) or "client" (a freed client)
  status?: number;      // the envelope's status, where a body carried one
  httpStatus?: number;  // the HTTP status, where a response arrived
  body?: unknown;       // the parsed body, or its text (cut at 65,536 characters), where a response arrived
  cause?: unknown;      // the underlying JS error (a caller's deadline: the signal's TimeoutError), where there was one
}
// The fields the constructor takes.
export interface UsersApiErrorFields {
  param?: string; status?: number; httpStatus?: number; body?: unknown; cause?: unknown;
}

// Every failure of the client, narrowed by `kind`: after `kind === "http"`, `httpStatus` is a
// number; after "validation", `param` is a string; after "api", `status` is a number.
export type UsersApiError =
  | (UsersApiErrorBase<"validation"> & { param: string })
  | (UsersApiErrorBase<"http"> & { httpStatus: number })
  | (UsersApiErrorBase<"api"> & { status: number })
  | UsersApiErrorBase<"network">
  | UsersApiErrorBase<"timeout">
  | UsersApiErrorBase<"aborted">
  | UsersApiErrorBase<"decode">;

// `instanceof UsersApiError` holds for an error from any copy of the package in the
// same process or page (the ESM and CommonJS entries, a bundled copy, /manual), and
// narrows to the union above (with TypeScript 5.9, the oldest these declarations support).
// Tests and mocks may construct one: new UsersApiError("http", "HTTP 503", { httpStatus: 503 })
// has the kind and the fields given (here `kind: "http"` and `httpStatus: number`), so it is
// a UsersApiError wherever the fields its kind needs were given.
export interface UsersApiErrorConstructor {
  new <K extends UsersApiErrorKind = UsersApiErrorKind, F extends UsersApiErrorFields = {}>(
    kind: K, message: string, fields?: F): UsersApiErrorBase<K> & Given<F>;
  readonly prototype: UsersApiErrorBase;
  // What makes `instanceof` narrow to the union.
  [Symbol.hasInstance](value: unknown): value is UsersApiError;
}
// F as given, never inferred from where the error goes (TypeScript's NoInfer, for any version).
type Given<F> = [F][F extends unknown ? 0 : never];
export declare const UsersApiError: UsersApiErrorConstructor;

// `Symbol.dispose` (UsersClient's [Symbol.dispose] above) is declared by
// TypeScript's esnext.disposable lib, which a project may not include: so
// that the declarations compile under any lib, they declare it too (the
// same declaration, which merges with the lib's where it is included).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
