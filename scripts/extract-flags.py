#!/usr/bin/env python3
"""Writes an engine's whole argument parser at one release as data/flags/ JSON.

The engine's Python source is read from a bare git directory (a `fetch`
snapshot) and parsed with the `ast` module; nothing of it is executed.

  scripts/extract-flags.py sglang --git-dir DIR --rev COMMIT --release 0.5.6 \
      --source "sgl-project/sglang commit 7ae368efd" > data/flags/sglang/0.5.6.json
  scripts/extract-flags.py vllm --git-dir DIR --rev v0.11.0 --release 0.11.0 ...

SGLang: ServerArgs.add_cli_args in python/sglang/srt/server_args.py; from 0.5.14 that first
registers ServerArgs's `A[T, Arg(...)]` fields (add_cli_args_from_dataclass), read here too.
vLLM (`vllm serve`): EngineArgs/AsyncEngineArgs.add_cli_args in
vllm/engine/arg_utils.py, make_arg_parser in vllm/entrypoints/openai/cli_args.py;
flags registered with `**get_kwargs(SomeConfig)[field]` take their kind from
the config dataclass field, as vLLM's get_kwargs does.

Each flag: names (first is the one argparse shows), kind ("value", "flag" for
store_true/store_false/store_const/count, "bool" for BooleanOptionalAction,
which adds --no-NAME), nargs when not one value, type, default, choices (only
when they are literals that can be read from the source), deprecated (the SGLang
Deprecated*Action class that registers it) and new_flag (the flag its warning names instead).
"""
import argparse
import ast
import json
import subprocess
import sys

STORE_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version"}


def git_show(git_dir, rev, path):
    try:
        return subprocess.run(
            ["git", "--git-dir", git_dir, "show", f"{rev}:{path}"],
            check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError:
        return None


def git_ls(git_dir, rev, prefix):
    out = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", rev, prefix],
                         check=True, capture_output=True, text=True).stdout
    return [p for p in out.split() if p.endswith(".py")]


class Module:
    """One source file: its top-level literal constants, classes and functions."""

    def __init__(self, text):
        self.tree = ast.parse(text)
        self.constants = {}
        self.classes = {}
        self.functions = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name):
                self.constants[node.targets[0].id] = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                self.constants[node.target.id] = node.value
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
            elif isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node


class Source:
    """All modules read for one release, searched together for names."""

    def __init__(self, modules):
        self.modules = modules

    def constant(self, name):
        for m in self.modules:
            if name in m.constants:
                return m.constants[name]
        return None

    def cls(self, name):
        for m in self.modules:
            if name in m.classes:
                return m.classes[name]
        return None

    def literal(self, node, depth=0):
        """The value of a literal expression, following module constants; None if unknown."""
        if depth > 5 or node is None:
            return None
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.literal(e.value, depth + 1)
                    if not isinstance(v, list):
                        return None
                    out.extend(v)
                else:
                    v = self.literal(e, depth + 1)
                    if v is None and not (isinstance(e, ast.Constant) and e.value is None):
                        return None
                    out.append(v)
            return out
        if isinstance(node, ast.Dict):
            keys = [self.literal(k, depth + 1) for k in node.keys if k is not None]
            return {"__dict_keys__": keys} if all(isinstance(k, str) for k in keys) else None
        if isinstance(node, ast.Name):
            return self.literal(self.constant(node.id), depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.literal(node.left, depth + 1), self.literal(node.right, depth + 1)
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.literal(node.operand, depth + 1)
            return -v if isinstance(v, (int, float)) else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "list", "sorted", "tuple") and len(node.args) == 1:
            v = self.literal(node.args[0], depth + 1)
            if isinstance(v, dict):
                return v["__dict_keys__"]
            return v if isinstance(v, list) else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
                node.value.id == "Literal"):
            inner = node.slice
            elts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            vals = [self.literal(e, depth + 1) for e in elts]
            return vals if all(isinstance(v, str) for v in vals) else None
        return None

    def field_default(self, class_name, field):
        node = self.cls(class_name)
        if node is None:
            return None
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and (
                    stmt.target.id == field):
                return stmt.value
        return None


def short_default(value):
    """A JSON-able default, or None when it is not a short literal."""
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if isinstance(value, str) and len(value) <= 40:
        return value
    return None


