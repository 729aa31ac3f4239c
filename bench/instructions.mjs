// Instructions per call, counted by valgrind's callgrind: every instruction
// the process executes, on every thread (V8's compiler and GC threads
// included), the same count however busy the machine is. Each contender of
// bench/lib.mjs's countContenders runs in a process of its own under
// callgrind, once for `short` calls and once for `long`, after the same
// warm-up; the difference divided by `long - short` is what a call costs
// once its code is compiled (start-up, warm-up and tier-up cancel out).
// Where the wall-clock ratios of `make bench` move by several percent from
// run to run on this shared machine, these move by about one. Not part of
// `make test` or `make bench`: valgrind is not among set-up's installs.
//   node bench/instructions.mjs [short] [long]    (after `make build`)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { glue } from "../tests/lib/harness.mjs";
import { cannedServer, countContenders } from "./lib.mjs";

const WARM_UP = 300;
const [mode, ...args] = process.argv.slice(2);

if (mode === "--child") {
  // One contender, `calls` calls after the warm-up, against the server at `url`.
  const [url, name, calls] = args;
  const { lib } = await glue();
  const call = (await countContenders(lib, url))[name];
  for (let i = 0; i < WARM_UP + Number(calls); i++) await call();
} else {
  const short = Number(mode ?? 1000);
  const long = Number(args[0] ?? 3000);
  const { url, stop } = await cannedServer();
  const self = fileURLToPath(import.meta.url);
  const counted = (name, calls) => {
    const run = spawnSync(
      "valgrind",
      ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, self, "--child", url, name, String(calls)],
      { encoding: "utf8", stdio: ["ignore", "inherit", "pipe"] },
    );
    const collected = run.stderr?.match(/Collected : (\d+)/);
    if (run.status !== 0 || !collected) throw new Error(`${name}, ${calls} calls: ${run.error ?? run.stderr}`);
    return Number(collected[1]);
  };
  console.log(`Node.js ${process.version}: instructions per call, (${long} calls - ${short} calls) / ${long - short}`);
  const per = {};
  for (const name of ["timed", "raw", "floor", "client", "oneShot", "withHooks"]) {
    per[name] = (counted(name, long) - counted(name, short)) / (long - short);
    console.log(`${name.padEnd(10)} ${Math.round(per[name]).toLocaleString("en").padStart(10)}   / the timed fetch ${(per[name] / per.timed).toFixed(3)}`);
  }
  console.log(JSON.stringify({ node: process.version, short, long, perCall: per }));
  stop();
}
