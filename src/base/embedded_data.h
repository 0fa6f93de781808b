// Files from data/ compiled into the binary (see cmake/embed_data.cmake).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace kvplan {

struct EmbeddedFile {
  std::string_view path;  // relative to data/, e.g. "gpus.json"
  std::string_view content;
};

const std::vector<EmbeddedFile>& EmbeddedFiles();

// The content of data/<path>, or nullopt when no such file was embedded.
std::optional<std::string_view> FindEmbeddedFile(std::string_view path);

}  // namespace kvplan
