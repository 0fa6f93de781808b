// `kvplan gpus [--json]`: the GPU catalog as a table or as JSON.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/verbs.h"
#include "kvplan/catalog.h"
#include "kvplan/render.h"

namespace kvplan::cli {
namespace {

void PrintGpuList(bool json) {
  const std::string text = json ? RenderGpusJson(ListGpus()) + "\n" : RenderGpusText(ListGpus());
  std::fputs(text.c_str(), stdout);
}

}  // namespace

void RegisterGpusVerb(Command& app) {
  Command* cmd = app.add_subcommand("gpus", "List the GPU catalog");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the catalog as JSON (base units, with sources)");
  cmd->callback([json] { PrintGpuList(*json); });
}

}  // namespace kvplan::cli
