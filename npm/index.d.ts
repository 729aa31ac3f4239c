// Types of user-management-client. This file restates the public contract
// (shared/contract.md) exactly; tests/types/contract.ts checks it with
// `tsc --strict`, including the calls it must refuse.

export type Active = "all" | "true" | "false";

export interface CountParams { query?: string; active?: Active | boolean }
export interface ListParams  { query?: string; active?: Active | boolean; [param: string]: unknown }

export interface Envelope<T> { status: number; result: T }
export interface CountResult { totalUsers: number }
export type CountEnvelope = Envelope<CountResult>;
export type ListEnvelope  = Envelope<unknown>;

export type ParamsIn = "body" | "query" | "form";
export type HeadersInit = Record<string, string>
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
  headers?: HeadersInit;    // sent with every call; a function is called once per call (token refresh)
  paramsIn?: ParamsIn;      // default "body": JSON object body
  timeoutMs?: number;       // per attempt; default 10000; 0 means none
  retries?: number;         // default 2; see Retries
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
  listUsers(params?: ListParams, options?: CallOptions): Promise<ListEnvelope>;
}

// One-shot forms of the same calls.
export function countUsers(baseUrl: string, params?: CountParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<CountEnvelope>;
export function listUsers(baseUrl: string, params?: ListParams,
  options?: Omit<ClientOptions, "baseUrl"> & CallOptions): Promise<ListEnvelope>;

export class UsersApiError extends Error {
  name: "UsersApiError";
  kind: "validation" | "network" | "timeout" | "aborted" | "http" | "decode" | "api";
  param?: string;       // validation: what is at fault: "active", "query", an unknown key itself,
                        // "params" (not an object), "headers", or the option's name ("baseUrl", "timeoutMs", ...)
  status?: number;      // the envelope's status, where a body carried one
  httpStatus?: number;  // the HTTP status, where a response arrived
  body?: unknown;       // the parsed body, or its text (cut at 65,536 characters), where a response arrived
  cause?: unknown;      // the underlying JS error, where there was one
}