def type_name(node):
    if node is None:
        return None
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        if type_name(node.func) in ("optional_type", "parse_type") and node.args:
            return type_name(node.args[0])
        return type_name(node.func)
    if isinstance(node, ast.Lambda):
        return "lambda"
    return ast.unparse(node)[:30]


def flag_from_call(call, src, resolve_star, owner):
    """One add_argument call as a flag record (None for a positional)."""
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    for a in call.args:
        if isinstance(a, ast.JoinedStr):
            return None  # built in a loop: handled by the caller
    kw = {}
    for k in call.keywords:
        if k.arg is None:
            kw.update(resolve_star(k.value))
        else:
            kw[k.arg] = ("ast", k.value)
    if not names or not names[0].startswith("-"):
        return None
    return make_record(names, kw, src, owner)


def make_record(names, kw, src, owner):
    rec = {"names": names}
    action = kw.get("action")
    action_name = None
    if action is not None:
        node = action[1]
        if isinstance(node, ast.Constant):
            action_name = node.value
        elif isinstance(node, str):
            action_name = node
        else:
            action_name = type_name(node)
    if action_name in STORE_ACTIONS or (action_name or "").endswith(("StoreTrueAction",
                                                                     "StoreFalseAction")):
        # SGLang's DeprecatedStoreTrueAction and the like take no value, as store_true does.
        rec["kind"] = "flag"
    elif action_name == "BooleanOptionalAction":
        rec["kind"] = "bool"
    else:
        rec["kind"] = "value"
        if action_name and action_name != "store":
            rec["action"] = action_name
    nargs = kw.get("nargs")
    if nargs is not None:
        v = nargs[1] if isinstance(nargs[1], (str, int)) else src.literal(nargs[1])
        if v is not None:
            rec["nargs"] = v
    t = kw.get("type")
    if t is not None and rec["kind"] == "value":
        rec["type"] = t[1] if isinstance(t[1], str) else type_name(t[1])
    d = kw.get("default")
    if d is not None:
        node = d[1]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            node = src.field_default(node.value.id, node.attr) or node
        value = node if not isinstance(node, ast.AST) else src.literal(node)
        if isinstance(node, ast.AST) and isinstance(value, list):
            value = None
        rec["default"] = short_default(value)
    c = kw.get("choices")
    if c is not None:
        value = c[1] if isinstance(c[1], list) else src.literal(c[1])
        if isinstance(value, list) and all(isinstance(x, (str, int, float)) or x is None
                                           for x in value):
            rec["choices"] = [x if x is not None else None for x in value]
        else:
            rec["choices_unread"] = True
    mark_deprecated(rec, action_name, kw)
    return rec


def mark_deprecated(rec, action_name, kw):
    """SGLang's Deprecated*Action classes (python/sglang/srt/arg_groups/argparse_actions.py from
    0.5.14; DeprecatedAction in server_args.py before) warn when the flag is given, naming
    `new_flag` when the call passes one; kvplan never suggests such a flag. The class is kept,
    as each prints its own words."""
    if not (action_name or "").startswith("Deprecated"):
        return
    rec["deprecated"] = action_name
    new_flag = kw.get("new_flag")
    if new_flag is not None and isinstance(new_flag[1], ast.Constant):
        rec["new_flag"] = new_flag[1].value


# --- vLLM's get_kwargs(SomeConfig) --------------------------------------------


def annotation_parts(node):
    """The members of a union annotation (X | Y, Optional[X], Union[X, Y])."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return annotation_parts(node.left) + annotation_parts(node.right)
    if isinstance(node, ast.Subscript) and type_name(node.value) in ("Optional", "Union"):
        inner = node.slice
        elts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        out = [ast.Constant(None)] if type_name(node.value) == "Optional" else []
        for e in elts:
            out += annotation_parts(e)
        return out
    if isinstance(node, ast.Subscript) and type_name(node.value) in ("SkipValidation",
                                                                     "Annotated"):
        inner = node.slice
        return annotation_parts(inner.elts[0] if isinstance(inner, ast.Tuple) else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_parts(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return [node]
    return [node]


def dataclass_kwargs(src, class_name, bool_action, seen=None):
    """kwargs per field of a config dataclass, the way vLLM's get_kwargs builds them."""
    node = src.cls(class_name)
    out = {}
    if node is None:
        return out
    seen = seen or set()
    for base in node.bases:
        b = type_name(base)
        if b and b not in seen and src.cls(b) is not None:
            seen.add(b)
            out.update(dataclass_kwargs(src, b, bool_action, seen))
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        name = stmt.target.id
        if name.startswith("_") or type_name(stmt.annotation) in ("ClassVar", "InitVar"):
            continue
        out[name] = field_kwargs(src, stmt, bool_action)
    return out


