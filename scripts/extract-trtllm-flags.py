#!/usr/bin/env python3
"""Writes trtllm-serve's parser at one release as data/flags/trtllm/RELEASE.json.

TensorRT-LLM's `trtllm-serve serve` is a click command, not argparse, and what
its --extra_llm_api_options (--config) YAML may hold is the set of fields of
the LLM API's pydantic models (extra="forbid"). Both are read from the source
with Python's `ast` (nothing of it is executed), from a bare git directory:

  scripts/extract-trtllm-flags.py --git-dir DIR --rev HEAD --root third_party/tensorrt_llm/ \
      --release 1.3.0rc3 --source "..." > data/flags/trtllm/1.3.0rc3.json

--root is the folder that holds tensorrt_llm/ (empty for TensorRT-LLM itself).

Per option: `names` (click's declared names; a bare identifier is the Python
parameter name and is dropped), `kind` ("value", or "flag" for is_flag),
`type`, `default` (when a short literal), `choices` (when literals),
`multiple`, and kvplan's `treatment` (see TREATMENT below). `yaml` lists the
fields of TorchLlmArgs, TrtLlmArgs and KvCacheConfig: the keys the LLM API
accepts at the top level for each backend and under kv_cache_config.
"""
import argparse
import ast
import json
import subprocess
import sys

# kvplan's treatment of each option (src/engines/trtllm/args.cc): "modelled"
# (changes the plan), "no_memory_effect" (accepted, no effect on memory or
# speed), anything else "not_modelled" (accepted with a warning).
MODELLED = {"--tp_size", "--pp_size", "--ep_size", "--kv_cache_free_gpu_memory_fraction",
            "--max_num_tokens", "--max_batch_size", "--max_seq_len", "--backend",
            "--extra_llm_api_options"}
NO_MEMORY_EFFECT = {"--host", "--port", "--log_level", "--tokenizer", "--custom_tokenizer",
                    "--gpus_per_node", "--cluster_size", "--num_postprocess_workers",
                    "--reasoning_parser", "--tool_parser", "--server_role",
                    "--metadata_server_config_file", "--trust_remote_code", "--revision",
                    "--otlp_traces_endpoint", "--disagg_cluster_uri", "--chat_template",
                    "--served_model_name", "--grpc", "--help"}


def git_show(git_dir, rev, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def literal(node):
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None, False
    if isinstance(value, (str, int, float, bool)) or value is None:
        if isinstance(value, str) and len(value) > 60:
            return None, False
        return value, True
    return None, False


def type_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return type_name(node.func)
    return None


def choices_of(type_node):
    """Literal choices of click.Choice([...]) or ChoiceWithAlias([...], {...})."""
    if not isinstance(type_node, ast.Call) or type_name(type_node) not in ("Choice",
                                                                          "ChoiceWithAlias"):
        return None, None
    if not type_node.args:
        return None, None
    try:
        choices = ast.literal_eval(type_node.args[0])
    except (ValueError, SyntaxError):
        return "unread", None
    aliases = None
    if len(type_node.args) > 1:
        try:
            aliases = ast.literal_eval(type_node.args[1])
        except (ValueError, SyntaxError):
            aliases = None
    return list(choices), aliases


def option_record(call):
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    names = [n for n in names if n.startswith("-")]
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    rec = {"names": names}
    is_flag = "is_flag" in kw and literal(kw["is_flag"])[0] is True
    rec["kind"] = "flag" if is_flag else "value"
    if "type" in kw:
        t = type_name(kw["type"])
        if t:
            rec["type"] = t
        choices, aliases = choices_of(kw["type"])
        if choices == "unread":
            rec["choices_unread"] = True
        elif choices is not None:
            rec["choices"] = choices
            if aliases:
                rec["choice_aliases"] = aliases
    if "default" in kw:
        value, ok = literal(kw["default"])
        if ok:
            rec["default"] = value
    if "multiple" in kw and literal(kw["multiple"])[0] is True:
        rec["multiple"] = True
    key = set(names)
    rec["treatment"] = ("modelled" if key & MODELLED else
                        "no_memory_effect" if key & NO_MEMORY_EFFECT else "not_modelled")
    return rec


def serve_options(tree):
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name != "serve":
            continue
        # Decorators apply bottom-up, but click lists options in source order.
        out = []
        for dec in node.decorator_list:
            if isinstance(dec, ast.Call) and type_name(dec.func) == "option":
                out.append(option_record(dec))
        # click adds --help to every command.
        out.append({"names": ["--help"], "kind": "flag", "treatment": "no_memory_effect"})
        return out
    raise SystemExit("no `def serve` with click options in serve.py")


def model_fields(classes, name):
    """Pydantic fields of class `name` and of its bases defined in the same file."""
    node = classes[name]
    fields = []
    for base in node.bases:
        base_name = type_name(base)
        if base_name in classes:
            fields += [f for f in model_fields(classes, base_name) if f not in fields]
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            field = stmt.target.id
            annotation = ast.unparse(stmt.annotation)
            if field.startswith("_") or field == "model_config" or "ClassVar" in annotation:
                continue
            if field not in fields:
                fields.append(field)
    return fields


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--rev", required=True)
    ap.add_argument("--root", default="")
    ap.add_argument("--release", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    serve_path = args.root + "tensorrt_llm/commands/serve.py"
    args_path = args.root + "tensorrt_llm/llmapi/llm_args.py"
    serve = ast.parse(git_show(args.git_dir, args.rev, serve_path))
    llm_args = ast.parse(git_show(args.git_dir, args.rev, args_path))
    classes = {n.name: n for n in llm_args.body if isinstance(n, ast.ClassDef)}
    commit = subprocess.run(["git", "--git-dir", args.git_dir, "rev-parse", args.rev + "^{commit}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    doc = {
        "engine": "trtllm",
        "release": args.release,
        "source": args.source,
        "commit": commit,
        "files": [serve_path, args_path],
        "style": "click",
        # click matches option names exactly: no abbreviations.
        "allow_abbrev": False,
        "prog": "trtllm-serve serve",
        "flags": serve_options(serve),
        "yaml": {c: model_fields(classes, c) for c in ("TorchLlmArgs", "TrtLlmArgs",
                                                        "KvCacheConfig")},
    }
    text = json.dumps(doc, separators=(",", ":"))
    text = text.replace(',{"names"', ',\n{"names"').replace(',"yaml"', ',\n"yaml"')
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
