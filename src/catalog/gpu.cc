#include "catalog/gpu.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <set>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "base/units.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using Json = nlohmann::json;

// The catalog states rates in the units datasheets use; GpuSpec holds SI base units.
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;

// `where` is the document and entry, e.g. "gpus.json: 'h100-sxm'" or "my-gpu.json".
[[noreturn]] void BadEntry(const std::string& where, const std::string& what) {
  throw InputError(fmt::format("{}: {}", where, what));
}

const Json& Field(const Json& entry, const std::string& where, const char* key) {
  auto it = entry.find(key);
  if (it == entry.end()) BadEntry(where, fmt::format("missing field '{}'", key));
  return *it;
}

std::string StringField(const Json& entry, const std::string& where, const char* key) {
  const Json& v = Field(entry, where, key);
  if (!v.is_string() || v.get<std::string>().empty()) {
    BadEntry(where, fmt::format("'{}' must be a non-empty string", key));
  }
  return v.get<std::string>();
}

double NumberField(const Json& entry, const std::string& where, const char* key) {
  const Json& v = Field(entry, where, key);
  if (!v.is_number() || v.get<double>() < 0) {
    BadEntry(where, fmt::format("'{}' must be a number >= 0", key));
  }
  return v.get<double>();
}

int64_t PositiveIntField(const Json& entry, const std::string& where, const char* key) {
  const Json& v = Field(entry, where, key);
  if (!v.is_number_integer() || v.get<int64_t>() <= 0) {
    BadEntry(where, fmt::format("'{}' must be a positive integer", key));
  }
  return v.get<int64_t>();
}

std::string CatalogName(const std::string& where, const std::string& name) {
  if (NormalizeGpuName(name) != name) {
    BadEntry(where, fmt::format("name '{}' must be lower-case and hyphenated", name));
  }
  return name;
}

LinkKind ParseLink(const std::string& where, const std::string& link) {
  if (link == "nvlink") return LinkKind::kNvlink;
  if (link == "pcie") return LinkKind::kPcie;
  if (link == "infinity-fabric") return LinkKind::kInfinityFabric;
  BadEntry(where, fmt::format("link '{}' is not nvlink, pcie or infinity-fabric", link));
}

// A catalog entry states every rate; a user's file may leave the bandwidth and
// BF16 FLOPs out (0), which only the step-time verbs need.
void ParseRates(const Json& entry, const std::string& where, bool rates_required, GpuSpec& gpu) {
  gpu.hbm_bandwidth = NumberField(entry, where, "hbm_tb_s") * kTera;
  gpu.bf16_flops = NumberField(entry, where, "bf16_tflops") * kTera;
  gpu.fp8_flops = NumberField(entry, where, "fp8_tflops") * kTera;
  gpu.fp4_flops = NumberField(entry, where, "fp4_tflops") * kTera;
  if (rates_required && (gpu.hbm_bandwidth <= 0 || gpu.bf16_flops <= 0)) {
    BadEntry(where, "hbm_tb_s and bf16_tflops must be > 0");
  }
}

void ParseLinks(const Json& entry, const std::string& where, GpuSpec& gpu) {
  gpu.link = ParseLink(where, StringField(entry, where, "link"));
  gpu.nvlink_generation = static_cast<int>(NumberField(entry, where, "nvlink_generation"));
  gpu.nvlink_bandwidth = NumberField(entry, where, "nvlink_gb_s") * kGiga;
  gpu.pcie_generation = static_cast<int>(NumberField(entry, where, "pcie_generation"));
  gpu.compute_capability = static_cast<int>(NumberField(entry, where, "compute_capability"));
  gpu.sm_count = static_cast<int>(NumberField(entry, where, "sm_count"));
  if (gpu.sm_count <= 0) BadEntry(where, "'sm_count' must be a positive number");
  gpu.pcie_bandwidth = NumberField(entry, where, "pcie_gb_s") * kGiga;
  const Json& p2p = Field(entry, where, "p2p");
  if (!p2p.is_boolean()) BadEntry(where, "'p2p' must be true or false");
  gpu.p2p = p2p.get<bool>();
  if (gpu.link == LinkKind::kNvlink && (gpu.nvlink_generation <= 0 || gpu.nvlink_bandwidth <= 0)) {
    BadEntry(where, "an nvlink GPU needs nvlink_generation and nvlink_gb_s > 0");
  }
  if (gpu.link == LinkKind::kPcie && gpu.pcie_bandwidth <= 0) {
    BadEntry(where, "a pcie GPU needs pcie_gb_s > 0");
  }
}

