// Every verb's result for people (text) and for machines (JSON; the schemas
// are in README.md "JSON output"). Text ends with a newline; JSON does not.
#pragma once

#include <string>
#include <vector>

#include "kvplan/catalog.h"
#include "kvplan/compare.h"
#include "kvplan/perf.h"
#include "kvplan/plan.h"
#include "kvplan/tune.h"

namespace kvplan {

std::string RenderPlanText(const PlanResult& r, const PlanContext& ctx);
std::string RenderPlanJson(const PlanResult& r, const PlanContext& ctx);
// The memory bar of one GPU, `width` cells wide, with a legend.
std::string RenderMemoryBar(const PlanResult& r, int width = 60);

std::string RenderCompareText(const CompareResult& r);
std::string RenderCompareJson(const CompareResult& r);

std::string RenderPerfText(const PerfReport& r);
std::string RenderPerfJson(const PerfReport& r);
std::string RenderPerfCsv(const PerfReport& r);
// The predicted-vs-published collective and decode tables.
std::string RenderPerfValidation();

// `top`: rows per table.
std::string RenderTuneText(const TuneOutcome& r, int top);
std::string RenderTuneJson(const TuneOutcome& r);

std::string RenderGpusText(const std::vector<GpuSpec>& gpus);
std::string RenderGpusJson(const std::vector<GpuSpec>& gpus);
std::string RenderModelsText(const ModelListing& models);
std::string RenderModelsJson(const ModelListing& models);
std::string RenderModelShowText(const ModelShow& m);
std::string RenderArchitecturesText(const ArchitectureListing& a);
std::string RenderArchitecturesJson(const ArchitectureListing& a);
std::string RenderModelShowJson(const ModelShow& m);

}  // namespace kvplan
