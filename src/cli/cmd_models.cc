// `kvplan models [--json]`: the bundled model catalog.
// `kvplan models show MODEL [--tp N ...] [--json]`: one model's geometry and
// its weights per rank under the given parallelism.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/verbs.h"
#include "kvplan/catalog.h"
#include "kvplan/render.h"

namespace kvplan::cli {
namespace {

struct ShowOptions {
  ModelShowRequest request;
  bool json = false;
};

void Print(const std::string& text) { std::fputs(text.c_str(), stdout); }

void Show(const ShowOptions& o) {
  const std::shared_ptr<const ModelShow> show = ShowModel(o.request);
  Print(o.json ? RenderModelShowJson(*show) + "\n" : RenderModelShowText(*show));
}

void PrintArchitectures(bool json) {
  const std::shared_ptr<const ArchitectureListing> a = ListArchitectures();
  Print(json ? RenderArchitecturesJson(*a) + "\n" : RenderArchitecturesText(*a));
}

void PrintModelList(bool json) {
  const std::shared_ptr<const ModelListing> models = ListModels();
  Print(json ? RenderModelsJson(*models) + "\n" : RenderModelsText(*models));
}

}  // namespace

void RegisterModelsVerb(Command& app) {
  Command* cmd = app.add_subcommand("models", "List the bundled model catalog");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the catalog as JSON");

  Command* show = cmd->add_subcommand(
      "show", "Show one model's geometry and its weights per rank (catalog id, path or HF id)");
  auto opts = std::make_shared<ShowOptions>();
  show->add_option("model", opts->request.model,
                   "Catalog id, config.json, model directory or HF id")
      ->required();
  show->add_option("--tp,--tp-size,--tensor-parallel-size", opts->request.tp,
                   "Tensor parallel size")
      ->check_range(1, 65536);
  show->add_option("--pp,--pp-size,--pipeline-parallel-size", opts->request.pp,
                   "Pipeline parallel size")
      ->check_range(1, 65536);
  show->add_option("--dp,--dp-size,--data-parallel-size", opts->request.dp, "Data parallel size")
      ->check_range(1, 65536);
  show->add_option("--ep,--ep-size,--expert-parallel-size", opts->request.ep,
                   "Expert parallel size")
      ->check_range(1, 65536);
  show->add_flag("--enable-dp-attention", opts->request.dp_attention,
                 "SGLang DP attention: attention split over tp/dp, embedding replicated");
  show->add_flag("--enable-dp-lm-head", opts->request.dp_lm_head,
                 "SGLang: split lm_head over the attention-TP group only");
  show->add_flag("--json", opts->json, "Print as JSON");
  show->callback([opts] { Show(*opts); });

  Command* archs = cmd->add_subcommand(
      "architectures", "List the architectures kvplan reads, with the layer kinds each uses");
  auto archs_json = std::make_shared<bool>(false);
  archs->add_flag("--json", *archs_json, "Print as JSON");
  archs->callback([archs_json] { PrintArchitectures(*archs_json); });

  cmd->callback([show, archs, json] {
    if (show->parsed() || archs->parsed()) return;
    PrintModelList(*json);
  });
}

}  // namespace kvplan::cli
