#include "cli/launch_command.h"

#include <gtest/gtest.h>

#include "testing/input_error.h"

namespace kvplan::cli {
namespace {

using V = std::vector<std::string>;
using Env = std::vector<std::pair<std::string, std::string>>;

LaunchCommand Pasted(const std::string& text) { return ParseLaunchCommand({text}); }

std::string ErrorOf(const std::vector<std::string>& words) {
  return testing::InputErrorOf([&] { ParseLaunchCommand(words); });
}

TEST(ParseLaunchCommand, SglangAlreadySplitByTheShell) {
  LaunchCommand c = ParseLaunchCommand(
      {"python", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--tp", "2"});
  EXPECT_EQ(c.engine, "sglang");
  EXPECT_EQ(c.entry_point, "python -m sglang.launch_server");
  EXPECT_EQ(c.args, (V{"--model-path", "Qwen/Qwen3-8B", "--tp", "2"}));
  EXPECT_TRUE(c.env.empty());
}

TEST(ParseLaunchCommand, ShellSplitWordsAreNotSplitAgain) {
  LaunchCommand c = ParseLaunchCommand(
      {"vllm", "serve", "m", "--served-model-name", "my model", "--stop", "<|im_end|>"});
  EXPECT_EQ(c.args, (V{"--model", "m", "--served-model-name", "my model", "--stop", "<|im_end|>"}));
  EXPECT_EQ(Pasted("vllm serve m --stop '<|im_end|>'").args,
            (V{"--model", "m", "--stop", "<|im_end|>"}));
}

TEST(ParseLaunchCommand, PythonSpellings) {
  for (const char* py : {"python3", "python3.12", "/opt/venv/bin/python", "python"}) {
    LaunchCommand c =
        Pasted(std::string(py) + " -u -X faulthandler -m sglang.launch_server --tp 8");
    EXPECT_EQ(c.engine, "sglang") << py;
    EXPECT_EQ(c.entry_point, std::string(py) + " -m sglang.launch_server");
    EXPECT_EQ(c.args, (V{"--tp", "8"})) << py;
  }
}

TEST(ParseLaunchCommand, SglangServe) {
  LaunchCommand c = Pasted("sglang serve --model-path m --mem-fraction-static 0.85");
  EXPECT_EQ(c.engine, "sglang");
  EXPECT_EQ(c.entry_point, "sglang serve");
  EXPECT_EQ(c.args, (V{"--model-path", "m", "--mem-fraction-static", "0.85"}));
}

TEST(ParseLaunchCommand, VllmServePositionalModelBecomesFlag) {
  LaunchCommand c = Pasted("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192");
  EXPECT_EQ(c.engine, "vllm");
  EXPECT_EQ(c.entry_point, "vllm serve");
  EXPECT_EQ(c.args, (V{"--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "8192"}));
  // Without a positional the flags pass through unchanged.
  EXPECT_EQ(Pasted("vllm serve --model m").args, (V{"--model", "m"}));
}

TEST(ParseLaunchCommand, VllmApiServerModule) {
  LaunchCommand c =
      Pasted("python -m vllm.entrypoints.openai.api_server --model m --tensor-parallel-size 4");
  EXPECT_EQ(c.engine, "vllm");
  EXPECT_EQ(c.entry_point, "python -m vllm.entrypoints.openai.api_server");
  EXPECT_EQ(c.args, (V{"--model", "m", "--tensor-parallel-size", "4"}));
}

TEST(ParseLaunchCommand, TrtllmServeWithAndWithoutSubcommand) {
  LaunchCommand a = Pasted("trtllm-serve Qwen/Qwen3-8B --backend pytorch --tp_size 2");
  EXPECT_EQ(a.engine, "trtllm");
  EXPECT_EQ(a.entry_point, "trtllm-serve");
  EXPECT_EQ(a.args, (V{"--model", "Qwen/Qwen3-8B", "--backend", "pytorch", "--tp_size", "2"}));
  LaunchCommand b =
      Pasted("trtllm-serve serve Qwen/Qwen3-8B --kv_cache_free_gpu_memory_fraction 0.9");
  EXPECT_EQ(b.entry_point, "trtllm-serve serve");
  EXPECT_EQ(b.args, (V{"--model", "Qwen/Qwen3-8B", "--kv_cache_free_gpu_memory_fraction", "0.9"}));
}

TEST(ParseLaunchCommand, LeadingEnvAndWrappers) {
  LaunchCommand c = Pasted(
      "CUDA_VISIBLE_DEVICES=0,1 SGLANG_X=1 env NCCL_P2P_DISABLE=1 nohup sudo -E "
      "python3 -m sglang.launch_server --tp 2");
  EXPECT_EQ(c.engine, "sglang");
  EXPECT_EQ(c.env,
            (Env{{"CUDA_VISIBLE_DEVICES", "0,1"}, {"SGLANG_X", "1"}, {"NCCL_P2P_DISABLE", "1"}}));
  EXPECT_EQ(c.args, (V{"--tp", "2"}));
}

TEST(ParseLaunchCommand, TrailingBackgroundPipesAndRedirectionsAreDropped) {
  EXPECT_EQ(Pasted("vllm serve m --port 8000 > out.log 2>&1 &").args,
            (V{"--model", "m", "--port", "8000"}));
  EXPECT_EQ(Pasted("python -m sglang.launch_server --tp 2 2>&1 | tee server.log").args,
            (V{"--tp", "2"}));
  // The same reaching kvplan as separate words (an unquoted $(cat cmd.sh)).
  EXPECT_EQ(ParseLaunchCommand(
                {"vllm", "serve", "m", "\\", "--port", "1", "2>&1", "|", "tee", "log", "&"})
                .args,
            (V{"--model", "m", "--port", "1"}));
}

// A command as pasted from a README: CRLF line ends, continuations, blanks after a
// backslash, a comment line, quoted JSON, export lines and a cd before it.
TEST(ParseLaunchCommand, RealisticMultiLinePaste) {
  const std::string text =
      "# 8x RTX PRO 6000, EAGLE-3\r\n"
      "export SGLANG_ENABLE_JIT_DEEPGEMM=0\r\n"
      "cd /srv && source .venv/bin/activate && \\\r\n"
      "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \\\r\n"
      "python3 -m sglang.launch_server \\\r\n"
      "    --model-path  Qwen/Qwen3-235B-A22B-FP8 \\ \r\n"
      "    --tp 8   --mem-fraction-static 0.88 \\\r\n"
      "    --speculative-algorithm EAGLE3 \\\r\n"
      "    --json-model-override-args '{\"rope_scaling\": {\"type\": \"yarn\"}}' \\\r\n"
      "    --served-model-name \"qwen 235b\" \\\r\n"
      "    --host 0.0.0.0 --port 30000 2>&1 | tee sglang.log &\r\n";
  LaunchCommand c = Pasted(text);
  EXPECT_EQ(c.engine, "sglang");
  EXPECT_EQ(c.entry_point, "python3 -m sglang.launch_server");
  EXPECT_EQ(c.env, (Env{{"SGLANG_ENABLE_JIT_DEEPGEMM", "0"},
                        {"CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7"}}));
  EXPECT_EQ(c.args,
            (V{"--model-path", "Qwen/Qwen3-235B-A22B-FP8", "--tp", "8", "--mem-fraction-static",
               "0.88", "--speculative-algorithm", "EAGLE3", "--json-model-override-args",
               R"({"rope_scaling": {"type": "yarn"}})", "--served-model-name", "qwen 235b",
               "--host", "0.0.0.0", "--port", "30000"}));
}

TEST(ParseLaunchCommand, LostContinuationsAreJoined) {
  LaunchCommand c = Pasted("vllm serve m\n  --tensor-parallel-size 2\n  --max-model-len 4096\n");
  EXPECT_EQ(c.args, (V{"--model", "m", "--tensor-parallel-size", "2", "--max-model-len", "4096"}));
  // A following command that is not a flag line stays out.
  EXPECT_EQ(Pasted("vllm serve m\necho done").args, (V{"--model", "m"}));
}

TEST(ParseLaunchCommand, DockerRunKeepsItsEnv) {
  LaunchCommand c = Pasted(
      "docker run --gpus all --shm-size 32g -p 30000:30000 -e HF_TOKEN=abc --env=X=1 "
      "--ipc=host lmsysorg/sglang:latest python3 -m sglang.launch_server --model-path m");
  EXPECT_EQ(c.engine, "sglang");
  EXPECT_EQ(c.env, (Env{{"HF_TOKEN", "abc"}, {"X", "1"}}));
  EXPECT_EQ(c.args, (V{"--model-path", "m"}));
}

TEST(ParseLaunchCommand, VllmDockerImage) {
  LaunchCommand c = Pasted(
      "docker run --runtime nvidia --gpus all -v ~/.cache/huggingface:/root/.cache/huggingface "
      "--env \"HUGGING_FACE_HUB_TOKEN=x\" -p 8000:8000 --ipc=host vllm/vllm-openai:latest "
      "--model mistralai/Mistral-7B-v0.1");
  EXPECT_EQ(c.engine, "vllm");
  EXPECT_EQ(c.entry_point, "vllm/vllm-openai:latest (docker image)");
  EXPECT_EQ(c.env, (Env{{"HUGGING_FACE_HUB_TOKEN", "x"}}));
  EXPECT_EQ(c.args, (V{"--model", "mistralai/Mistral-7B-v0.1"}));
}

TEST(ParseLaunchCommand, Errors) {
  EXPECT_EQ(ErrorOf({}),
            "empty launch command after '--'; paste the engine's command, one of: python -m "
            "sglang.launch_server, sglang serve, vllm serve, python -m "
            "vllm.entrypoints.openai.api_server, trtllm-serve");
  EXPECT_NE(ErrorOf({"  # only a comment \n"}).find("empty launch command"), std::string::npos);
  EXPECT_NE(ErrorOf({"vllm serve 'm"}).find("unterminated single quote"), std::string::npos);
  EXPECT_EQ(ErrorOf({"python3", "-m"}), "'python3 -m' without a module name in the launch command");
  EXPECT_EQ(ErrorOf({"python3 train.py --lr 1"}),
            "no recognised launch command in 'python3 train.py --lr 1'; expected one of: python "
            "-m sglang.launch_server, sglang serve, vllm serve, python -m "
            "vllm.entrypoints.openai.api_server, trtllm-serve");
  EXPECT_NE(ErrorOf({"python -m sglang.bench_serving --num-prompts 10"})
                .find("('python -m sglang.bench_serving' is not a server)"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"export A=1\ncd /x\nllama-server -m 'a\nb'"})
                .find("no recognised launch command in 'llama-server -m a b';"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"vllm", "bench", "latency"}).find("no recognised launch command"),
            std::string::npos);
}

}  // namespace
}  // namespace kvplan::cli
