#!/usr/bin/env python3
"""Fails when two headers define a type of the same name.

All of kvplan lives in one namespace, and the layers are separate libraries:
two `struct SglangVerdict` in two headers compile, link, and then share one
inline constructor of the wrong size (an ODR violation that ASan found as a
stack overflow). Types in a .cc file's anonymous namespace are private to it
and are not checked.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEF = re.compile(r"^(?:struct|class|enum class|enum)\s+([A-Z]\w*)\s*(?:final\s*)?(?::[^;]*)?\{", re.M)


def main():
    where = defaultdict(list)
    for p in sorted(list((ROOT / "src").rglob("*.h")) + list((ROOT / "include").rglob("*.h"))):
        for m in DEF.finditer(p.read_text(errors="replace")):
            where[m.group(1)].append(str(p.relative_to(ROOT)))
    dups = {name: files for name, files in where.items() if len(files) > 1}
    for name, files in sorted(dups.items()):
        print(f"{name}: defined in {', '.join(files)}")
    return 1 if dups else 0


if __name__ == "__main__":
    sys.exit(main())
