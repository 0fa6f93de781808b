#include "catalog/quantization.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/linear_regex.h"
#include "base/units.h"
#include "base/untrusted_text.h"
#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::Json;

bool IsNumber(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Glob over dot components: '*' in the pattern or a numeric pattern component
// matches any single component of the name. Walks the pattern in place (no
// allocation: fp8 configs list hundreds of modules).
bool ComponentsMatch(std::string_view pat, const std::vector<std::string_view>& name,
                     size_t start) {
  size_t i = start;
  size_t pos = 0;
  while (true) {
    if (i >= name.size()) return false;
    size_t dot = pat.find('.', pos);
    std::string_view p = pat.substr(pos, dot == std::string_view::npos ? pat.npos : dot - pos);
    std::string_view n = name[i];
    // A trailing * matches any rest of the component (modelopt's ignore list:
    // "model.language_model.layers.0.self_attn*", fnmatch-style).
    const bool prefix = p.size() > 1 && p.back() == '*' && n.starts_with(p.substr(0, p.size() - 1));
    if (!(p == "*" || prefix || (IsNumber(p) && IsNumber(n)) || p == n)) return false;
    if (dot == std::string_view::npos) return true;
    pos = dot + 1;
    ++i;
  }
}

std::vector<std::string_view> SplitDots(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (true) {
    size_t dot = s.find('.', pos);
    out.push_back(
        s.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos));
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  return out;
}

// The `re:` patterns are Python regexes (compressed_tensors utils
// is_equal_or_regex_match, vllm/model_executor/layers/quantization/
// compressed_tensors/utils.py @v0.10.1); they come from the file, so they run
// on a linear-time matcher, and a pattern outside its subset is refused.
bool RegexMatches(std::string_view regex, std::string_view module) {
  std::string why;
  std::optional<LinearRegex> re = LinearRegex::Compile(regex, &why);
  if (!re) {
    throw InputError("quantization_config: ignore pattern " +
                     QuoteForError("re:" + std::string(regex)) +
                     " is outside the regular-expression subset kvplan reads (" + why +
                     "); expected literal text, ., [..], \\d, \\w, \\s, (a|b), *, +, ?, ^, $");
  }
  return re->Search(module);
}

// Bits per weight: no format stores more than 32 (nor needs an int wider).
int WeightBits(int64_t bits, const std::string& origin) {
  if (bits < 1 || bits > 32) {
    throw InputError(origin + ": quantization_config bits per weight is " + std::to_string(bits) +
                     "; expected 1 to 32");
  }
  return static_cast<int>(bits);
}

// A group size as an int (-1: one group per row or tensor), never narrowed.
int GroupSize(int64_t group, const std::string& origin) {
  return CheckedInt(group < -1 ? -1 : group, origin + ": quantization_config group_size");
}

// The 16-bit modules a config names, whatever key the method uses.
std::vector<std::string> UnquantizedList(const Json& qc, const std::string& origin) {
  std::vector<std::string> out;
  for (const char* key : {"modules_to_not_convert", "ignore", "ignored_layers", "exclude_modules",
                          "llm_int8_skip_modules"}) {
    for (std::string& s : config_json::StringList(qc, key, origin)) out.push_back(std::move(s));
  }
  return out;
}

void ParseFp8(const Json& qc, const std::string& origin, Quantization& q) {
  q.weight_bits = 8;
  q.format = config_json::OptString(qc, "fmt", origin).value_or("e4m3");
  std::vector<int64_t> block = config_json::IntList(qc, "weight_block_size", origin);
  if (!block.empty()) {
    if (block.size() != 2 || block[0] <= 0 || block[1] <= 0) {
      throw InputError(origin + ": quantization_config.weight_block_size should be [n, k] > 0");
    }
    q.block_n = CheckedInt(block[0], origin + ": quantization_config.weight_block_size[0]");
    q.block_k = CheckedInt(block[1], origin + ": quantization_config.weight_block_size[1]");
  }
  // fp8 scale_inv tensors are float32 (one per block, or one per tensor).
  q.scale_bytes = 4;
}

void ParseCompressedTensors(const Json& qc, const std::string& origin, Quantization& q) {
  const Json* groups = config_json::OptObject(qc, "config_groups", origin);
  if (groups == nullptr || groups->empty()) {
    throw InputError(origin + ": compressed-tensors quantization_config has no config_groups");
  }
  const Json& group = groups->begin().value();
  const Json* weights =
      group.is_object() ? config_json::OptObject(group, "weights", origin) : nullptr;
  if (weights == nullptr) {
    throw InputError(origin + ": compressed-tensors config group " +
                     QuoteForError(groups->begin().key()) + " has no \"weights\" scheme");
  }
  q.weight_bits = WeightBits(config_json::RequirePositive(*weights, "num_bits", origin), origin);
  q.group_size = GroupSize(config_json::OptInt(*weights, "group_size", origin).value_or(0), origin);
  std::string type = config_json::OptString(*weights, "type", origin).value_or("int");
  std::string strategy = config_json::OptString(*weights, "strategy", origin).value_or("");
  q.has_zero_points = !config_json::OptBool(*weights, "symmetric", origin).value_or(true);
  q.format = config_json::OptString(qc, "format", origin).value_or("");
  if (type == "float" && q.weight_bits == 4) {
    // nvfp4: one fp8 scale per 16 elements (group_size says 16).
    q.scale_bytes = 1;
    if (q.group_size == 0) q.group_size = 16;
  } else {
    // Scales are stored in the checkpoint's 16-bit dtype.
    q.scale_bytes = 2;
  }
  if (strategy == "tensor") q.group_size = -1;  // one scale per tensor
  // compressed-tensors targets every Linear, lm_head included unless ignored.
  q.lm_head_quantized = true;
}

// NVIDIA ModelOpt checkpoints (quant_method "modelopt", or hf_quant_config.json):
// FP8 = e4m3 weights with float32 per-tensor weight and input scales; NVFP4 =
// e2m1 weights with one e4m3 scale per 16 values (plus two float32 scalars per
// tensor, ignored here).
void ParseModelopt(const Json& qc, const std::string& origin, Quantization& q) {
  std::string algo = config_json::OptString(qc, "quant_algo", origin).value_or("");
  if (algo == "FP8") {
    q.weight_bits = 8;
    q.group_size = -1;
    q.scale_bytes = 8;  // weight_scale + input_scale, float32 each
    q.format = "e4m3";
  } else if (algo == "NVFP4") {
    q.weight_bits = 4;
    q.group_size = GroupSize(config_json::OptInt(qc, "group_size", origin).value_or(16), origin);
    if (q.group_size <= 0) throw InputError(origin + ": modelopt NVFP4 group_size must be > 0");
    q.scale_bytes = 1;
    q.format = "nvfp4";
  } else {
    throw InputError(origin + ": unsupported modelopt quant_algo " + QuoteForError(algo) +
                     " (supported: FP8, NVFP4)");
  }
}

void ParseAwqGptq(const Json& qc, const std::string& origin, Quantization& q) {
  std::optional<int64_t> bits = config_json::OptInt(qc, "bits", origin);
  if (!bits) bits = config_json::OptInt(qc, "w_bit", origin);
  if (!bits || *bits <= 0) {
    throw InputError(origin + ": " + q.method + " quantization_config is missing \"bits\"");
  }
  q.weight_bits = WeightBits(*bits, origin);
  std::optional<int64_t> group = config_json::OptInt(qc, "group_size", origin);
  if (!group) group = config_json::OptInt(qc, "q_group_size", origin);
  q.group_size = GroupSize(group.value_or(128), origin);
  if (q.group_size < 0) q.group_size = 0;  // GPTQ -1: one group per row
  q.scale_bytes = 2;                       // fp16 scales
  q.has_zero_points = true;                // packed qzeros, symmetric or not
  q.has_g_idx = q.method == "gptq";        // int32 per input channel
}

// Meta's FBGEMM fp8 checkpoints (Llama-3.1-*-FP8): e4m3 weights with one
// float32 scale per output channel
// (vllm/model_executor/layers/quantization/fbgemm_fp8.py @v0.10.1 create_weights).
void ParseFbgemmFp8(Quantization& q) {
  q.weight_bits = 8;
  q.format = "e4m3";
  q.group_size = 0;
  q.scale_bytes = 4;
  q.per_channel_scales = true;
}

// transformers BitsAndBytesConfig, as vLLM loads the pre-quantized weights
// (vllm/model_executor/model_loader/bitsandbytes_loader.py @v0.10.1): 4-bit
// values packed two per byte with one absmax per 64 values (a uint8 under
// double quantization, else float32); 8-bit int8 values with one float32 SCB
// per output row. The nested statistics (one float32 per 256 blocks) are
// left out (under 0.1 % of the weights).
void ParseBitsAndBytes(const Json& qc, const std::string& origin, Quantization& q) {
  const bool four = config_json::OptBool(qc, "load_in_4bit", origin).value_or(false);
  const bool eight = config_json::OptBool(qc, "load_in_8bit", origin).value_or(false);
  if (four == eight) {
    throw InputError(origin +
                     ": bitsandbytes quantization_config should set exactly one of "
                     "load_in_4bit and load_in_8bit");
  }
  if (four) {
    q.weight_bits = 4;
    q.group_size = 64;
    q.scale_bytes =
        config_json::OptBool(qc, "bnb_4bit_use_double_quant", origin).value_or(false) ? 1 : 4;
    q.format = config_json::OptString(qc, "bnb_4bit_quant_type", origin).value_or("fp4");
  } else {
    q.weight_bits = 8;
    q.group_size = 0;  // one SCB per row
    q.scale_bytes = 4;
    q.format = "int8";
  }
}

bool Contains(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string JoinNames(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& m : list) out += (out.empty() ? "" : ", ") + m;
  return out;
}

// --dtype: the bytes of each unquantized parameter as loaded ("auto" keeps the
// checkpoint's, float32 checkpoints already cast to 16 bits by ReadDtype).
void ApplyLoadDtype(ModelSpec& m, const WeightLoading& how) {
  const std::string& d = how.dtype;
  if (d.empty() || d == "auto") return;
  std::string name;
  if (d == "half" || d == "float16") {
    name = "float16";
  } else if (d == "bfloat16") {
    name = "bfloat16";
  } else if (d == "float" || d == "float32") {
    name = "float32";
  } else {
    throw InputError(how.engine + " --dtype " + QuoteForError(d) +
                     " is not one of auto, half, float16, bfloat16, float, float32");
  }
  const int bytes = name == "float32" ? 4 : 2;
  if (bytes != m.dtype_bytes) m.checkpoint_bytes.reset();  // loaded size != files
  m.torch_dtype = name;
  m.dtype_bytes = bytes;
}

// A --quantization value names the checkpoint's own method, or a kernel that
// serves it: vllm/config.py @v0.10.1 ModelConfig._verify_quantization (the
// override_quantization_method of awq_marlin, gptq_marlin, moe_wna16 and
// modelopt_fp4); SGLang's model_config.py @v0.5.3 has the same check.
bool ServesCheckpoint(const std::string& checkpoint, const std::string& flag) {
  if (flag == checkpoint) return true;
  if (checkpoint == "awq" || checkpoint == "gptq") {
    return flag == checkpoint + "_marlin" || flag == "marlin" || flag == "moe_wna16";
  }
  return checkpoint == "modelopt" && flag == "modelopt_fp4";
}

// Online fp8 of a 16-bit checkpoint: every decoder LinearBase and FusedMoE
// is quantized to e4m3 after loading; embeddings, norms, routers created with
// quant_config=None and the lm_head (a VocabParallelEmbedding) stay.
// vLLM: vllm/model_executor/layers/quantization/fp8.py @v0.10.1 Fp8LinearMethod
// with is_checkpoint_fp8_serialized=False, one float32 scale per tensor.
// SGLang: python/sglang/srt/layers/quantization/fp8.py @v0.5.3 Fp8LinearMethod,
// per-channel on NVIDIA (one float32 scale per output row).
void OnlineFp8(Quantization& q, bool per_channel) {
  q = Quantization{};
  q.method = "fp8";
  q.weight_bits = 8;
  q.format = "e4m3";
  q.scale_bytes = 4;
  q.per_channel_scales = per_channel;
  q.attention_quantized = q.dense_mlp_quantized = q.experts_quantized = q.shared_experts_quantized =
      true;
}

// vLLM's in-flight bitsandbytes: 4-bit nf4 in blocks of 64 with compressed
// (uint8) absmax statistics; the lm_head stays
// (vllm/model_executor/model_loader/bitsandbytes_loader.py @v0.10.1
// _quantized_4bit_generator, quantize_4bit(compress_statistics=True)).
void OnlineBitsAndBytes(Quantization& q) {
  q = Quantization{};
  q.method = "bitsandbytes";
  q.weight_bits = 4;
  q.group_size = 64;
  q.scale_bytes = 1;
  q.format = "nf4";
  q.attention_quantized = q.dense_mlp_quantized = q.experts_quantized = q.shared_experts_quantized =
      true;
}
}  // namespace

