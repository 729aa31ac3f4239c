#!/usr/bin/env python3
"""Writes mutants.md's score table from the mutation runs' reports, and
checks its survivor lists against them.

Reads target/mutants-report/GROUP/ for each group that has a report:
cargo-mutants' mutants.out/outcomes.json for the native groups
(scripts/mutants.sh) and the wasm32 ones (scripts/mutants-wasm.sh), and
StrykerJS's mutation.json for the JavaScript files (scripts/mutants-js.sh).
It replaces the text between mutants.md's two table markers with one row
per mutated file, a subtotal per group (a sampled run says which shard it
was: the file `sample` beside the report) and a total, each group dated by
its run (a group's mutants run again later, in GROUP-recheck, take their
later outcomes). A missed mutant is "equivalent" or "not native" when mutants.md
lists it in the ```text equivalent``` or ```text not native``` block, and
counts as caught when it lists it in ```text caught since``` (a test added
after the run, seen catching it in a run of its own); each keyed by file, line and mutation (cargo-mutants' name without the column;
Stryker's `file:LINE: Mutator -> replacement`, the replacement's first
line). Exits 1 when a missed mutant is in neither block, or when a block
lists a mutant of a reported file that did not survive (caught since, or
moved), but for a sampled group, which may not have drawn it.
"""
import json
import re
import sys
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "mutants.md"
REPORTS = ROOT / "target" / "mutants-report"
GROUPS = {
    "rest": "model, errors, options, host, plain and native transports",
    "loop": "the call machine and its driver",
    "rules": "`src/rules/`",
    "fetch": "the fetch transport, by the wasm suite in Node",
    "js": "the JS layer, by the wasm suite in Node",
    "wasi": "the WASI transport, by its unit tests in wasmtime",
    "js-query": "`npm/query.js`, StrykerJS",
    "js-gate": "`npm/gate.js`, StrykerJS",
    "js-snippet": "`js/snippet.js`, StrykerJS",
    "js-bridge": "`src/transport/fetch/bridge.js`, StrykerJS",
}
# StrykerJS's statuses as the table counts them; the rest are missed.
STRYKER = {"Killed": "caught", "Timeout": "timeout", "CompileError": "unviable", "RuntimeError": "caught"}
START = "<!-- mutants table: written by scripts/mutants_table.py -->"
END = "<!-- end of the mutants table -->"
COLUMNS = ("mutants", "unviable", "caught", "timeout", "equivalent", "not native", "unexplained")


def key(name):
    """cargo-mutants' name without the column: `src/x.rs:LINE: replace ...`."""
    return re.sub(r"^([^:]+:\d+):\d+: ", r"\1: ", name)


def listed(text, block):
    found = re.search(rf"^```text {block}\n(.*?)^```$", text, re.M | re.S)
    if not found:
        sys.exit(f"mutants_table: mutants.md has no ```text {block}``` block")
    return {line.strip() for line in found.group(1).splitlines() if line.strip()}


def judged(row):
    """The mutants a native test can judge."""
    return row["mutants"] - row["unviable"] - row["not native"]


def percent(part, row):
    return f"{100 * part / judged(row):.1f} %" if judged(row) else "n/a"


def score(row):
    return percent(row["caught"] + row["timeout"], row)


def line(label, row):
    cells = " | ".join(str(row[column]) for column in COLUMNS)
    return f"| {label} | {cells} | {score(row)} |"


def add_rows(rows, per_file):
    """A row per file of a group, and the group's subtotal."""
    subtotal = defaultdict(int)
    for file in sorted(per_file):
        rows.append(line(f"`{file}`", per_file[file]))
        for column in COLUMNS:
            subtotal[column] += per_file[file][column]
    return subtotal


