#!/usr/bin/env python3
"""Lists functions in src/ longer than a limit (default 80 lines).

A function is a brace block opened at the end of a line that looks like a
definition (a ')' or 'const' or 'noexcept' before the '{') outside a data
table. Lines are counted from the signature's first line to the closing brace.
A function that is a data table carries a `// kvplan: data table` comment on the
line before its definition and is skipped; the comment exempts that definition
only (a marker above a table that is not a function exempts nothing after it).
Every .cc and .h file is read, tests included, and definitions nested in
classes and namespaces are counted as well as those at file level.
Exit status 1 when any function is over the limit (used by a ctest).
"""
import re
import sys
from pathlib import Path

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
ROOT = Path(__file__).resolve().parent.parent / "src"
# Namespaces, an anonymous namespace and a class: a member defined in its class.
MAX_DEPTH = 4
SIG_END = re.compile(r"(\)|\bconst|\bnoexcept|\boverride|->\s*[\w:<>,\s\*&]+)\s*\{\s*(//.*)?$")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|else|do|try)\b|^\s*\}\s*else\b|\[.*\]\s*\(.*\)\s*(mutable\s*)?\{")


def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def scan(path):
    lines = path.read_text(errors="replace").split("\n")
    out = []
    depth = 0
    start = None
    start_depth = 0
    marker = None  # the line of the last data-table marker
    for i, raw in enumerate(lines):
        line = strip(raw)
        if "kvplan: data table" in raw:
            marker = i
        if start is None and SIG_END.search(line) and not CONTROL.search(line) and depth <= MAX_DEPTH:
            # the signature may begin on earlier lines
            j = i
            while j > 0 and strip(lines[j - 1]).strip() and not strip(lines[j - 1]).rstrip().endswith((";", "}", "{", ":")) and not lines[j - 1].lstrip().startswith(("//", "#")):
                j -= 1
            if marker is not None and marker <= j <= marker + 1:
                marker = None
            else:
                start, start_depth = j, depth
                name = re.sub(r"\s+", " ", " ".join(strip(l).strip() for l in lines[j : i + 1]))
        depth += line.count("{") - line.count("}")
        if start is not None and depth <= start_depth:
            n = i - start + 1
            if n > LIMIT:
                out.append((n, f"{path.relative_to(ROOT.parent)}:{start + 1}", name[:90]))
            start = None
    return out


def main():
    found = []
    for p in sorted(ROOT.rglob("*")):
        if p.suffix in (".cc", ".h"):
            found += scan(p)
    for n, where, name in sorted(found, reverse=True):
        print(f"{n:4d}  {where}  {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
