// The only JS the client needs written by hand: a class that `extends Error`
// (so `instanceof UsersApiError` and `instanceof Error` both hold), which
// Rust cannot declare. js/src/error.rs constructs it; everything else (fetch,
// timers, abort, retries, redaction) is Rust.

/** Every failure of the client. See the README for the kinds. */
export class UsersApiError extends Error {
  constructor(kind, message, param, status, httpStatus, body, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    if (param !== undefined) this.param = param;
    if (status !== undefined) this.status = status;
    if (httpStatus !== undefined) this.httpStatus = httpStatus;
    if (body !== undefined) this.body = body;
    if (cause !== undefined && this.cause !== cause) this.cause = cause;
  }
}
Object.defineProperty(UsersApiError.prototype, "name", {
  value: "UsersApiError",
  writable: true,
  configurable: true,
});
