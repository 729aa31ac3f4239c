// The README's "Where it runs": its two tables, "Tested" and "Expected to
// work, not tested", each with rows; every repository path a row names in
// backquotes (examples/…, tests/…, scripts/…, wit/…) exists; and every
// example a "Tested" row names is run by a test or script that row names.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const section = readme.match(/^## Where it runs\n([\s\S]*?)^## /m)?.[1];
const problems = [];
if (!section) problems.push('README.md has no "## Where it runs" section');

const table = (title) => {
  const text = section?.match(new RegExp(`^### ${title}\\n([\\s\\S]*?)(?=^### |$(?![\\s\\S]))`, "m"))?.[1] ?? "";
  // The first table under the heading: its contiguous lines, less the header and the rule.
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const after = lines.findIndex((line, i) => i > first && !line.startsWith("|"));
  const block = first < 0 ? [] : lines.slice(first, after < 0 ? lines.length : after);
  const rows = block.filter((line) => !/^\|[-| :]+\|$/.test(line)).slice(1);
  if (!rows.length) problems.push(`README.md: no rows under "### ${title}"`);
  return rows;
};
const tested = table("Tested");
const expected = table("Expected to work, not tested");

const paths = (row) => [...row.matchAll(/`((?:examples|tests|scripts|wit)\/[^`\s]*)`/g)].map((m) => m[1]);
for (const row of [...tested, ...expected]) {
  for (const path of paths(row)) if (!existsSync(join(root, path))) problems.push(`README.md names ${path}, which does not exist`);
}
for (const row of tested) {
  const named = paths(row);
  const runners = named.filter((path) => /^(tests|scripts)\//.test(path) && existsSync(join(root, path)));
  const sources = runners.flatMap((path) => {
    const full = join(root, path);
    return path.endsWith("/") ? [] : [readFileSync(full, "utf8")];
  });
  for (const example of named.filter((path) => path.startsWith("examples/"))) {
    const name = example.replace(/^examples\//, "").replace(/\/$/, "");
    if (runners.length && !runners.some((path) => path.endsWith("/")) &&
        !sources.some((text) => text.includes(`examples/${name}`) || text.includes(`"${name}"`))) {
      problems.push(`README.md: ${example} is in the Tested table, but ${runners.join(", ")} does not name it`);
    }
  }
}

if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`where-it-runs: ${tested.length} tested rows, ${expected.length} expected-only rows; every path named exists`);