std::vector<int64_t> ObservedTotals(const Json& entry, const std::string& where) {
  std::vector<int64_t> out;
  auto it = entry.find("observed_total_mib");
  if (it == entry.end()) return out;
  if (!it->is_array()) BadEntry(where, "'observed_total_mib' must be an array of MiB");
  for (const Json& v : *it) {
    if (!v.is_number_integer() || v.get<int64_t>() <= 0) {
      BadEntry(where, "'observed_total_mib' must be an array of positive integers");
    }
    out.push_back(v.get<int64_t>());
  }
  return out;
}

// An entry whose id is already known; `where` names it in errors.
GpuSpec ParseNamedEntry(const Json& entry, const std::string& where, std::string id,
                        bool rates_required = true) {
  GpuSpec gpu;
  gpu.id = std::move(id);
  const Json& aliases = Field(entry, where, "aliases");
  if (!aliases.is_array()) BadEntry(where, "'aliases' must be an array of strings");
  for (const Json& a : aliases) {
    if (!a.is_string()) BadEntry(where, "'aliases' must be an array of strings");
    gpu.aliases.push_back(CatalogName(where, a.get<std::string>()));
  }
  gpu.name = StringField(entry, where, "name");
  gpu.vendor = StringField(entry, where, "vendor");
  if (gpu.vendor != "nvidia" && gpu.vendor != "amd")
    // The engines' rules kvplan reproduces are their CUDA and ROCm builds'; the XPU, HPU
    // (Gaudi), NPU (Ascend) and MUSA platforms budget memory by other code.
    BadEntry(where, fmt::format("vendor '{}' is not nvidia or amd (kvplan models the engines' "
                                "CUDA and ROCm builds only)",
                                EscapeForError(gpu.vendor)));
  gpu.total_bytes = PositiveIntField(entry, where, "total_mib") * kMiB;
  gpu.capacity_mib = PositiveIntField(entry, where, "capacity_mib");
  gpu.observed_total_mib = ObservedTotals(entry, where);
  ParseRates(entry, where, rates_required, gpu);
  ParseLinks(entry, where, gpu);
  gpu.source = StringField(entry, where, "source");
  return gpu;
}

GpuSpec ParseEntry(const Json& entry, size_t index) {
  const std::string where = fmt::format("gpus.json: entry {}", index);
  if (!entry.is_object()) BadEntry(where, "must be an object");
  std::string id = CatalogName(where, StringField(entry, where, "id"));
  return ParseNamedEntry(entry, fmt::format("gpus.json: '{}'", id), id);
}

// Every id and alias must name exactly one GPU, or FindGpu would be ambiguous.
void CheckNamesUnique(const std::vector<GpuSpec>& gpus) {
  std::set<std::string> seen;
  for (const GpuSpec& gpu : gpus) {
    std::set<std::string> names(gpu.aliases.begin(), gpu.aliases.end());
    names.insert(gpu.id);
    names.insert(NormalizeGpuName(gpu.name));  // FindGpu reads the driver's name too
    for (const std::string& n : names) {
      if (!seen.insert(n).second) {
        BadEntry(fmt::format("gpus.json: '{}'", gpu.id), fmt::format("name '{}' is used twice", n));
      }
    }
  }
}

std::string KnownIds() {
  std::string out;
  for (const GpuSpec& gpu : GpuCatalog()) {
    if (!out.empty()) out += ", ";
    out += gpu.id;
  }
  return out;
}

std::string FormatGbps(double bytes_per_s) { return fmt::format("{:g} GB/s", bytes_per_s / kGiga); }

// What a user's GPU file must state, with the words its error uses.
constexpr std::pair<const char*, const char*> kUserRequired[] = {  // kvplan: data table
    {"name", "the GPU's name"},
    {"capacity_mib", "nvidia-smi memory.total in MiB"},
    {"link", "the interconnect: nvlink, pcie or infinity-fabric"}};

