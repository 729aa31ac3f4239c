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


def strip(text):
    """The code without comments, string literals and test modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    while (test := re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)):
        depth, end = 0, test.end() - 1
        for end in range(test.end() - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[: test.start()] + text[end + 1 :]
    return text


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
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
                p = "::".join(["super"] * 0 + p.split("::")[1:])
                found.append(("self", p))
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
            absolute.append(tuple(base + [s.split(" as ")[0] for s in p[1].split("::")]))
            continue
        segs = [s.split(" as ")[0] for s in p.split("::")]
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        while segs and segs[0] == "super":
            base, segs = base[:-1], segs[1:]
        absolute.append(tuple(base + [s for s in segs if s not in ("self", "*")]))
    return absolute


# What lib.rs re-exports at the root: `pub use api::client::UsersClient;`.
lib_code = strip(files[()].read_text())
reexport = {}
for tree in re.findall(r"\bpub\s+use\s+([^;]+);", lib_code):
    for p in expand(tree):
        segs = p.split("::")
        reexport[segs[-1].split(" as ")[-1]] = tuple(segs[:-1])


def target(path):
    if len(path) == 1 and path[0] in reexport and path not in files:
        path = reexport[path[0]]
    for n in range(len(path), 0, -1):
        if path[:n] in files:
            return path[:n]
    return None


edges = {m: set() for m in files if m}
for module, path in files.items():
    if not module:
        continue
    code = strip(path.read_text())
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
