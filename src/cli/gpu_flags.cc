#include "cli/gpu_flags.h"

namespace kvplan::cli {

void AddGpuOption(Command* cmd, std::string* gpu, bool required, const std::string& what) {
  Option* o =
      cmd->add_option("--gpu", *gpu,
                      what.empty() ? "GPU id or alias (kvplan gpus), or a GPU file FILE.json (see "
                                     "docs/examples/my-gpu.json)"
                                   : what);
  if (required) o->required();
}

void AddGpuCapacityOption(Command* cmd, std::optional<int64_t>* capacity_mib) {
  cmd->add_option("--gpu-capacity-mib", *capacity_mib,
                  "nvidia-smi memory.total in MiB, if not the catalog's (mixed-GPU hosts: the "
                  "smallest); also picks among the parts an ambiguous --gpu name stands for");
}

}  // namespace kvplan::cli
