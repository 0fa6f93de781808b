# Thin wrapper around CMake (as DuckDB does). `make run` and `make test` are
# the two set-up commands of the README; both install missing Debian packages.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build run test unit asan format format-check bench fuzz readme clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja $(BUILD)/Makefile:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/$(if $(GENERATOR),build.ninja,Makefile)
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/kvplan plan --engine sglang@0.5.6 --gpu rtx-pro-6000-server --pre-load-free-gib 93.999 --post-load-free-gib 21.697 -- \
	  python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 \
	  --mem-fraction-static 0.55 --cuda-graph-max-bs 128

unit: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# One clang build serves the sanitizer test run and the fuzz targets (the
# library is instrumented for libFuzzer too), so CI compiles twice, not three times.
asan: deps
	CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug \
	  -DKVPLAN_SANITIZE=ON -DKVPLAN_FUZZ=ON -DKVPLAN_BENCH=OFF -DKVPLAN_UNITY=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

format-check: deps
	@files=$$(git ls-files 'src/*.cc' 'src/*.h' 'include/*.h' 'bench/*.cc' 2>/dev/null || find src bench -name '*.cc' -o -name '*.h'); \
	clang-format --dry-run --Werror $$files && echo "clang-format: clean"

format:
	clang-format -i $$(git ls-files 'src/*.cc' 'src/*.h' 'include/*.h' 'bench/*.cc')

test: format-check unit asan fuzz

fuzz: asan
	./scripts/fuzz.sh $(ASAN_BUILD)

readme: build
	./scripts/update-readme.sh $(BUILD)/kvplan README.md

bench: build
	./scripts/run-benchmarks.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
