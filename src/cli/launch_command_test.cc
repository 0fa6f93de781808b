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

// Image tags as public deployments spell them: SGLang's `v0.5.5.post3-rocm700-mi30x` (dstack's
// docs), `v0.5.11-cu130-runtime`, `v0.5.15-cu130`; vLLM's `v0.10.1.1`; TensorRT-LLM's
// `release:1.0.0rc4` on nvcr.io; tags that name no release (`latest`, `dev`, `glm-5.3-flash`).
TEST(ParseLaunchCommand, ReleaseFromTheEngineImageTag) {
  const auto release = [](const std::string& text) {
    const LaunchCommand c = Pasted(text);
    return c.release + " | " + c.release_source;
  };
  EXPECT_EQ(release("docker run --gpus all --ipc=host lmsysorg/sglang:v0.5.5.post3-rocm700-mi30x "
                    "python3 -m sglang.launch_server --model-path m"),
            "0.5.5.post3 | the docker image lmsysorg/sglang:v0.5.5.post3-rocm700-mi30x");
  EXPECT_EQ(release("docker run docker.io/lmsysorg/sglang:v0.5.11-cu130-runtime sglang serve "
                    "--model-path m"),
            "0.5.11 | the docker image docker.io/lmsysorg/sglang:v0.5.11-cu130-runtime");
  EXPECT_EQ(release("docker run --runtime nvidia --gpus all vllm/vllm-openai:v0.10.1.1 --model m"),
            "0.10.1.1 | the docker image vllm/vllm-openai:v0.10.1.1");
  EXPECT_EQ(release("docker run --gpus all nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc4 "
                    "trtllm-serve m --tp_size 8"),
            "1.0.0rc4 | the docker image nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc4");
  EXPECT_EQ(release("docker run vllm/vllm-openai:latest --model m"),
            " | the docker image vllm/vllm-openai:latest");
  EXPECT_EQ(release("docker run lmsysorg/sglang:glm-5.3-flash python3 -m sglang.launch_server "
                    "--model-path m"),
            " | the docker image lmsysorg/sglang:glm-5.3-flash");
  // Another engine's image is not this engine's release; no image, no release.
  EXPECT_EQ(release("docker run lmsysorg/sglang:v0.5.6 vllm serve m"), " | ");
  EXPECT_EQ(release("python -m sglang.launch_server --model-path m"), " | ");
}

TEST(ParseLaunchCommand, ReleaseFromAPipPinBeforeTheLaunch) {
  LaunchCommand c = Pasted(
      "pip install -U \"sglang[all]==0.5.6.post2\" && python3 -m "
      "sglang.launch_server --model-path m");
  EXPECT_EQ(c.release, "0.5.6.post2");
  EXPECT_EQ(c.release_source, "'sglang[all]==0.5.6.post2' in the pasted commands");
  c = Pasted("uv pip install vllm==0.11.0 --torch-backend=auto\nvllm serve m --tp 2");
  EXPECT_EQ(c.release, "0.11.0");
  c = Pasted("pip install tensorrt-llm==1.0.0 && trtllm-serve m");
  EXPECT_EQ(c.release, "1.0.0");
  c = Pasted("pip install vllm==0.11.0 && python -m sglang.launch_server --model-path m");
  EXPECT_EQ(c.release, "");  // another engine's package
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