// What step times need and a memory plan does not: a user's file may leave
// them out, and the verbs that time steps name the missing one.
constexpr std::pair<const char*, const char*> kUserStepTimeFigures[] = {  // kvplan: data table
    {"hbm_tb_s", "memory bandwidth in TB/s"},
    {"bf16_tflops", "dense BF16 TFLOP/s"}};

// What a user's GPU file may leave out, and the value it then gets.
const std::pair<const char*, Json> kUserDefaults[] = {  // kvplan: data table
    {"vendor", "nvidia"}, {"compute_capability", 90}, {"sm_count", 132},
    {"fp8_tflops", 0},    {"fp4_tflops", 0},          {"nvlink_generation", 0},
    {"nvlink_gb_s", 0},   {"pcie_generation", 5},     {"pcie_gb_s", 64},
    {"p2p", true},        {"aliases", Json::array()}};

// Fills what the user left out; the source names the file and the defaults
// taken, so every output that shows the GPU's source says what was assumed.
Json WithUserDefaults(Json doc, const std::string& origin) {
  const std::string link = doc["link"].is_string() ? doc["link"].get<std::string>() : "";
  const char* link_bw = link == "pcie" ? "pcie_gb_s" : "nvlink_gb_s";
  if (!doc.contains(link_bw)) {
    BadEntry(origin, fmt::format("missing field '{}' (the {} bandwidth per GPU, one direction, "
                                 "GB/s)",
                                 link_bw, link.empty() ? "link" : link));
  }
  if (link == "nvlink" && !doc.contains("nvlink_generation")) doc["nvlink_generation"] = 4;
  std::string not_stated;
  for (const auto& [key, what] : kUserStepTimeFigures) {
    if (doc.contains(key)) continue;
    doc[key] = 0;
    not_stated += fmt::format(", {}", key);
  }
  std::string assumed;
  for (const auto& [key, value] : kUserDefaults) {
    if (doc.contains(key)) continue;
    doc[key] = value;
    if (std::string(key) != "aliases") assumed += fmt::format(", {} {}", key, value.dump());
  }
  if (!doc.contains("total_mib")) {
    doc["total_mib"] = doc["capacity_mib"];
    assumed += ", total_mib = capacity_mib";
  }
  std::string source = fmt::format("user file {}", origin);
  if (doc.contains("source") && doc["source"].is_string()) {
    source += ": " + doc["source"].get<std::string>();
  }
  doc["source"] = source + (assumed.empty() ? "" : "; assumed: " + assumed.substr(2)) +
                  (not_stated.empty() ? "" : "; not stated: " + not_stated.substr(2));
  return doc;
}

std::string_view CatalogText() {
  std::optional<std::string_view> text = FindEmbeddedFile("gpus.json");
  if (!text) throw InputError("gpus.json is not embedded in this kvplan build");
  return *text;
}

// gpus.json "ambiguous": {"a100": ["a100-40gb", "a100-80gb"], ...}. A name
// there is no id or alias (it would resolve silently) and each candidate is.
std::vector<std::pair<std::string, std::vector<std::string>>> ParseAmbiguousNames(
    std::string_view text, const std::vector<GpuSpec>& gpus) {
  const Json doc = Json::parse(text);
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (!doc.contains("ambiguous")) return out;
  const Json& names = doc["ambiguous"];
  if (!names.is_object()) throw InputError("gpus.json: 'ambiguous' must be an object");
  for (const auto& [name, ids] : names.items()) {
    const std::string where = fmt::format("gpus.json: ambiguous '{}'", name);
    CatalogName(where, name);
    if (!ids.is_array() || ids.size() < 2) BadEntry(where, "needs an array of two or more ids");
    std::vector<std::string> candidates;
    for (const Json& id : ids) {
      auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& g) {
        return id.is_string() && g.id == id.get<std::string>();
      });
      if (it == gpus.end()) BadEntry(where, fmt::format("{} is not a catalog id", id.dump()));
      candidates.push_back(it->id);
    }
    out.emplace_back(name, std::move(candidates));
  }
  return out;
}

