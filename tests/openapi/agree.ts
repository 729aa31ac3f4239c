// The package's types (npm/index.d.ts) against the types openapi-typescript
// generates from openapi/openapi.json, checked by `tsc --strict` (run by
// types.mjs). Each `const … : Assignable<From, To> = true` compiles only
// while every `From` is a `To`; both directions together mean the two agree.
import type {
  Active,
  CountEnvelope,
  CountParams,
  Envelope,
  ListParams,
} from "user-management-client";
import type { components, paths } from "openapi-document";

type Assignable<From, To> = [From] extends [To] ? true : false;

// In the document's JSON bodies `null` means "not given"; the package's
// types say the same by leaving the property out.
type WithoutNull<T> = { [K in keyof T]: Exclude<T[K], null> };

type JsonBody<Path extends keyof paths> = paths[Path] extends {
  post: { requestBody?: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;
type Answer<Path extends keyof paths> = paths[Path] extends {
  post: { responses: { 200: { content: { "application/json": infer Body } } } };
}
  ? Body
  : never;

type DocCountParams = JsonBody<"/api/users/count">;
type DocListParams = JsonBody<"/api/users">;
type DocCountEnvelope = Answer<"/api/users/count">;
type DocListEnvelope = Answer<"/api/users">;
type UserPage = components["schemas"]["UserPage"];

// `active`: the same three strings.
export const activeToDocument: Assignable<Active, components["schemas"]["Active"]> = true;
export const activeFromDocument: Assignable<components["schemas"]["Active"], Active> = true;

// countUsers' params: `query` and `active`, both ways.
export const countParamsToDocument: Assignable<CountParams, DocCountParams> = true;
export const countParamsFromDocument: Assignable<WithoutNull<DocCountParams>, CountParams> = true;

// listUsers' params: `query` and `active` agree both ways; every body the
// document describes is a ListParams, but for `page` and `pageSize` as
// strings of digits, which the document allows and ListParams types as
// numbers (listUsers still sends a string it is given as it is); and a
// ListParams whose `page` and `pageSize` are what the document allows is a
// body the document describes.
type Named<T extends { query?: unknown; active?: unknown }> = Pick<T, "query" | "active">;
export const listParamsNamedToDocument: Assignable<Named<ListParams>, Named<DocListParams>> = true;
export const listParamsNamedFromDocument: Assignable<WithoutNull<Named<DocListParams>>, Named<ListParams>> = true;
type NumberPages<T> = Omit<T, "page" | "pageSize"> & { page?: number; pageSize?: number };
export const listParamsFromDocument: Assignable<NumberPages<WithoutNull<DocListParams>>, ListParams> = true;
type PagedListParams = ListParams & Pick<WithoutNull<DocListParams>, "page" | "pageSize">;
export const pagedListParamsToDocument: Assignable<PagedListParams, DocListParams> = true;

// The count's envelope. The package types `status` as any number (an
// envelope in general); a call resolves only with 200, the document's
// `status` on success.
export const countEnvelopeFromDocument: Assignable<DocCountEnvelope, CountEnvelope> = true;
export const countEnvelopeToDocument: Assignable<CountEnvelope & { status: 200 }, DocCountEnvelope> = true;

// The list's envelope as a caller types it with the generated shape:
// `listUsers<components["schemas"]["UserPage"]>(…)` resolves with an
// Envelope<UserPage>.
export const listEnvelopeFromDocument: Assignable<DocListEnvelope, Envelope<UserPage>> = true;
export const listEnvelopeToDocument: Assignable<Envelope<UserPage> & { status: 200 }, DocListEnvelope> = true;
