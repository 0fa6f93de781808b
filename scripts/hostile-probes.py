#!/usr/bin/env python3
"""Issue 13's memory and time targets, measured on a built binary.

Usage: nice python3 scripts/hostile-probes.py build/kvplan [--gib 2] [--only NAME]

Each probe makes one hostile input in a scratch folder under /tmp (one at a time,
deleted before the next is made, so at most one large file exists), runs kvplan on it
once under `/usr/bin/time -v` and prints peak RSS, wall time, exit status and the
number of stderr lines. Targets (issue 13): peak RSS <= 64 MB on any single input up
to 2 GB; a refusal (exit 2) ends within 2 s with exactly one line on stderr. A probe
that is not a refusal (a whole 2 GB log streamed) is held to the memory bound only:
scanning 2 GB takes longer than 2 s on any core. Exit status 1 when a probe misses.

Inputs a reader refuses by their size alone (config.json, YAML, GPU file, index) are
sparse files: kvplan never reads their bytes, so what they hold does not matter.
Everything kvplan reads is written out byte for byte.
"""
import argparse
import os
import random
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

MB = 1000 * 1000
RSS_LIMIT_KB = 64 * MB // 1000
REFUSAL_LIMIT_S = 2.0
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYN = os.path.join(REPO, "tests", "data", "synthetic")
TINY_CONFIG = os.path.join(SYN, "hostile", "regex_catastrophic.json")


def sparse(path, size, head=b"{"):
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)


