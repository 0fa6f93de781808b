#!/usr/bin/env python3
"""Fits the simulator's calibration factors (src/simulate/calibration.cc) on the
fit half of the visible measured runs (simulate-validation.py's split_of).

Usage: fit-sim-calibration.py KVPLAN [--engine sglang|vllm]

For each engine, a grid search over kvplan simulate's --calib-* flags on that
engine's fit points, minimising TTFT/20 + TPOT/10 + E2E/10 (median absolute
errors over the issue's targets). A factor set is adopted only when it lowers
the objective by 5 % or more against identity; otherwise identity stays. It
prints every grid point's objective and the choice; the held-out half is never
simulated here. Python 3 standard library only.
"""

import argparse
import importlib.util
import itertools
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("sv", os.path.join(HERE, "simulate-validation.py"))
sv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sv)

# Decode step scale, fixed step time (us), admission latency (us).
GRIDS = {
    "sglang": ([1.0, 1.1, 1.2], [500, 1000, 1500, 2000], [80000, 120000, 160000, 200000, 250000]),
    "vllm": ([0.9, 1.0, 1.1], [0, 500, 1000], [0, 10000, 30000]),
}
IDENTITY = (1.0, 0, 0)
MIN_GAIN = 0.05


def objective(rows):
    m = sv.medians(rows)
    return sum(m[f][0] / t for f, t in sv.TARGETS.items() if m[f][0] is not None)


def flags(scale, step_us, admission_us):
    return ["--calib-decode-scale", str(scale), "--calib-step-us", str(step_us),
            "--calib-admission-us", str(admission_us)]


def fit(kvplan, runs, engine):
    fit_runs = [r for r in runs if r["engine"] == engine and sv.split_of(r) == "fit"]
    scores = {}
    for combo in [IDENTITY] + list(itertools.product(*GRIDS[engine])):
        if combo in scores:
            continue
        rows, _ = sv.collect(kvplan, fit_runs, flags(*combo))
        scores[combo] = objective(rows)
        print(f"{engine} {combo}: {scores[combo]:.3f}", flush=True)
    best = min(scores, key=scores.get)
    if scores[best] > (1 - MIN_GAIN) * scores[IDENTITY]:
        best = IDENTITY
    print(f"{engine}: adopt {best} (objective {scores[best]:.3f}, identity "
          f"{scores[IDENTITY]:.3f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kvplan")
    ap.add_argument("--engine", choices=sorted(GRIDS))
    a = ap.parse_args()
    with open(sv.RUNS) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    for engine in [a.engine] if a.engine else sorted(GRIDS):
        fit(os.path.abspath(a.kvplan), runs, engine)


if __name__ == "__main__":
    main()
