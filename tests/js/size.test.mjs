// The size budget: what a browser downloads for the web target — the .wasm,
// the JS glue, the snippets it imports and the gate (pkg/web/) — each
// gzipped at level 9, must stay within BUDGET_BYTES. Size is deterministic
// for a given toolchain, so unlike speed it is a proper test. Lower the
// budget when the package shrinks; raising it is a decision to write down
// in the README, with the measurement behind it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pkg } from "../lib/harness.mjs";

const BUDGET_BYTES = 53_175;

const web = join(pkg, "web/");

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test("the web target's download fits the size budget", () => {
  const shipped = files(web).filter((f) => /\.(wasm|js)$/.test(f));
  assert.ok(shipped.some((f) => f.endsWith(".wasm")), "no .wasm in pkg/web: run make build");
  let total = 0;
  for (const file of shipped) {
    const gz = gzipSync(readFileSync(file), { level: 9 }).length;
    console.log(`${file.slice(web.length)}: ${statSync(file).size} B raw, ${gz} B gzip -9`);
    total += gz;
  }
  console.log(`total: ${total} B gzip -9 (budget ${BUDGET_BYTES} B)`);
  assert.ok(total <= BUDGET_BYTES, `${total} B gzipped is over the budget of ${BUDGET_BYTES} B`);
});

// The book's one page of sizes (docs/src/size.md) states this budget: a
// change of the budget without the page fails here.
test("the book's size page names this budget", () => {
  const page = readFileSync(new URL("../../docs/src/size.md", import.meta.url), "utf8");
  const budget = `${BUDGET_BYTES.toLocaleString("en-US")} B`;
  assert.ok(page.includes(budget), `docs/src/size.md does not name the budget, ${budget}`);
});
