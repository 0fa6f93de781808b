#include "catalog/gpu.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "base/units.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using Json = nlohmann::json;

// The catalog states rates in the units datasheets use; GpuSpec holds SI base units.
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;

[[noreturn]] void BadEntry(const std::string& where, const std::string& what) {
  throw InputError(fmt::format("gpus.json: {}: {}", where, what));
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

void ParseRates(const Json& entry, const std::string& where, GpuSpec& gpu) {
  gpu.hbm_bandwidth = NumberField(entry, where, "hbm_tb_s") * kTera;
  gpu.bf16_flops = NumberField(entry, where, "bf16_tflops") * kTera;
  gpu.fp8_flops = NumberField(entry, where, "fp8_tflops") * kTera;
  gpu.fp4_flops = NumberField(entry, where, "fp4_tflops") * kTera;
  if (gpu.hbm_bandwidth <= 0 || gpu.bf16_flops <= 0) {
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

GpuSpec ParseEntry(const Json& entry, size_t index) {
  std::string where = fmt::format("entry {}", index);
  if (!entry.is_object()) BadEntry(where, "must be an object");
  GpuSpec gpu;
  gpu.id = CatalogName(where, StringField(entry, where, "id"));
  where = fmt::format("'{}'", gpu.id);
  const Json& aliases = Field(entry, where, "aliases");
  if (!aliases.is_array()) BadEntry(where, "'aliases' must be an array of strings");
  for (const Json& a : aliases) {
    if (!a.is_string()) BadEntry(where, "'aliases' must be an array of strings");
    gpu.aliases.push_back(CatalogName(where, a.get<std::string>()));
  }
  gpu.name = StringField(entry, where, "name");
  gpu.vendor = StringField(entry, where, "vendor");
  if (gpu.vendor != "nvidia" && gpu.vendor != "amd")
    BadEntry(where, "vendor must be nvidia or amd");
  gpu.total_bytes = PositiveIntField(entry, where, "total_mib") * kMiB;
  gpu.capacity_mib = PositiveIntField(entry, where, "capacity_mib");
  ParseRates(entry, where, gpu);
  ParseLinks(entry, where, gpu);
  gpu.source = StringField(entry, where, "source");
  return gpu;
}

// Every id and alias must name exactly one GPU, or FindGpu would be ambiguous.
void CheckNamesUnique(const std::vector<GpuSpec>& gpus) {
  std::set<std::string> seen;
  for (const GpuSpec& gpu : gpus) {
    std::vector<std::string> names = gpu.aliases;
    names.push_back(gpu.id);
    for (const std::string& n : names) {
      if (!seen.insert(n).second) {
        BadEntry(fmt::format("'{}'", gpu.id), fmt::format("name '{}' is used twice", n));
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

}  // namespace

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
  static const std::vector<GpuSpec> catalog = [] {
    std::optional<std::string_view> text = FindEmbeddedFile("gpus.json");
    if (!text) throw InputError("gpus.json is not embedded in this kvplan build");
    return ParseGpuCatalog(*text);
  }();
  return catalog;
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

const GpuSpec& FindGpu(const std::string& name) {
  const std::string key = NormalizeGpuName(name);
  for (const GpuSpec& gpu : GpuCatalog()) {
    if (gpu.id == key ||
        std::find(gpu.aliases.begin(), gpu.aliases.end(), key) != gpu.aliases.end()) {
      return gpu;
    }
  }
  throw InputError(fmt::format("unknown GPU '{}'; known: {}", name, KnownIds()));
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
