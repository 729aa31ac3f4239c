// Type test of user-management-client/manual and /wasm (manual.d.ts or
// manual.d.cts, wasm.d.ts or wasm.d.cts), compiled with `tsc --noEmit
// --strict` by `make smoke` under each resolver, beside contract.ts. Each
// `@ts-expect-error` line is a use the declarations must refuse.
import {
  init,
  initSync,
  countUsers,
  listUsers,
  UsersClient,
  UsersApiError,
  type InitSource,
  type InitSyncSource,
  type CountEnvelope,
  type ListEnvelope,
  type ClientOptions,
  type Envelope,
  type HeadersOption,
  type UsersApiErrorKind,
} from "user-management-client/manual";
import wasm from "user-management-client/wasm";

export async function loads(bytes: Uint8Array, buffer: ArrayBuffer, response: Response, url: URL): Promise<number> {
  const module: WebAssembly.Module = wasm;
  initSync(module);
  initSync(bytes);
  initSync(buffer);
  const done: Promise<void> = init(module);
  await done;
  await init(bytes);
  await init(buffer);
  await init(response);
  await init(fetch(url));
  await init(url);
  await init("https://cdn.example/user_management_client_bg.wasm");
  const sources: InitSource[] = [module, bytes, response, Promise.resolve(response), url, "x.wasm"];
  const syncSources: InitSyncSource[] = [module, bytes, buffer];

  // Everything the main entry exports, with its types.
  const options: ClientOptions = { baseUrl: "http://127.0.0.1:8080", retries: 0 };
  const count: CountEnvelope = await countUsers("http://127.0.0.1:8080", { active: "true" });
  const list: ListEnvelope = await listUsers("http://127.0.0.1:8080", { page: 2 });
  const headers: HeadersOption = () => ({ Authorization: "Bearer t" });
  const client = new UsersClient({ ...options, headers });
  await client.countUsers({ active: false });
  const named: Envelope<{ totalUsers: number }> = await client.listUsers<{ totalUsers: number }>();
  client[Symbol.dispose]();
  const mock: UsersApiErrorKind = new UsersApiError("timeout", "timed out", { cause: new Error("x") }).kind;
  void [named, mock];
  try {
    await countUsers("http://127.0.0.1:8080");
  } catch (err) {
    if (err instanceof UsersApiError) {
      const param: string | undefined = err.param;
      void param;
    }
  }

  // TypeScript's WebAssembly.Module is an empty interface, so every value
  // but null and undefined passes where a Module may: the declarations
  // cannot refuse a URL given to initSync; the call refuses it at run time
  // (tests/js/manual.test.mjs). What they can refuse:
  // @ts-expect-error: init needs its source
  await init();
  // @ts-expect-error: nor may it be undefined
  initSync(undefined);
  // @ts-expect-error: init resolves to nothing
  const nothing: WebAssembly.Instance = await init(bytes);
  // @ts-expect-error: the .wasm is a compiled module, not its URL
  const path: string = wasm;
  // @ts-expect-error: the manual entry's calls keep the contract's types
  await countUsers("http://x", { active: "yes" });

  void [sources, syncSources, list, nothing, path];
  return count.result.totalUsers;
}
