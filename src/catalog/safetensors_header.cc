#include "catalog/safetensors_header.h"

#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using Json = nlohmann::json;

// SAX events of the header; depth 1 is the top object, depth 2 a tensor's
// object, depth 3 its data_offsets list.
class TensorSum : public nlohmann::json_sax<Json> {
 public:
  explicit TensorSum(const std::string& where) : where_(where) {}
  int64_t total() const { return total_; }

  bool null() override { return Scalar(false, 0); }
  bool boolean(bool) override { return Scalar(false, 0); }
  bool number_integer(number_integer_t v) override { return Scalar(v >= 0, uint64_t(v)); }
  bool number_unsigned(number_unsigned_t v) override { return Scalar(true, v); }
  bool number_float(number_float_t, const string_t&) override { return Scalar(false, 0); }
  bool string(string_t&) override { return Scalar(false, 0); }
  bool binary(binary_t&) override { return Scalar(false, 0); }

  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 2) {
      in_tensor_ = tensor_ != "__metadata__";
      offsets_.clear();
      saw_offsets_ = false;
    }
    if (depth_ == 3 && in_tensor_ && key_ == "data_offsets") Bad();
    return true;
  }
  bool end_object() override {
    if (depth_ == 2 && in_tensor_) FinishTensor();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 1) NotObject();
    if (depth_ == 2 && tensor_ != "__metadata__") Bad();
    if (depth_ == 3 && in_tensor_ && key_ == "data_offsets") saw_offsets_ = collecting_ = true;
    return true;
  }
  bool end_array() override {
    if (depth_ == 3) collecting_ = false;
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) tensor_ = k;
    if (depth_ == 2) key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    throw InputError(where_ + ": safetensors header is not a JSON object");
  }

 private:
  bool Scalar(bool unsigned_ok, uint64_t v) {
    if (depth_ == 0) NotObject();
    if (depth_ == 1 && tensor_ != "__metadata__") Bad();
    if (depth_ == 2 && in_tensor_ && key_ == "data_offsets") Bad();
    if (depth_ == 3 && collecting_) {
      if (!unsigned_ok) Bad();
      offsets_.push_back(v);
    }
    return true;
  }
  void FinishTensor() {
    if (!saw_offsets_ || offsets_.size() != 2 || offsets_[1] < offsets_[0] ||
        offsets_[1] - offsets_[0] > uint64_t(std::numeric_limits<int64_t>::max())) {
      Bad();
    }
    total_ = CheckedAdd(total_, static_cast<int64_t>(offsets_[1] - offsets_[0]),
                        where_ + ": the safetensors header's tensor bytes");
  }
  [[noreturn]] void NotObject() const {
    throw InputError(where_ + ": safetensors header is not a JSON object");
  }
  [[noreturn]] void Bad() const {
    throw InputError(where_ + ": tensor " + QuoteForError(tensor_) +
                     " has no valid data_offsets [begin, end]");
  }

  const std::string& where_;
  int depth_ = 0;
  std::string tensor_, key_;
  bool in_tensor_ = false, saw_offsets_ = false, collecting_ = false;
  std::vector<uint64_t> offsets_;
  int64_t total_ = 0;
};

}  // namespace

int64_t SumTensorBytes(std::istream& header, const std::string& where) {
  TensorSum sum(where);
  Json::sax_parse(header, &sum);
  return sum.total();
}

int64_t SumTensorBytes(std::string_view header, const std::string& where) {
  TensorSum sum(where);
  Json::sax_parse(header.begin(), header.end(), &sum);
  return sum.total();
}

}  // namespace kvplan
