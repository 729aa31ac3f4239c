// Checks every relative link in every Markdown file of the repository (the
// tracked ones and new ones git does not ignore): Markdown links and images,
// reference definitions, and href/src attributes, outside code. A link must
// name a file or folder that exists and must not leave the repository. Two
// stricter rules:
//   - the book's pages (docs/src/) may link only inside the book: a page
//     under docs/src/, or a file the build puts beside the pages in
//     target/book/ (the API references), since only those exist where the
//     book is read;
//   - the registry pages (npm/README.md on npm, README.crate.md and
//     js/README.md on crates.io) may have no relative link at all: they are
//     read without the repository.
// Links with a scheme (https:, mailto:) and anchors within a page are not
// checked. Run by `make docs` after the book is built.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bookSrc = join(root, "docs", "src");
const bookOut = join(root, "target", "book");
const registryPages = new Set(["npm/README.md", "README.crate.md", "js/README.md"]);

const inside = (dir, path) => path === dir || path.startsWith(dir + sep);

/** Markdown files: tracked, and untracked but not ignored. */
function markdownFiles() {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(out.split("\0").filter(Boolean))].filter((f) => existsSync(join(root, f))).sort();
}

/** The text with fenced code blocks and inline code spans blanked out (lines kept). */
function withoutCode(text) {
  const lines = text.split("\n");
  let fence = null;
  return lines
    .map((line) => {
      const open = line.match(/^\s{0,3}(`{3,}|~{3,})/);
      if (fence) {
        if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
        return "";
      }
      if (open) {
        fence = open[1];
        return "";
      }
      return line.replace(/(`+)[^`]*?\1/g, "");
    })
    .join("\n");
}

/** Every link target in a Markdown text, with its line number. */
function links(text) {
  const found = [];
  const patterns = [
    /\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+("[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g, // [text](target "title"), ![alt](target)
    /^[ \t]{0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)/gm, // [label]: target
    /\b(?:href|src)\s*=\s*"([^"]*)"/g, // <a href="…">, <img src="…">
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1].replace(/^<|>$/g, "");
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ target, line });
    }
  }
  return found;
}

const problems = [];
let relativeLinks = 0;
let otherLinks = 0;
const files = markdownFiles();

for (const file of files) {
  const path = join(root, file);
  const text = withoutCode(readFileSync(path, "utf8"));
  for (const { target, line } of links(text)) {
    const where = `${file}:${line}: ${target}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      otherLinks++;
      continue;
    }
    if (target.startsWith("#")) {
      otherLinks++;
      continue;
    }
    relativeLinks++;
    if (target.startsWith("/")) {
      problems.push(`${where}: a path from the root: write it relative to this file`);
      continue;
    }
    if (registryPages.has(file)) {
      problems.push(`${where}: a registry page is read without the repository: no relative links`);
      continue;
    }
    let name;
    try {
      name = decodeURIComponent(target.replace(/[?#].*$/, ""));
    } catch {
      problems.push(`${where}: not a valid URL path`);
      continue;
    }
    const to = resolve(dirname(path), name);
    if (!inside(root, to)) {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    if (inside(bookSrc, path)) {
      if (!inside(bookSrc, to)) {
        problems.push(`${where}: leaves the book (docs/src/): name the repository path in code instead`);
        continue;
      }
      const built = join(bookOut, relative(bookSrc, to));
      if (!existsSync(to) && !existsSync(built)) {
        problems.push(`${where}: no such page or file (nor ${relative(root, built)} after the build)`);
      }
      continue;
    }
    if (!existsSync(to)) problems.push(`${where}: no such file`);
  }
}

if (problems.length > 0) {
  console.error(`check-links: ${problems.length} broken link(s):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `check-links: ${relativeLinks} relative links in ${files.length} Markdown files all resolve inside the repository (${otherLinks} external links and anchors not checked)`,
);
