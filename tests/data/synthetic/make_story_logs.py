#!/usr/bin/env python3
"""Writes the two launches of the story (issue #4). SYNTHETIC: the line formats
are SGLang v0.4.9's own, the numbers are ours (the token count is kvplan's
formula applied to the chosen free memory): Qwen3-235B-A22B-FP8, TP 8 on 8x RTX PRO 6000 Blackwell.
Chosen: pre-load free 93.999 GiB (min over ranks), post-load free 21.697 GiB.
Baseline: no --mem-fraction-static (SGLang chose 0.88); KV tokens =
int((21.697 - 93.999*0.12) * 2**30) // 48128 = 232407.
Second run: --mem-fraction-static 0.55 -> rest -20.60 GiB -> "Not enough memory".
Run once from this directory (tests/data/synthetic); the outputs are committed."""

GPU = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
PRE = [93.999, 94.021, 94.018, 94.020, 94.019, 94.022, 94.017, 94.030]
POST = [21.697, 21.719, 21.716, 21.718, 21.717, 21.720, 21.715, 21.728]
TOKENS = 232407
K_GIB = (TOKENS + 1) * 24064 / 2**30


def smi():
    out = ["+-----------------------------------------------------------------------------------------+",
           "| NVIDIA-SMI 575.57.08              Driver Version: 575.57.08      CUDA Version: 12.9     |",
           "|-----------------------------------------+------------------------+----------------------+",
           "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
           "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
           "|=========================================+========================+======================|"]
    for i in range(8):
        out.append(f"|   {i}  {GPU}          On  |   00000000:{0x18 + i * 16:02X}:00.0 Off |                    0 |")
        out.append(f"| N/A   31C    P8             34W /  600W |       0MiB /  97887MiB |      0%      Default |")
        out.append("+-----------------------------------------+------------------------+----------------------+")
    return out


