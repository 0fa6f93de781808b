// The GPU catalog (data/gpus.json): what each card reports and how fast it is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

enum class LinkKind { kNvlink, kPcie, kInfinityFabric };

struct GpuSpec {
  std::string id;                    // canonical lower-case id, e.g. "h100-sxm"
  std::vector<std::string> aliases;  // other accepted names, lower-case hyphenated
  std::string name;                  // marketing name, e.g. "NVIDIA H100 80GB HBM3"
  std::string vendor;                // "nvidia" or "amd"
  // CUDA compute capability x10 (90 Hopper, 100 B200, 120 RTX Blackwell);
  // 0 for AMD. Engines pick attention backends (and so page sizes) by it.
  int compute_capability = 0;
  // Streaming multiprocessors (AMD: compute units): a kernel whose grid has
  // fewer blocks than this leaves the rest of the GPU idle.
  int sm_count = 0;
  // Total bytes as the CUDA runtime reports them (torch.cuda.mem_get_info()[1]).
  int64_t total_bytes = 0;
  // nvidia-smi --query-gpu=memory.total, in MiB: what SGLang's default rules read.
  int64_t capacity_mib = 0;
  double hbm_bandwidth = 0;  // bytes/s
  double bf16_flops = 0;     // dense FLOP/s
  double fp8_flops = 0;      // dense FLOP/s (0 when unsupported)
  double fp4_flops = 0;      // dense FLOP/s (0 when unsupported)
  // Scale-up interconnect between GPUs of one node.
  LinkKind link = LinkKind::kPcie;
  int nvlink_generation = 0;    // 0 when no NVLink
  double nvlink_bandwidth = 0;  // bytes/s per GPU, one direction
  int pcie_generation = 0;
  double pcie_bandwidth = 0;  // bytes/s per GPU, one direction (x16)
  bool p2p = true;            // peer-to-peer access between GPUs of the node
  std::string source;         // where the figures come from
};

// All GPUs of the catalog, in catalog order.
const std::vector<GpuSpec>& GpuCatalog();

// Finds a GPU by id or alias (case-insensitive, '_' and ' ' read as '-').
// Throws InputError listing the known ids when there is no such GPU.
const GpuSpec& FindGpu(const std::string& name);

// A user-typed GPU name in catalog form: lower case, '_' and ' ' as '-',
// surrounding blanks dropped ("H100_SXM " -> "h100-sxm").
std::string NormalizeGpuName(std::string_view name);

// The scale-up link in words, e.g. "NVLink4 450 GB/s", "PCIe5 64 GB/s no-P2P".
std::string DescribeInterconnect(const GpuSpec& gpu);

// Parses a catalog document (the format of data/gpus.json). Throws InputError
// naming the entry and field on a missing or ill-typed field. GpuCatalog()
// uses it on the embedded file; exposed so tests can feed bad documents.
std::vector<GpuSpec> ParseGpuCatalog(std::string_view json_text);

}  // namespace kvplan
