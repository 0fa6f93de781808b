// `kvplan gpus [--json]`: the GPU catalog as a table or as JSON.
#include <memory>
#include <string>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/gpu_json.h"
#include "cli/verbs.h"

namespace kvplan::cli {
namespace {

std::string Tflops(double flops) { return flops > 0 ? fmt::format("{:.0f}", flops / 1e12) : "-"; }

void PrintTable() {
  constexpr const char* kRow = "{:<15} {:<45} {:>7} {:>9} {:>6} {:>6} {:>6}  {}\n";
  fmt::print(kRow, "ID", "NAME", "MEM GiB", "SMI MiB", "TB/s", "BF16", "FP8", "INTERCONNECT");
  for (const GpuSpec& gpu : GpuCatalog()) {
    fmt::print(kRow, gpu.id, gpu.name, fmt::format("{:.2f}", ToGiB(gpu.total_bytes)),
               gpu.capacity_mib, fmt::format("{:.2f}", gpu.hbm_bandwidth / 1e12),
               Tflops(gpu.bf16_flops), Tflops(gpu.fp8_flops), DescribeInterconnect(gpu));
  }
  fmt::print(
      "\nMEM GiB: CUDA runtime total (torch.cuda.mem_get_info). SMI MiB: nvidia-smi memory.total,\n"
      "what SGLang's default rules read. BF16/FP8: dense TFLOP/s. Links: per GPU, one direction.\n"
      "Sources and aliases: kvplan gpus --json.\n");
}

void PrintJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const GpuSpec& gpu : GpuCatalog()) out.push_back(GpuToJson(gpu));
  fmt::print("{}\n", out.dump(2));
}

}  // namespace

void RegisterGpusVerb(Command& app) {
  Command* cmd = app.add_subcommand("gpus", "List the GPU catalog");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the catalog as JSON (base units, with sources)");
  cmd->callback([json] { *json ? PrintJson() : PrintTable(); });
}

}  // namespace kvplan::cli