def main():
    text = BOOK.read_text()
    equivalent, not_native = listed(text, "equivalent"), listed(text, "not native")
    caught_since = listed(text, "caught since")
    rows, problems, files_seen, missed_keys = [], [], set(), set()
    total = defaultdict(int)
    sampled_files = set()
    # A listed survivor that timed out is no contradiction: which side of
    # the limit a slow run lands on moves with the machine's load.
    timed_out = set()
    versions = {}
    for group, what in GROUPS.items():
        report = REPORTS / group / "mutants.out" / "outcomes.json"
        stryker = REPORTS / group / "mutation.json"
        if not report.exists() and not stryker.exists():
            continue
        per_file = defaultdict(lambda: defaultdict(int))
        sample = REPORTS / group / "sample"
        sampled = f"shard {sample.read_text().strip()}, " if sample.exists() else ""

        def missed(name, row):
            missed_keys.add(name)
            if name in caught_since:
                row["caught"] += 1
            elif name in equivalent:
                row["equivalent"] += 1
            elif name in not_native:
                row["not native"] += 1
            else:
                row["unexplained"] += 1
                problems.append(f"survives, and mutants.md does not list it: {name}")

        if stryker.exists():
            data = json.loads(stryker.read_text())
            skipped_at = REPORTS / group / "skipped"
            skipped = set(skipped_at.read_text().split()) if skipped_at.exists() else set()
            for file, found in data["files"].items():
                file = str(Path(file).resolve().relative_to(ROOT)) if Path(file).is_absolute() else file
                files_seen.add(file)
                if sampled:
                    sampled_files.add(file)
                for mutant in found["mutants"]:
                    if str(mutant["id"]) in skipped:
                        continue  # not drawn by a sampled run
                    row = per_file[file]
                    row["mutants"] += 1
                    column = STRYKER.get(mutant["status"])
                    if column:
                        row[column] += 1
                    else:
                        replacement = (mutant.get("replacement") or "").splitlines()[0:1]
                        name = f"{file}:{mutant['location']['start']['line']}: {mutant['mutatorName']}"
                        missed(f"{name} -> {''.join(replacement)}", row)
            versions["StrykerJS"] = data.get("framework", {}).get("version", "")
            took_at = REPORTS / group / "seconds"
            started = datetime.fromtimestamp(stryker.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d")
            subtotal = add_rows(rows, per_file)
            took = f", {int(took_at.read_text()) // 60} min" if took_at.exists() else ""
            rows.append(line(f"**`{group}`** ({what}; {sampled}run {started}{took})", subtotal))
            for column in COLUMNS:
                total[column] += subtotal[column]
            continue
        data = json.loads(report.read_text())
        # A later run of some of the group's mutants (GROUP-recheck: after a
        # test was added or fixed) gives their outcomes instead.
        recheck = REPORTS / f"{group}-recheck" / "mutants.out" / "outcomes.json"
        if recheck.exists():
            later = {
                o["scenario"]["Mutant"]["name"]: o
                for o in json.loads(recheck.read_text())["outcomes"]
                if isinstance(o["scenario"], dict)
            }
            data["outcomes"] = [
                later.get(o["scenario"]["Mutant"]["name"], o) if isinstance(o["scenario"], dict) else o
                for o in data["outcomes"]
            ]
        for outcome in data["outcomes"]:
            mutant = outcome["scenario"]
            if not isinstance(mutant, dict):
                continue  # the unmutated baseline
            mutant = mutant["Mutant"]
            row = per_file[mutant["file"]]
            files_seen.add(mutant["file"])
            if sampled:
                sampled_files.add(mutant["file"])
            row["mutants"] += 1
            summary = outcome["summary"]
            if summary == "Unviable":
                row["unviable"] += 1
            elif summary == "CaughtMutant":
                row["caught"] += 1
            elif summary == "Timeout":
                row["timeout"] += 1
                timed_out.add(key(mutant["name"]))
            elif summary == "MissedMutant":
                missed(key(mutant["name"]), row)
            else:
                sys.exit(f"mutants_table: {report}: an outcome of kind {summary!r}")
        subtotal = add_rows(rows, per_file)
        # A run stopped before its end says so in a `note` beside it.
        note = REPORTS / group / "note"
        if note.exists():
            sampled += f"{note.read_text().strip()}, "
        seconds = REPORTS / group / "seconds"
        took = f", {int(seconds.read_text()) // 60} min" if seconds.exists() else ""
        started = data["start_time"][:10]
        rows.append(line(f"**`{group}`** ({what}; {sampled}run {started}{took})", subtotal))
        for column in COLUMNS:
            total[column] += subtotal[column]
        versions["cargo-mutants"] = data["cargo_mutants_version"]
    if not rows:
        sys.exit("mutants_table: no report in target/mutants-report/")
    rows.append(line("**every group reported**", total))
    for name in sorted((equivalent | not_native | caught_since) - missed_keys - timed_out):
        file = name.split(":", 1)[0]
        if file in files_seen and file not in sampled_files:
            problems.append(f"mutants.md lists it, but it did not survive: {name}")

    header = "| File | " + " | ".join(c.capitalize() for c in COLUMNS) + " | Score |"
    rule = "|---|" + "---:|" * (len(COLUMNS) + 1)
    table = "\n".join([
        START,
        ", ".join(f"{tool} {version}" for tool, version in versions.items())
        + ". Score: (caught + timeouts) / (mutants − unviable − not native).",
        "",
        header,
        rule,
        *rows,
        "",
        f"Caught alone, timeouts not counted: {total['caught']} of {judged(total)} "
        f"({percent(total['caught'], total)}).",
        END,
    ])
    begin, end = text.find(START), text.find(END)
    if begin < 0 or end < 0:
        sys.exit("mutants_table: mutants.md has no table markers")
    BOOK.write_text(text[:begin] + table + text[end + len(END):])
    print(f"mutants: {score(total)} of {total['mutants']} mutants "
          f"({total['caught']} caught, {total['timeout']} timeouts, {total['unviable']} unviable, "
          f"{total['equivalent']} equivalent, {total['not native']} not native, "
          f"{total['unexplained']} unexplained); table written to mutants.md")
    for problem in problems:
        print(f"mutants: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
