// Shortens the names the `.wasm` imports its JS functions by. wasm-bindgen
// names each import `__wbg_<name>_<16 hex digits>` under the module
// "./user_management_client_bg.js"; both names are written into the
// `.wasm` (once per import) and into the glue's imports object, and random
// hex does not compress: about 1 KB of the gzipped download (bench/).
// Emscripten's `--minify-imports` does the same. Only the import section
// and the glue's object keys change; the exports, which the glue's types
// (`InitOutput`) name, keep their names.
//
// The import section's layout: https://webassembly.github.io/spec/core/binary/modules.html#import-section

const IMPORT_SECTION = 2;

/** Returns `{ wasm, glue }` with every import of `module` renamed to a short
 *  name, the module itself to "a" (any other module to "b", "c", ...), and
 *  the glue's keys to match. Throws if the glue does not name an import
 *  exactly once, so a change in wasm-bindgen's output fails the build
 *  instead of the first call. */
export function shortenImportNames(wasm, glue, module) {
  const sections = readSections(wasm);
  const imports = sections.find((s) => s.id === IMPORT_SECTION);
  if (!imports) throw new Error("short-names: the .wasm has no import section");
  const renamed = [];
  // Another module (the snippet's, whose functions are imported directly
  // by their export names) keeps its field names; only the module name is
  // shortened.
  const others = new Map();
  const body = rewriteImports(imports.payload, (mod, name) => {
    if (mod !== module) {
      if (!others.has(mod)) others.set(mod, shortName(others.size + 1));
      return [others.get(mod), name];
    }
    const short = shortName(renamed.length);
    renamed.push([name, short]);
    return ["a", short];
  });
  if (renamed.length === 0) throw new Error(`short-names: no import of ${module}`);
  imports.payload = body;

  for (const [name, short] of renamed) {
    const key = new RegExp(`\\b${name}: function\\b`, "g");
    const found = glue.match(key)?.length ?? 0;
    if (found !== 1) throw new Error(`short-names: the glue names import ${name} ${found} times, not once`);
    glue = glue.replace(key, `${short}: function`);
  }
  const moduleKey = `${JSON.stringify(module)}: import0`;
  if (glue.split(moduleKey).length !== 2) throw new Error(`short-names: the glue's imports object is not keyed ${moduleKey}`);
  glue = glue.replace(moduleKey, '"a": import0');
  for (const [mod, short] of others) {
    const key = new RegExp(`${escapeRegExp(JSON.stringify(mod))}(: import\\d+,)`, "g");
    if (!key.test(glue)) throw new Error(`short-names: the glue's imports object has no key ${mod}`);
    glue = glue.replace(key, `"${short}"$1`);
  }
  return { wasm: writeSections(wasm.subarray(0, 8), sections), glue };
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** "a".."z", then "aa", "ab", ...: identifiers, so bare object keys. */
function shortName(i) {
  let name = "";
  do {
    name = String.fromCharCode(97 + (i % 26)) + name;
    i = Math.floor(i / 26) - 1;
  } while (i >= 0);
  return name;
}

function readSections(wasm) {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (!magic.every((b, i) => wasm[i] === b)) throw new Error("short-names: not a wasm module (version 1)");
  const sections = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const size = readLeb(wasm, at + 1);
    const start = size.end;
    sections.push({ id, payload: wasm.subarray(start, start + size.value) });
    at = start + size.value;
  }
  if (at !== wasm.length) throw new Error("short-names: the last section runs past the end");
  return sections;
}

function writeSections(header, sections) {
  const parts = [header];
  for (const { id, payload } of sections) parts.push(Uint8Array.of(id), writeLeb(payload.length), payload);
  return Buffer.concat(parts);
}

/** Copies an import section, passing each (module, name) through `rename`. */
function rewriteImports(payload, rename) {
  const text = new TextDecoder("utf-8", { fatal: true });
  const out = [];
  const count = readLeb(payload, 0);
  out.push(writeLeb(count.value));
  let at = count.end;
  const readName = () => {
    const len = readLeb(payload, at);
    const name = text.decode(payload.subarray(len.end, len.end + len.value));
    at = len.end + len.value;
    return name;
  };
  for (let i = 0; i < count.value; i++) {
    const [mod, name] = rename(readName(), readName());
    const descStart = at;
    at = skipImportDesc(payload, at);
    out.push(encodeName(mod), encodeName(name), payload.subarray(descStart, at));
  }
  if (at !== payload.length) throw new Error("short-names: the import section has trailing bytes");
  return Buffer.concat(out);
}

/** The end of one import's description (function, table, memory, global, tag). */
function skipImportDesc(bytes, at) {
  const kind = bytes[at++];
  const limits = (p) => {
    const flags = bytes[p++];
    p = readLeb(bytes, p).end;
    return flags & 1 ? readLeb(bytes, p).end : p;
  };
  switch (kind) {
    case 0x00: return readLeb(bytes, at).end; // function: type index
    case 0x01: return limits(at + 1); // table: reference type, limits
    case 0x02: return limits(at); // memory: limits
    case 0x03: return at + 2; // global: value type, mutability
    case 0x04: return readLeb(bytes, at + 1).end; // tag: attribute, type index
    default: throw new Error(`short-names: unknown import kind ${kind}`);
  }
}

function encodeName(name) {
  const bytes = new TextEncoder().encode(name);
  return Buffer.concat([writeLeb(bytes.length), bytes]);
}

function readLeb(bytes, at) {
  let value = 0, shift = 0, byte;
  do {
    if (at >= bytes.length) throw new Error("short-names: a LEB128 number runs past the end");
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return { value, end: at };
}

function writeLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Uint8Array.from(out);
}
