// SGLang's --attention-backend: the choices it accepts and the one it picks
// when the user names none. The planner (page size), `kvplan perf` (which
// kernel a multi-token forward runs) and `kvplan tune` all read it here.
#pragma once

#include <string>
#include <vector>

namespace kvplan {

// server_args.py @v0.5.6 ATTENTION_BACKEND_CHOICES (the CUDA and ROCm ones).
const std::vector<std::string>& SglangAttentionBackends();

// Throws InputError unless `backend` is "" or one of SglangAttentionBackends()
// (exact spelling, as SGLang's argparse choices are).
void CheckSglangAttentionBackend(const std::string& backend);

// The backend SGLang runs when --attention-backend is unset, for a model of
// `architecture` (`mla`: multi-head latent attention) on a GPU of
// `compute_capability` (x10; 0 for AMD).
std::string SglangDefaultAttentionBackend(int compute_capability, bool mla,
                                          const std::string& architecture);

// `backend` when set, else the default.
std::string SglangAttentionBackend(int compute_capability, bool mla,
                                   const std::string& architecture, const std::string& backend);

}  // namespace kvplan
