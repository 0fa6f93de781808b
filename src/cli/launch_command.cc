#include "cli/launch_command.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/core.h>

#include "base/linear_regex.h"
#include "cli/shell_words.h"
#include "kvplan/error.h"

namespace kvplan::cli {
namespace {

constexpr const char* kRecognised =
    "python -m sglang.launch_server, sglang serve, vllm serve, "
    "python -m vllm.entrypoints.openai.api_server, trtllm-serve";

using Words = std::vector<std::string>;
using Env = std::vector<std::pair<std::string, std::string>>;

std::string Basename(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsPython(const std::string& word) {
  // Linear-time matching: pasted words can be any length.
  static const LinearRegex kPython = LinearRegex::MustCompile(R"(^python([0-9]+(\.[0-9]+)*)?$)");
  return kPython.Search(Basename(word));
}

// A shell assignment NAME=value: NAME is [A-Za-z_][A-Za-z0-9_]*.
bool IsAssignment(const std::string& word) {
  const size_t eq = word.find('=');
  if (eq == 0 || eq == std::string::npos) return false;
  const auto ident = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
  return !std::isdigit(static_cast<unsigned char>(word[0])) &&
         std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq), ident);
}

// Keeps the last value of each variable, at the position it was first given.
void SetEnv(Env& env, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  std::string name = assignment.substr(0, eq);
  std::string value = assignment.substr(eq + 1);
  for (auto& [n, v] : env) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  env.emplace_back(std::move(name), std::move(value));
}

// The release a docker tag or pip pin names: "v0.5.6.post2-cu129" -> "0.5.6.post2",
// "1.0.0rc4" -> "1.0.0rc4"; "" for "latest", "nightly", "dev", "blackwell". The release
// is MAJOR.MINOR[.PATCH[.N]] with an optional .postN, rcN or .devN, then the end or a
// build suffix after '-' (CUDA, ROCm, arch).
std::string ReleaseOfTag(std::string tag) {
  if (!tag.empty() && (tag[0] == 'v' || tag[0] == 'V')) tag.erase(0, 1);
  static const LinearRegex kRelease = LinearRegex::MustCompile(
      R"(^[0-9]+\.[0-9]+(\.[0-9]+)?(\.[0-9]+)?((\.post|rc|\.dev)[0-9]+)?(-.*)?$)");
  if (!kRelease.Search(tag)) return "";
  return tag.substr(0, tag.find('-'));
}

// The engine whose official image `word` names (a registry or mirror in front is kept:
// docker.io/lmsysorg/sglang, a mirror's host/lmsysorg/sglang), and the image's tag.
std::optional<std::pair<std::string, std::string>> EngineImage(const std::string& word) {
  static const std::pair<const char*, const char*> kImages[] = {
      {"lmsysorg/sglang", "sglang"},
      {"vllm/vllm-openai", "vllm"},
      {"nvidia/tensorrt-llm/release", "trtllm"},
  };
  const size_t slash = word.rfind('/');
  const size_t colon = word.find(':', slash == std::string::npos ? 0 : slash);
  const std::string repo = word.substr(0, colon);
  for (const auto& [name, engine] : kImages) {
    const std::string n = name;
    if (repo == n ||
        (repo.size() > n.size() && repo.compare(repo.size() - n.size(), n.size(), n) == 0 &&
         repo[repo.size() - n.size() - 1] == '/')) {
      return std::make_pair(std::string(engine),
                            colon == std::string::npos ? "" : word.substr(colon + 1));
    }
  }
  return std::nullopt;
}

// Sets `lc`'s release from the engine's image among `w` (the words of the launch line up to
// and with its entry point), or else from a pip pin in the earlier commands.
void FindRelease(const Words& w, size_t entry, const std::vector<ShellCommand>& earlier,
                 LaunchCommand& lc) {
  for (size_t k = 0; k <= entry && k < w.size(); ++k) {
    const auto image = EngineImage(w[k]);
    if (!image || image->first != lc.engine) continue;
    lc.release = ReleaseOfTag(image->second);
    lc.release_source = fmt::format("the docker image {}", w[k]);
    return;
  }
  const std::string package = lc.engine == "trtllm" ? "tensorrt_llm" : lc.engine;
  for (const ShellCommand& c : earlier) {
    const bool pip = std::find(c.words.begin(), c.words.end(), "install") != c.words.end() &&
                     std::any_of(c.words.begin(), c.words.end(), [](const std::string& x) {
                       return Basename(x).rfind("pip", 0) == 0;
                     });
    if (!pip) continue;
    for (const std::string& word : c.words) {
      const size_t eq = word.find("==");
      if (eq == std::string::npos) continue;
      std::string name = word.substr(0, std::min(eq, word.find('[')));  // "sglang[all]==..."
      std::replace(name.begin(), name.end(), '-', '_');
      const std::string release = ReleaseOfTag(word.substr(eq + 2));
      if (name != package || release.empty()) continue;
      lc.release = release;
      lc.release_source = fmt::format("'{}' in the pasted commands", word);
    }
  }
}

// Where an entry point starts: the engine, its canonical spelling and where its own
// arguments begin. `positional_model` marks CLIs whose first positional is the model.
struct EntryMatch {
  std::string engine;
  std::string entry_point;
  size_t args_begin = 0;
  bool positional_model = false;
};

// Python's own options before -m: those that take a value, and flags.
size_t SkipPythonOptions(const Words& w, size_t j) {
  while (j < w.size() && w[j].size() > 1 && w[j][0] == '-' && w[j].rfind("-m", 0) != 0) {
    const bool takes_value = (w[j] == "-X" || w[j] == "-W");
    j += takes_value ? 2 : 1;
  }
  return j;
}

std::optional<EntryMatch> MatchModule(const Words& w, size_t i, const std::string& module,
                                      size_t after, std::string* seen) {
  const std::string entry = fmt::format("{} -m {}", w[i], module);
  if (module == "sglang.launch_server") return EntryMatch{"sglang", entry, after, false};
  if (module == "vllm.entrypoints.openai.api_server") {
    return EntryMatch{"vllm", entry, after, false};
  }
  if (module == "vllm.entrypoints.cli.main" && after < w.size() && w[after] == "serve") {
    return EntryMatch{"vllm", entry + " serve", after + 1, true};
  }
  if (module == "tensorrt_llm.commands.serve") {
    const bool sub = after < w.size() && w[after] == "serve";
    return EntryMatch{"trtllm", entry + (sub ? " serve" : ""), after + (sub ? 1 : 0), true};
  }
  if (seen->empty()) *seen = entry;
  return std::nullopt;
}

std::optional<EntryMatch> MatchPython(const Words& w, size_t i, std::string* seen) {
  const size_t j = SkipPythonOptions(w, i + 1);
  if (j >= w.size() || w[j].rfind("-m", 0) != 0) return std::nullopt;  // a script, or -c
  if (w[j] != "-m") return MatchModule(w, i, w[j].substr(2), j + 1, seen);
  if (j + 1 >= w.size()) {
    throw InputError(fmt::format("'{} -m' without a module name in the launch command", w[i]));
  }
  return MatchModule(w, i, w[j + 1], j + 2, seen);
}

std::optional<EntryMatch> MatchEntryAt(const Words& w, size_t i, std::string* seen) {
  const std::string base = Basename(w[i]);
  const bool serve_next = i + 1 < w.size() && w[i + 1] == "serve";
  if (IsPython(w[i])) return MatchPython(w, i, seen);
  if (base == "sglang" && serve_next) return EntryMatch{"sglang", "sglang serve", i + 2, false};
  if (base == "vllm" && serve_next) return EntryMatch{"vllm", "vllm serve", i + 2, true};
  // The vLLM image's own entrypoint is the OpenAI server: `docker run ... vllm/vllm-openai
  // --model m` (newer images run `vllm serve`, so a positional model is accepted too).
  static const LinearRegex kVllmImage =
      LinearRegex::MustCompile(R"(^([^/\s]+/)?vllm/vllm-openai(:\S*)?$)");
  if (kVllmImage.Search(w[i])) {
    return EntryMatch{"vllm", w[i] + " (docker image)", i + 1, true};
  }
  if (base == "trtllm-serve") {
    return EntryMatch{"trtllm", serve_next ? "trtllm-serve serve" : "trtllm-serve",
                      i + (serve_next ? 2 : 1), true};
  }
  return std::nullopt;
}

// Assignments in the words before the entry point: VAR=value (also after env, sudo -E)
// and docker's -e VAR=value / --env=VAR=value.
void CollectPrefixEnv(const Words& w, size_t end, Env& env) {
  for (size_t k = 0; k < end; ++k) {
    std::string word = w[k];
    if (word.rfind("--env=", 0) == 0) word = word.substr(6);
    if (word.rfind("-e", 0) == 0 && word.size() > 2 && IsAssignment(word.substr(2))) {
      word = word.substr(2);
    }
    if (IsAssignment(word)) SetEnv(env, word);
  }
}

// A command before the launch: `export A=1 B=2` or a bare `A=1` line sets variables;
// anything else (cd, source, conda activate) leaves the environment to us unknown.
void CollectShellAssignments(const Words& w, Env& env) {
  const bool is_export = w[0] == "export";
  const bool all_assignments = std::all_of(w.begin(), w.end(), IsAssignment);
  if (!is_export && !all_assignments) return;
  for (size_t k = is_export ? 1 : 0; k < w.size(); ++k) {
    if (IsAssignment(w[k])) SetEnv(env, w[k]);
  }
}

Words EngineArgs(const Words& w, const EntryMatch& m) {
  Words args;
  size_t k = m.args_begin;
  if (m.positional_model && k < w.size() && !w[k].empty() && w[k][0] != '-') {
    args = {"--model", w[k]};
    ++k;
  }
  args.insert(args.end(), w.begin() + static_cast<std::ptrdiff_t>(k), w.end());
  return args;
}

// Words of the launch command, with later lines that start with a flag joined back on:
// a pasted command whose trailing backslashes got lost still means one command.
Words JoinLostContinuations(const std::vector<ShellCommand>& commands, size_t c) {
  Words w = commands[c].words;
  for (size_t k = c + 1; k < commands.size(); ++k) {
    const ShellCommand& next = commands[k];
    if (next.separator_before != "\n" || next.words[0].rfind("-", 0) != 0) break;
    w.insert(w.end(), next.words.begin(), next.words.end());
  }
  return w;
}

// The command to show in an error: the first that is not setup (export, cd, source),
// on one line and cut to 60 characters.
std::string QuoteForError(const std::vector<ShellCommand>& commands) {
  const Words* shown = &commands[0].words;
  for (const ShellCommand& c : commands) {
    const std::string& first = c.words[0];
    if (first != "export" && first != "cd" && first != "source" && !IsAssignment(first)) {
      shown = &c.words;
      break;
    }
  }
  std::string text;
  for (const std::string& s : *shown) text += (text.empty() ? "" : " ") + s;
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return "'" + text + "'";
}

std::vector<ShellCommand> SplitInput(const Words& words) {
  return SplitCommands(words.size() == 1 ? TokenizeShell(words[0]) : ClassifyWords(words));
}

}  // namespace

