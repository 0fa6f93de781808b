// Every collective figure of ../shared/reference/perf-model.md section 2-3
// that names a system, with kvplan's prediction. The unit tests hold the
// model within 25 % of each figure not marked as a known miss, and hold each
// known miss outside it (so the marks stay honest); `kvplan perf
// --validation` prints the table of docs/perf-validation.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perf/nccl_model.h"
#include "perf/topology.h"

namespace kvplan {

// kCustomAr: the engine's kernel choice; kCustomOneShot: the 1-stage kernel forced.
enum class CollImpl { kNccl, kCustomAr, kCustomOneShot };
enum class FigureUnit { kMicroseconds, kBusBwGBs };

struct PublishedCollective {
  const char* system;  // as the source describes it
  const char* gpu;     // reference GPU id (perf/reference_hardware.h)
  Topology topology;
  bool p2p_override;  // driver-patched P2P on a consumer card
  int n;
  CollImpl impl;
  unsigned algos;  // NCCL_ALGO restriction (0 = NCCL chooses)
  LaunchMode mode;
  int64_t bytes;
  FigureUnit unit;
  double published;
  const char* source;
  const char* known_miss;  // nullptr when kvplan claims the 25 % target; else why not
};

const std::vector<PublishedCollective>& PublishedCollectives();

// kvplan's prediction in the figure's unit.
double PredictPublished(const PublishedCollective& f);

// Markdown table: system, size, published, predicted, error, source.
std::string PublishedCollectivesTable();

}  // namespace kvplan
