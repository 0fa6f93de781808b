#include "explain/logged_gpu.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/core.h>

#include "base/units.h"

namespace kvplan {

namespace {

// nvidia-smi's table cuts a name longer than its column and ends it with "..."
// ("NVIDIA RTX PRO 6000 Blac..."); what is left is a prefix of the full name.
constexpr std::string_view kCutMark = "...";

bool IsCutName(const std::string& name) {
  return name.size() > kCutMark.size() &&
         name.compare(name.size() - kCutMark.size(), kCutMark.size(), kCutMark) == 0;
}

// The catalog GPUs a cut name may stand for; those of the table's capacity
// when that separates them.
std::vector<const GpuSpec*> CutNameCandidates(const std::string& name, int64_t capacity_mib) {
  const std::string prefix = name.substr(0, name.size() - kCutMark.size());
  std::vector<const GpuSpec*> all;
  std::vector<const GpuSpec*> same_capacity;
  for (const GpuSpec& g : GpuCatalog()) {
    if (g.name.rfind(prefix, 0) != 0) continue;
    all.push_back(&g);
    if (g.capacity_mib == capacity_mib) same_capacity.push_back(&g);
  }
  return same_capacity.empty() ? all : same_capacity;
}

}  // namespace

const GpuSpec* FindLoggedGpu(const std::string& name, int64_t capacity_mib) {
  // The catalog's marketing names are nvidia-smi's (and what --gpu stores in the run).
  for (const GpuSpec& g : GpuCatalog()) {
    if (!name.empty() && g.name == name) return &g;
  }
  if (IsCutName(name)) {
    std::vector<const GpuSpec*> c = CutNameCandidates(name, capacity_mib);
    return c.size() == 1 ? c[0] : nullptr;
  }
  if (name.empty()) return nullptr;
  try {
    return &FindGpu(name);           // ids, aliases and driver names, with or without "NVIDIA "
  } catch (const std::exception&) {  // not in the catalog, or an ambiguous name
  }
  return nullptr;
}

std::string LoggedGpuAmbiguity(const std::string& name, int64_t capacity_mib) {
  if (!IsCutName(name)) return "";
  std::vector<const GpuSpec*> c = CutNameCandidates(name, capacity_mib);
  if (c.size() < 2) return "";
  std::string ids;
  for (const GpuSpec* g : c) ids += (ids.empty() ? "" : ", ") + g->id;
  return fmt::format("nvidia-smi cut the name '{}': it is one of {}{}; --gpu ID picks one", name,
                     ids, capacity_mib > 0 ? fmt::format(", all {} MiB", capacity_mib) : "");
}

std::string MissingPerfFiguresHint(const std::string& gpu_name) {
  return fmt::format(
      "GPU '{}' is not in kvplan's catalog: step times need its memory bandwidth and dense "
      "BF16 FLOPs (--gpu FILE.json supplies them; see docs/examples/my-gpu.json)",
      gpu_name);
}

GpuSpec LoggedGpu(const RunRecord& run, int64_t measured_total_bytes,
                  const std::string& total_source, std::string* note) {
  if (const GpuSpec* g = FindLoggedGpu(run.gpu_name, run.gpu_capacity_mib)) {
    if (!g->file.empty()) {
      *note = fmt::format("GPU {} from --gpu {}", g->name, g->file);
    } else {
      *note = "GPU " + g->name + " from kvplan's catalog";
      if (g->name != run.gpu_name) {
        *note += fmt::format(" (the log's '{}' at {} MiB)", run.gpu_name, run.gpu_capacity_mib);
      }
    }
    return *g;
  }
  // Only the measured memory matters to the KV budget; the compute capability
  // (attention backend, page size) defaults to Hopper's.
  GpuSpec g;
  g.id = "unknown";
  g.name = run.gpu_name.empty() ? "unknown GPU" : run.gpu_name;
  g.total_bytes = measured_total_bytes;
  g.capacity_mib = run.gpu_capacity_mib;
  g.compute_capability = 90;
  std::string capacity = run.gpu_capacity_mib > 0
                             ? fmt::format("{} MiB (nvidia-smi)", run.gpu_capacity_mib)
                             : std::string("unknown");
  const std::string ambiguity = LoggedGpuAmbiguity(run.gpu_name, run.gpu_capacity_mib);
  *note = fmt::format("{}: total taken as {}, capacity {}, compute capability assumed 9.0",
                      run.gpu_name.empty() ? "GPU not named in the log (no nvidia-smi table; "
                                             "--gpu names it)"
                      : !ambiguity.empty() ? ambiguity
                                           : "GPU " + run.gpu_name + " not in kvplan's catalog",
                      total_source, capacity);
  return g;
}

std::vector<GpuCapacityGuess> GpuCapacityCandidates(const RunRecord& run, double in_use_gib) {
  if (run.gpu_capacity_mib > 0) {
    // --gpu fills the name and capacity of a run whose log has no nvidia-smi table.
    std::string from = run.gpu_count > 0 ? "nvidia-smi in the log" : "--gpu";
    return {{run.gpu_capacity_mib, fmt::format("{} MiB ({})", run.gpu_capacity_mib, from)}};
  }
  if (const GpuSpec* g = FindLoggedGpu(run.gpu_name, run.gpu_capacity_mib)) {
    return {{g->capacity_mib,
             fmt::format("{} MiB ({} in kvplan's catalog)", g->capacity_mib, g->name)}};
  }
  std::vector<GpuCapacityGuess> out;
  if (!(in_use_gib > 0 && in_use_gib < 1e7)) return out;
  const double floor_mib = in_use_gib * static_cast<double>(kGiB) / static_cast<double>(kMiB);
  std::vector<const GpuSpec*> fits;
  for (const GpuSpec& g : GpuCatalog()) {
    double cap = static_cast<double>(g.capacity_mib);
    if (cap >= floor_mib && cap <= floor_mib * 1.15) fits.push_back(&g);
  }
  std::stable_sort(fits.begin(), fits.end(), [](const GpuSpec* a, const GpuSpec* b) {
    return a->capacity_mib < b->capacity_mib;
  });
  for (const GpuSpec* g : fits) {
    if (!out.empty() && out.back().capacity_mib == g->capacity_mib) continue;  // same capacity
    out.push_back({g->capacity_mib,
                   fmt::format("{} MiB (inferred from the figures: {:.2f} GiB free or in use fits "
                               "a {}; the log names no GPU)",
                               g->capacity_mib, in_use_gib, g->name),
                   true});
  }
  return out;
}

}  // namespace kvplan
