#include "explain/logged_gpu.h"

#include <fmt/core.h>

namespace kvplan {

const GpuSpec* FindLoggedGpu(const std::string& name) {
  // The catalog's marketing names are nvidia-smi's (and what --gpu stores in the run).
  for (const GpuSpec& g : GpuCatalog()) {
    if (!name.empty() && g.name == name) return &g;
  }
  std::string without_vendor = name.rfind("NVIDIA ", 0) == 0 ? name.substr(7) : "";
  for (const std::string& n : {name, without_vendor}) {
    if (n.empty()) continue;
    try {
      return &FindGpu(n);
    } catch (const std::exception&) {  // not this spelling: try the next
    }
  }
  return nullptr;
}

GpuSpec LoggedGpu(const RunRecord& run, int64_t measured_total_bytes,
                  const std::string& total_source, std::string* note) {
  if (const GpuSpec* g = FindLoggedGpu(run.gpu_name)) {
    *note = "GPU " + g->name + " from kvplan's catalog";
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
  *note = fmt::format("{}: total taken as {}, capacity {}, compute capability assumed 9.0",
                      run.gpu_name.empty()
                          ? "GPU not named in the log (no nvidia-smi table; --gpu names it)"
                          : "GPU " + run.gpu_name + " not in kvplan's catalog",
                      total_source, capacity);
  return g;
}

}  // namespace kvplan
