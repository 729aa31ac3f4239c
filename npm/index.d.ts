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
export interface UserPage { users: User[]; totalUsers: number; page: number; pageSize: number }

export type ParamsIn = "body" | "query" | "form";
// Not named HeadersInit: that name is the DOM's, with another meaning.
export type HeadersOption = Record<string, string>
  | (() => Record<string, string> | Promise<Record<string, string>>);

export interface AttemptInfo {
  operation: "count" | "list";
  url: string;                      // the full request URL (query mode: with its query string)
  attempt: number;                  // 1 for the first attempt
  headers: Record<string, string>;  // as sent, credential values replaced by "[REDACTED]"
}
export interface ResponseInfo extends AttemptInfo { httpStatus: number; durationMs: number }
export interface RetryInfo { operation: "count" | "list"; attempt: number; error: UsersApiError; delayMs: number }
export interface Hooks {
  beforeRequest?(info: AttemptInfo): void;   // before each attempt's fetch
  afterResponse?(info: ResponseInfo): void;  // when an attempt's response headers arrived
  beforeRetry?(info: RetryInfo): void;       // when a failed attempt will be retried after delayMs
}

export interface ClientOptions {
  baseUrl: string;          // http(s) URL, may carry a path prefix; a trailing slash is optional
  headers?: HeadersOption;  // sent with every call; a function is called once per call (token refresh)
  paramsIn?: ParamsIn;      // default "body": JSON object body
  timeoutMs?: number;       // per attempt; default 10000; 0 means none
  retries?: number;         // default 2; see Retries
  maxBodyBytes?: number;    // the most of an answer's body read; default 67108864 (64 MiB); 0 means no limit
  credentials?: "omit" | "same-origin" | "include"; // default "same-origin"
  fetch?: typeof fetch;     // default globalThis.fetch, called unbound
  hooks?: Hooks;            // observers; see Hooks
}
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>; // merged over the client's
}

export class UsersClient {
  constructor(options: ClientOptions | string); // a string is the baseUrl
  countUsers(params?: CountParams, options?: CallOptions): Promise<CountEnvelope>;
  // The list's result shape is not in the spec: the caller may name it (as ky's json<T>()).
  listUsers<T = unknown>(params?: ListParams, options?: CallOptions): Promise<Envelope<T>>;
  // Every page from params.page (default 1): stops after a page with fewer than pageSize
  // users, an empty page, or when totalUsers is reached; `break` stops fetching.
  listPages<T extends UserPage = UserPage>(params?: ListParams, options?: CallOptions): AsyncIterable<Envelope<T>>;
  free(): void;                // releases the wasm side at once (else the GC does); twice is harmless;
                               // a later call rejects with a UsersApiError (kind "validation") saying so
  [Symbol.dispose](): void;    // the same, for `using client = new UsersClient(...)`
}

// One-shot forms of the same calls.
export function countUsers(baseUrl: string, params?: CountParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<CountEnvelope>;
export function listUsers<T = unknown>(baseUrl: string, params?: ListParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<Envelope<T>>;

export type UsersApiErrorKind =
  "validation" | "network" | "timeout" | "aborted" | "http" | "decode" | "api";

// `instanceof UsersApiError` holds for an error from any copy of the package in the
// same process or page (the ESM and CommonJS entries, a bundled copy, /manual).
// Tests and mocks may construct one: new UsersApiError("http", "HTTP 503", { httpStatus: 503 }).
export class UsersApiError extends Error {
  constructor(kind: UsersApiErrorKind, message: string, fields?: {
    param?: string; status?: number; httpStatus?: number; body?: unknown; cause?: unknown });
  name: "UsersApiError";
  kind: UsersApiErrorKind;
  param?: string;       // validation: what is at fault: "active", "query", an unknown key itself,
                        // "params" (not an object), "headers", or the option's name ("baseUrl", "timeoutMs", ...)
  status?: number;      // the envelope's status, where a body carried one
  httpStatus?: number;  // the HTTP status, where a response arrived
  body?: unknown;       // the parsed body, or its text (cut at 65,536 characters), where a response arrived
  cause?: unknown;      // the underlying JS error, where there was one
}

// `Symbol.dispose` (UsersClient's [Symbol.dispose] above) is declared by
// TypeScript's esnext.disposable lib, which a project may not include: so
// that the declarations compile under any lib, they declare it too (the
// same declaration, which merges with the lib's where it is included).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
