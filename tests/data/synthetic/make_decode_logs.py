#!/usr/bin/env python3
"""Writes the decode-report test logs. SYNTHETIC: the numbers are made up, the
line formats are the engines' own.

SGLang (v0.4.9 start-up lines, as in make_story_logs.py; decode lines as
python/sglang/srt/managers/scheduler_metrics_mixin.py log_decode_stats prints
them): Llama-3.1-8B-Instruct, TP 2 on 2x H100 80GB, every rank printing each
decode report (TP1's copy sometimes first), so a reader must count each once.
  decode_llama8b_no_spec.log      no speculation, ~82 tok/s at 1 request
  decode_llama8b_eagle3.log       EAGLE3 + SpecForge EAGLE-3 draft, accept len ~2.3, ~54 tok/s
  decode_llama8b_eagle_with_eagle3_draft.log
                                  EAGLE (not EAGLE3) + the same EAGLE-3 draft: accept len
                                  1.00 (sglang PR #21272), ~41 tok/s
Memory: pre-load free 78.50 GiB, post-load 70.46 GiB, --mem-fraction-static 0.85:
rest = 70.46 - 78.50 x 0.15 = 58.685 GiB; cell per rank = 32 layers x 4 KV heads x
128 x 2 (K, V) x 2 B = 65536 B; tokens = int(58.685 x 2**30) // 65536 = 961495.
The speculative runs add SGLang's speculative headroom (model_runner.py, as kvplan's
model states it): + 48 x 3 steps x 1 topk + 48 x 4 draft tokens + 100 = +436 -> 961931.

vLLM (v0.10.1.1 start-up lines as in v1_qwen3_8b_h100_ok.log; decode lines as
vllm/v1/metrics/loggers.py and vllm/v1/spec_decode/metrics.py print them):
  vllm/v1_decode_eagle3.log       Llama-3.1-8B-Instruct with an EAGLE-3 draft, k=3

Run once from this directory; the outputs are committed."""

import random

random.seed(7)

DRAFT = "sgl-project/SpecForge-llama3-8B-eagle3"
MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def server_args(spec):
    alg, draft = spec if spec else ("None", "None")
    q = (lambda v: v if v == "None" else f"'{v}'")
    steps, topk, tokens = ("3", "1", "4") if spec else ("None", "None", "None")
    return (
        f"server_args=ServerArgs(model_path='{MODEL}', tokenizer_path='{MODEL}', "
        "tokenizer_mode='auto', load_format='auto', trust_remote_code=False, context_length=None, "
        "host='0.0.0.0', port=30000, dtype='auto', quantization=None, kv_cache_dtype='auto', "
        "mem_fraction_static=0.85, max_running_requests=None, max_total_tokens=None, "
        "chunked_prefill_size=8192, max_prefill_tokens=16384, schedule_policy='fcfs', "
        "page_size=1, device='cuda', tp_size=2, pp_size=1, stream_interval=1, random_seed=42, "
        "log_level='info', decode_log_interval=40, dp_size=1, attention_backend=None, "
        f"speculative_algorithm={q(alg)}, speculative_draft_model_path={q(draft)}, "
        f"speculative_num_steps={steps}, speculative_eagle_topk={topk}, "
        f"speculative_num_draft_tokens={tokens}, ep_size=1, cuda_graph_max_bs=160, "
        "disable_cuda_graph=False, enable_dp_attention=False, disaggregation_mode='null')"
    )


def command(spec):
    cmd = (f"$ python3 -m sglang.launch_server --model-path {MODEL} --tp 2 "
           "--mem-fraction-static 0.85")
    if spec:
        cmd += (f" --speculative-algorithm {spec[0]} --speculative-draft-model-path {spec[1]} "
                "--speculative-num-steps 3 --speculative-eagle-topk 1 "
                "--speculative-num-draft-tokens 4")
    return cmd


def startup(spec):
    t = "2026-03-02 14:0"
    tokens = 961931 if spec else 961495
    kv_gib = tokens * 32 * 4 * 128 * 2 / 2**30
    out = [command(spec), f"[{t}0:01] {server_args(spec)}"]
    for r in (0, 1):
        out.append(f"[{t}0:05 TP{r}] Init torch distributed begin.")
        out.append(f"[{t}0:06 TP{r}] Init torch distributed ends. mem usage=0.98 GB")
    for r in (0, 1):
        out.append(f"[{t}0:07 TP{r}] Load weight begin. avail mem={78.50 + 0.01 * r:.2f} GB")
    for r in (0, 1):
        out.append(f"[{t}0:15 TP{r}] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, "
                   f"avail mem={70.46 + 0.01 * r:.2f} GB, mem usage=8.04 GB.")
    for r in (0, 1):
        out.append(f"[{t}0:16 TP{r}] KV Cache is allocated. #tokens: {tokens}, "
                   f"K size: {kv_gib:.2f} GB, V size: {kv_gib:.2f} GB")
        out.append(f"[{t}0:16 TP{r}] Memory pool end. avail mem=11.58 GB")
    for r in (0, 1):
        out.append(f"[{t}0:17 TP{r}] Capture cuda graph begin. This can take up to several "
                   "minutes. avail mem=11.56 GB")
    for r in (0, 1):
        out.append(f"[{t}0:29 TP{r}] Capture cuda graph end. Time elapsed: 12.10 s. mem usage=1.02 "
                   "GB. avail mem=10.54 GB.")
    out.append(f"[{t}0:30 TP0] max_total_num_tokens={tokens}, chunked_prefill_size=8192, "
               "max_prefill_tokens=16384, max_running_requests=4096, context_len=131072, "
               "available_gpu_mem=10.54 GB")
    out.append(f"[{t}0:31] INFO:     Application startup complete.")
    out.append(f"[{t}0:33] The server is fired up and ready to roll!")
    return out