def resolve_alias(src, part):
    if isinstance(part, ast.Name):
        target = src.constant(part.id)
        if target is not None and isinstance(target, (ast.Subscript, ast.BinOp)):
            return annotation_parts(target)
    return [part]


def field_kwargs(src, stmt, bool_action):
    parts = []
    for p in annotation_parts(stmt.annotation):
        parts += resolve_alias(src, p)
    names = [type_name(p.value) if isinstance(p, ast.Subscript) else type_name(p) for p in parts]
    kw = {}
    value = stmt.value
    if isinstance(value, ast.Call) and type_name(value.func) == "field":
        dflt = [k.value for k in value.keywords if k.arg == "default"]
        value = dflt[0] if dflt else None
    kw["default"] = ("ast", value) if value is not None else ("ast", ast.Constant(None))
    dataclass_like = any(n and src.cls(n) is not None for n in names if n not in ("Literal",))
    if dataclass_like and "bool" not in names:
        kw["type"] = ("lit", "json")
    elif "bool" in names:
        kw["action"] = ("ast", bool_action)
    elif "Literal" in names:
        lit = [p for p in parts if isinstance(p, ast.Subscript) and type_name(p.value) == "Literal"]
        choices = src.literal(lit[0]) if lit else None
        if "str" in names or choices is None:
            kw["type"] = ("lit", "str")
        else:
            if "None" in names or any(isinstance(p, ast.Constant) and p.value is None
                                      for p in parts):
                choices = choices + ["None"]
            kw["choices"] = ("lit", choices)
            kw["type"] = ("lit", "str")
    elif "tuple" in names or "list" in names or "List" in names or "Tuple" in names:
        kw["nargs"] = ("ast", ast.Constant("+"))
        kw["type"] = ("lit", "list")
    else:
        for t in ("int", "float", "dict", "str"):
            if t in names:
                kw["type"] = ("lit", t)
                break
        else:
            kw["type"] = ("lit", "str")
    return kw


def bool_action_of(src):
    """What get_kwargs gives a bool field at this release."""
    for m in src.modules:
        for fname in ("_compute_kwargs", "get_kwargs"):
            f = m.functions.get(fname)
            if f is not None and "BooleanOptionalAction" in ast.unparse(f):
                return ast.Attribute(ast.Name("argparse"), "BooleanOptionalAction")
    return ast.Constant("store_true")


def collect_calls(func_nodes):
    for fn in func_nodes:
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                    node.func.attr == "add_argument"):
                yield fn, node


def kwargs_variables(func, src, bool_action):
    """Local names bound to get_kwargs(Config) inside func: name -> per-field kwargs."""
    out = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and isinstance(node.value, ast.Call) and type_name(
                    node.value.func) == "get_kwargs" and node.value.args:
            out[node.targets[0].id] = dataclass_kwargs(src, type_name(node.value.args[0]),
                                                       bool_action)
    return out


def star_resolver(kwvars):
    def resolve(node):
        # **model_kwargs["field"]
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
                node.value.id in kwvars):
            key = node.slice.value if isinstance(node.slice, ast.Constant) else None
            return dict(kwvars[node.value.id].get(key, {}))
        # **{**model_kwargs["field"], "help": ...}
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    out.update(resolve(v))
                elif isinstance(k, ast.Constant):
                    out[k.value] = ("ast", v)
            return out
        return {}

    return resolve


def class_method(src, cls, name):
    node = src.cls(cls)
    if node is None:
        return None
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt
    return None


def flags_from_functions(funcs, src, bool_action):
    flags = []
    for fn in funcs:
        kwvars = kwargs_variables(fn, src, bool_action)
        resolve = star_resolver(kwvars)
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(
            n.func, ast.Attribute) and n.func.attr == "add_argument"]
        # In source order: argparse lists an abbreviation's matches in the
        # order the flags were registered.
        for node in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            rec = flag_from_call(node, src, resolve, fn.name)
            if rec:
                flags.append(rec)
    return flags


