// A launch kvplan stops before it sizes any memory, told apart by whose words the message is:
// SGLang's own (its model registry, an assertion at start-up: the launch fails) or kvplan's (a
// rule kvplan does not model on that release: the launch is not planned, status not_modelled).
#pragma once

#include <string>
#include <utility>

namespace kvplan {

struct SglangRefusal {
  enum class Kind {
    kNone,
    kEngine,       // SGLang refuses the launch; the message is the engine's
    kNotModelled,  // kvplan does not model the rule; the message is kvplan's ("kvplan: ...")
  };
  Kind kind = Kind::kNone;
  std::string message;
  bool Refused() const { return kind != Kind::kNone; }
  bool NotModelled() const { return kind == Kind::kNotModelled; }
};

inline SglangRefusal SglangEngineRefusal(std::string message) {
  return {SglangRefusal::Kind::kEngine, std::move(message)};
}
inline SglangRefusal SglangNotModelled(std::string message) {
  return {SglangRefusal::Kind::kNotModelled, std::move(message)};
}

}  // namespace kvplan
