// `kvplan gpus` for people: one row per GPU.
#include <iterator>

#include <fmt/format.h>

#include "base/units.h"
#include "catalog/gpu.h"
#include "kvplan/render.h"

namespace kvplan {
namespace {

std::string Tflops(double flops) { return flops > 0 ? fmt::format("{:.0f}", flops / 1e12) : "-"; }

}  // namespace

std::string RenderGpusText(const std::vector<GpuSpec>& gpus) {
  std::string out;
  auto it = std::back_inserter(out);
  constexpr const char* kRow = "{:<15} {:<45} {:>7} {:>9} {:>6} {:>6} {:>6}  {}\n";
  fmt::format_to(it, kRow, "ID", "NAME", "MEM GiB", "SMI MiB", "TB/s", "BF16", "FP8",
                 "INTERCONNECT");
  for (const GpuSpec& gpu : gpus) {
    fmt::format_to(it, kRow, gpu.id, gpu.name, fmt::format("{:.2f}", ToGiB(gpu.total_bytes)),
                   gpu.capacity_mib, fmt::format("{:.2f}", gpu.hbm_bandwidth / 1e12),
                   Tflops(gpu.bf16_flops), Tflops(gpu.fp8_flops), DescribeInterconnect(gpu));
  }
  out +=
      "\nMEM GiB: CUDA runtime total (torch.cuda.mem_get_info). SMI MiB: nvidia-smi memory.total,\n"
      "what SGLang's default rules read. BF16/FP8: dense TFLOP/s. Links: per GPU, one direction.\n"
      "Sources and aliases: kvplan gpus --json.\n";
  return out;
}

}  // namespace kvplan
