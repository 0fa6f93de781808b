#include "base/embedded_data.h"

namespace kvplan {

std::optional<std::string_view> FindEmbeddedFile(std::string_view path) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path == path) return f.content;
  }
  return std::nullopt;
}

}  // namespace kvplan
