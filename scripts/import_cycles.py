#!/usr/bin/env python3
"""Fails when the files of src/ import each other in a circle (`make lint`).

Each file is a module (src/a/b.rs and src/a/b/mod.rs are `a::b`); an import
is every path the file names from `crate::` or `super::`, in `use` items
(braces expanded, `self::` and a child module's name included) and in
code; a `#[cfg(test)] mod` block is a test beside the file, not part of
it, and is skipped. A path points to the deepest module it
names: `crate::transport::plain::answer::Answer` to transport/plain/answer.rs,
`crate::transport::Target` to transport/mod.rs. A name lib.rs re-exports
(`crate::Error`) points to the module it comes from, and lib.rs itself,
which only declares and re-exports, is not a node. A module's `mod` lines
are not imports. Prints each circle found, as its files.

    scripts/import_cycles.py [SRC]      (default: src)
"""
import re
import sys
from pathlib import Path

src = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
files = {}  # module path (tuple) -> file
for path in sorted(src.rglob("*.rs")):
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts == ["lib"]:
        parts = []
    files[tuple(parts)] = path


def blank(text):
    """The code with comments, string and char literals blanked out, in one
    pass (so that `"//"` in a string or `'"'` is not taken for a comment or
    a quote); line breaks are kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and (m := re.match(r"'(\\.[^']*|[^'\\])'", text[i:])):
            i += m.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


# A test module: `#[cfg(...)]` naming `test`, then `mod name { ... }` or
# `mod name;` (a file of its own).
TEST_MOD = re.compile(r"#\[cfg\([^\]]*\btest\b[^\]]*\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([{;])")


def strip(text):
    """The code without comments, literals and test modules; and the names
    of the test modules that are files of their own."""
    text = blank(text)
    test_files = []
    while (test := TEST_MOD.search(text)):
        if test.group(2) == ";":
            test_files.append(test.group(1))
            text = text[: test.start()] + text[test.end() :]
            continue
        depth, end = 0, test.end() - 1
        for end in range(test.end() - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[: test.start()] + text[end + 1 :]
    return text, test_files


def expand(tree):
    """`a::{b, c::{d as x, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (an alias
    is dropped: the path is what it names)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    start = tree.find("{")
    if start < 0:
        return [tree]
    prefix, depth, items, item = tree[:start], 0, [], ""
    for ch in tree[start + 1 : tree.rfind("}")]:
        if ch == "," and depth == 0:
            items.append(item)
            item = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        item += ch
    items.append(item)
    return [p for i in items if i for p in expand(prefix + i)]


def paths(module, code):
    """Every `crate::`/`super::` path the code names, made absolute."""
    found = []
    for tree in re.findall(r"\buse\s+([^;]+);", code):
        for p in expand(tree):
            first = p.split("::")[0]
            if first == "self":
                found.append(("self", "::".join(p.split("::")[1:])))
            elif first in ("crate", "super"):
                found.append(p)
            elif tuple(module) + (first,) in files:
                found.append(("self", p))
    found += re.findall(r"(?<![\w:])((?:crate|super)(?:::\w+)+)", code)
    for p in re.findall(r"(?<![\w:])(\w+(?:::\w+)+)", code):
        if tuple(module) + (p.split("::")[0],) in files:
            found.append(("self", p))
    absolute = []
    for p in found:
        base = list(module)
        if isinstance(p, tuple):
            absolute.append(tuple(base + p[1].split("::")))
            continue
        segs = p.split("::")
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        while segs and segs[0] == "super":
            base, segs = base[:-1], segs[1:]
        absolute.append(tuple(base + [s for s in segs if s not in ("self", "*")]))
    return absolute


# What lib.rs re-exports at the root: `pub use api::client::UsersClient;`.
lib_code, _ = strip(files[()].read_text())
reexport = {}
for tree in re.findall(r"\bpub\s+use\s+([^;]+);", lib_code):
    for p in expand(tree):
        segs = p.split("::")
        reexport[segs[-1]] = tuple(segs[:-1])
    # An alias names the item under another name.
    for name, alias in re.findall(r"(\w+)\s+as\s+(\w+)", tree):
        for p in expand(tree):
            if p.split("::")[-1] == name:
                reexport[alias] = tuple(p.split("::")[:-1])


def target(path):
    if path and path[0] in reexport and path[:1] not in files:
        path = reexport[path[0]]
    for n in range(len(path), 0, -1):
        if path[:n] in files:
            return path[:n]
    return None


# A file that only a test module declares (`#[cfg(test)] mod x;`) is a
# test beside its parent, not part of the crate's graph.
tests_only = set()
for module, path in files.items():
    _, test_files = strip(path.read_text())
    tests_only |= {tuple(module) + (name,) for name in test_files}
files = {m: p for m, p in files.items() if m not in tests_only}

edges = {m: set() for m in files if m}
for module, path in files.items():
    if not module:
        continue
    code, _ = strip(path.read_text())
    for p in paths(module, code):
        to = target(p)
        if to and to != module and to != ():
            edges[module].add(to)

# Tarjan's strongly connected components: a component of two or more files
# is a circle.
index, low, stack, on, circles, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            circles.append(component)


sys.setrecursionlimit(10_000)
for v in sorted(edges):
    if v not in index:
        visit(v)

name = lambda m: str(files[m].relative_to(src.parent))
if circles:
    for component in circles:
        print("import circle among: " + ", ".join(sorted(name(m) for m in component)), file=sys.stderr)
    sys.exit(1)
print(f"import_cycles: {len(edges)} files of {src}, no import circle")
