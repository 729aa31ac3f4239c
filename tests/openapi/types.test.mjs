// The package's types agree with the document: openapi-typescript generates
// types from openapi/openapi.json, and `tsc --strict` (the repository's
// TypeScript) checks agree.ts against them and npm/index.d.ts. Then, as
// controls, the document is broken in ways the assertions must notice, and
// tsc must fail on exactly the assertions each break concerns.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const work = join(repo, "target", "openapi-types");
const tsc = join(repo, "node_modules", ".bin", "tsc");
const agree = join(here, "agree.ts");
const documentText = readFileSync(join(repo, "openapi", "openapi.json"), "utf8");

// Line number of each `export const NAME` in agree.ts, to name failures.
const assertionAt = new Map(
  readFileSync(agree, "utf8").split("\n").flatMap((line, i) => {
    const name = /^export const (\w+)/.exec(line)?.[1];
    return name ? [[i + 1, name]] : [];
  }),
);

// Generates the types of `doc` into target/openapi-types/NAME and runs tsc on
// agree.ts against them; returns the names of the assertions that fail.
async function failingAssertions(name, doc) {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(doc)));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: "es2022", module: "esnext",
      moduleResolution: "bundler", lib: ["es2022", "dom"], types: [],
      paths: {
        "user-management-client": [relative(dir, join(repo, "npm", "index.d.ts"))],
        "openapi-document": ["./api.d.ts"],
      },
    },
    files: [relative(dir, agree)],
  }, null, 2));
  let output = "";
  try {
    execFileSync(tsc, ["-p", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    output = `${error.stdout}${error.stderr}`;
    assert.ok(output, `tsc failed without a message (exit ${error.status})`);
  }
  const failing = new Set();
  for (const match of output.matchAll(/agree\.ts\((\d+),\d+\): error (TS\d+: .*)/g)) {
    const assertion = assertionAt.get(Number(match[1]));
    assert.ok(assertion, `tsc error outside the assertions: ${match[0]}`);
    failing.add(assertion);
  }
  assert.equal(output.trim() === "", failing.size === 0, `tsc said:\n${output}`);
  return [...failing].sort();
}

const fresh = () => JSON.parse(documentText);

test("the package's types and the document's agree", async () => {
  assert.deepEqual(await failingAssertions("document", fresh()), []);
});

// Each control: a change to the document, and the assertions it must break.
const controls = [
  {
    name: "active-without-false",
    change: (doc) => { doc.components.schemas.Active.enum = ["all", "true"]; },
    breaks: ["activeToDocument", "countParamsToDocument", "listParamsNamedToDocument", "pagedListParamsToDocument"],
  },
  {
    name: "query-a-number",
    change: (doc) => { doc.components.schemas.Query = { type: "integer" }; },
    breaks: ["countParamsFromDocument", "countParamsToDocument", "listParamsFromDocument",
      "listParamsNamedFromDocument", "listParamsNamedToDocument", "pagedListParamsToDocument"],
  },
  {
    name: "total-a-string",
    change: (doc) => { doc.components.schemas.CountResult.properties.totalUsers = { type: "string" }; },
    breaks: ["countEnvelopeFromDocument", "countEnvelopeToDocument"],
  },
  {
    name: "list-result-an-array",
    change: (doc) => {
      doc.components.schemas.ListEnvelope.properties.result = { type: "array", items: { $ref: "#/components/schemas/User" } };
    },
    breaks: ["listEnvelopeFromDocument", "listEnvelopeToDocument"],
  },
];

for (const { name, change, breaks } of controls) {
  test(`control: the document with ${name} breaks ${breaks.join(", ")}`, async () => {
    const doc = fresh();
    change(doc);
    assert.deepEqual(await failingAssertions(name, doc), [...breaks].sort());
  });
}
