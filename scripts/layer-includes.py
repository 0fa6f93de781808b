#!/usr/bin/env python3
"""Fails when a file of src/ includes a header of a layer it may not use.

The layers and what each links are read from the kvplan_layer(...) calls of
CMakeLists.txt (docs/ARCHITECTURE.md, "Layers"). The compiler already refuses
an include of a layer that is not linked, because each library sees only the
include roots of what it links; this check covers what the include roots do
not: a cycle of links (a layer linking one above it that links it; CMake accepts
cycles between static libraries), and a quoted include that the compiler
resolves beside the including file (`#include "../perf/x.h"`) instead of
through the include roots.

Library files (not *_test.cc, *_fuzz.cc, main.cc) of a layer may include
headers of their own folder, of the layers their target links (transitively)
and kvplan/ (the public interface); cli/ only base/ and report/ besides. Tests,
fuzz targets and src/testing link everything and are not checked.

The layer table of docs/ARCHITECTURE.md must name, in its "depends on" column,
exactly the kvplan layers each target links, so the map stays true to the build.
Exit status 1 on any violation (a ctest).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER_CALL = re.compile(r"^kvplan_layer\(([^)]*)\)", re.M | re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
UNCHECKED_SUFFIXES = ("_test.cc", "_fuzz.cc")
# Layers held to less than they link: the CLI reaches the computing layers only
# through include/kvplan/ (docs/ARCHITECTURE.md), using base's text helpers and
# report's column fitting directly.
NARROWER = {"cli": {"cli", "base", "report"}}


def read_layers():
    """{folder: (target, [linked kvplan targets])} from CMakeLists.txt."""
    text = re.sub(r"#.*", "", (ROOT / "CMakeLists.txt").read_text())
    layers = {}
    for call in LAYER_CALL.finditer(text):
        words = call.group(1).split()
        target, folder = words[0], words[1]
        deps, keyword = [], None
        for w in words[2:]:
            if w in ("DEPS", "PRIVATE_DEPS", "EXTRA_SOURCES", "NO_UNITY"):
                keyword = w
            elif keyword in ("DEPS", "PRIVATE_DEPS") and w.startswith("kvplan_"):
                deps.append(w)
        layers[folder] = (target, deps)
    return layers


def closure(layers):
    """{folder: set of folders it may include}, and the cycles found."""
    folder_of = {target: folder for folder, (target, _) in layers.items()}
    allowed, problems = {}, []

    def visit(folder, path):
        if folder in path:
            problems.append("layer cycle: " + " -> ".join(path + [folder]))
            return set()
        if folder in allowed:
            return allowed[folder]
        seen = {folder}
        for dep in layers[folder][1]:
            if dep not in folder_of:
                problems.append(f"{layers[folder][0]} links {dep}, which is no kvplan_layer")
                continue
            seen |= visit(folder_of[dep], path + [folder])
        allowed[folder] = seen
        return seen

    for folder in layers:
        visit(folder, [])
    for folder, only in NARROWER.items():
        if folder in allowed:
            allowed[folder] = allowed[folder] & only
    return allowed, problems


def layer_of(path, layers):
    """The layer folder a source file belongs to (eras/ is its engine's)."""
    rel = path.relative_to(ROOT / "src").parent.as_posix()
    if rel.endswith("/eras"):
        rel = rel[: -len("/eras")]
    return rel if rel in layers else None


def include_problems(layers, allowed):
    problems = []
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix not in (".cc", ".h") or path.name.endswith(UNCHECKED_SUFFIXES):
            continue
        if path.name == "main.cc":
            continue
        folder = layer_of(path, layers)
        if folder is None or folder == "testing":
            continue
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            where = f"{path.relative_to(ROOT)}: #include \"{name}\""
            if ".." in Path(name).parts:
                problems.append(f"{where} climbs out of the include roots")
                continue
            if name.startswith("kvplan/") or "/" not in name:
                continue
            header_folder = Path(name).parent.as_posix()
            if header_folder not in allowed[folder]:
                problems.append(f"{where}: layer {folder} may not include {header_folder}/")
    return problems


def documented_links(layers):
    """{folder: set of layer folders} from the "depends on" column of ARCHITECTURE.md."""
    engines = ["engines/sglang", "engines/vllm", "engines/trtllm"]
    doc = {}
    for row in (ROOT / "docs" / "ARCHITECTURE.md").read_text().split("\n"):
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("layer", "---"):
            continue
        names = engines if cells[0] == "engines/sglang, vllm, trtllm" else [cells[0]]
        # What the row links: before any "; includes ..." remark, without parentheses.
        links = re.sub(r"\([^)]*\)", "", cells[3].split(";")[0])
        words = {w.strip().removeprefix("links ").strip("`") for w in links.split(",")}
        found = {w for w in words if w in layers}
        if "the three engines" in words:
            found |= set(engines)
        for name in names:
            doc[name] = found
    return doc


def doc_problems(layers):
    folder_of = {target: folder for folder, (target, _) in layers.items()}
    doc = documented_links(layers)
    problems = []
    for folder, (target, deps) in layers.items():
        linked = {folder_of[d] for d in deps if d in folder_of}
        if folder not in doc:
            problems.append(f"docs/ARCHITECTURE.md: no row for layer {folder} ({target})")
        elif doc[folder] != linked:
            problems.append(
                f"docs/ARCHITECTURE.md: layer {folder} depends on {sorted(doc[folder])}, "
                f"CMakeLists.txt links {sorted(linked)}")
    return problems


def main():
    layers = read_layers()
    if not layers:
        print("no kvplan_layer calls found in CMakeLists.txt")
        return 1
    allowed, problems = closure(layers)
    problems += include_problems(layers, allowed)
    problems += doc_problems(layers)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