def repeat_to(path, size, head, unit, tail=b"", pad=None):
    """`head`, then `unit` repeated (written in ~8 MB chunks) to `size` bytes, then `tail`.
    The last unit is cut to fit, or with `pad` only whole units are written and the rest of
    the size is `pad` bytes (JSON whitespace, say)."""
    chunk = unit * max(1, (8 << 20) // len(unit))
    with open(path, "wb") as f:
        f.write(head)
        left = size - len(head) - len(tail)
        while left > 0:
            part = chunk[:left] if left < len(chunk) else chunk
            if pad is not None and len(part) < len(chunk):
                whole = len(part) - len(part) % len(unit)
                part = part[:whole] + pad * (len(part) - whole)
            f.write(part)
            left -= len(part)
        f.write(tail)


def model_dir(d):
    os.makedirs(d)
    shutil.copy(TINY_CONFIG, os.path.join(d, "config.json"))
    return d


def safetensors_header(path, tensors):
    """A real safetensors file: 8-byte length, then a JSON header of `tensors` entries."""
    parts = ['"t%d":{"dtype":"BF16","shape":[1],"data_offsets":[%d,%d]}' % (i, 2 * i, 2 * i + 2)
             for i in range(tensors)]
    header = ("{" + ",".join(parts) + "}").encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
        f.truncate(8 + len(header) + 2 * tensors)
    return len(header)


def one_launch():
    with open(os.path.join(SYN, "sglang", "decode_llama8b_no_spec.log"), "rb") as f:
        return f.read()


def decode_line():
    return (b"[2026-03-02 14:01:00 TP0] Decode batch. #running-req: 1, #token: 200, token usage: "
            b"0.00, cuda graph: True, gen throughput (token/s): 81.57, #queue-req: 0, \n")


def probes(t, size):
    """(name, make(t) -> args, expect refusal?) for every reader; `size` bytes where the
    input kind has no natural size."""
    out = []

    def add(name, refuse):
        def wrap(make):
            out.append((name, make, refuse))
            return make
        return wrap

    @add("config.json, sparse to SIZE", True)
    def _(t):
        sparse(f"{t}/config.json", size)
        return ["plan", "--gpu", "h100", "--model", f"{t}/config.json"]

    @add("config.json of 1 MiB of small values (the limit, worst shape)", False)
    def _(t):
        with open(TINY_CONFIG, "rb") as f:
            cfg = f.read().rstrip()[:-1]  # without the closing brace
        repeat_to(f"{t}/config.json", (1 << 20) - 2, cfg + b',"x":[0', b",0", b"]}", b" ")
        return ["plan", "--gpu", "h100", "--model", f"{t}/config.json"]

    @add("config.json: one 1 MiB re: ignore pattern", None)
    def _(t):
        with open(TINY_CONFIG, "rb") as f:
            cfg = f.read().replace(b'"re:(.*)*Z"', b'"re:' + b"a|" * 500000 + b'b"')
        with open(f"{t}/config.json", "wb") as f:
            f.write(cfg)
        return ["plan", "--gpu", "h100", "--model", f"{t}/config.json"]

    @add("safetensors header of 99 MB (1.1 million tensors)", False)
    def _(t):
        d = model_dir(f"{t}/m")
        n = 1_100_000
        while safetensors_header(f"{d}/model.safetensors", n) > 100 * MB:
            n -= 20_000
        return ["plan", "--gpu", "h100", "--model", d]

    @add("safetensors file of SIZE, header length = SIZE", True)
    def _(t):
        d = model_dir(f"{t}/m")
        sparse(f"{d}/model.safetensors", size, struct.pack("<Q", size - 8) + b"{")
        return ["plan", "--gpu", "h100", "--model", d]

    @add("model.safetensors.index.json of 60 MB (SAX)", False)
    def _(t):
        d = model_dir(f"{t}/m")
        head = b'{"metadata":{"total_size":1000},"weight_map":{'
        entry = b'"model.layers.0.mlp.down_proj.weight":"model-00001-of-00002.safetensors",'
        repeat_to(f"{d}/model.safetensors.index.json", 60 * MB, head, entry, b'"z":"a"}}', b" ")
        return ["plan", "--gpu", "h100", "--model", d]

    @add("model.safetensors.index.json, sparse to SIZE", True)
    def _(t):
        d = model_dir(f"{t}/m")
        sparse(f"{d}/model.safetensors.index.json", size)
        return ["plan", "--gpu", "h100", "--model", d]

    trt = ["plan", "--engine", "trtllm", "--gpu", "h100", "--model", "Qwen/Qwen3-32B",
           "--extra_llm_api_options"]

    @add("--extra_llm_api_options YAML of 1 MiB (the limit)", None)
    def _(t):
        repeat_to(f"{t}/o.yaml", (1 << 20) - 1, b"max_batch_size: 8\n",
                  b"# a comment line, as option files carry them\n", b"", b"#")
        return trt + [f"{t}/o.yaml"]

    @add("--extra_llm_api_options YAML, sparse to SIZE", True)
    def _(t):
        sparse(f"{t}/o.yaml", size, b"a: 1\n")
        return trt + [f"{t}/o.yaml"]

    @add("--gpu FILE.json, sparse to SIZE", True)
    def _(t):
        sparse(f"{t}/g.json", size)
        return ["plan", "--gpu", f"{t}/g.json", "--model", "Qwen/Qwen3-8B"]

    @add("log of SIZE: one start-up, then decode lines", False)
    def _(t):
        repeat_to(f"{t}/a.log", size, one_launch(), decode_line())
        return ["explain", f"{t}/a.log"]

    @add("the same log, ingested", False)
    def _(t):
        repeat_to(f"{t}/a.log", size, one_launch(), decode_line())
        return ["ingest", "--db", f"{t}/s.db", f"{t}/a.log"]

    @add("log of SIZE random bytes", True)
    def _(t):
        rnd = random.Random(13)
        repeat_to(f"{t}/r.log", size, b"", bytes(rnd.getrandbits(8) for _ in range(1 << 20)))
        return ["explain", f"{t}/r.log"]

    @add("log of SIZE zero bytes", True)
    def _(t):
        sparse(f"{t}/z.log", size, b"")
        return ["explain", f"{t}/z.log"]

    @add("log of SIZE: journald lines of no engine", True)
    def _(t):
        repeat_to(f"{t}/j.log", size, b"",
                  b"Dec 01 12:00:00 host systemd[1]: Started Session 42 of user root.\n")
        return ["explain", f"{t}/j.log"]

    @add("journald lines of no engine, ingested", True)
    def _(t):
        repeat_to(f"{t}/j.log", size, b"",
                  b"Dec 01 12:00:00 host systemd[1]: Started Session 42 of user root.\n")
        return ["ingest", "--db", f"{t}/s.db", f"{t}/j.log"]

    @add("log of SIZE: one line, no newline", None)
    def _(t):
        repeat_to(f"{t}/l.log", size, b"[2025-07-21 08:51:01] server_args=ServerArgs(x='", b"a")
        return ["explain", f"{t}/l.log"]

    @add("log of SIZE: one launch repeated (restarts)", True)
    def _(t):
        repeat_to(f"{t}/k.log", size, b"", one_launch())
        return ["ingest", "--db", f"{t}/s.db", f"{t}/k.log"]

    @add("log: 2 million repeated memory lines in one launch", False)
    def _(t):
        line = b"[2026-03-02 14:00:07 TP0] Load weight begin. avail mem=78.50 GB\n"
        repeat_to(f"{t}/m.log", len(line) * 2_000_000, b"", line)
        return ["explain", f"{t}/m.log"]

    @add("log: 100,000 ranks' memory lines", False)
    def _(t):
        with open(f"{t}/p.log", "w") as f:
            f.write("[2026-03-02 14:00:01] server_args=ServerArgs(model_path='m', tp_size=8)\n")
            for i in range(100000):
                f.write(f"[2026-03-02 14:00:07 TP{i}] Load weight begin. avail mem=78.50 GB\n")
        return ["explain", f"{t}/p.log"]

    @add("diff of two logs of SIZE/2 each", False)
    def _(t):
        repeat_to(f"{t}/a.log", size // 2, one_launch(), decode_line())
        os.link(f"{t}/a.log", f"{t}/b.log")
        return ["diff", f"{t}/a.log", f"{t}/b.log"]

    @add("--trace of SIZE: a header, then one line without a newline", True)
    def _(t):
        repeat_to(f"{t}/t.csv", size, b"arrival_ms,input_tokens,output_tokens\n0,", b"1")
        return ["simulate", "--gpu", "h100", "--model", "Qwen/Qwen3-8B", "--trace", f"{t}/t.csv"]

    @add("pasted command: a 120 KiB word", None)
    def _(t):
        return ["plan", "--gpu", "h100", "--", "python3", "-m", "sglang.launch_server",
                "--model-path", "Qwen/Qwen3-8B", "--served-model-name", "a" * (120 << 10)]

    @add("pasted command: 15,000 words (1.5 MB, near ARG_MAX)", None)
    def _(t):
        return (["plan", "--gpu", "h100", "--", "vllm", "serve", "Qwen/Qwen3-8B"] +
                ["--served-model-name", "m" * 48] * 15000)

    return out


def cap_memory():
    # A probe that reads without bound (a 2 GB file into a string) must not take the shared
    # machine's memory with it: 4 GiB of address space, far above the 64 MB target.
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(binary, args):
    """(peak RSS in kB, wall s, exit status, stderr lines, first stderr line)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.run(["/usr/bin/time", "-v", "timeout", "-s", "KILL", "300", binary] + args,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                           preexec_fn=cap_memory)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    ours, _, timing = text.partition("\tCommand being timed:")
    # time(1)'s own line about the status is not kvplan's.
    ours = re.sub(r"Command (exited with non-zero status|terminated by signal) \d+\n", "", ours)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", timing).group(1)
    secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall.split(":"))))
    lines = [ln for ln in ours.split("\n") if ln]
    return rss, secs, p.returncode, len(lines), (lines[0][:90] if lines else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--gib", type=float, default=2.0, help="SIZE, in GiB (default 2)")
    ap.add_argument("--only", default="", help="run the probes whose name holds this")
    a = ap.parse_args()
    size = int(a.gib * (1 << 30))
    binary = os.path.abspath(a.binary)
    failed = 0
    print(f"SIZE = {size:,} bytes; limits: peak RSS {RSS_LIMIT_KB // 1000} MB, "
          f"a refusal {REFUSAL_LIMIT_S:.0f} s and one stderr line")
    print(f"{'input':<62} {'RSS MB':>7} {'wall s':>7} {'exit':>4} lines  verdict")
    for name, make, refuse in probes(None, size):
        if a.only not in name:
            continue
        t = tempfile.mkdtemp(prefix="kvplan-probe-")
        try:
            args = make(t)
            rss, secs, code, lines, first = run(binary, args)
        finally:
            shutil.rmtree(t)
        bad = []
        if rss > RSS_LIMIT_KB:
            bad.append("RSS")
        if code not in (0, 1, 2):
            bad.append(f"status {code}")
        # ingest reports a bad log in one line and exits 1 (it goes on to the next log).
        refused = code == 2 or (args[0] == "ingest" and code == 1)
        if refuse is True and not refused:
            bad.append("not refused")
        if refused and lines != 1:
            bad.append(f"refusal in {lines} lines")
        if refused and secs > REFUSAL_LIMIT_S:
            bad.append("refusal over 2 s")
        failed += bool(bad)
        print(f"{name.replace('SIZE', f'{a.gib:g} GiB'):<62} {rss / 1000:7.1f} {secs:7.2f} "
              f"{code:4d} {lines:5d}  {'; '.join(bad) or 'ok'}")
        if refused and first:
            print(f"    {first}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