LaunchCommand ParseLaunchCommand(const std::vector<std::string>& words) {
  const std::vector<ShellCommand> commands = SplitInput(words);
  if (commands.empty()) {
    throw InputError(fmt::format(
        "empty launch command after '--'; paste the engine's command, one of: {}", kRecognised));
  }
  Env env;
  std::string seen;  // a `python -m` that is not a server, for the error message
  for (size_t c = 0; c < commands.size(); ++c) {
    const Words w = JoinLostContinuations(commands, c);
    for (size_t i = 0; i < w.size(); ++i) {
      std::optional<EntryMatch> m = MatchEntryAt(w, i, &seen);
      if (!m) continue;
      CollectPrefixEnv(w, i, env);
      LaunchCommand lc{m->engine, EngineArgs(w, *m), std::move(env), m->entry_point, "", ""};
      FindRelease(w, i, {commands.begin(), commands.begin() + static_cast<std::ptrdiff_t>(c)}, lc);
      return lc;
    }
    CollectShellAssignments(commands[c].words, env);
  }
  throw InputError(fmt::format(
      "no recognised launch command in {}{}; expected one of: {}", QuoteForError(commands),
      seen.empty() ? "" : fmt::format(" ('{}' is not a server)", seen), kRecognised));
}

std::string EngineEnvPrefix(const std::string& engine) {
  if (engine == "vllm") return "VLLM_";
  if (engine == "sglang") return "SGLANG_";
  return "";
}

void ApplyPastedLaunch(const std::vector<std::string>& words, const std::string& engine_flag,
                       PlanRequest* req) {
  const LaunchCommand lc = ParseLaunchCommand(words);
  if (!engine_flag.empty() && lc.engine != engine_flag) {
    throw InputError(
        fmt::format("--engine {} conflicts with the pasted {} command", engine_flag, lc.engine));
  }
  req->engine = lc.engine;
  req->pasted_release = lc.release;
  req->pasted_release_source = lc.release_source;
  std::vector<std::string> args = lc.args;
  // The engine's own variables go to its parser, which reads those its
  // planner models (VLLM_USE_V1, the ALLOW_LONG ones) and warns about the rest.
  const std::string prefix = EngineEnvPrefix(lc.engine);
  for (const auto& [name, value] : lc.env) {
    if (!prefix.empty() && name.rfind(prefix, 0) == 0) args.push_back(name + "=" + value);
  }
  args.insert(args.end(), req->args.begin(), req->args.end());
  req->args = std::move(args);
}

}  // namespace kvplan::cli