def server_args(mfs, seed, graph_bs):
    return (
        "server_args=ServerArgs(model_path='Qwen/Qwen3-235B-A22B-FP8', tokenizer_path='Qwen/Qwen3-235B-A22B-FP8', "
        "tokenizer_mode='auto', skip_tokenizer_init=False, load_format='auto', model_loader_extra_config='{}', "
        "trust_remote_code=False, context_length=None, is_embedding=False, enable_multimodal=None, revision=None, "
        "model_impl='auto', host='0.0.0.0', port=30000, skip_server_warmup=False, warmups=None, nccl_port=None, "
        "dtype='auto', quantization=None, quantization_param_path=None, kv_cache_dtype='auto', "
        f"mem_fraction_static={mfs}, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=8192, "
        "max_prefill_tokens=16384, schedule_policy='fcfs', schedule_conservativeness=1.0, cpu_offload_gb=0, "
        "page_size=1, hybrid_kvcache_ratio=None, swa_full_tokens_ratio=0.8, disable_hybrid_swa_memory=False, "
        "device='cuda', tp_size=8, pp_size=1, max_micro_batch_size=None, stream_interval=1, stream_output=False, "
        f"random_seed={seed}, constrained_json_whitespace_pattern=None, watchdog_timeout=300, dist_timeout=None, "
        "download_dir=None, base_gpu_id=0, gpu_id_step=1, sleep_on_idle=False, log_level='info', "
        "log_level_http=None, log_requests=False, log_requests_level=0, crash_dump_folder=None, "
        "show_time_cost=False, enable_metrics=False, bucket_time_to_first_token=None, "
        "bucket_e2e_request_latency=None, bucket_inter_token_latency=None, collect_tokens_histogram=False, "
        "decode_log_interval=40, enable_request_time_stats_logging=False, kv_events_config=None, "
        "api_key=None, served_model_name='Qwen/Qwen3-235B-A22B-FP8', chat_template=None, "
        "completion_template=None, file_storage_path='sglang_storage', enable_cache_report=False, "
        "reasoning_parser='qwen3', tool_call_parser=None, dp_size=1, load_balance_method='round_robin', "
        "dist_init_addr=None, nnodes=1, node_rank=0, json_model_override_args='{\"rope_scaling\": null}', "
        "preferred_sampling_params=None, enable_lora=None, max_lora_rank=None, lora_target_modules=None, "
        "lora_paths=None, max_loras_per_batch=8, lora_backend='triton', attention_backend=None, "
        "sampling_backend='flashinfer', grammar_backend='xgrammar', mm_attention_backend=None, "
        "speculative_algorithm=None, speculative_draft_model_path=None, speculative_num_steps=None, "
        "speculative_eagle_topk=None, speculative_num_draft_tokens=None, ep_size=8, "
        "enable_ep_moe=False, enable_deepep_moe=False, deepep_mode='auto', ep_num_redundant_experts=0, "
        "init_expert_location='trivial', enable_eplb=False, eplb_algorithm='auto', "
        "disable_radix_cache=False, cuda_graph_max_bs=" + str(graph_bs[-1]) + ", "
        "cuda_graph_bs=" + str(graph_bs) + ", disable_cuda_graph=False, disable_cuda_graph_padding=False, "
        "enable_profile_cuda_graph=False, enable_nccl_nvls=False, enable_tokenizer_batch_encode=False, "
        "disable_outlines_disk_cache=False, disable_custom_all_reduce=False, enable_mscclpp=False, "
        "disable_overlap_schedule=False, enable_mixed_chunk=False, enable_dp_attention=False, "
        "enable_dp_lm_head=False, enable_two_batch_overlap=False, enable_torch_compile=False, "
        "torch_compile_max_bs=32, torchao_config='', enable_nan_detection=False, enable_p2p_check=False, "
        "triton_attention_reduce_in_fp32=False, triton_attention_num_kv_splits=8, num_continuous_decode_steps=1, "
        "delete_ckpt_after_loading=False, enable_memory_saver=False, allow_auto_truncate=False, "
        "enable_custom_logit_processor=False, flashinfer_mla_disable_ragged=False, disable_shared_experts_fusion=False, "
        "disable_chunked_prefix_cache=False, disable_fast_image_processor=False, enable_return_hidden_states=False, "
        "warmup_requests=None, debug_tensor_dump_output_folder=None, debug_tensor_dump_input_file=None, "
        "debug_tensor_dump_inject=False, disaggregation_mode='null', disaggregation_transfer_backend='mooncake', "
        "disaggregation_bootstrap_port=8998, disaggregation_decode_tp=None, disaggregation_decode_dp=None, "
        "disaggregation_prefill_pp=1, disaggregation_ib_device=None, num_reserved_decode_tokens=512, "
        "pdlb_url=None, custom_weight_loader=[], weight_loader_disable_mmap=False)"
    )


def header(t, cmd, mfs, seed, graph_bs):
    lines = [f"$ {cmd}"] + smi()
    lines.append(f"[{t}:01] {server_args(mfs, seed, graph_bs)}")
    lines.append(f"[{t}:02] Using default HuggingFace chat template with detected content format: string")
    for r in range(8):
        lines.append(f"[{t}:09 TP{r}] Attention backend not set. Use flashinfer backend by default.")
    for r in range(8):
        lines.append(f"[{t}:09 TP{r}] Init torch distributed begin.")
    for r in [0, 3, 1, 2, 5, 4, 7, 6]:
        lines.append(f"[{t}:11 TP{r}] Init torch distributed ends. mem usage={95.59 - PRE[r]:.2f} GB")
    for r in [2, 0, 1, 3, 4, 6, 5, 7]:
        lines.append(f"[{t}:12 TP{r}] Load weight begin. avail mem={PRE[r]:.2f} GB")
    for pct, done in ((0, 0), (2, 1), (50, 24), (100, 48)):
        lines.append(f"Loading safetensors checkpoint shards: {pct:3d}% Completed | {done}/48 [00:{done:02d}<00:10, 2.1it/s]\r"
                     f"Loading safetensors checkpoint shards: {pct:3d}% Completed | {done}/48 [00:{done:02d}<00:10, 2.2it/s]")
    for r in [1, 0, 2, 3, 7, 4, 5, 6]:
        lines.append(f"[{t[:-2]}{int(t[-2:]) + 1:02d}:14 TP{r}] Load weight end. type=Qwen3MoeForCausalLM, "
                     f"dtype=torch.bfloat16, avail mem={POST[r]:.2f} GB, mem usage={PRE[r] - POST[r]:.2f} GB.")
    return lines


