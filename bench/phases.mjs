// Where a sequential call's time goes, against the canned server: for the
// client (with params, with an empty params object, without params) and
// for the platform's share (bridge.js's attempt step alone), the time from
// the call to its `fetch`, from `fetch` to the response, and from the
// response to the caller's `await` resuming, each summed over calls made
// in turn (one of each, the order rotating), so that the machine's drift
// falls on all alike. The `fetch` option of each is the global `fetch`,
// wrapped to note the two moments. Prints one line per contender.
//   node bench/phases.mjs [calls]      (after `make build`)
import { glue } from "../tests/lib/harness.mjs";
import { cannedServer, platformShare } from "./lib.mjs";

const { url, stop } = await cannedServer();
const { lib } = await glue();
let fetched = 0;
let answered = 0;
const noted = (input, init) => {
  fetched = performance.now();
  return fetch(input, init).then((response) => {
    answered = performance.now();
    return response;
  });
};
const client = new lib.UsersClient({ baseUrl: url, fetch: noted });
const share = await platformShare(url, noted);
const contenders = {
  "the platform's share": share,
  "countUsers({ active: \"true\" })": () => client.countUsers({ active: "true" }),
  "countUsers({})": () => client.countUsers({}),
  "countUsers()": () => client.countUsers(),
};
const names = Object.keys(contenders);
const calls = Object.values(contenders);
for (let i = 0; i < 1000; i++) for (const call of calls) await call();
const sums = names.map(() => [0, 0, 0]);
const n = Number(process.argv[2] ?? 5000);
for (let i = 0; i < n; i++) {
  for (let j = 0; j < calls.length; j++) {
    const k = (i + j) % calls.length;
    const started = performance.now();
    await calls[k]();
    const resumed = performance.now();
    sums[k][0] += fetched - started;
    sums[k][1] += answered - fetched;
    sums[k][2] += resumed - answered;
  }
}
stop();
console.log(`Node.js ${process.version}, ${n} calls each; µs per call: to fetch / fetch to response / response to the caller`);
const us = (ms) => ((ms / n) * 1000).toFixed(1).padStart(7);
for (let k = 0; k < names.length; k++) console.log(`${names[k].padEnd(34)} ${sums[k].map(us).join(" / ")}`);
