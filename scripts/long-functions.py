#!/usr/bin/env python3
"""Lists functions in src/ longer than a limit (default 80 lines).

A function is a brace block opened at the end of a line that looks like a
definition (a ')' or 'const' or 'noexcept' before the '{') outside a data
table. Lines are counted from the signature's first line to the closing brace.
Files or functions that are data tables carry a `// kvplan: data table` comment
on the line before the definition and are skipped.
Exit status 1 when any function is over the limit (used by a ctest).
"""
import re
import sys
from pathlib import Path

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
ROOT = Path(__file__).resolve().parent.parent / "src"
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
    skip_next = False
    for i, raw in enumerate(lines):
        line = strip(raw)
        if "kvplan: data table" in raw:
            skip_next = True
        if start is None and SIG_END.search(line) and not CONTROL.search(line) and depth <= 2:
            # the signature may begin on earlier lines
            j = i
            while j > 0 and strip(lines[j - 1]).strip() and not strip(lines[j - 1]).rstrip().endswith((";", "}", "{")) and not lines[j - 1].lstrip().startswith(("//", "#")):
                j -= 1
            if skip_next:
                skip_next = False
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
    for p in sorted(ROOT.rglob("*.cc")):
        if p.name.endswith(("_test.cc", "_fuzz.cc")):
            continue
        found += scan(p)
    for n, where, name in sorted(found, reverse=True):
        print(f"{n:4d}  {where}  {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