// By id or alias; else by the name the driver prints ("NVIDIA H20-3e", as
// copied from nvidia-smi or torch.cuda.get_device_name into --gpu).
const GpuSpec* FindCatalogGpu(const std::string& key) {
  for (const GpuSpec& gpu : GpuCatalog()) {
    if (gpu.id == key ||
        std::find(gpu.aliases.begin(), gpu.aliases.end(), key) != gpu.aliases.end()) {
      return &gpu;
    }
  }
  for (const GpuSpec& gpu : GpuCatalog()) {
    if (NormalizeGpuName(gpu.name) == key) return &gpu;
  }
  // The driver's "NVIDIA " before an alias ("NVIDIA A10G", "NVIDIA L40S").
  constexpr std::string_view kVendor = "nvidia-";
  if (key.size() > kVendor.size() && key.compare(0, kVendor.size(), kVendor) == 0) {
    return FindCatalogGpu(key.substr(kVendor.size()));
  }
  return nullptr;
}

// A memory.total no GPU reports is a typo (GiB or bytes for MiB), not a card.
void CheckCapacityMib(std::optional<int64_t> capacity_mib) {
  constexpr int64_t kLeast = 1024;              // 1 GiB
  constexpr int64_t kMost = int64_t{16} << 20;  // 16 TiB
  if (!capacity_mib) return;
  if (*capacity_mib < kLeast) {
    throw InputError(fmt::format("--gpu-capacity-mib {} is too small to be a GPU's capacity in MiB",
                                 *capacity_mib));
  }
  if (*capacity_mib > kMost) {
    throw InputError(
        fmt::format("--gpu-capacity-mib {} is larger than any GPU's capacity in MiB (at most {})",
                    *capacity_mib, kMost));
  }
}

// The candidate whose nvidia-smi capacity is nearest the user's; without one
// the name is refused, since the parts differ in what the engines allocate.
const GpuSpec& PickByCapacity(const std::string& name, const std::vector<std::string>& ids,
                              std::optional<int64_t> capacity_mib) {
  if (!capacity_mib) {
    std::string list;
    for (const std::string& id : ids) list += (list.empty() ? "" : ", ") + id;
    throw InputError(fmt::format("GPU '{}' is ambiguous: use one of {}{}", name, list,
                                 CapacityTellsApart(ids) ? " (or give --gpu-capacity-mib)" : ""));
  }
  const GpuSpec* best = nullptr;
  std::string tied;  // candidates as near as the best: the capacity does not tell them apart
  for (const std::string& id : ids) {
    const GpuSpec* g = FindCatalogGpu(id);
    const int64_t d = std::llabs(g->capacity_mib - *capacity_mib);
    const int64_t best_d = best ? std::llabs(best->capacity_mib - *capacity_mib) : 0;
    if (!best || d < best_d) {
      best = g;
      tied = g->id;
    } else if (d == best_d) {
      tied += ", " + g->id;
    }
  }
  if (tied != best->id) {
    throw InputError(fmt::format("GPU '{}' is ambiguous: {} all report {} MiB; use one of them",
                                 name, tied, best->capacity_mib));
  }
  return *best;
}

}  // namespace

bool CapacityTellsApart(const std::vector<std::string>& ids) {
  std::set<int64_t> capacities;
  for (const std::string& id : ids) {
    if (const GpuSpec* g = FindCatalogGpu(id)) capacities.insert(g->capacity_mib);
  }
  return capacities.size() == ids.size();
}

std::vector<GpuSpec> ParseGpuCatalog(std::string_view json_text) {
  Json doc = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw InputError("gpus.json: not valid JSON");
  if (!doc.is_object() || !doc.contains("gpus") || !doc["gpus"].is_array()) {
    throw InputError("gpus.json: expected an object with a 'gpus' array");
  }
  std::vector<GpuSpec> gpus;
  for (size_t i = 0; i < doc["gpus"].size(); ++i) gpus.push_back(ParseEntry(doc["gpus"][i], i));
  if (gpus.empty()) throw InputError("gpus.json: the 'gpus' array is empty");
  CheckNamesUnique(gpus);
  return gpus;
}

const std::vector<GpuSpec>& GpuCatalog() {
  // Parsed once; a C++11 function-local static is initialised thread-safely.
  static const std::vector<GpuSpec> catalog = ParseGpuCatalog(CatalogText());
  return catalog;
}

const std::vector<std::pair<std::string, std::vector<std::string>>>& AmbiguousGpuNames() {
  static const auto names = ParseAmbiguousNames(CatalogText(), GpuCatalog());
  return names;
}

