// LoadModel: a model spec (path, directory, HF cache, catalog id) to a ModelSpec.
#include "catalog/model.h"

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/model_catalog.h"
#include "catalog/model_loader.h"
#include "catalog/quantization.h"
#include "kvplan/error.h"

namespace kvplan {
namespace fs = std::filesystem;

namespace {

// ModelOpt exports may keep the quantization in hf_quant_config.json instead
// of config.json (vllm/model_executor/layers/quantization/modelopt.py reads it).
void ApplyHfQuantConfig(std::string_view text, const std::string& origin, ModelSpec& m) {
  if (m.quant.IsQuantized()) return;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  auto q = j.is_object() ? j.find("quantization") : j.end();
  if (j.is_discarded() || !j.is_object() || q == j.end() || !q->is_object()) {
    throw InputError(origin + ": expected {\"quantization\": {\"quant_algo\": ...}}");
  }
  nlohmann::json qc = *q;
  qc["quant_method"] = "modelopt";
  m.quant = ParseQuantization(qc, origin);
}

void ReadHfQuantConfig(const fs::path& dir, ModelSpec& m) {
  fs::path file = dir / "hf_quant_config.json";
  std::error_code ec;
  if (m.quant.IsQuantized() || !fs::is_regular_file(file, ec)) return;
  ApplyHfQuantConfig(ReadTextFile(file), file.string(), m);
}

ModelSpec LoadModelDir(const fs::path& dir, const std::string& id) {
  fs::path config = dir / "config.json";
  ModelSpec m = ParseModelConfig(ReadTextFile(config), config.string());
  m.id = id;
  ReadHfQuantConfig(dir, m);
  m.checkpoint_bytes = CheckpointBytes(dir);
  return m;
}

ModelSpec LoadDirectory(const fs::path& dir, const std::string& spec) {
  std::error_code ec;
  if (fs::is_regular_file(dir / "config.json", ec)) return LoadModelDir(dir, spec);
  if (std::optional<fs::path> snap = HfSnapshotDir(dir)) return LoadModelDir(*snap, spec);
  throw InputError(spec +
                   ": directory has no config.json (expected a model directory or a Hugging "
                   "Face cache repo models--ORG--NAME)");
}

}  // namespace

int ModelSpec::NumLayersOfKind(LayerKind k) const {
  int n = 0;
  for (LayerKind lk : layer_kinds) n += (lk == k);
  return n;
}

int ModelSpec::NumMoeLayers() const {
  int n = 0;
  for (bool moe : layer_is_moe) n += moe;
  return n;
}

ModelSpec MtpDraftSpec(const ModelSpec& target) {
  if (target.num_nextn_predict_layers <= 0) {
    throw InputError(target.id + " has no MTP layers (num_nextn_predict_layers is 0)");
  }
  ModelSpec d = target;
  d.id = target.id + " (MTP)";
  d.draft_kind = "mtp";
  d.num_layers = target.num_nextn_predict_layers;
  d.num_nextn_predict_layers = 0;
  d.first_k_dense_layers = 0;
  d.layer_kinds.assign(d.num_layers, LayerKind::kFull);
  // deepseek_nextn.py builds its decoder layer with is_nextn=True: always sparse.
  d.layer_is_moe.assign(d.num_layers, target.IsMoe());
  d.multimodal = false;
  d.checkpoint_bytes.reset();
  return d;
}

ModelSpec LoadModel(const std::string& spec) {
  if (spec.empty()) throw InputError("empty model name; expected a catalog id, path or HF id");
  fs::path path(spec);
  std::error_code ec;
  if (fs::is_directory(path, ec)) return LoadDirectory(path, spec);
  if (fs::exists(path, ec)) {
    ModelSpec m = ParseModelConfig(ReadTextFile(path), spec);
    m.id = spec;
    // A config.json beside its weights: read the exact checkpoint size too.
    if (path.filename() == "config.json") {
      m.checkpoint_bytes = CheckpointBytes(path.has_parent_path() ? path.parent_path() : ".");
    }
    return m;
  }
  // A hub id: the real files in the local HF cache beat the bundled copy.
  if (std::optional<fs::path> snap = FindInHfCache(spec)) return LoadModelDir(*snap, spec);
  if (std::optional<CatalogEntry> entry = FindCatalogModel(spec)) {
    ModelSpec m = ParseModelConfig(entry->config_json, "catalog:" + entry->id);
    m.id = entry->id;
    if (!entry->hf_quant_config_json.empty()) {
      ApplyHfQuantConfig(entry->hf_quant_config_json, "catalog:" + entry->id + " hf_quant_config",
                         m);
    }
    return m;
  }
  throw InputError("unknown model \"" + spec +
                   "\": not a file or directory, not a bundled catalog id (see `kvplan models`), "
                   "and not in the Hugging Face cache ($HF_HOME/hub)");
}

}  // namespace kvplan