const std::vector<std::string>& SupportedQuantMethods() {
  static const std::vector<std::string> kMethods = {"fp8",      "fbgemm_fp8",  "compressed-tensors",
                                                    "mxfp4",    "awq",         "gptq",
                                                    "modelopt", "bitsandbytes"};
  return kMethods;
}

bool MatchesModulePattern(const std::vector<std::string>& patterns, std::string_view module) {
  if (patterns.empty()) return false;
  std::vector<std::string_view> name = SplitDots(module);
  for (const std::string& p : patterns) {
    if (p.rfind("re:", 0) == 0) {
      if (RegexMatches(std::string_view(p).substr(3), module)) return true;
      continue;
    }
    // Trailing spaces occur in real files (Qwen3-235B-A22B-FP8).
    std::string_view trimmed(p);
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) {
      trimmed.remove_suffix(1);
    }
    if (trimmed.empty()) continue;
    for (size_t start = 0; start < name.size(); ++start) {
      if (ComponentsMatch(trimmed, name, start)) return true;
    }
  }
  return false;
}

Quantization ParseQuantization(const Json& qc, const std::string& origin) {
  Quantization q;
  std::optional<std::string> method = config_json::OptString(qc, "quant_method", origin);
  if (!method) throw InputError(origin + ": quantization_config has no \"quant_method\"");
  q.method = *method;
  std::transform(q.method.begin(), q.method.end(), q.method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  q.unquantized_modules = UnquantizedList(qc, origin);
  // Methods quantize the decoder's linear layers unless told otherwise.
  q.attention_quantized = q.dense_mlp_quantized = q.experts_quantized = q.shared_experts_quantized =
      true;
  if (q.method == "fp8") {
    ParseFp8(qc, origin, q);
  } else if (q.method == "compressed-tensors") {
    ParseCompressedTensors(qc, origin, q);
  } else if (q.method == "mxfp4") {
    // gpt-oss: 4-bit e2m1 experts with one uint8 (e8m0) scale per 32 values;
    // vllm/model_executor/layers/quantization/mxfp4.py @v0.10.1 quantizes FusedMoE only.
    q.weight_bits = 4;
    q.group_size = 32;
    q.scale_bytes = 1;
    q.format = "e2m1";
    q.experts_only = true;
    q.attention_quantized = q.dense_mlp_quantized = q.shared_experts_quantized = false;
  } else if (q.method == "modelopt") {
    ParseModelopt(qc, origin, q);
  } else if (q.method == "awq" || q.method == "gptq") {
    ParseAwqGptq(qc, origin, q);
  } else if (q.method == "fbgemm_fp8") {
    ParseFbgemmFp8(q);
  } else if (q.method == "bitsandbytes") {
    ParseBitsAndBytes(qc, origin, q);
  } else {
    std::string list;
    for (const std::string& m : SupportedQuantMethods()) list += (list.empty() ? "" : ", ") + m;
    throw InputError(origin + ": unsupported quantization_config.quant_method " +
                     QuoteForError(*method) + " (supported: " + list + ")");
  }
  // Decide per kind of layer once, from a representative module name.
  const auto& keep = q.unquantized_modules;
  // Vision-language wrappers name the text layers model.language_model.layers.N (Gemma-3/4).
  auto kept = [&](std::string_view m) {
    return MatchesModulePattern(keep, m) ||
           (m.starts_with("model.") &&
            MatchesModulePattern(keep, "model.language_model." + std::string(m.substr(6))));
  };
  if (kept("model.layers.0.self_attn.o_proj") || kept("model.layers.0.linear_attn.out_proj")) {
    q.attention_quantized = false;
  }
  if (kept("model.layers.0.mlp.down_proj")) q.dense_mlp_quantized = false;
  if (kept("model.layers.0.mlp.experts.0.down_proj")) q.experts_quantized = false;
  if (kept("model.layers.0.mlp.shared_experts.down_proj") ||
      kept("model.layers.0.mlp.shared_expert.down_proj")) {
    q.shared_experts_quantized = false;
  }
  if (kept("lm_head")) q.lm_head_quantized = false;
  return q;
}

int64_t LinearBytes(const Quantization& q, bool quantized, int64_t out, int64_t in,
                    int dtype_bytes) {
  // Config figures: checked, an impossible config is one InputError line.
  constexpr std::string_view kWhat = "a linear layer's bytes";
  const auto mul = [&](int64_t a, int64_t b) { return CheckedMul(a, b, kWhat); };
  const auto add = [&](int64_t a, int64_t b) { return CheckedAdd(a, b, kWhat); };
  const int64_t elems = mul(out, in);
  if (!quantized || q.method.empty()) return mul(elems, dtype_bytes);
  int64_t weight = mul(elems, q.weight_bits) / 8;
  if (q.block_n > 0 && q.block_k > 0) {
    // One float32 scale_inv per block_n x block_k block.
    return add(weight, mul(mul(CeilDiv(out, q.block_n), CeilDiv(in, q.block_k)), q.scale_bytes));
  }
  if (q.group_size < 0) return add(weight, q.scale_bytes);  // per-tensor scale
  if (q.method == "fp8" && q.group_size == 0 && !q.per_channel_scales) {
    return add(weight, q.scale_bytes);
  }
  int64_t groups_per_row = q.group_size > 0 ? CeilDiv(in, q.group_size) : 1;
  const int64_t groups = mul(out, groups_per_row);
  int64_t bytes = add(weight, mul(groups, q.scale_bytes));
  if (q.has_zero_points) bytes = add(bytes, mul(groups, q.weight_bits) / 8);
  if (q.has_g_idx) bytes = add(bytes, mul(in, 4));
  return bytes;
}

ModelSpec ModelAsLaunched(ModelSpec m, const WeightLoading& how) {
  ApplyLoadDtype(m, how);
  const std::string& flag = how.quantization;
  if (flag.empty()) return m;
  if (!Contains(how.accepted_methods, flag)) {
    throw InputError(
        how.engine + " --quantization " + QuoteForError(flag) +
        " is not a method kvplan models (accepted: " + JoinNames(how.accepted_methods) + ")");
  }
  if (m.quant.IsQuantized()) {
    if (ServesCheckpoint(m.quant.method, flag)) return m;
    throw InputError("Quantization method specified in the model config (" + m.quant.method +
                     ") does not match the quantization method specified in the `quantization` "
                     "argument (" +
                     flag + ").");
  }
  if (!Contains(how.online_methods, flag)) {
    throw InputError(how.engine + " --quantization " + flag +
                     " needs a checkpoint quantized with " + flag + "; this one is " +
                     (m.torch_dtype.empty() ? "16-bit" : m.torch_dtype) + ", which " + how.engine +
                     " quantizes at load time only with " + JoinNames(how.online_methods));
  }
  if (flag == "fp8") {
    OnlineFp8(m.quant, how.online_fp8_per_channel);
  } else if (flag == "bitsandbytes") {
    OnlineBitsAndBytes(m.quant);
  }
  m.checkpoint_bytes.reset();  // the loaded weights are no longer the files' bytes
  return m;
}

}  // namespace kvplan
