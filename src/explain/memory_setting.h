// Which logged settings shape memory, by the engine that ran: the lists are
// the engines' own (engines/sglang/memory_settings.h,
// engines/vllm/memory_settings.h); explain and diff both ask here.
#pragma once

#include <cstddef>
#include <string>

namespace kvplan {

// `engine` "sglang" or "vllm"; any other (a log that does not say) takes both lists.
bool ShapesMemory(const std::string& engine, const std::string& key);
// The key's place in its engine's list, most telling first; past the end when not in it.
size_t MemorySettingRank(const std::string& engine, const std::string& key);
// Memory settings explain's 10-column settings table leaves out: the model
// names (the header shows the model) and the CUDA-graph batch list (the
// timeline shows the graphs' cost). diff shows them, its columns are wide.
bool TooWideForExplain(const std::string& key);

}  // namespace kvplan