def decode_line(stamp, rank, running, tokens, accept, graph, tok_s):
    spec = f"accept len: {accept:.2f}, accept rate: {accept / 4:.2f}, " if accept else ""
    return (f"[2026-03-02 14:{stamp} TP{rank}] Decode batch. #running-req: {running}, "
            f"#token: {tokens}, token usage: 0.00, {spec}cuda graph: {graph}, "
            f"gen throughput (token/s): {tok_s:.2f}, #queue-req: 0, ")


def decode(spec_accept, tok_s_1, tok_s_4):
    out = []
    plan = [(1, tok_s_1)] * 9 + [(4, tok_s_4)] * 3 + [(1, 0.0)]
    for i, (running, base) in enumerate(plan):
        stamp = f"{1 + i // 6:02d}:{(i * 7) % 60:02d}"
        tok_s = base * random.uniform(0.985, 1.015) if base else 0.0
        accept = spec_accept * random.uniform(0.97, 1.03) if spec_accept else None
        if spec_accept is not None and spec_accept <= 1.0:
            accept = 1.0
        order = (1, 0) if i % 3 == 0 else (0, 1)
        for r in order:
            out.append(decode_line(stamp, r, running, 200 + 40 * i, accept, "True", tok_s))
        if i == 4:  # a prefill between decode reports
            out.append(f"[2026-03-02 14:{stamp} TP0] Prefill batch. #new-seq: 3, #new-token: 96, "
                       "#cached-token: 0, token usage: 0.00, #running-req: 1, #queue-req: 0")
    return out


def write(name, lines):
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")


def vllm_log():
    p = "(APIServer pid=4101) INFO 03-02 15:{} [{}] "
    e = "(EngineCore_0 pid=4240) INFO 03-02 15:{} [{}] "
    spec = ("{'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'method': 'eagle3', "
            "'num_speculative_tokens': 3}")
    lines = [
        p.format("00:01", "api_server.py:1805") + "vLLM API server version 0.10.1.1",
        p.format("00:01", "utils.py:326") + f"non-default args: {{'model_tag': '{MODEL}', "
        f"'model': '{MODEL}', 'max_model_len': 32768, 'gpu_memory_utilization': 0.85, "
        f"'speculative_config': {spec}}}",
        e.format("00:09", "core.py:74") + f"Initializing a V1 LLM engine (v0.10.1.1) with config: "
        f"model='{MODEL}', speculative_config=SpeculativeConfig(method='eagle3', "
        "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), dtype=torch.bfloat16, "
        "max_seq_len=32768, tensor_parallel_size=1, enforce_eager=False",
        e.format("00:14", "gpu_model_runner.py:2007") + "Model loading took 15.8 GiB and 5.1 seconds",
        e.format("00:31", "gpu_worker.py:276") + "Available KV cache memory: 46.50 GiB",
        e.format("00:31", "kv_cache_utils.py:849") + "GPU KV cache size: 380,928 tokens",
        e.format("00:31", "kv_cache_utils.py:853") +
        "Maximum concurrency for 32,768 tokens per request: 11.62x",
        e.format("00:36", "gpu_model_runner.py:2708") + "Graph capturing finished in 5 secs, took 0.66 GiB",
        p.format("00:40", "launcher.py:29") + "Application startup complete.",
    ]
    reports = [(1, 0.0, 0.0, None), (1, 180.4, 2.41, (0.712, 0.455, 0.243)),
               (1, 176.9, 2.35, (0.701, 0.436, 0.213)), (1, 183.0, 2.47, (0.726, 0.474, 0.270)),
               (8, 1020.6, 2.20, (0.660, 0.370, 0.170)), (0, 0.0, 0.0, None)]
    for i, (running, gen, alen, pos) in enumerate(reports):
        t = f"{1 + i:02d}:{(i * 10) % 60:02d}"
        lines.append(p.format(t, "loggers.py:123") + f"Engine 000: Avg prompt throughput: "
                     f"{12.0 if i == 1 else 0.0:.1f} tokens/s, Avg generation throughput: {gen:.1f} "
                     f"tokens/s, Running: {running} reqs, Waiting: 0 reqs, GPU KV cache usage: "
                     f"{0.1 * running:.1f}%, Prefix cache hit rate: 0.0%")
        if pos:
            acc = round((alen - 1) * 100)
            drafted = 300
            lines.append(
                p.format(t, "metrics.py:96") + "SpecDecoding metrics: Mean acceptance length: "
                f"{alen:.2f}, Accepted throughput: {acc / 10:.2f} tokens/s, Drafted throughput: "
                f"{drafted / 10:.2f} tokens/s, Accepted: {acc} tokens, Drafted: {drafted} tokens, "
                f"Per-position acceptance rate: {', '.join(f'{x:.3f}' for x in pos)}, "
                f"Avg Draft acceptance rate: {acc / drafted * 100:.1f}%")
    return lines


if __name__ == "__main__":
    write("sglang/decode_llama8b_no_spec.log", startup(None) + decode(None, 82.0, 309.0))
    write("sglang/decode_llama8b_eagle3.log",
          startup(("EAGLE3", DRAFT)) + decode(2.3, 54.0, 188.0))
    write("sglang/decode_llama8b_eagle_with_eagle3_draft.log",
          startup(("EAGLE", DRAFT)) + decode(1.0, 41.0, 150.0))
    write("vllm/v1_decode_eagle3.log", vllm_log())
