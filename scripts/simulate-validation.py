#!/usr/bin/env python3
"""Simulated against measured: `kvplan simulate --json` on every public measured
serving point kvplan can express, written as docs/SIMULATOR_VALIDATION.md.

Usage: simulate-validation.py KVPLAN [--check] [--out FILE]

The points are tests/data/real/serving/validation-runs.jsonl (a copy of
../shared/serving/runs.jsonl; sources in that folder's SOURCES.md). The
simulator runs with its defaults, whose calibration factors
(src/simulate/calibration.cc) scripts/fit-sim-calibration.py fitted on the fit
half of these runs (split_of); every point is also simulated uncalibrated, and
the medians are reported for both halves. --check regenerates the table, fails
if the committed one differs (stale) or if a median absolute error over the
bounded runs (BOUNDED_RUNS) exceeds its regression bound below; medians over
all points that miss the issue's targets are printed, not failed. Python 3
standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "real", "serving")
RUNS = os.path.join(DATA, "validation-runs.jsonl")
DOC = os.path.join(ROOT, "docs", "SIMULATOR_VALIDATION.md")

# The targets (median absolute error, %), reported beside the medians.
TARGETS = {"E2E": 10, "TPOT/ITL": 10, "TTFT": 20}
# Regression bounds (median absolute error, %): the medians of the committed
# table plus about 2 points, never looser than before. The check fails above them.
BOUNDS = {"E2E": 10, "TPOT/ITL": 10, "TTFT": 20, "throughput": 15}
# The same on the held-out half (split_of), which fitted nothing.
HELD_OUT_BOUNDS = {"E2E": 11, "TPOT/ITL": 11, "TTFT": 28, "throughput": 15}
# The runs the regression bounds were set on (those expressed at commit 02ab1ef):
# points expressed since are reported against the targets but do not
# move the bounds, which stay as tight as they were on the same points.
BOUNDED_RUNS = os.path.join(ROOT, "scripts", "simulate-validation-bounded-runs.txt")
CALIBRATION = os.path.join(ROOT, "src", "simulate", "calibration.cc")
# kvplan simulate's flags that set every calibration factor to identity.
UNCALIBRATED = ["--calib-decode-scale", "1", "--calib-step-us", "0", "--calib-admission-us", "0"]

GPUS = {
    "H100-SXM-80GB": "h100-sxm",
    "H200-SXM-141GB": "h200",
    "B200-SXM-180GB": "b200",
    "B300-SXM-288GB": "b300",
    "A100-SXM4-80GB": "a100-80gb",
    "L40S-48GB-PCIe": "l40s",
    "GeForce-RTX-4090-24GB": "rtx-4090",
    "RTX-PRO-6000-Blackwell-Server-96GB": "rtx-pro-6000-server",
}
# A base checkpoint the catalog holds as its instruct twin (same architecture
# and sizes; the validation test makes the same substitution).
MODEL_TWINS = {"meta-llama/Llama-3.1-8B": "meta-llama/Llama-3.1-8B-Instruct"}
VLLM_FLAGS = ("max_num_seqs", "max_model_len", "max_num_batched_tokens", "gpu_memory_utilization")


def split_of(run):
    """The fixed fit / held-out split: by engine, model and GPU (DeepSeek-R1 and
    V3 rows are the same runs, so one key), even CRC-32 fits. Every point of one
    deployment falls on one side, so the held-out half is deployments the
    factors never saw."""
    model = run["model"].replace("DeepSeek-V3", "DeepSeek-R1")
    key = f"{run['engine']}|{model}|{run['gpu']}".encode()
    return "fit" if zlib.crc32(key) % 2 == 0 else "held-out"


def calibration_table():
    """The engines' fitted factors as src/simulate/calibration.cc states them."""
    with open(CALIBRATION) as f:
        text = f.read()
    found = re.findall(r"constexpr SimCalibration k(\w+)\{([^}]*)\};", text)
    label = {"sglang": "sglang 0.5 and later, models of 32B and more",
             "identity": "sglang 0.4, or models under 32B (not fitted)"}
    # The three factors; the fourth field is the outside-the-fit reason.
    return [(label.get(name.lower(), name.lower()), [float(v) for v in vals.split(",")[:3]])
            for name, vals in found]


class CannotExpress(Exception):
    pass


def family(metric):
    if metric.startswith("ttft"):
        return "TTFT"
    if metric.startswith(("tpot", "itl")):
        return "TPOT/ITL"
    if metric.startswith("e2e"):
        return "E2E"
    return "throughput"


def catalog_fp8(model):
    """Whether the catalog's checkpoint of `model` is itself FP8 (its config's
    quantization_config), so that an FP8 run is the same checkpoint."""
    path = os.path.join(ROOT, "data", "models", model.replace("/", "--") + ".json")
    if not os.path.exists(path):
        return False
    with open(path) as f:
        q = json.load(f).get("quantization_config") or {}
    return str(q.get("quant_method", "")).startswith("fp8")


def parallel_args(run):
    """The engine flags of the run's data and expert parallelism. SGLang: DP
    attention over the TP group (--dp-size, --enable-dp-attention; the record's
    tp is the whole group), experts over --ep-size ranks, each expert split
    tp / ep ways (moe_tp). vLLM: --data-parallel-size engines of tp GPUs each,
    and --enable-expert-parallel, which puts the experts over all tp x dp GPUs
    whole (moe_tp 1). A record of 0 (ep, moe_tp) is a dense model's: none."""
    par = run.get("parallel", {})
    if par.get("pp", 1) != 1:
        raise CannotExpress("pipeline parallelism not modelled")
    tp, ep = par.get("tp", 1), par.get("ep", 1) or 1
    dp = max(par.get("attention_dp", 1), par.get("dp", 1))
    vllm = run["engine"] == "vllm"
    moe_tp = 1 if vllm and ep > 1 else (tp * (dp if vllm else 1)) // ep
    if run.get("moe") and par.get("moe_tp", moe_tp) not in (0, moe_tp):
        raise CannotExpress(f"MoE tensor parallel size {par['moe_tp']} is not the engine's "
                            f"{moe_tp} at TP {tp}, DP {dp}, EP {ep}")
    if vllm:
        if ep > 1 and ep != tp * dp:
            raise CannotExpress(f"EP {ep} is not TP x DP, as vLLM's --enable-expert-parallel makes it")
        return (["--data-parallel-size", str(dp)] if dp > 1 else []) + \
            (["--enable-expert-parallel"] if ep > 1 else [])
    out = ["--dp-size", str(dp), "--enable-dp-attention"] if par.get("attention_dp", 1) > 1 else []
    if par.get("dp", 1) > 1 and par.get("attention_dp", 1) <= 1:
        out = ["--dp-size", str(dp)]
    return out + (["--ep-size", str(ep)] if ep > 1 else [])


