// Published single-stream decode figures with their full setup (engine, GPU,
// parallelism, model and weights, context, speculation), with kvplan's
// prediction. The unit tests hold the model within 25 % of each figure not
// marked as a known miss and hold each known miss outside it; `kvplan perf
// --validation` prints the table of docs/perf-validation.md section 4.
#pragma once

#include <string>
#include <vector>

#include "perf/efficiency.h"
#include "perf/speculative.h"
#include "perf/topology.h"

namespace kvplan {

struct PublishedDecode {
  const char* setup;  // as the source describes it
  const char* model;  // reference model id (perf/reference_hardware.h)
  const char* gpu;    // reference GPU id
  Topology topology;
  int tp;
  double kv_bytes_per_elem;  // KV-cache dtype
  double ctx;                // mean tokens in the cache while decoding
  SpecEngine engine;
  // Speculation: 0 steps for none; else an EAGLE-3 chain of `spec_steps`
  // draft tokens with the published acceptance length.
  int spec_steps;
  double accept_length;
  double published_tok_s;  // per request (batch 1)
  const char* source;
  const char* known_miss;  // nullptr when kvplan claims the 25 % target; else why not
};

const std::vector<PublishedDecode>& PublishedDecodes();

// kvplan's decode tokens/s for the figure's setup, with the default
// efficiency factors or calibrated ones.
double PredictPublishedDecode(const PublishedDecode& f, const Efficiency& eff = {});

// The per-kernel cost (Efficiency::kernel_graph_us) at which kvplan
// reproduces `f` exactly, the other factors at their defaults: the
// calibration a user does with --kernel-us from one measured step.
double FitKernelUs(const PublishedDecode& f);

// The figure the table and tests calibrate on: NIM, Llama-3.3-70B FP8 on
// 2xH100, 5000 in / 500 out.
const PublishedDecode& CalibrationDecode();

// Markdown table: setup, published, kvplan, error, within 25 %, kvplan with
// the kernel cost fitted on CalibrationDecode(), source.
std::string PublishedDecodeTable();

}  // namespace kvplan