def frontend_flags(src, bool_action):
    """vLLM >= 0.11 registers every FrontendArgs field in a loop: --field-name."""
    flags = []
    if src.cls("FrontendArgs") is None:
        return flags
    fn = class_method(src, "BaseFrontendArgs", "add_cli_args") or class_method(
        src, "FrontendArgs", "add_cli_args")
    if fn is None or "get_kwargs(" not in ast.unparse(fn):
        return flags
    for field, kw in dataclass_kwargs(src, "FrontendArgs", bool_action).items():
        flags.append(make_record([f"--{field.replace('_', '-')}"], kw, src, "FrontendArgs"))
    return flags


def serve_parser_flags(src_text, src):
    """`vllm serve`'s own additions (model_tag, --config) on serve_parser."""
    flags = []
    for node in ast.walk(ast.parse(src_text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "add_argument") and type_name(node.func.value) == "serve_parser":
            rec = flag_from_call(node, src, lambda n: {}, "serve")
            if rec:
                flags.append(rec)
    return flags


SGLANG_ARGS = "python/sglang/srt/server_args.py"


def annotated_meta(node):
    """(type node, Arg keywords) of a field annotated A[T, "help"] or A[T, Arg(...)]; None else."""
    if not (isinstance(node, ast.Subscript) and type_name(node.value) in ("A", "Annotated")
            and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) >= 2):
        return None
    inner, meta = node.slice.elts[0], node.slice.elts[1]
    if isinstance(meta, ast.Constant) and isinstance(meta.value, str):
        return inner, {}
    if isinstance(meta, ast.Call) and type_name(meta.func) == "Arg":
        return inner, {k.arg: k.value for k in meta.keywords if k.arg}
    return None


def dataclass_field_flag(name, inner, arg, default, src):
    """One ServerArgs field as add_cli_args_from_dataclass registers it
    (python/sglang/srt/arg_groups/arg_utils.py, from 0.5.14)."""
    cli = src.literal(arg["cli_name"]) if "cli_name" in arg else "--" + name.replace("_", "-")
    names = [cli] + (src.literal(arg["aliases"]) or [] if "aliases" in arg else [])
    kw = {} if default is None else {"default": ("ast", default)}
    if "action" in arg:
        kw["action"] = ("ast", arg["action"])
        return make_record(names, kw, src, "ServerArgs")
    parts = [p for p in annotation_parts(inner) if not (isinstance(p, ast.Constant)
                                                         and p.value is None)]
    inner = parts[0] if len(parts) == 1 else inner
    head = type_name(inner.value) if isinstance(inner, ast.Subscript) else None
    if head == "Literal":
        elts = inner.slice.elts if isinstance(inner.slice, ast.Tuple) else [inner.slice]
        kw["choices"] = ("ast", arg.get("choices") or ast.List(elts=elts))
    elif head in ("List", "list") and "type_parser" not in arg:
        kw["nargs"] = ("ast", arg.get("nargs") or ast.Constant("+"))
    elif type_name(inner) == "bool":
        kw["action"] = ("ast", ast.Constant("store_true"))
    for key in ("choices", "nargs"):
        if key in arg and key not in kw:
            kw[key] = ("ast", arg[key])
    if "action" not in kw:
        # arg_utils.py _infer_type_func: str, int and float as such, any other type as str.
        if "type_parser" in arg:
            kw["type"] = ("ast", arg["type_parser"])
        else:
            # A Literal's type is its first value's, a List's its element's.
            elem = inner.slice if head in ("List", "list") else inner
            name_of = type_name(elem)
            if head == "Literal":
                values = src.literal(kw["choices"][1]) or [""]
                name_of = type(values[0]).__name__
            kw["type"] = ("ast", ast.Name(name_of if name_of in ("str", "int", "float") else "str"))
    return make_record(names, kw, src, "ServerArgs")


def sglang_dataclass_flags(src):
    """The flags add_cli_args_from_dataclass(parser, ServerArgs) registers, in field order."""
    cls = src.cls("ServerArgs")
    flags = []
    for stmt in cls.body if cls is not None else []:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        meta = annotated_meta(stmt.annotation)
        if meta is None:
            continue
        inner, arg = meta
        if "no_cli" in arg and src.literal(arg["no_cli"]) is True:
            continue
        flags.append(dataclass_field_flag(stmt.target.id, inner, arg, stmt.value, src))
    return flags


