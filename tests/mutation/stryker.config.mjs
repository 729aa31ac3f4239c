// StrykerJS for make mutants (scripts/mutants-js.sh): one run per file the
// package ships as JavaScript written by hand, MUTATE naming it and TESTS
// the node:test files of tests/js that load it (space-separated). Every
// mutant is in the file at once, switched by __STRYKER_ACTIVE_MUTANT__
// (the command runner's way): tests/mutation/run.sh builds the package
// from the instrumented sources once, then each run is `node --test` of
// TESTS against it. The sandbox holds only what that build and those tests
// read; the .wasm is the one `make build` made (MUTANTS_REPO).
const mutate = process.env.MUTATE;
const name = process.env.MUTANTS_GROUP;
if (!mutate || !name || !process.env.TESTS) throw new Error("MUTATE, MUTANTS_GROUP and TESTS are required (scripts/mutants-js.sh)");

export default {
  testRunner: "command",
  commandRunner: { command: `bash tests/mutation/run.sh ${process.env.TESTS}` },
  coverageAnalysis: "off",
  mutate: [mutate],
  ignorePatterns: [
    "/*",
    "!/Cargo.toml", "!/LICENSE-MIT", "!/LICENSE-APACHE", "!/package.json",
    "!/npm", "!/js", "/js/tests", "!/src", "!/docs", "/docs/*", "!/docs/src",
    "!/tests", "/tests/*", "!/tests/js", "!/tests/lib", "!/tests/mutation", "/tests/mutation/node_modules",
    "!/tests/node-lines", "/tests/node-lines/*", "!/tests/node-lines/package.json",
  ],
  concurrency: 1,
  timeoutMS: 60000,
  tempDirName: "target/stryker-tmp",
  cleanTempDir: true,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: `target/mutants-report/${name}/mutation.json` },
  thresholds: { high: 95, low: 90, break: null },
};
