#!/usr/bin/env bash
# Builds the scene-loader fuzzer (libFuzzer + AddressSanitizer) and runs it.
#   Fuzz/run.sh [seconds]     default 600
# Seeds: Scenes/*.json and the invalid fixtures. New inputs go to .build-fuzz/corpus;
# crashes, timeouts and out-of-memory inputs to .build-fuzz/findings (add each as a test).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
out=.build-fuzz
mkdir -p "$out/corpus" "$out/findings" "$out/seeds"
cp Scenes/*.json Tests/SceneFileToolingTests/Fixtures/InvalidScenes/*.json "$out/seeds/"
cp Tests/SceneFileToolingTests/Fixtures/PluginConsumer/Scenes/*.json "$out/seeds/"
echo "== building the fuzzer"
swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name SceneryFuzz \
    Fuzz/SceneLoaderFuzzer.swift $(find Sources/Scenery -name '*.swift' | sort) -o "$out/scene-loader-fuzzer"
echo "== fuzzing for ${seconds}s"
ASAN_OPTIONS=detect_leaks=0 "$out/scene-loader-fuzzer" "$out/corpus" "$out/seeds" \
    -max_total_time="$seconds" -max_len=1048576 -timeout=5 -rss_limit_mb=2048 \
    -artifact_prefix="$out/findings/" -print_final_stats=1
