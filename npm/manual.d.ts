// Types of user-management-client/manual: everything the main entry
// exports, and the two functions that hand it the .wasm.
export * from "./index.js";

/** What init() loads the .wasm from: a URL or string is fetched. */
export type InitSource = WebAssembly.Module | BufferSource | Response | PromiseLike<Response> | URL | string;
/** What initSync() instantiates the .wasm from. */
export type InitSyncSource = WebAssembly.Module | BufferSource;

/**
 * Loads and instantiates the .wasm (user-management-client/wasm). Until
 * init() or initSync() has succeeded, every call rejects with a
 * UsersApiError of kind "validation", param "init"; a failed load rejects
 * with one that names the source tried.
 */
export function init(source: InitSource): Promise<void>;
/** The same, synchronously, from a compiled module or the bytes. */
export function initSync(source: InitSyncSource): void;