def sglang(args):
    text = git_show(args.git_dir, args.rev, SGLANG_ARGS)
    src = Source([Module(text)])
    fn = class_method(src, "ServerArgs", "add_cli_args")
    # From 0.5.14 add_cli_args first registers the dataclass fields, then its own calls.
    flags = sglang_dataclass_flags(src)
    flags += flags_from_functions([fn], src, ast.Constant("store_true"))
    return {"prog": "launch_server.py", "flags": flags,
            "files": [SGLANG_ARGS]}


def vllm(args):
    files = ["vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py"]
    config_files = [p for p in git_ls(args.git_dir, args.rev, "vllm/config")]
    if not config_files:
        config_files = ["vllm/config.py"]
    modules = [Module(git_show(args.git_dir, args.rev, p)) for p in files + config_files
               if git_show(args.git_dir, args.rev, p) is not None]
    src = Source(modules)
    bool_action = bool_action_of(src)
    engine = [f for f in (class_method(src, "EngineArgs", "add_cli_args"),
                          class_method(src, "AsyncEngineArgs", "add_cli_args")) if f]
    frontend = [modules[1].functions[n] for n in ("make_arg_parser",) if n in modules[1].functions]
    # Registration order: `vllm serve`'s own, make_arg_parser's, the frontend
    # dataclass, then the engine's.
    flags = []
    for serve in ("vllm/entrypoints/cli/serve.py", "vllm/scripts.py"):
        text = git_show(args.git_dir, args.rev, serve)
        if text is not None:
            flags += serve_parser_flags(text, src)
            files.append(serve)
            break
    flags += flags_from_functions(frontend, src, bool_action) + frontend_flags(src, bool_action)
    flags += flags_from_functions(engine, src, bool_action)
    return {"prog": "vllm serve", "flags": flags, "files": files + ["vllm/config*"]}


def vllm_environment(git_dir, rev):
    """The names vllm/envs.py reads: the string keys of its `environment_variables` dict (the
    table envs.__getattr__ looks every VLLM_* name up in), sorted; None when there is no such
    dict at `rev`."""
    text = git_show(git_dir, rev, "vllm/envs.py")
    if text is None:
        return None
    for node in ast.walk(ast.parse(text)):
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(target, ast.Name)
                and target.id == "environment_variables" and isinstance(node.value, ast.Dict)):
            return sorted(k.value for k in node.value.keys
                          if isinstance(k, ast.Constant) and isinstance(k.value, str))
    return None


SGLANG_ENVIRON = "python/sglang/srt/environ.py"


def sglang_environment(git_dir, rev):
    """The SGLANG_* names SGLang reads at `rev`: the fields of environ.py's `Envs` class (each
    an EnvField named after its variable) and every string literal in python/sglang that is
    exactly such a name (the os.environ / get_bool_env_var reads outside environ.py), sorted.
    SGLang checks no name, so one outside this list is read nowhere and has no effect; names
    built at run time (f"SGLANG_CACHE_DIT_{suffix}", diffusion only) are not seen."""
    names = set()
    text = git_show(git_dir, rev, SGLANG_ENVIRON)
    if text is not None:
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef) and node.name == "Envs":
                for stmt in node.body:
                    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else getattr(
                        stmt, "target", None)
                    if isinstance(target, ast.Name) and isinstance(stmt.value, ast.Call):
                        names.add(target.id)
    out = subprocess.run(["git", "--git-dir", git_dir, "grep", "-ohE",
                          "[\"']SGLANG_[A-Z0-9_]*[A-Z0-9][\"']", rev, "--", "python/sglang"],
                         capture_output=True, text=True).stdout
    names.update(w.strip("\"'") for w in out.split())
    return sorted(n for n in names if n.startswith("SGLANG_"))


def dedupe(flags):
    """argparse refuses a name registered twice, so a repeat is the same flag re-read."""
    seen, out = set(), []
    for f in flags:
        key = f["names"][0]
        if key in seen:
            continue
        seen.add(key)
        out.append(f)
    return out  # in registration order, as argparse lists matches


