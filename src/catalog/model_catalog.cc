#include "catalog/model_catalog.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <string>
#include <vector>

#include "base/embedded_data.h"
#include "catalog/model.h"

namespace kvplan {
namespace {

constexpr std::string_view kPrefix = "models/";
constexpr std::string_view kSuffix = ".json";

// "models/Qwen--Qwen3-8B.json" -> "Qwen/Qwen3-8B"; "" for files that are not model configs.
std::string IdOfPath(std::string_view path) {
  if (path.substr(0, kPrefix.size()) != kPrefix || path.size() <= kPrefix.size() + kSuffix.size() ||
      path.substr(path.size() - kSuffix.size()) != kSuffix) {
    return "";
  }
  std::string_view stem =
      path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  size_t sep = stem.find("--");
  if (sep == std::string_view::npos || stem.find('/') != std::string_view::npos) return "";
  // Built with append: gcc 12 -O3 warns falsely (-Wrestrict) on operator+ here.
  std::string id;
  id.reserve(stem.size());
  id.append(stem.substr(0, sep));
  id.push_back('/');
  id.append(stem.substr(sep + 2));
  return id;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::optional<CatalogEntry> FindCatalogModel(std::string_view id) {
  std::string wanted(id);
  if (wanted.find('/') == std::string::npos) {
    size_t sep = wanted.find("--");
    if (sep == std::string::npos) return std::nullopt;
    wanted = std::string(id.substr(0, sep)).append("/").append(id.substr(sep + 2));
  }
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    std::string fid = IdOfPath(f.path);
    if (fid.empty() || !EqualsIgnoreCase(fid, wanted)) continue;
    // The sidecar is named as its config: models/hf_quant/ORG--NAME.json.
    std::string sidecar("models/hf_quant/");
    sidecar.append(f.path.substr(kPrefix.size()));
    return CatalogEntry{fid, f.content, FindEmbeddedFile(sidecar).value_or("")};
  }
  return std::nullopt;
}

std::vector<std::string> CatalogModelIds() {
  std::vector<std::string> ids;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    std::string id = IdOfPath(f.path);
    if (!id.empty()) ids.push_back(std::move(id));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

const std::vector<ModelSpec>& CatalogModels() {
  static const std::vector<ModelSpec> models = [] {
    std::vector<ModelSpec> all;
    for (const std::string& id : CatalogModelIds()) {
      try {
        all.push_back(LoadModel(id));
      } catch (const std::exception&) {  // an entry kvplan cannot read is not a model of it
      }
    }
    return all;
  }();
  return models;
}

}  // namespace kvplan