# The checkpoint a quantized row served where the row names the model it was
# made from: the `model:` of InferenceX's <model>-<precision>-<gpu>-<engine>
# launch configs (SemiAnalysisAI/InferenceX .github/configs/nvidia-master.yaml
# @ 51e31df4, 2026-04-06, and @ 6cca39e1, 2026-04-27, the dates of the exports
# the rows come from). AIConfigurator labels every fp4 row nvfp4: gpt-oss's fp4
# rows served openai/gpt-oss-120b itself, whose experts are mxfp4 (its config's
# quantization_config); Kimi-K2.5's int4 rows served moonshotai/Kimi-K2.5, a
# compressed-tensors int4 checkpoint.
SERVED_CHECKPOINTS = {
    ("openai/gpt-oss-120b", "nvfp4"): "openai/gpt-oss-120b",
    ("moonshotai/Kimi-K2.5", "int4_wo"): "moonshotai/Kimi-K2.5",
    ("moonshotai/Kimi-K2.5", "nvfp4"): "nvidia/Kimi-K2.5-NVFP4",
    ("MiniMaxAI/MiniMax-M2.5", "fp8"): "MiniMaxAI/MiniMax-M2.5",
    ("MiniMaxAI/MiniMax-M2.5", "nvfp4"): "nvidia/MiniMax-M2.5-NVFP4",
    ("zhipuai/GLM-5", "fp8"): "zai-org/GLM-5-FP8",
    ("zhipuai/GLM-5", "nvfp4"): "nvidia/GLM-5-NVFP4",
    ("Qwen/Qwen3.5-397B-A17B", "fp8"): "Qwen/Qwen3.5-397B-A17B-FP8",
    ("Qwen/Qwen3.5-397B-A17B", "nvfp4"): "nvidia/Qwen3.5-397B-A17B-NVFP4",
}
# Served checkpoints the catalog cannot hold, and why (data/models/SOURCES.md).
UNBUNDLED_CHECKPOINTS = {
    "nvidia/GLM-5-NVFP4": "its config.json has no quantization_config (NVFP4 is in its "
                          "hf_quant_config.json, which a catalog entry cannot carry)",
    "nvidia/Llama-3.1-8B-Instruct-FP8": "no public copy of its config.json found (its FP8 is in "
                                        "hf_quant_config.json, which a catalog entry cannot carry)",
    "Qwen/Qwen3.5-397B-A17B-FP8": "no public copy of its config.json found",
}
# Rows that name a 16-bit checkpoint and a quantized precision: quantized at
# load time. AIConfigurator's SGLang Llama-3.1-8B gap-analysis rows name
# meta-llama/Llama-3.1-8B-Instruct (bf16) at precision fp8 (its
# silicon_sample.csv model_path and precision columns): SGLang makes fp8 of a
# 16-bit checkpoint only with --quantization fp8 (per-channel scales where
# AIConfigurator's label says 128x128 blocks: the same fp8 weights, the scales
# a fraction of a percent of them).
ONLINE_QUANTIZATION = {
    ("sglang", "meta-llama/Llama-3.1-8B-Instruct", "fp8_block"): ["--quantization", "fp8"],
}


# InferenceX launches that turned on expert parallelism though the row records
# EP 1: minimaxm2.5_fp8_h200.sh (every date) and minimaxm2.5_fp8_b200.sh from
# f342df18 (2026-03-11) to bddbf403 (2026-04-03, the v0.19.0 upgrade) pass
# --enable-expert-parallel when `[ "$EP_SIZE" -ge 1 ]`, and EP_SIZE is 1 there.
# Keyed by model, GPU and release (None: every release).
EP_BY_LAUNCH_SCRIPT = {
    ("MiniMaxAI/MiniMax-M2.5", "H200-SXM-141GB", None): "minimaxm2.5_fp8_h200.sh",
    ("MiniMaxAI/MiniMax-M2.5", "B200-SXM-180GB", "0.17.0"): "minimaxm2.5_fp8_b200.sh",
}


def launch_script_ep(run):
    """--enable-expert-parallel where the launch script turned it on though the
    row records EP 1 (vLLM then puts the experts over all TP x DP GPUs)."""
    if (run.get("quant") or {}).get("gemm") != "fp8" or aic_gap_analysis(run):
        return []
    for release in (None, run["engine_version"]):
        if EP_BY_LAUNCH_SCRIPT.get((run["model"], run["gpu"], release)):
            return ["--enable-expert-parallel"]
    return []


def served_checkpoint(run):
    """The catalog id of the checkpoint the run served and the flags its
    quantization needs, or CannotExpress naming what is missing."""
    model = MODEL_TWINS.get(run["model"], run["model"])
    if model in UNBUNDLED_CHECKPOINTS:
        raise CannotExpress(f"model {model} not in kvplan's catalog: "
                            + UNBUNDLED_CHECKPOINTS[model])
    gemm = (run.get("quant") or {}).get("gemm")
    if not gemm:
        return model, []
    online = ONLINE_QUANTIZATION.get((run["engine"], model, gemm))
    if online:
        return model, online
    ckpt = SERVED_CHECKPOINTS.get((model, gemm))
    if ckpt is None:
        if gemm.startswith("fp8") and catalog_fp8(model):
            return model, []
        raise CannotExpress(f"quantization {gemm} is not the catalog checkpoint's")
    if ckpt in UNBUNDLED_CHECKPOINTS:
        raise CannotExpress(f"served checkpoint {ckpt} not in kvplan's catalog: "
                            + UNBUNDLED_CHECKPOINTS[ckpt])
    return ckpt, []