def release_commit(argv):
    """SGLang: the newest main commit of a release tag, by upstream's release index.

    docs/release_lookup/release_index.json (sgl-project/sglang, from #18450) maps each
    commit's first 8 hex digits to the first release tag that holds it, as computed by
    upstream from its own tags. The snapshot has upstream's main but not its tags, so a
    release is the newest first-parent main commit the index gives that tag; commits the
    index gives the tag that main lacks are release-branch commits, counted here so the
    table's README row can say what they were.
    """
    ap = argparse.ArgumentParser(prog="extract-flags.py release-commit")
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--index-rev", required=True, help="a commit holding the index")
    ap.add_argument("--tag", required=True, help="e.g. v0.5.7")
    args = ap.parse_args(argv)
    index = json.loads(git_show(args.git_dir, args.index_rev,
                                "docs/release_lookup/release_index.json"))
    tag = [t[0] for t in index["t"]].index(args.tag)

    def release_of(value):
        return value.get("m") if isinstance(value, dict) else (
            int(value[1:]) if value.startswith("m") else None)

    held = {h for h, v in index["c"].items() if release_of(v) == tag}
    main = subprocess.run(["git", "--git-dir", args.git_dir, "rev-list", "--first-parent",
                           args.index_rev], check=True, capture_output=True, text=True).stdout
    on_main = [h for h in main.split() if h[:8] in held]  # newest first
    print(json.dumps({"tag": args.tag, "commits": len(held), "on_main": len(on_main),
                      "off_main": sorted(held - {h[:8] for h in on_main}),
                      "newest_on_main": on_main[0] if on_main else None,
                      "release_branch_prs": release_branch_prs(args, index, tag, held,
                                                               release_of)}))


def release_branch_prs(args, index, tag, held, release_of):
    """PRs the index first finds in `tag` whose main commit is not in it: what the release
    branch cherry-picked, with whether main's copy of the PR touches server_args.py."""
    log = subprocess.run(["git", "--git-dir", args.git_dir, "log", "--first-parent",
                          "--format=%H %s", args.index_rev],
                         check=True, capture_output=True, text=True).stdout
    main_commit = {}
    for line in log.splitlines():
        sha, _, subject = line.partition(" ")
        if subject.endswith(")") and "(#" in subject:
            main_commit.setdefault(subject.rsplit("(#", 1)[1][:-1], sha)
    out = {}
    for pr, value in index["p"].items():
        if release_of(value) != tag or main_commit.get(pr, "")[:8] in held:
            continue
        sha = main_commit.get(pr)
        if sha is None:
            out[pr] = "not on main"
            continue
        files = subprocess.run(["git", "--git-dir", args.git_dir, "show", "--format=",
                                "--name-only", sha], check=True, capture_output=True,
                               text=True).stdout.split()
        out[pr] = sha[:10] + (" touches " + SGLANG_ARGS if SGLANG_ARGS in files else "")
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "release-commit":
        release_commit(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine", choices=["sglang", "vllm"])
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--rev", required=True)
    ap.add_argument("--release", required=True)
    ap.add_argument("--source", required=True, help="repository and tag/commit, for the record")
    args = ap.parse_args()
    out = sglang(args) if args.engine == "sglang" else vllm(args)
    commit = subprocess.run(["git", "--git-dir", args.git_dir, "rev-parse", args.rev + "^{commit}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    doc = {
        "engine": args.engine,
        "release": args.release,
        "source": args.source,
        "commit": commit,
        "files": out["files"],
        # Neither engine passes allow_abbrev=False, so argparse's default holds:
        # an unambiguous prefix of a long option is accepted.
        "allow_abbrev": True,
        "prog": out["prog"],
        "flags": dedupe(out["flags"]),
    }
    if args.engine == "vllm":
        env = vllm_environment(args.git_dir, args.rev)
        if env is not None:
            doc["files"].append("vllm/envs.py")
            doc["environment"] = env
    else:
        doc["files"] += [SGLANG_ENVIRON, "python/sglang (SGLANG_* string literals)"]
        doc["environment"] = sglang_environment(args.git_dir, args.rev)
    text = json.dumps(doc, separators=(",", ":"), sort_keys=False)
    # One flag per line keeps diffs between releases readable.
    text = text.replace(',{"names"', ',\n{"names"').replace('],"environment":', '],\n"environment":')
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
