// The component's size budget: target/component/user-management-client.wasm
// (`make component`), raw and gzipped with GNU `gzip -9`, as
// docs/src/size.md measures it, must stay within these bytes. Size is
// deterministic for a given toolchain: lower the budget when the component
// shrinks; raising it is a decision to write down, with the measurement.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { repo } from "../lib/harness.mjs";

const RAW_BUDGET = 311_269;
const GZIP_BUDGET = 121_179;

const wasm = join(repo, "target/component/user-management-client.wasm");

test("the component fits its size budget", (t) => {
  const raw = statSync(wasm).size;
  const gzipped = execFileSync("gzip", ["-9", "-c", wasm], { maxBuffer: 16 << 20 }).length;
  t.diagnostic(`${raw} B raw (budget ${RAW_BUDGET} B), ${gzipped} B gzip -9 (budget ${GZIP_BUDGET} B)`);
  assert.ok(raw <= RAW_BUDGET, `${raw} B raw is over the budget of ${RAW_BUDGET} B`);
  assert.ok(gzipped <= GZIP_BUDGET, `${gzipped} B gzipped is over the budget of ${GZIP_BUDGET} B`);
});

// docs/src/size.md names both budgets.
test("the book's size page names the component's budget", () => {
  const page = readFileSync(join(repo, "docs/src/size.md"), "utf8");
  for (const budget of [RAW_BUDGET, GZIP_BUDGET]) {
    const shown = `${budget.toLocaleString("en-US")} B`;
    assert.ok(page.includes(shown), `docs/src/size.md does not name ${shown}`);
  }
});
