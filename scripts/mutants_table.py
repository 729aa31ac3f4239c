#!/usr/bin/env python3
"""Writes mutants.md's score table from cargo-mutants' reports, and checks
its survivor lists against them.

Reads target/mutants-report/{rest,loop,rules}/mutants.out/outcomes.json
(each group that has a report; scripts/mutants.sh writes them) and
replaces the text between mutants.md's two table markers with one row per
mutated file, a subtotal per group and a total, each group dated by its
run. A missed mutant is "equivalent" or "not native" when mutants.md lists
it in the ```text equivalent``` or ```text not native``` block, keyed by
file, line and mutation (cargo-mutants' name without the column). Exits 1
when a missed mutant is in neither block, or when a block lists a mutant
of a reported file that did not survive (caught since, or moved).
"""
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "mutants.md"
REPORTS = ROOT / "target" / "mutants-report"
GROUPS = {
    "rest": "model, errors, options, host, plain and native transports",
    "loop": "the call loop",
    "rules": "`src/rules/`",
}
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


def main():
    text = BOOK.read_text()
    equivalent, not_native = listed(text, "equivalent"), listed(text, "not native")
    rows, problems, files_seen, missed_keys = [], [], set(), set()
    total = defaultdict(int)
    for group, what in GROUPS.items():
        report = REPORTS / group / "mutants.out" / "outcomes.json"
        if not report.exists():
            continue
        data = json.loads(report.read_text())
        per_file = defaultdict(lambda: defaultdict(int))
        for outcome in data["outcomes"]:
            mutant = outcome["scenario"]
            if not isinstance(mutant, dict):
                continue  # the unmutated baseline
            mutant = mutant["Mutant"]
            row = per_file[mutant["file"]]
            files_seen.add(mutant["file"])
            row["mutants"] += 1
            summary = outcome["summary"]
            if summary == "Unviable":
                row["unviable"] += 1
            elif summary == "CaughtMutant":
                row["caught"] += 1
            elif summary == "Timeout":
                row["timeout"] += 1
            elif summary == "MissedMutant":
                name = key(mutant["name"])
                missed_keys.add(name)
                if name in equivalent:
                    row["equivalent"] += 1
                elif name in not_native:
                    row["not native"] += 1
                else:
                    row["unexplained"] += 1
                    problems.append(f"survives, and mutants.md does not list it: {name}")
            else:
                sys.exit(f"mutants_table: {report}: an outcome of kind {summary!r}")
        subtotal = defaultdict(int)
        for file in sorted(per_file):
            rows.append(line(f"`{file}`", per_file[file]))
            for column in COLUMNS:
                subtotal[column] += per_file[file][column]
        seconds = REPORTS / group / "seconds"
        took = f", {int(seconds.read_text()) // 60} min" if seconds.exists() else ""
        started = data["start_time"][:10]
        rows.append(line(f"**`{group}`** ({what}; run {started}{took})", subtotal))
        for column in COLUMNS:
            total[column] += subtotal[column]
        version = data["cargo_mutants_version"]
    if not rows:
        sys.exit("mutants_table: no report in target/mutants-report/")
    rows.append(line("**every natively compiled file**", total))
    for name in sorted((equivalent | not_native) - missed_keys):
        if name.split(":", 1)[0] in files_seen:
            problems.append(f"mutants.md lists it, but it did not survive: {name}")

    header = "| File | " + " | ".join(c.capitalize() for c in COLUMNS) + " | Score |"
    rule = "|---|" + "---:|" * (len(COLUMNS) + 1)
    table = "\n".join([
        START,
        f"cargo-mutants {version}. Score: (caught + timeouts) / (mutants − unviable − not native).",
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
