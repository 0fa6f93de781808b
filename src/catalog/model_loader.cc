#include "catalog/model_loader.h"

#include <algorithm>
#include <cstdlib>
#include <istream>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/input_file.h"
#include "base/untrusted_text.h"
#include "catalog/safetensors_header.h"
#include "kvplan/error.h"

namespace kvplan {
namespace fs = std::filesystem;

namespace {

// Size limits per kind of file, far above the largest real ones, so that a
// wrong file (a 200 MB JSON dump, /dev/zero) is refused before it is parsed
// into memory several times its size.
// config.json: real ones are under 100 KB (the longest are quantized MoE
// configs listing every ignored module); hf_quant_config.json likewise.
// Parsed as a document of about 40x its size (1 MiB of small values: 40 MB),
// so the limit keeps the peak under 64 MB.
const InputKind kConfigFile{"model config", "a model's config.json (a JSON object under 100 KB)",
                            int64_t{1} << 20};
// model.safetensors.index.json lists every tensor: about 10 MB for the largest
// checkpoints (DeepSeek-V3 and Kimi-K2 class, 90k-140k tensors); streamed.
const InputKind kIndexFile{"safetensors index",
                           "model.safetensors.index.json ({\"metadata\": {\"total_size\": N}})",
                           int64_t{64} << 20};
// refs/main holds one commit hash.
const InputKind kRefFile{"Hugging Face ref", "refs/main holding a commit hash", 4096};
// The .safetensors file itself is large; only its header is read.
const InputKind kSafetensorsFile{"safetensors file", "a .safetensors checkpoint shard", 0};

// A safetensors header larger than this is not a real header (the format
// itself caps it at 100 MB: safetensors/src/tensor.rs MAX_HEADER_SIZE). It is
// parsed as a stream keeping only the sum, so memory is the header's size.
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

// metadata.total_size as int64; InputError when it is not a positive size
// that fits (a wrapped value printed "checkpoint -1 bytes").
int64_t TotalSizeValue(const nlohmann::json& total, const std::string& where) {
  const char* expected = "expected {\"metadata\": {\"total_size\": N}}";
  if (!total.is_number() || total.get<double>() <= 0 || total.get<double>() >= 9.2e18) {
    throw InputError(where + ": no positive metadata.total_size below 2^63; " + expected);
  }
  if (total.is_number_unsigned()) {
    const auto u = total.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      throw InputError(where + ": metadata.total_size is over 2^63; " + expected);
    }
    return static_cast<int64_t>(u);
  }
  return total.is_number_integer() ? total.get<int64_t>()
                                   : static_cast<int64_t>(total.get<double>());
}

// SAX events of an index, keeping only metadata.total_size: the weight_map
// (140k tensors, 10 MB for the largest checkpoints) is never built as a
// document, which took 54 MB for 12 MB and grew with the file.
class IndexTotalSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool valid = true, top_object = false, meta_object = false;
  std::optional<nlohmann::json> total;

  bool null() override { return Scalar(nullptr); }
  bool boolean(bool v) override { return Scalar(v); }
  bool number_integer(number_integer_t v) override { return Scalar(v); }
  bool number_unsigned(number_unsigned_t v) override { return Scalar(v); }
  bool number_float(number_float_t v, const string_t&) override { return Scalar(v); }
  bool string(string_t& v) override { return Scalar(v); }
  bool binary(binary_t&) override { return Scalar(nullptr); }
  bool start_object(std::size_t) override { return Open(true); }
  bool start_array(std::size_t) override { return Open(false); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& k) override {
    (depth_ == 1 ? top_key_ : meta_key_) = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    valid = false;
    return false;
  }

 private:
  bool InTotal() const { return depth_ == 2 && in_meta_ && meta_key_ == "total_size"; }
  bool Scalar(nlohmann::json v) {
    if (InTotal()) total = std::move(v);
    return true;
  }
  bool Open(bool object) {
    if (InTotal()) total = nlohmann::json::object();  // not a number: refused below
    ++depth_;
    if (depth_ == 1) top_object = object;
    in_meta_ = depth_ == 2 && top_key_ == "metadata" && object;
    if (in_meta_) meta_object = true;
    return true;
  }
  bool Close() {
    if (depth_ == 2) in_meta_ = false;
    --depth_;
    return true;
  }
  int depth_ = 0;
  bool in_meta_ = false;
  std::string top_key_, meta_key_;
};

int64_t IndexTotalSize(const fs::path& index) {
  const std::string where = EscapeForError(index.string());
  InputFile in(index.string(), kIndexFile);
  InputFileStreamBuf buf(in, in.size());
  std::istream text(&buf);
  IndexTotalSax sax;
  nlohmann::json::sax_parse(text, &sax);
  const char* expected = "expected {\"metadata\": {\"total_size\": N}}";
  if (!sax.valid || !sax.top_object) throw InputError(where + ": not valid JSON; " + expected);
  if (!sax.meta_object) throw InputError(where + ": no \"metadata\" object; " + expected);
  if (!sax.total) throw InputError(where + ": no positive metadata.total_size; " + expected);
  return TotalSizeValue(*sax.total, where);
}

}  // namespace

std::string ReadTextFile(const fs::path& path) { return ReadInputFile(path.string(), kConfigFile); }

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
    fs::path snap = snapshots / Trim(ReadInputFile(ref.string(), kRefFile));
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
  const std::string where = EscapeForError(file.string());
  InputFile in(file.string(), kSafetensorsFile);
  const std::string len_bytes = in.Read(8);
  if (len_bytes.size() != 8) {
    throw InputError(where + ": truncated safetensors file (no 8-byte header length)");
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(len_bytes[i]);
  if (n == 0 || n > kMaxHeaderBytes) {
    throw InputError(where + ": not a safetensors file (header length " + std::to_string(n) +
                     ", expected 1 to " + std::to_string(kMaxHeaderBytes) + ")");
  }
  if (static_cast<int64_t>(n) > in.size() - 8) {
    throw InputError(where + ": truncated safetensors header (" + std::to_string(n) +
                     " bytes announced, " + std::to_string(in.size() - 8) + " in the file)");
  }
  // Streamed: the file was checked to hold the n bytes announced.
  InputFileStreamBuf buf(in, static_cast<int64_t>(n));
  std::istream header(&buf);
  return SumTensorBytes(header, where);
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
  for (const fs::path& f : files) {
    total = CheckedAdd(total, SafetensorsTensorBytes(f), "the checkpoint's total tensor bytes");
  }
  return total;
}

}  // namespace kvplan
