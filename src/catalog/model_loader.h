// Finding a model's files on disk: a config.json, a model directory, a Hugging
// Face cache repo (models--ORG--NAME/snapshots/<rev>/), and the checkpoint's
// exact size from model.safetensors.index.json or the safetensors headers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

// The whole file; InputError naming the path when it cannot be read.
std::string ReadTextFile(const std::filesystem::path& path);

// The Hugging Face hub cache directories to search, in order: $HF_HUB_CACHE,
// $HF_HOME/hub, $XDG_CACHE_HOME/huggingface/hub, $HOME/.cache/huggingface/hub.
std::vector<std::filesystem::path> HfHubCacheDirs();

// The snapshot directory (holding config.json) of a cache repo directory
// models--ORG--NAME: the one refs/main names, else the newest with a
// config.json. nullopt when `repo_dir` is not such a directory.
std::optional<std::filesystem::path> HfSnapshotDir(const std::filesystem::path& repo_dir);

// The snapshot directory of hub id "ORG/NAME" in the local cache, if present.
std::optional<std::filesystem::path> FindInHfCache(std::string_view hub_id);

// Sum of the tensor byte sizes in one .safetensors file's header (an 8-byte
// little-endian length, then that many bytes of JSON). InputError if garbled.
int64_t SafetensorsTensorBytes(const std::filesystem::path& file);

// Exact checkpoint bytes of a model directory: metadata.total_size of
// model.safetensors.index.json, else the sum over *.safetensors headers;
// nullopt when the directory holds neither.
std::optional<int64_t> CheckpointBytes(const std::filesystem::path& dir);

}  // namespace kvplan