# The release each engine build without one follows: the last tag before the
# build's date (SGLang's tags: v0.5.8.post1 2026-02-05, v0.5.9 2026-02-23,
# v0.5.10rc0 2026-03-27, sgl-project/sglang as mirrored by bytedance-iaas/sglang;
# vLLM's: v0.15.1 in InferenceX's launch configs from 2026-02-23 (eb02101e),
# v0.16.0 measured from 2026-03-01, v0.17.1 in llm-d from 2026-03-17, llm-d#977),
# and kvplan plans it with that release's rules; except where the build served a
# model that release lacks: then with the first release kvplan's
# catalog/engine_support.cc gives the model, whose code the build carried (vLLM's
# nightly of 2026-02-13 served GLM-5, 0.16.0; of 2026-02-16 Qwen3.5, on main since
# 2026-02-09, vllm#34110, 0.17.0; SGLang's nightly-dev-20260216 Qwen3.5 and its
# glm5-hopper image GLM-5, both 0.5.9). Keyed by image tag, or by the record's
# version text where it names no image.
NIGHTLY_RELEASES = {
    "lmsysorg/sglang:nightly-dev-20260216-d3bae71e": "0.5.9",
    "lmsysorg/sglang:glm5-hopper": "0.5.9",
    "lmsysorg/sglang:nightly-dev-cu13-20260317-1eea7448": "0.5.9",
    "lmsysorg/sglang:nightly-dev-cu13-20260328-a27651d5": "0.5.10rc0",
    "lmsysorg/sglang:nightly-dev-cu13-20260401-b6fe0cca": "0.5.10rc0",
    "lmsysorg/sglang:nightly-dev-20260402-d7256eb6": "0.5.10rc0",
    "vllm nightly 20260213": "0.16.0",
    "vllm nightly 20260216": "0.17.0",
    # main at 5b8c30d6 (2026-03-28), after v0.17.1.
    "vllm/vllm-openai:nightly-5b8c30d62b754b575e043ce2fc0dcbf8a64f6306": "0.17.1",
}


def engine_release(run):
    """The release kvplan plans the run's engine with, or CannotExpress."""
    version = run["engine_version"]
    if re.fullmatch(r"\d+\.\d+\.\d+(\.post\d+|rc\d+)?", version):
        return version
    dated = re.search(r"runs dated (\d{8})", version)
    key = f"{run['engine']} nightly {dated.group(1)}" if dated else run.get("engine_image")
    if key in NIGHTLY_RELEASES:
        return NIGHTLY_RELEASES[key]
    raise CannotExpress(f"engine build {version} (image {run.get('engine_image')}) names no "
                        "release kvplan can date")


def speculative_flags(run):
    """The run's speculative decoding as its engine's flags: vLLM's
    --speculative-config (InferenceX's GLM-5 server: --speculative-config.method
    mtp, num_speculative_tokens 1, experimental/token_position_decode_slo/glm-5/
    serve_glm5_sbatch.sh @843c6254); SGLang's EAGLE flags and the fixed
    acceptance the experiment simulated (aisimulate's sglang-fpm-fixed-8k1k)."""
    spec = run.get("engine_flags", {}).get("speculative")
    if not spec:
        return []
    if run["engine"] == "vllm":
        cfg = {"method": spec["method"], "num_speculative_tokens": spec["num_speculative_tokens"]}
        return ["--speculative-config", json.dumps(cfg)]
    accept = re.search(r"simulated ([0-9.]+)", str(spec.get("acceptance_length", "")))
    out = ["--speculative-algorithm", "EAGLE", "--speculative-num-steps", str(spec["num_steps"]),
           "--speculative-eagle-topk", str(spec["topk"]),
           "--speculative-num-draft-tokens", str(spec["num_draft_tokens"])]
    return out + (["--accept-length", accept.group(1)] if accept else [])


def base_args(run):
    gpu = GPUS.get(run["gpu"])
    if gpu is None:
        raise CannotExpress(f"GPU {run['gpu']} not in kvplan's catalog mapping")
    par = run.get("parallel", {})
    tp = par.get("tp", 1)
    layout = parallel_args(run)
    model, quant_flags = served_checkpoint(run)
    engine = f"{run['engine']}@{engine_release(run)}"
    args = ["simulate", "--json", "--model", model, "--gpu", gpu, "--engine", engine, "--tp", str(tp)]
    return args + layout + launch_script_ep(run) + quant_flags + speculative_flags(run)


def vllm_flags(run):
    out = []
    for k in VLLM_FLAGS:
        v = run["engine_flags"].get(k)
        if isinstance(v, (int, float)):
            out += ["--" + k.replace("_", "-"), json.dumps(v)]
    return out


def peers_at(run, label, section, stat):
    out = {}
    for name, p in sorted((run.get("peer_predictions") or {}).items()):
        v = p.get("points", {}).get(label, {}).get(section, {})
        v = v.get(stat) if isinstance(v, dict) else None
        if isinstance(v, (int, float)):
            out[name] = v
    return out


def sim_to_real(run):
    """Each stage alone at its rate for its duration, constant arrivals, fixed
    lengths at the study's approximate means (as src/simulate/validation_test.cc)."""
    if not run["workload"].get("spec_complete"):
        raise CannotExpress("stage rates and durations only partly known (spec_complete false)")
    args = base_args(run) + vllm_flags(run)
    isl, osl = run["workload"]["isl"]["mean_approx"], run["workload"]["osl"]["mean_approx"]
    points = []
    for p in run["points"]:
        cmd = args + ["--arrival", "constant", "--rate", str(p["rate_rps"]), "--duration",
                      str(p["duration_s"]), "--input-len", str(isl), "--output-len", str(osl)]
        metrics = []
        for section, stat in (("e2e_ms", "mean"), ("e2e_ms", "p90"), ("ttft_ms", "mean"),
                              ("ttft_ms", "p90"), ("itl_ms", "mean")):
            m = p["measured"].get(section, {}).get(stat)
            if m is not None:
                metrics.append((f"{section[:-3]} {stat}", m, (section, stat),
                                peers_at(run, p["label"], section, stat)))
        points.append((p["label"], cmd, metrics))
    return points


# How InferenceX launched SGLang for the DeepSeek-R1 FP8 rows kvplan expresses
# (SemiAnalysisAI/InferenceX @843c6254 benchmarks/single_node/fixed_seq_len/;
# these launch lines are unchanged from 2026-02-19, before the exports the rows
# come from): the flags whose effect kvplan models (memory, scheduler limits,
# the scheduler's recv interval). The DeepSeek-V3 rows of the database dump
# carry the same figures as the R1 rows of the same GPU and lengths: the same
# runs, launched alike. The configs that run these scripts
# (configs/nvidia-master.yaml dsr1-fp8-{b200,b300,h200}-sglang) sweep the
# concurrency up to 64: rows beyond it were measured under another launch and
# keep kvplan's defaults. Keyed by GPU and tensor parallelism; the value maps
# the run to its flags (the recv interval depends on the concurrency).
def _dsr1_blackwell_tp8(isl, osl, conc):
    """dsr1_fp8_b200.sh and dsr1_fp8_b300.sh, TP 8."""
    return ["--cuda-graph-max-bs", "128", "--max-running-requests", "128",
            "--mem-fraction-static", "0.82", "--kv-cache-dtype", "fp8_e4m3",
            "--chunked-prefill-size", "32768", "--max-prefill-tokens", "32768",
            "--scheduler-recv-interval", "30" if conc >= 16 else "10", "--disable-radix-cache"]


