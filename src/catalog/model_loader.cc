#include "catalog/model_loader.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kvplan/error.h"

namespace kvplan {
namespace fs = std::filesystem;

namespace {

// A safetensors header larger than this is not a real header (the format
// itself caps it at 100 MB: safetensors/src/tensor.rs MAX_HEADER_SIZE).
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

int64_t IndexTotalSize(const fs::path& index) {
  nlohmann::json j = nlohmann::json::parse(ReadTextFile(index), nullptr, false);
  const char* expected = "expected {\"metadata\": {\"total_size\": N}}";
  if (j.is_discarded() || !j.is_object()) {
    throw InputError(index.string() + ": not valid JSON; " + expected);
  }
  auto meta = j.find("metadata");
  if (meta == j.end() || !meta->is_object()) {
    throw InputError(index.string() + ": no \"metadata\" object; " + expected);
  }
  auto total = meta->find("total_size");
  if (total == meta->end() || !total->is_number() || total->get<double>() <= 0) {
    throw InputError(index.string() + ": no positive metadata.total_size; " + expected);
  }
  return total->is_number_integer() ? total->get<int64_t>()
                                    : static_cast<int64_t>(total->get<double>());
}

}  // namespace

std::string ReadTextFile(const fs::path& path) {
  if (IsDir(path)) throw InputError(path.string() + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open the file (missing or unreadable)");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path.string() + ": read error");
  return ss.str();
}

std::vector<fs::path> HfHubCacheDirs() {
  std::vector<fs::path> dirs;
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v == nullptr ? "" : v;
  };
  if (!env("HF_HUB_CACHE").empty()) dirs.emplace_back(env("HF_HUB_CACHE"));
  if (!env("HF_HOME").empty()) dirs.push_back(fs::path(env("HF_HOME")) / "hub");
  if (!env("XDG_CACHE_HOME").empty()) {
    dirs.push_back(fs::path(env("XDG_CACHE_HOME")) / "huggingface" / "hub");
  }
  if (!env("HOME").empty())
    dirs.push_back(fs::path(env("HOME")) / ".cache" / "huggingface" / "hub");
  return dirs;
}

std::optional<fs::path> HfSnapshotDir(const fs::path& repo_dir) {
  fs::path snapshots = repo_dir / "snapshots";
  if (!IsDir(snapshots)) return std::nullopt;
  fs::path ref = repo_dir / "refs" / "main";
  if (IsFile(ref)) {
    fs::path snap = snapshots / Trim(ReadTextFile(ref));
    if (IsFile(snap / "config.json")) return snap;
  }
  // No usable refs/main: take the most recently written snapshot with a config.
  std::optional<fs::path> best;
  fs::file_time_type best_time{};
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(snapshots, ec)) {
    if (!IsFile(e.path() / "config.json")) continue;
    fs::file_time_type t = fs::last_write_time(e.path(), ec);
    if (!best || t > best_time || (t == best_time && e.path() < *best)) {
      best = e.path();
      best_time = t;
    }
  }
  if (!best) {
    throw InputError(repo_dir.string() + ": Hugging Face cache repo has no snapshot with a " +
                     "config.json (download it with `huggingface-cli download`)");
  }
  return best;
}

std::optional<fs::path> FindInHfCache(std::string_view hub_id) {
  size_t slash = hub_id.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == hub_id.size() ||
      hub_id.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  std::string name = "models--" + std::string(hub_id.substr(0, slash)) + "--" +
                     std::string(hub_id.substr(slash + 1));
  for (const fs::path& dir : HfHubCacheDirs()) {
    if (IsDir(dir / name)) return HfSnapshotDir(dir / name);
  }
  return std::nullopt;
}

int64_t SafetensorsTensorBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open the safetensors file");
  unsigned char len_bytes[8];
  if (!in.read(reinterpret_cast<char*>(len_bytes), 8)) {
    throw InputError(file.string() + ": truncated safetensors file (no 8-byte header length)");
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | len_bytes[i];
  if (n == 0 || n > kMaxHeaderBytes) {
    throw InputError(file.string() + ": not a safetensors file (header length " +
                     std::to_string(n) + ")");
  }
  std::string header(n, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(n))) {
    throw InputError(file.string() + ": truncated safetensors header");
  }
  nlohmann::json j = nlohmann::json::parse(header, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw InputError(file.string() + ": safetensors header is not a JSON object");
  }
  int64_t total = 0;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "__metadata__") continue;
    const nlohmann::json& t = it.value();
    auto offs = t.is_object() ? t.find("data_offsets") : t.end();
    if (!t.is_object() || offs == t.end() || !offs->is_array() || offs->size() != 2 ||
        !(*offs)[0].is_number_unsigned() || !(*offs)[1].is_number_unsigned() ||
        (*offs)[1].get<uint64_t>() < (*offs)[0].get<uint64_t>()) {
      throw InputError(file.string() + ": tensor \"" + it.key() +
                       "\" has no valid data_offsets [begin, end]");
    }
    total += static_cast<int64_t>((*offs)[1].get<uint64_t>() - (*offs)[0].get<uint64_t>());
  }
  return total;
}

std::optional<int64_t> CheckpointBytes(const fs::path& dir) {
  fs::path index = dir / "model.safetensors.index.json";
  if (IsFile(index)) return IndexTotalSize(index);
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".safetensors" && IsFile(e.path())) files.push_back(e.path());
  }
  if (files.empty()) return std::nullopt;
  std::sort(files.begin(), files.end());
  int64_t total = 0;
  for (const fs::path& f : files) total += SafetensorsTensorBytes(f);
  return total;
}

}  // namespace kvplan
