// The GPU catalog (data/gpus.json): what each card reports and how fast it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
  // Every runtime total a public log showed for this GPU, in MiB (the driver
  // release moves it: an RTX 4090 reads 24563, 24217 or 24084); total_bytes is
  // the one kvplan plans with. Empty when no log printed one.
  std::vector<int64_t> observed_total_mib;
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
  std::string file;           // the --gpu FILE.json it was read from; "" for the catalog's
};

// All GPUs of the catalog, in catalog order.
const std::vector<GpuSpec>& GpuCatalog();

// Finds a GPU by id or alias (case-insensitive, '_' and ' ' read as '-'), or
// reads a user's GPU description when `name` is a JSON file (ends in .json;
// see ParseUserGpu). An ambiguous name ("a100") is resolved by
// `capacity_mib` (nvidia-smi memory.total, e.g. from --gpu-capacity-mib): the
// candidate nearest to it. Throws InputError listing the known ids when there
// is no such GPU, or the candidates when the name is ambiguous and no capacity
// is given.
const GpuSpec& FindGpu(const std::string& name, std::optional<int64_t> capacity_mib = std::nullopt);

// The GPU a verb plans or times on: FindGpu(name, capacity_mib), with the
// nvidia-smi capacity replaced by `capacity_mib` when one is given (a driver
// that reports another memory.total, or the smallest card of a mixed host).
// Throws InputError for a capacity no GPU has (under 1 GiB or over 16 TiB).
GpuSpec GpuWithCapacity(const std::string& name, std::optional<int64_t> capacity_mib);

// Throws InputError naming the figures a user's GPU file leaves out when
// `verb` computes step times from them (memory bandwidth, dense BF16 FLOPs);
// catalog GPUs always state both.
void RequireStepTimeFigures(const GpuSpec& gpu, const std::string& verb);

// The names that stand for several GPUs (gpus.json "ambiguous"), each with its
// candidates' ids, in catalog order.
const std::vector<std::pair<std::string, std::vector<std::string>>>& AmbiguousGpuNames();

// Whether the candidates of an ambiguous name each report another nvidia-smi
// capacity, so that --gpu-capacity-mib can pick one (the RTX PRO 6000
// editions all report 97887 MiB: it cannot).
bool CapacityTellsApart(const std::vector<std::string>& ids);

// The GPU a --gpu value stands for, for output headers: the value as typed for
// a catalog id or alias, the resolved id for an ambiguous name, and
// "NAME (FILE)" for a GPU file.
std::string GpuLabel(const std::string& name, std::optional<int64_t> capacity_mib = std::nullopt);

// True when `name` names a GPU description file rather than a catalog GPU.
bool IsGpuFile(std::string_view name);

// A user's GPU description (--gpu FILE.json): an object with the catalog's
// fields. Required: name, capacity_mib, link and its bandwidth (nvlink_gb_s or
// pcie_gb_s); hbm_tb_s and bf16_tflops may be left out (0) by a user who only
// plans memory (RequireStepTimeFigures refuses them for step times); the rest
// default (see the .cc).
// `origin` names the file in errors. Throws InputError naming the one missing
// or ill-typed field.
GpuSpec ParseUserGpu(std::string_view json_text, const std::string& origin);

// The GPU described by the file at `path`, read on first use and kept for the
// program's life. Throws InputError when it cannot be read or parsed.
const GpuSpec& UserGpuFromFile(const std::string& path);

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