def _dsr1_h200_tp8(isl, osl, conc):
    """dsr1_fp8_h200.sh, TP 8: 512 running requests and graphs at 1k/1k, else 256."""
    limit = "512" if (isl, osl) == (1024, 1024) else "256"
    return ["--max-running-requests", limit, "--cuda-graph-max-bs", limit,
            "--chunked-prefill-size", "32768", "--max-prefill-tokens", "32768",
            "--mem-fraction-static", "0.82", "--disable-radix-cache"]


INFERENCEX_SGLANG = {
    ("B200-SXM-180GB", 8): _dsr1_blackwell_tp8,
    ("B300-SXM-288GB", 8): _dsr1_blackwell_tp8,
    ("H200-SXM-141GB", 8): _dsr1_h200_tp8,
}
DEEPSEEK_R1_V3 = ("deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-V3")
INFERENCEX_DSR1_MAX_CONC = 64


def inferencex_flags(run, conc):
    """The InferenceX launch flags of a DeepSeek FP8 SGLang row, or none."""
    if aic_gap_analysis(run) or run["engine"] != "sglang" or run["model"] not in DEEPSEEK_R1_V3:
        return []
    if not any(s.startswith("inferencex") for s in run.get("sub_source", [])):
        return []
    if (run.get("quant") or {}).get("gemm") != "fp8" or conc > INFERENCEX_DSR1_MAX_CONC:
        return []
    flags = INFERENCEX_SGLANG.get((run["gpu"], run.get("parallel", {}).get("tp", 1)))
    wl = run["workload"]
    return flags(wl["isl"]["fixed"], wl["osl"]["fixed"], conc) if flags else []


# InferenceX's vLLM scripts for these models pass --max-model-len $MAX_MODEL_LEN at every
# export date (benchmarks/single_node/{kimik2.5,minimaxm2.5}_*.sh @ 12ba0ae0, 2026-03-25, and
# @ 6cca39e1, 2026-04-27), which its sweep generator sets to ISL + OSL + 256
# (utils/matrix_logic/generate_sweep_configs.py). Their other flags (memory fraction, request
# and token limits) changed between those dates, which a row's export date does not pin.
INFERENCEX_VLLM_MAX_MODEL_LEN = ("MiniMaxAI/MiniMax-M2.5", "moonshotai/Kimi-K2.5")


def inferencex_vllm_flags(run):
    """The launch flags an InferenceX vLLM row had at every date, or none."""
    if aic_gap_analysis(run) or run["engine"] != "vllm":
        return []
    if not any(s.startswith("inferencex") for s in run.get("sub_source") or []):
        return []
    if run["model"] not in INFERENCEX_VLLM_MAX_MODEL_LEN:
        return []
    wl = run["workload"]
    return ["--max-model-len", str(wl["isl"]["fixed"] + wl["osl"]["fixed"] + 256)]


def aic_gap_analysis(run):
    """Whether a concurrency row comes from AIConfigurator's own gap-analysis
    runs rather than from InferenceX."""
    return any(s.startswith("aic-gap-analysis") for s in run.get("sub_source", []))


