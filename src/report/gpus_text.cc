// `kvplan gpus` for people: one row per GPU.
#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/format.h"
#include "base/units.h"
#include "catalog/gpu.h"
#include "kvplan/render.h"
#include "report/fit_columns.h"

namespace kvplan {
namespace {

std::string Tflops(double flops) { return flops > 0 ? fmt::format("{:.0f}", flops / 1e12) : "-"; }

// What --gpu accepts for each GPU, and the names that stand for several.
std::string AliasesText(const std::vector<GpuSpec>& gpus) {
  size_t id_w = 15;
  for (const GpuSpec& gpu : gpus) id_w = std::max(id_w, gpu.id.size());
  for (const auto& [name, ids] : AmbiguousGpuNames()) id_w = std::max(id_w, name.size());
  std::string out = "\nALIASES\n";
  for (const GpuSpec& gpu : gpus) {
    if (gpu.aliases.empty()) continue;
    out += WrapText(fmt::format("{:<{}} {}", gpu.id, id_w, fmt::join(gpu.aliases, ", ")), id_w + 1);
  }
  for (const auto& [name, ids] : AmbiguousGpuNames()) {
    out += WrapText(fmt::format("{:<{}} ambiguous: one of {}{}", name, id_w, fmt::join(ids, ", "),
                                CapacityTellsApart(ids) ? " (or --gpu-capacity-mib)" : ""),
                    id_w + 1);
  }
  return out;
}

}  // namespace

std::string RenderGpusText(const std::vector<GpuSpec>& gpus) {
  std::string out;
  auto it = std::back_inserter(out);
  // The id and name columns fit the longest entry.
  size_t id_w = 15, name_w = 20;
  for (const GpuSpec& gpu : gpus) {
    id_w = std::max(id_w, gpu.id.size());
    name_w = std::max(name_w, gpu.name.size());
  }
  // Two tables keyed by id, so that each fits a terminal's 100 columns: capacity, then speed.
  constexpr const char* kMemoryRow = "{:<{}} {:<{}} {:>7} {:>9}\n";
  fmt::format_to(it, kMemoryRow, "ID", id_w, "NAME", name_w, "MEM GiB", "SMI MiB");
  for (const GpuSpec& gpu : gpus) {
    fmt::format_to(it, kMemoryRow, gpu.id, id_w, gpu.name, name_w,
                   fmt::format("{:.2f}", ToGiB(gpu.total_bytes)), gpu.capacity_mib);
  }
  constexpr const char* kSpeedRow = "{:<{}} {:>6} {:>6} {:>6}  {}\n";
  fmt::format_to(it, "\n");
  fmt::format_to(it, kSpeedRow, "ID", id_w, "TB/s", "BF16", "FP8", "INTERCONNECT");
  for (const GpuSpec& gpu : gpus) {
    fmt::format_to(it, kSpeedRow, gpu.id, id_w, fmt::format("{:.2f}", gpu.hbm_bandwidth / 1e12),
                   Tflops(gpu.bf16_flops), Tflops(gpu.fp8_flops), DescribeInterconnect(gpu));
  }
  out +=
      "\nMEM GiB: CUDA runtime total (torch.cuda.mem_get_info). SMI MiB: nvidia-smi memory.total,\n"
      "what SGLang's default rules read. BF16/FP8: dense TFLOP/s. Links: per GPU, one direction.\n"
      "Sources: kvplan gpus --json. A GPU outside the catalog: --gpu FILE.json.\n";
  out += AliasesText(gpus);
  return FitToColumns(out);
}

}  // namespace kvplan
