// WAVE, the WebAssembly Value Encoding that `wasmtime run --invoke` reads
// and prints: the calls of cases.json written in it, and its printed results
// read back into the JSON shapes jco gives JavaScript (records as objects
// with camelCase keys, enums as strings, `none` as a missing key).

// Labels that WAVE reads as keywords unless written with a leading `%`.
const KEYWORDS = new Set(["true", "false", "some", "none", "ok", "err", "inf", "nan"]);
const label = (name) => (KEYWORDS.has(name) ? `%${name}` : name);

/** A string as a WAVE string literal. */
export function string(text) {
  const escaped = [...text].map((ch) => {
    const code = ch.codePointAt(0);
    if (ch === '"' || ch === "\\" || ch === "'") return `\\${ch}`;
    if (ch === "\n") return "\\n";
    if (ch === "\r") return "\\r";
    if (ch === "\t") return "\\t";
    if (code < 0x20 || code === 0x7f) return `\\u{${code.toString(16)}}`;
    return ch;
  });
  return `"${escaped.join("")}"`;
}

const option = (value, write) => (value === undefined || value === null ? "none" : `some(${write(value)})`);
const record = (fields) => `{${fields.map(([name, value]) => `${name}: ${value}`).join(", ")}}`;

/** The client-options record. */
export function options({ baseUrl, headers = [], timeoutMs, retries, maxBodyBytes }) {
  return record([
    ["base-url", string(baseUrl)],
    ["headers", `[${headers.map(([name, value]) => `(${string(name)}, ${string(value)})`).join(", ")}]`],
    ["timeout-ms", option(timeoutMs, String)],
    ["retries", option(retries, String)],
    ["max-body-bytes", option(maxBodyBytes, String)],
  ]);
}

/** The count-params or list-params record. */
export function params(op, { query, active, page, pageSize }) {
  const fields = [["query", option(query, string)], ["active", option(active, label)]];
  if (op === "list") fields.push(["page", option(page, String)], ["page-size", option(pageSize, String)]);
  return record(fields);
}

/** The `--invoke` expression of one call. */
export function invocation(op, callOptions, callParams) {
  const func = op === "count" ? "count-users" : "list-users";
  return `${func}(${options(callOptions)}, ${params(op, callParams)})`;
}

const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/**
 * One printed WAVE value, as JSON: `ok(x)` and `err(x)` as { ok } and
 * { error }, `some(x)` as x, `none` as undefined, other labels as strings.
 */
export function parse(text) {
  let at = 0;
  const fail = (what) => { throw new Error(`WAVE: ${what} at ${at} of ${JSON.stringify(text)}`); };
  const space = () => { while (/\s/.test(text[at] ?? "")) at += 1; };
  const eat = (token) => {
    space();
    if (!text.startsWith(token, at)) fail(`expected ${token}`);
    at += token.length;
  };
  const peek = (token) => { space(); return text.startsWith(token, at); };
  const items = (close, item) => {
    const out = [];
    while (!peek(close)) {
      out.push(item());
      if (!peek(close)) eat(",");
    }
    eat(close);
    return out;
  };
  const quoted = () => {
    eat('"');
    let out = "";
    for (;;) {
      const ch = text[at++];
      if (ch === undefined) fail("unterminated string");
      if (ch === '"') return out;
      if (ch !== "\\") { out += ch; continue; }
      const next = text[at++];
      if (next === "u") {
        const end = text.indexOf("}", at);
        out += String.fromCodePoint(parseInt(text.slice(at + 1, end), 16));
        at = end + 1;
      } else {
        out += { n: "\n", r: "\r", t: "\t" }[next] ?? next;
      }
    }
  };
  const value = () => {
    space();
    if (peek('"')) return quoted();
    if (peek("[")) { eat("["); return items("]", value); }
    if (peek("(")) { eat("("); return items(")", value); }
    if (peek("{")) {
      eat("{");
      const fields = items("}", () => {
        space();
        const name = text.slice(at).match(/^%?[a-z][a-z0-9-]*/)?.[0] ?? fail("a field name");
        at += name.length;
        eat(":");
        return [camel(name.replace(/^%/, "")), value()];
      });
      return Object.fromEntries(fields.filter(([, field]) => field !== undefined));
    }
    const number = text.slice(at).match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/)?.[0];
    if (number) { at += number.length; return Number(number); }
    const name = text.slice(at).match(/^%?[a-z][a-z0-9-]*/)?.[0] ?? fail("a value");
    at += name.length;
    const bare = name.replace(/^%/, "");
    const payload = peek("(") ? (eat("("), ((inner) => (eat(")"), inner))(value())) : undefined;
    if (name === "none") return undefined;
    if (name === "some") return payload;
    if (name === "true" || name === "false") return name === "true";
    if (name === "ok") return { ok: payload };
    if (name === "err") return { error: payload };
    return payload === undefined ? bare : { [bare]: payload };
  };
  const result = value();
  space();
  if (at !== text.length) fail("trailing text");
  return result;
}