def concurrency_lengths(run):
    """The benchmark client's request lengths. InferenceX (benchmarks/
    benchmark_lib.sh with .github/workflows/benchmark-tmpl.yml): the random
    dataset, random_range_ratio 0.8, i.e. uniform over [0.8 L, L]
    (utils/bench_serving/benchmark_serving.py sample_random_requests).
    AIConfigurator's gap analysis (generator/config/backend_templates/
    benchmark/bench_run.sh.j2): aiperf with --isl-stddev and --osl-stddev
    0 (deployment_config.yaml defaults) and ignore_eos: every request is L."""
    isl, osl = run["workload"]["isl"]["fixed"], run["workload"]["osl"]["fixed"]
    # InferenceX's experimental folder: fixed lengths too (token_position_decode_slo/*/
    # benchmark_serving_random.py sample_random_requests: "Use fixed lengths"); aisimulate's
    # fixed 8192/1024 (its record's workload).
    if aic_gap_analysis(run) or run["source"] in ("inferencex-experimental",
                                                  "aisimulate-experiments"):
        return ["--input-len", str(isl), "--output-len", str(osl)]
    return ["--input-dist", "uniform", "--input-len", str(isl * 9 // 10), "--input-spread",
            repr(1 / 9), "--output-dist", "uniform", "--output-len", str(osl * 9 // 10),
            "--output-spread", repr(1 / 9)]


def concurrency(run):
    """Closed loop from an idle server: both clients finish their warm-up
    requests before the measured ones (benchmark_serving.py gathers the
    warm-up tasks; aiperf's warm-up phase precedes profiling), then C
    requests start at once and each completion sends the next. InferenceX
    sends 10 x C requests (--num-prompts $((CONC * 10))), the gap analysis
    20 x C (bench_run.sh.j2 --num-requests concurrency x BENCH_MULTI_ROUND,
    default 20); a point that records its request count sends that many.
    InferenceX's DeepSeek SGLang rows with its launch flags (INFERENCEX_SGLANG).
    The one reported TTFT/TPOT against the simulated mean (the sample does not
    say mean or median); p50s (TTFT, TPOT, E2E where recorded) against the
    simulated p50s. InferenceX's experimental folder (token_position_decode_slo/*/
    benchmark_serving_random.py and bmk_*_sbatch.sh @843c6254) is the same: 2 x C warm-ups,
    10 x C requests at --max-concurrency C, fixed lengths with ignore_eos, TTFT at the first
    streamed chunk with choices, TPOT (latency - TTFT) / (completion tokens - 1), and medians
    (median_ttft, median_tpot, median_e2el) against the simulated p50s.
    Quantized rows run on the checkpoint they served
    (served_checkpoint), speculative ones with their engine's speculative
    flags (speculative_flags)."""
    wl = run["workload"]
    if "fixed" not in wl.get("isl", {}) or "fixed" not in wl.get("osl", {}):
        raise CannotExpress("lengths not fixed")
    args = base_args(run) + concurrency_lengths(run)
    rounds = 20 if aic_gap_analysis(run) else 10
    points = []
    for p in run["points"]:
        c = p["concurrency"]
        n = p.get("num_requests") if isinstance(p.get("num_requests"), int) else rounds * c
        cmd = args + ["--concurrency", str(c), "--num-requests", str(n)]
        cmd += inferencex_flags(run, c) + inferencex_vllm_flags(run)
        metrics = []
        for section in ("ttft_ms", "tpot_ms", "e2e_ms"):
            m = p["measured"].get(section, {})
            v = m.get("reported", m.get("p50"))
            stat = "reported" if "reported" in m else "p50"
            sim_stat = "mean" if stat == "reported" else "p50"
            if v is not None:
                metrics.append((f"{section[:-3]} {stat}", v, (section, sim_stat), {}))
        points.append((p["label"], cmd, metrics))
    return points


def trace(run):
    """The run's own request stream replayed (arrivals and lengths per request)."""
    name = os.path.basename(run["workload"].get("trace_file") or "")
    path = os.path.join(DATA, name)
    if not name or not os.path.exists(path):
        raise CannotExpress("trace file not copied")
    if "stand-in" in json.dumps(run.get("notes", "")):
        raise CannotExpress("the trace is a stand-in for the run's own")
    args = base_args(run) + vllm_flags(run) + ["--trace", os.path.relpath(path, ROOT)]
    m = run["measured"]
    metrics = []
    for section, stat in (("ttft_ms", "mean"), ("ttft_ms", "p50"), ("ttft_ms", "p90"),
                          ("tpot_ms", "mean"), ("tpot_ms", "p50"), ("e2e_ms", "mean"),
                          ("e2e_ms", "p90")):
        v = m.get(section, {}).get(stat)
        if v is not None:
            metrics.append((f"{section[:-3]} {stat}", v, (section, stat),
                            peers_at(run, "run", section, stat)))
    if "output" in m.get("throughput_tok_s", {}):
        metrics.append(("output tok/s", m["throughput_tok_s"]["output"],
                        ("throughput_tok_s", "output"), {}))
    if "req_s" in m:
        metrics.append(("req/s", m["req_s"], ("req_s", None), {}))
    return [("run", args, metrics)]


# Runs kept outside the validation, by id prefix, with what their own data shows: a state
# the simulator does not express (one steady closed loop of one launch), not a model error.
OUTSIDE = {
    # InferenceX experimental/token_position_decode_slo/qwen3.5 @843c6254: the launch
    # (serve_qwen35_tp8_sbatch.sh) sets no eager or debug flag, and the nightly's commit is
    # not recorded; its results show no steady state: at every length C 4 waits longer to the
    # first token than C 8 (1k: 4568 against 4134 ms; 10k: 7247 against 3627 ms), 4.3-8.9 s
    # at C 4 where a decode step there takes 22-40 ms (TPOT p50), and TPOT at 16k, C 64 is
    # 1361 ms against 40 ms at C 4.
    "ix-tpd-qwen35-": "vLLM nightly 2026-02-16 Qwen3.5: no steady state (TTFT at C 4 over C 8's "
                      "at every length; 4.3-8.9 s at C 4 against 22-40 ms decode steps)",
}


def express(run):
    src = run["source"]
    for prefix, why in OUTSIDE.items():
        if run["id"].startswith(prefix):
            raise CannotExpress(why)
    if src in ("sim-to-real", "sim-to-real-trainval"):
        return sim_to_real(run)
    if src == "aic-silicon-sample" or src == "inferencex-experimental":
        return concurrency(run)
    if src == "llmservingsim-bench":
        return trace(run)
    if src == "sglang-benchmark-readme":
        raise CannotExpress("ShareGPT lengths per request not recorded (medians only)")
    if src == "aisimulate-experiments":
        return concurrency(run)
    raise CannotExpress(f"source {src} not handled")


def simulate(kvplan, cmd):
    p = subprocess.run([kvplan] + cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        err = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[0]
        err = err.removeprefix("kvplan: error: ").removeprefix("kvplan: ")
        if err.startswith("unknown model"):
            err = err.split(":")[0].replace("unknown model", "model") + " not in kvplan's catalog"
        raise CannotExpress("kvplan: " + err.replace("|", "/"))
    return json.loads(p.stdout)


def pick(result, key):
    section, stat = key
    v = result[section]
    return v if stat is None else v[stat]


def pct(sim, measured):
    return 100.0 * (sim - measured) / measured


def collect(kvplan, runs, extra=()):
    """Every expressible point simulated (`extra`: flags appended to every
    simulation, for scripts/fit-sim-calibration.py's search)."""
    jobs, cannot = [], []
    for run in runs:
        try:
            for label, cmd, metrics in express(run):
                jobs.append((run, label, cmd, metrics))
        except CannotExpress as e:
            cannot.append((run["id"], len(run["points"]), str(e)))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = [pool.submit(simulate, kvplan, cmd + list(extra)) for _, _, cmd, _ in jobs]
        for (run, label, cmd, metrics), fut in zip(jobs, futures):
            try:
                result = fut.result()
            except CannotExpress as e:
                cannot.append((run["id"], 1, str(e)))
                continue
            for name, measured, key, peers in metrics:
                sim = pick(result, key)
                rows.append({"run": run["id"], "point": label, "metric": name,
                             "measured": measured, "simulated": sim, "error": pct(sim, measured),
                             "peers": {k: pct(v, measured) for k, v in peers.items()}})
    merged = {}  # one line per run and reason
    for rid, n, why in cannot:
        merged[(rid, why)] = merged.get((rid, why), 0) + n
    return rows, [(rid, n, why) for (rid, why), n in merged.items()]


def medians(rows):
    out = {}
    for fam in ("TTFT", "TPOT/ITL", "E2E", "throughput"):
        errs = [abs(r["error"]) for r in rows if family(r["metric"]) == fam]
        out[fam] = (statistics.median(errs) if errs else None, len(errs))
    return out


def peer_medians(rows):
    """Per peer and metric family: the peer's median absolute error and kvplan's
    on exactly the same points."""
    by = {}
    for r in rows:
        for peer, e in r["peers"].items():
            by.setdefault((peer, family(r["metric"])), []).append((abs(e), abs(r["error"])))
    return {k: (statistics.median(p for p, _ in v), statistics.median(o for _, o in v), len(v))
            for k, v in sorted(by.items())}


def _concurrency_bucket(run, row):
    c = next(p["concurrency"] for p in run["points"] if p["label"] == row["point"])
    for top, name in ((8, "1-8"), (32, "16-32"), (64, "33-64")):
        if c <= top:
            return name
    return "over 64"


def _input_bucket(run, row):
    isl = run["workload"]["isl"]["fixed"]
    return "up to 1k" if isl <= 1024 else "2k" if isl <= 2048 else "4k" if isl <= 4096 else "8k"


def breakdown(rows, runs):
    """Signed median error (simulated - measured) of the concurrency sweeps by
    engine, model, GPU, concurrency and input length: which way the model
    errs, and where."""
    by_id = {r["id"]: r for r in runs}
    keys = (("engine", lambda r, _: r["engine"]), ("model", lambda r, _: r["model"]),
            ("GPU", lambda r, _: r["gpu"]),
            ("concurrency", _concurrency_bucket), ("input", _input_bucket))
    out = ["", "Concurrency sweeps, signed median error by engine, model, GPU, concurrency and",
           "input length (negative: kvplan is faster than the measurement):", "",
           "| by | group | TTFT | TPOT |", "|---|---|---|---|"]
    sweep = [r for r in rows if by_id[r["run"]]["workload"].get("kind") == "concurrency"]
    for name, key in keys:
        for group in sorted({key(by_id[r["run"]], r) for r in sweep}):
            cells = []
            for fam in ("TTFT", "TPOT/ITL"):
                errs = [r["error"] for r in sweep
                        if key(by_id[r["run"]], r) == group and family(r["metric"]) == fam]
                cells.append(f"{statistics.median(errs):+.1f} % ({len(errs)})" if errs else "-")
            out.append(f"| {name} | {group} | " + " | ".join(cells) + " |")
    return out


# What the remaining concurrency-sweep error is, as far as the public facts go
# (rendered under the breakdown; keep it true when the model changes).
WHY_LEFT = [
    "", "What is left, and why (from the tables above and public facts):", "",
    "- Uncalibrated, TTFT was most optimistic at low concurrency (C <= 8: -55 %),",
    "  mostly SGLang's DeepSeek and Qwen3-235B rows: SGLang's fitted 160 ms admission",
    "  latency absorbs it (## Calibration), a fit, not a cause. Calibrated, TTFT",
    "  errs low as concurrency grows (C > 64: -14 %), where queueing behind prefills",
    "  dominates and SGLang's prefill steps keep the performance model's time.",
    "- SGLang's 160 ms admission latency was fitted on 32B-and-larger models at TP 1-8;",
    "  SGLang's own README measures Llama-3.1-8B on one A100 (0.3.0, 4 req/s) at a",
    "  TTFT p50 of 32 ms, so it is not every deployment's: small models are likely",
    "  predicted too slow to first token (no expressible SGLang point says).",
    "- vLLM is uncalibrated: its TTFT errors have both signs by input length (below),",
    "  which no per-step or per-request constant fixes.",
    "- vLLM's serving path outside the forward pass (API server tokenizing and",
    "  detokenizing, the ZMQ/msgpack hop to the engine core, scheduling) is small at the",
    "  releases in the data: the sim-to-real dense runs on 0.15.1 (Llama-3.1-8B TP 1-2,",
    "  Qwen2.5-7B, H100) measure a mean TTFT 2-7 ms over kvplan's (19.0 against 14.0 ms at",
    "  TP 2) and an ITL 0.4-1.2 ms over it. The low-concurrency TTFT gap of the MoE rows is",
    "  no such floor: it grows with the prompt (gpt-oss-120b, C <= 8: median 29 ms at 1k,",
    "  100 ms at 8k; measured over simulated 2.7 and 3.1; MiniMax-M2.5 2.2 and 2.1), i.e.",
    "  prefill time per token, the MoE kernels' share (src/perf), not a serving constant.",
    "- vLLM Qwen3-32B (gap analysis, exact lengths): kvplan errs high at 1k input and",
    "  low at 4k. At 1k the whole closed-loop burst stays together in one 8192-token",
    "  step; at 4k chunking spreads it and it never regroups. The measurements sit",
    "  between, at 2.8-4.4 single-request prefills for both lengths; eight 1k prefills",
    "  at TP 2 cannot take under ~260 ms even at 100 % of H100's bf16 peak, against a",
    "  measured 154 ms mean, so the real bursts break up. What breaks them (the",
    "  client's and frontend's arrival spread) is not modelled. AIConfigurator's own",
    "  vLLM estimate fits a queueing factor and 0.8 ms per layer on these rows",
    "  (aic-core sdk/backends/vllm_backend.py @095f58a5); kvplan does not take",
    "  AIConfigurator's fits.",
    "- The gap-analysis launch flags are not recorded. AIConfigurator's generator in",
    "  benchmark mode (generator/rule_plugin/benchmark/{vllm,sglang}.rule @095f58a5:",
    "  max_num_batched_tokens = batch + ISL + 1500; SGLang mixed chunks) may or may not",
    "  have made them; with those flags kvplan's vLLM TTFTs move further from the",
    "  measurements (TP 8, 1k, C 8: 139 -> 44 ms against 91), so the rows keep the",
    "  engines' defaults.",
    "- Block-FP8 MoE decode (Qwen3-235B-A22B-FP8: TPOT -25 % calibrated, vLLM -30 to",
    "  -40 % uncalibrated): SGLang's fused-MoE tuning log (sglang#11730, H200, TP 8,",
    "  default config) streams the touched experts at ~2.1 TB/s, 0.44 of peak, against",
    "  kvplan's 0.8; tuned configs differ by release and GPU, so no figure is adopted.",
    "- SGLang Qwen3-32B on one H100 (0.5.8.post1) measures TTFT 4-8x kvplan's even",
    "  calibrated (-79 %): the four points wait far longer than the KV pool kvplan",
    "  plans would make them; the launch's memory flags are not recorded.",
    "- B300 (SGLang 0.5.10.post1, TTFT -54 % calibrated) measures slower than B200",
    "  (0.5.9) on the same model and lengths (C 4, 1k: TTFT 291 against 183 ms; 8k:",
    "  2050 against 479 ms) though their FP8 rates are equal: a launch or software",
    "  difference the sample does not record.",
    "- Points expressed since the bounds were set (MoE models of 120B-1T on their served",
    "  checkpoints: gpt-oss-120b, MiniMax-M2.5 fp8 and NVFP4, Kimi-K2.5 int4 and NVFP4 on vLLM;",
    "  GLM-5-FP8 and Qwen3.5-397B bf16 and NVFP4 on SGLang): kvplan is faster than measured",
    "  almost everywhere, signed medians by model and GPU TTFT -18 to -66 % (Kimi-K2.5 int4 on",
    "  H200 and GLM-5 on B300 +23 and +38 %), TPOT -7 to -48 %. It is the Block-FP8 MoE bullet's",
    "  direction at larger size: fused-MoE decode far under kvplan's 0.8 of peak bandwidth;",
    "  vLLM is uncalibrated, and its low-concurrency TTFT (gpt-oss-120b, TP 8, C 4: 37 ms",
    "  measured, 12 ms simulated) has a floor the model lacks. No public per-kernel figure for",
    "  these models fixes it here: the medians over all points miss the issue's TTFT and TPOT",
    "  targets (## Median absolute error).",
    "- InferenceX's experimental vLLM nightlies (2026-02-13/16, H200, TP 8, C 4-64), expressed",
    "  as their client runs them (benchmark_serving_random.py @843c6254: fixed lengths, 10 x C",
    "  requests after 2 x C warm-ups, medians against simulated p50s): GLM-5-FP8 with MTP TTFT",
    "  -46 %, TPOT -56 %, E2E -56 % (at C <= 8 measured over simulated 1.5-2.8 in every",
    "  metric and length; its launch sets no eager or debug flag). Qwen3.5-397B bf16 (-97 %)",
    "  is kept outside: at every length C 4 waits longer to the first token than C 8, 4.3-8.9 s",
    "  against 22-40 ms decode steps, no steady state a simulation of one launch expresses.",
    "- The sim-to-real runs expressed since (CodeLlama-34b TP 2, Llama-3.1-70B TP 4, H100)",
    "  err the other way: kvplan slower, TTFT +27 and +21 %, E2E +20 and +15 %.",
    "- Those InferenceX vLLM rows keep vLLM's defaults but for Kimi-K2.5's and MiniMax-M2.5's",
    "  --max-model-len: their scripts' memory fraction (0.9-0.95), --max-num-seqs (C, 256 or",
    "  512) and, from April, MiniMax's --max-num-batched-tokens 2 x ISL changed by date, and a",
    "  row carries its export's date, not its launch's.",
    "- SGLang Llama-3.1-8B fp8 (quantized at load, gap analysis, H200, C 32-512):",
    "  TTFT +232 % (both signs by row, -85 to +314 %), TPOT -23 % (not analysed further).",
]


def _cell(m):
    return "-" if m[0] is None else f"{m[0]:.1f} % ({m[1]})"


def _pair(cal, unc):
    """'calibrated % (uncalibrated %), points' for one median."""
    if cal[0] is None:
        return "-"
    return f"{cal[0]:.1f} % ({unc[0]:.1f} %), {cal[1]}"


def calibration_section(rows, raw, runs):
    """The factors, what each means, which points fitted them, and the medians
    uncalibrated, calibrated, on the fit half and on the held-out half."""
    split = {r["id"]: split_of(r) for r in runs}
    engine = {r["id"]: r["engine"] for r in runs}

    def part(rs, eng, half):
        return medians([r for r in rs if engine[r["run"]] in eng and split[r["run"]] in half])
    out = ["", "## Calibration", "",
           "Three named factors per engine (include/kvplan/sim_calibration.h), in one table",
           "(src/simulate/calibration.cc), set per run with kvplan simulate's --calib-* flags:",
           "", "| engine | decode step scale | fixed step time | admission latency |",
           "|---|---|---|---|"]
    for name, (scale, step_us, adm_us) in calibration_table():
        out.append(f"| {name} | {scale:g} | {step_us / 1000:g} ms | {adm_us / 1000:g} ms |")
    out += [
        "", "- decode step scale: a decode-only step's GPU time against the performance",
        "  model's forward pass (prefill and mixed steps keep the model's time).",
        "- fixed step time: per-step time outside the forward pass the engine does not",
        "  hide (sampling, result copies, scheduler bookkeeping).",
        "- admission latency: from the client sending a request to the scheduler seeing",
        "  it (HTTP, tokenizer, inter-process queue); it adds to TTFT and E2E. SGLang's",
        "  160 ms is far more than tokenizing 1-8k tokens costs: it stands for the low-",
        "  concurrency TTFT the model misses (DeepSeek and Qwen3-235B at C <= 8, -50 to",
        "  -80 % uncalibrated), whose cause the public rows do not say. Public runs",
        "  outside the table show such a floor: DeepSeek-R1 on SGLang over 16 H100 (two",
        "  nodes) takes 208 ms to the first token of a 128-token prompt at concurrency 1",
        "  (tenstorrent/tt-inference-server#356), a prefill of well under 10 ms of FLOPs;",
        "  DeepSeek-R1 FP8 on 8 H200, SGLang 0.5.7, 1k/1k, C 8: mean TTFT 331 ms",
        "  (SemiAnalysisAI/InferenceX#870).",
        "", "Fitted by `scripts/fit-sim-calibration.py` on the fit half only: a grid search",
        "per engine minimising TTFT/20 + TPOT/10 + E2E/10 (median absolute errors over",
        "the targets) on that engine's fit points. The split (`split_of`) is fixed by",
        "engine, model and GPU, so held-out points are deployments the fit never saw.",
        "vLLM's search gained under 5 % of the objective: its factors stay at identity,",
        "and its older releases keep their host time per step (simulate/vllm_scheduler.cc).",
        "Rerun with the points expressed since the bounds were set, it picks x0.9, 1 ms,",
        "30 ms (objective 6.45 -> 4.20, at the grid's corner): held-out over all points level",
        "(TTFT 47.9 -> 47.6 %, TPOT 25.9 -> 24.5 %, E2E 8.7 -> 3.1 %) but the bounded runs'",
        "held-out TTFT 26.4 -> 82.2 % (sim-to-real's small models answer in under 30 ms):",
        "not adopted. The sim-to-real dense runs bound vLLM's per-request serving cost to a",
        "few ms (What is left), so a fixed step time alone was tried too (x1.0, 0.5 and 1 ms,",
        "no admission latency, the Qwen3.5 nightly outside): the fit half's objective 5.86 ->",
        "5.25 and 5.13 (TPOT 23.3 -> 15.4 and 12.5 %, E2E 5.7 -> 8.5 and 11.8 %), the held-out",
        "half's 7.20 -> 7.37 and 7.37 (E2E 24.7 -> 28.9 and 32.8 %): not adopted.",
        "SGLang's, rerun so, picks x1.0, 2 ms, 200 ms (objective 1.66 -> 1.56):",
        "held-out over all points better (TTFT 46.5 -> 42.4 %, TPOT 19.7 -> 19.1 %), the",
        "bounded runs' held-out worse (TTFT 26.1 -> 32.4 %, TPOT 10.9 -> 14.3 %): not adopted.",
        "Run the other way (fitted on the held-out half), the same search picks SGLang",
        "x1.1, 2 ms, 120 ms: one grid step from the adopted factors.",
        "", "Median absolute error calibrated (uncalibrated in brackets), points:", "",
        "| engine | half | TTFT | TPOT/ITL | E2E |", "|---|---|---|---|---|"]
    both, halves = ("sglang", "vllm"), ("fit", "held-out")
    parts = [(e, h, (e,), (h,)) for e in both for h in halves]
    parts += [("all", h, both, (h,)) for h in halves] + [("all", "both", both, halves)]
    for name, half, eng, hs in parts:
        cal, unc = part(rows, eng, hs), part(raw, eng, hs)
        cells = [_pair(cal[f], unc[f]) for f in ("TTFT", "TPOT/ITL", "E2E")]
        out.append(f"| {name} | {half} | " + " | ".join(cells) + " |")
    return out


def bounded_runs():
    with open(BOUNDED_RUNS) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def median_table(rows, runs):
    """The headline medians: over every expressed point against the issue's
    targets, and over the bounded runs' points against the regression bounds;
    returns the table and the bounded medians (all, held-out) the check uses."""
    bounded = bounded_runs()
    split = {r["id"]: split_of(r) for r in runs}
    inside = [r for r in rows if r["run"] in bounded]
    med, med_bounded = medians(rows), medians(inside)
    held_out = medians([r for r in inside if split[r["run"]] == "held-out"])
    out = ["## Median absolute error", "",
           "Every simulated point against the issue's targets. The regression bounds hold on",
           f"the points of the {len(bounded)} runs they were set on"
           f" (`{os.path.relpath(BOUNDED_RUNS, ROOT)}`):",
           "points expressed since would only loosen them.", "",
           "| metric | kvplan, all points | points | issue target | bounded runs | points |"
           " regression bound |", "|---|---|---|---|---|---|---|"]
    for fam, (m, n) in med.items():
        ms = "-" if m is None else f"{m:.1f} %"
        bm, bn = med_bounded[fam]
        bs = "-" if bm is None else f"{bm:.1f} %"
        tgt = f"{TARGETS[fam]} %" if fam in TARGETS else "-"
        out.append(f"| {fam} | {ms} | {n} | {tgt} | {bs} | {bn} | {BOUNDS[fam]} % |")
    return out, med_bounded, held_out, med


def render(rows, cannot, runs, raw):
    points = sum(len(r["points"]) for r in runs)
    expressed = len({(r["run"], r["point"]) for r in rows})
    table, med, held_out, med_all = median_table(rows, runs)
    out = ["# Simulator validation: `kvplan simulate` against measured public runs", "",
           "Generated by `scripts/simulate-validation.py` (do not edit by hand; the ctest",
           "`simulator_validation` regenerates it and fails when it is stale or a median",
           "exceeds its bound). The points are `tests/data/real/serving/validation-runs.jsonl`,",
           "a copy of `../shared/serving/runs.jsonl` (sources in that folder's `SOURCES.md`).",
           "The simulator's three calibration factors per engine were fitted on the fit",
           "half of them and are applied (## Calibration: values, meaning, the error on",
           "the held-out half and without them); nothing else was fitted on them.", "",
           f"{expressed} of {points} load points simulated; error = (simulated - measured) /",
           "measured. How each source is expressed is in the script's docstrings (sim-to-real:",
           "each stage alone at its rate, constant arrivals, the study's mean lengths;",
           "concurrency sources: closed loop from an idle server, InferenceX rows 10 x C",
           "requests with lengths uniform over [0.8 L, L] (its DeepSeek SGLang rows with",
           "the launch flags of its scripts), AIConfigurator gap-analysis rows",
           "20 x C requests of exactly L, the one reported figure against the simulated mean;",
           "traces: the run's own request stream). Prefix caching and CPU offload, on in the",
           "sim-to-real runs, are not modelled.", ""]
    out += table
    out += ["", "By source (median absolute error, points):", "",
            "| source | TTFT | TPOT/ITL | E2E | throughput |", "|---|---|---|---|---|"]
    source = {r["id"]: r["source"] for r in runs}
    for src in sorted({source[r["run"]] for r in rows}):
        cells = []
        for m, n in medians([r for r in rows if source[r["run"]] == src]).values():
            cells.append("-" if m is None else f"{m:.1f} % ({n})")
        out.append(f"| {src} | " + " | ".join(cells) + " |")
    out += calibration_section(rows, raw, runs)
    out += breakdown(rows, runs)
    out += WHY_LEFT
    out += ["", "Peers on the same points and metrics (their published predictions):", "",
            "| simulator | metric | its median absolute error | kvplan's on the same points | points |",
            "|---|---|---|---|---|"]
    for (peer, fam), (m, ours, n) in peer_medians(rows).items():
        out.append(f"| {peer} | {fam} | {m:.1f} % | {ours:.1f} % | {n} |")
    out += ["", "## Per point", "",
            "| run | point | metric | measured | simulated | error | peers' errors |",
            "|---|---|---|---|---|---|---|"]
    for r in rows:
        peers = ", ".join(f"{k} {v:+.0f} %" for k, v in r["peers"].items())
        out.append(f"| {r['run']} | {r['point']} | {r['metric']} | {r['measured']:.4g} | "
                   f"{r['simulated']:.4g} | {r['error']:+.1f} % | {peers} |")
    out += ["", "## Points kvplan cannot express", "", "| run | points | why |", "|---|---|---|"]
    for rid, n, why in sorted(cannot):
        out.append(f"| {rid} | {n} | {why} |")
    missed = [f"{fam} median {m:.1f} % misses the issue's {TARGETS[fam]} %"
              for fam, (m, _) in med_all.items() if fam in TARGETS and m is not None
              and m > TARGETS[fam]]
    return "\n".join(out) + "\n", med, held_out, missed


def check_served_checkpoints():
    """Every served checkpoint the table names is bundled or says why not: a
    typo would otherwise read as one more refusal."""
    for ckpt in SERVED_CHECKPOINTS.values():
        path = os.path.join(ROOT, "data", "models", ckpt.replace("/", "--") + ".json")
        if ckpt not in UNBUNDLED_CHECKPOINTS and not os.path.exists(path):
            sys.exit(f"SERVED_CHECKPOINTS names {ckpt}, neither in data/models nor in "
                     "UNBUNDLED_CHECKPOINTS")


def main():
    check_served_checkpoints()
    ap = argparse.ArgumentParser()
    ap.add_argument("kvplan")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--out", default=DOC)
    ap.add_argument("--rows", help="also write every point's row as JSON lines to this file")
    a = ap.parse_args()
    with open(RUNS) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    rows, cannot = collect(os.path.abspath(a.kvplan), runs)
    raw, _ = collect(os.path.abspath(a.kvplan), runs, UNCALIBRATED)
    text, med, held_out, missed = render(rows, cannot, runs, raw)
    for m in missed:
        print(m)
    if a.rows:
        with open(a.rows, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    over = [f"{fam} median {m:.1f} % > {BOUNDS[fam]} %" for fam, (m, _) in med.items()
            if m is not None and m > BOUNDS[fam]]
    over += [f"held-out {fam} median {m:.1f} % > {HELD_OUT_BOUNDS[fam]} %"
             for fam, (m, _) in held_out.items() if m is not None and m > HELD_OUT_BOUNDS[fam]]
    if a.check:
        with open(a.out) as f:
            stale = f.read() != text
        if stale:
            print(f"{a.out} is stale: run scripts/simulate-validation.py BUILD/kvplan")
        for o in over:
            print(o)
        return 1 if stale or over else 0
    with open(a.out, "w") as f:
        f.write(text)
    for o in over:
        print(o)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
