#include <nlohmann/json.hpp>

#include "logs/json_int.h"
#include "logs/run_record_json.h"

namespace kvplan {
namespace {

nlohmann::json Opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<double> OptFrom(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

}  // namespace

nlohmann::json ToJson(const DecodeSummary& s) {
  nlohmann::json batches = nlohmann::json::array();
  for (const DecodeBatchFigures& b : s.batches) {
    batches.push_back({{"running_reqs", b.running_reqs},
                       {"samples", b.samples},
                       {"median_tok_s", b.median_tok_s},
                       {"mean_accept_len", Opt(b.mean_accept_len)}});
  }
  return {{"samples", s.samples},
          {"idle", s.idle},
          {"rank", s.rank},
          {"batches", batches},
          {"mean_accept_len", Opt(s.mean_accept_len)},
          {"mean_accept_rate", Opt(s.mean_accept_rate)},
          {"per_position_acceptance", s.per_position_acceptance},
          {"graph_reports", s.graph_reports},
          {"graph_off", s.graph_off},
          {"first_line", s.first_line},
          {"last_line", s.last_line},
          {"capped", s.capped}};
}

DecodeSummary DecodeSummaryFromJson(const nlohmann::json& j) {
  DecodeSummary s;
  s.samples = IntAt<int64_t>(j, "samples");
  s.idle = IntAt<int64_t>(j, "idle");
  s.rank = j.at("rank");
  for (const auto& b : j.at("batches")) {
    s.batches.push_back({IntAt<int64_t>(b, "running_reqs"), IntAt<int64_t>(b, "samples"),
                         b.at("median_tok_s").get<double>(), OptFrom(b, "mean_accept_len")});
  }
  s.mean_accept_len = OptFrom(j, "mean_accept_len");
  s.mean_accept_rate = OptFrom(j, "mean_accept_rate");
  s.per_position_acceptance = j.at("per_position_acceptance").get<std::vector<double>>();
  s.graph_reports = IntAt<int64_t>(j, "graph_reports");
  s.graph_off = IntAt<int64_t>(j, "graph_off");
  s.first_line = IntAt<int64_t>(j, "first_line");
  s.last_line = IntAt<int64_t>(j, "last_line");
  s.capped = j.at("capped");
  return s;
}

}  // namespace kvplan