GpuSpec ParseUserGpu(std::string_view json_text, const std::string& origin) {
  Json doc = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    BadEntry(origin,
             "not a JSON object (a GPU description: name, capacity_mib, hbm_tb_s, "
             "bf16_tflops, link and its bandwidth)");
  }
  for (const auto& [key, what] : kUserRequired) {
    if (!doc.contains(key)) BadEntry(origin, fmt::format("missing field '{}' ({})", key, what));
  }
  for (const auto& item : doc.items()) {
    const std::string& key = item.key();
    bool is_field =
        key == "id" || key == "total_mib" || key == "source" || key == "observed_total_mib";
    for (const auto& [required, what] : kUserRequired) is_field = is_field || key == required;
    for (const auto& [figure, what] : kUserStepTimeFigures) is_field = is_field || key == figure;
    for (const auto& [optional, value] : kUserDefaults) is_field = is_field || key == optional;
    if (!is_field) BadEntry(origin, fmt::format("unknown field '{}'", key));
  }
  doc = WithUserDefaults(std::move(doc), origin);
  std::string id = doc.contains("id") && doc["id"].is_string()
                       ? doc["id"].get<std::string>()
                       : NormalizeGpuName(StringField(doc, origin, "name"));
  GpuSpec gpu = ParseNamedEntry(doc, origin, CatalogName(origin, id), /*rates_required=*/false);
  gpu.file = origin;
  return gpu;
}

std::string NormalizeGpuName(std::string_view name) {
  size_t begin = name.find_first_not_of(" \t");
  size_t end = name.find_last_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  std::string out;
  for (char c : name.substr(begin, end - begin + 1)) {
    if (c == '_' || c == ' ') {
      out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

const GpuSpec& FindGpu(const std::string& name, std::optional<int64_t> capacity_mib) {
  CheckCapacityMib(capacity_mib);
  if (IsGpuFile(name)) return UserGpuFromFile(name);
  const std::string key = NormalizeGpuName(name);
  if (const GpuSpec* gpu = FindCatalogGpu(key)) return *gpu;
  for (const auto& [ambiguous, ids] : AmbiguousGpuNames()) {
    if (ambiguous == key) return PickByCapacity(name, ids, capacity_mib);
  }
  throw InputError(fmt::format(
      "unknown GPU '{}' (a card outside the catalog is a GPU file: --gpu FILE.json, see "
      "docs/examples/my-gpu.json); known: {}",
      name, KnownIds()));
}

GpuSpec GpuWithCapacity(const std::string& name, std::optional<int64_t> capacity_mib) {
  GpuSpec gpu = FindGpu(name, capacity_mib);
  if (capacity_mib) gpu.capacity_mib = *capacity_mib;
  return gpu;
}

void RequireStepTimeFigures(const GpuSpec& gpu, const std::string& verb) {
  const double stated[] = {gpu.hbm_bandwidth, gpu.bf16_flops};
  std::string missing;
  for (size_t i = 0; i < std::size(kUserStepTimeFigures); ++i) {
    if (stated[i] > 0) continue;
    const auto& [key, what] = kUserStepTimeFigures[i];
    missing += fmt::format("{}'{}' ({})", missing.empty() ? "" : " and ", key, what);
  }
  if (missing.empty()) return;
  throw InputError(fmt::format("{}: {} needs {} for step times; the file does not state it",
                               gpu.file.empty() ? gpu.id : gpu.file, verb, missing));
}

std::string GpuLabel(const std::string& name, std::optional<int64_t> capacity_mib) {
  if (name.empty()) return name;
  if (IsGpuFile(name)) return fmt::format("{} ({})", FindGpu(name).name, name);
  if (FindCatalogGpu(NormalizeGpuName(name)) == nullptr) return FindGpu(name, capacity_mib).id;
  return name;
}

std::string DescribeInterconnect(const GpuSpec& gpu) {
  switch (gpu.link) {
    case LinkKind::kNvlink:
      return fmt::format("NVLink{} {}", gpu.nvlink_generation, FormatGbps(gpu.nvlink_bandwidth));
    case LinkKind::kInfinityFabric:
      return fmt::format("xGMI {}", FormatGbps(gpu.nvlink_bandwidth));
    case LinkKind::kPcie:
      break;
  }
  return fmt::format("PCIe{} {}{}", gpu.pcie_generation, FormatGbps(gpu.pcie_bandwidth),
                     gpu.p2p ? "" : " no-P2P");
}

}  // namespace kvplan
