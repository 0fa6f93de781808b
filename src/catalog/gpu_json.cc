#include "catalog/gpu_json.h"

#include <nlohmann/json.hpp>

#include "base/units.h"

namespace kvplan {

std::string LinkKindName(LinkKind link) {
  switch (link) {
    case LinkKind::kNvlink:
      return "nvlink";
    case LinkKind::kInfinityFabric:
      return "infinity-fabric";
    case LinkKind::kPcie:
      break;
  }
  return "pcie";
}

nlohmann::json GpuToJson(const GpuSpec& gpu) {
  return {
      {"id", gpu.id},
      {"aliases", gpu.aliases},
      {"name", gpu.name},
      {"vendor", gpu.vendor},
      {"compute_capability", gpu.compute_capability},
      {"sm_count", gpu.sm_count},
      {"total_bytes", gpu.total_bytes},
      {"total_gib", ToGiB(gpu.total_bytes)},
      {"capacity_mib", gpu.capacity_mib},
      {"observed_total_mib", gpu.observed_total_mib},
      {"hbm_bandwidth_bytes_per_s", gpu.hbm_bandwidth},
      {"bf16_flops", gpu.bf16_flops},
      {"fp8_flops", gpu.fp8_flops},
      {"fp4_flops", gpu.fp4_flops},
      {"link", LinkKindName(gpu.link)},
      {"nvlink_generation", gpu.nvlink_generation},
      {"nvlink_bandwidth_bytes_per_s", gpu.nvlink_bandwidth},
      {"pcie_generation", gpu.pcie_generation},
      {"pcie_bandwidth_bytes_per_s", gpu.pcie_bandwidth},
      {"p2p", gpu.p2p},
      {"interconnect", DescribeInterconnect(gpu)},
      {"source", gpu.source},
  };
}

}  // namespace kvplan