def baseline():
    t = "2025-07-21 08:51"
    t2 = "2025-07-21 08:52"
    bs = [1, 2, 4, 8] + list(range(16, 257, 8))
    cmd = ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-FP8 --tp 8 --ep-size 8 "
           "--reasoning-parser qwen3 --host 0.0.0.0 --port 30000")
    lines = header(t, cmd, 0.88, 530148473, bs)
    for r in range(8):
        lines.append(f"[{t2}:15 TP{r}] KV Cache is allocated. #tokens: {TOKENS}, K size: {K_GIB:.2f} GB, V size: {K_GIB:.2f} GB")
        lines.append(f"[{t2}:15 TP{r}] Memory pool end. avail mem={POST[r] - 10.75:.2f} GB")
    for r in range(8):
        lines.append(f"[{t2}:16 TP{r}] Capture cuda graph begin. This can take up to several minutes. avail mem={POST[r] - 10.77:.2f} GB")
    lines.append(f"[{t2}:16 TP0] Capture cuda graph bs {bs}")
    lines.append(f"Capturing batches (bs=256 avail_mem=10.91 GB):   0%|          | 0/35 [00:00<?, ?it/s]\r"
                 f"Capturing batches (bs=1 avail_mem=9.10 GB): 100%|##########| 35/35 [00:21<00:00,  1.62it/s]")
    for r in range(8):
        lines.append(f"[{t2}:38 TP{r}] Capture cuda graph end. Time elapsed: 21.63 s. mem usage=1.85 GB. avail mem={POST[r] - 12.62:.2f} GB.")
    lines.append(f"[{t2}:39 TP0] max_total_num_tokens={TOKENS}, chunked_prefill_size=8192, max_prefill_tokens=16384, "
                 f"max_running_requests=2048, context_len=40960, available_gpu_mem={POST[0] - 12.62:.2f} GB")
    lines.append(f"[{t2}:40] INFO:     Started server process [81]")
    lines.append(f"[{t2}:40] INFO:     Waiting for application startup.")
    lines.append(f"[{t2}:40] INFO:     Application startup complete.")
    lines.append(f"[{t2}:40] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)")
    lines.append(f"[{t2}:41] INFO:     127.0.0.1:40184 - \"GET /get_model_info HTTP/1.1\" 200 OK")
    lines.append(f"[{t2}:44 TP0] Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0")
    lines.append(f"[{t2}:46] INFO:     127.0.0.1:40190 - \"POST /generate HTTP/1.1\" 200 OK")
    lines.append(f"[{t2}:46] The server is fired up and ready to roll!")
    return lines


def failed():
    t = "2025-07-22 14:03"
    bs = [1, 2, 4, 8] + list(range(16, 129, 8))
    cmd = ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-FP8 --tp 8 --ep-size 8 "
           "--mem-fraction-static 0.55 --cuda-graph-max-bs 128 --reasoning-parser qwen3 --host 0.0.0.0 --port 30000")
    lines = header(t, cmd, 0.55, 993262141, bs)
    t2 = "2025-07-22 14:04"
    tb = [
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2920, in run_scheduler_process',
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 330, in __init__',
        "    self.tp_worker = TpWorkerClass(",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py", line 67, in __init__',
        "    self.worker = TpModelWorker(",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py", line 84, in __init__',
        "    self.model_runner = ModelRunner(",
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 242, in __init__',
        "    self.initialize(min_per_gpu_memory)",
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 285, in initialize',
        "    self.init_memory_pool(",
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1152, in init_memory_pool',
        "    raise RuntimeError(",
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
        "",
    ]
    for r in [0, 5]:
        lines.append(f"[{t2}:15 TP{r}] Scheduler hit an exception: " + tb[0])
        lines.extend(tb[1:])
    lines.append(f"[{t2}:15] Received sigquit from a child process. It usually means the child failed.")
    lines.append("Killed")
    return lines


if __name__ == "__main__":
    with open("sglang/story_baseline_auto_mfs.log", "w") as f:
        f.write("\n".join(baseline()) + "\n")
    with open("sglang/story_mfs_0.55_failed.log", "w") as f:
        f.write("\n".join(failed()) + "\n")
