#!/usr/bin/env bash
# Builds the fuzzers (libFuzzer + AddressSanitizer) and runs them.
#   Fuzz/run.sh [seconds] [scene|theme|import|protocol|all]     default: 600 seconds each, all
# scene:  the scene-file loader and validator (Fuzz/SceneLoaderFuzzer.swift), seeded with
#         Scenes/*.json and the invalid fixtures.
# theme:  theme token files (Fuzz/ThemeFuzzer.swift), seeded with Scenes/*.tokens.json and
#         hostile shapes: a long alias chain, a long cycle, aliases to nothing.
# import: the data-set importer (Fuzz/DataSetImportFuzzer.swift), seeded with the demo
#         data and the import fixtures.
# protocol: the page protocol's decoders, both directions (Fuzz/PageProtocolFuzzer.swift),
#         seeded with one message of each type; what decodes must read back unchanged.
# SCENERY_TOOL names a built `scenery` to export the demo data with (CI passes its debug
# build's); without it, `swift run scenery`.
# FUZZ_OPTIMIZATION=none builds the fuzzers unoptimised (-Onone): about 4x less building
# (55 s against 204 s for all four on two cores) for about 8x fewer inputs a second, which
# suits a short run that replays the seeds and explores a little (CI's). The default, speed
# (-O), is for runs long enough to find something. An input that runs longer than 10 s
# (60 s unoptimised) is reported as a hang.
# FUZZ_STEP=build builds the fuzzers and writes their seeds, and fuzzes nothing; FUZZ_STEP=run
# then fuzzes with what that built (CI builds them while the browser tests leave a core
# idle); the default, all, does both.
# The fuzzers run once all are built, two at a time (FUZZ_AT_ONCE=N runs N at a time: CI runs
# all four at once, each with half a core), and each one's output is printed when it ends. A fuzzer that finds no seed inputs fails (exit 1). Inputs up to 1 MB. New inputs go to .build-fuzz/<name>/corpus; crashes, timeouts and
# out-of-memory inputs to .build-fuzz/<name>/findings (add each as a test).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
which="${2:-all}"
usage="Fuzz/run.sh [seconds] [scene|theme|import|protocol|all]"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "Fuzz/run.sh: '$seconds' is not a number of seconds; give a whole number above 0: $usage." >&2
    exit 2
fi
case "$which" in
    scene | theme | import | protocol | all) ;;
    *)
        echo "Fuzz/run.sh: no fuzzer named '$which'; name one: $usage." >&2
        exit 2
        ;;
esac
# An input that runs longer than the unit timeout is a finding (a hang). Unoptimised, an
# input runs about 7 times slower (30 s: 258-299 inputs of the scene loader against 1,966),
# and the largest seed (772 KB of scene) took over 10 s on two busy cores in a CI run: its
# limit is 60 s.
case "${FUZZ_OPTIMIZATION:-speed}" in
    speed) optimization=-O unit_timeout=10 ;;
    none) optimization=-Onone unit_timeout=60 ;;
    *)
        echo "Fuzz/run.sh: FUZZ_OPTIMIZATION is '$FUZZ_OPTIMIZATION'; give speed (-O, the default) or none (-Onone)." >&2
        exit 2
        ;;
esac
at_once="${FUZZ_AT_ONCE:-2}"
if ! [[ "$at_once" =~ ^[1-9][0-9]*$ ]]; then
    echo "Fuzz/run.sh: FUZZ_AT_ONCE is '$at_once'; give how many fuzzers run at a time, a whole number above 0 (2 by default)." >&2
    exit 2
fi
case "${FUZZ_STEP:-all}" in
    build | run | all) step="${FUZZ_STEP:-all}" ;;
    *)
        echo "Fuzz/run.sh: FUZZ_STEP is '$FUZZ_STEP'; give build (build and seed only), run (fuzz with what a build step made) or all (both, the default)." >&2
        exit 2
        ;;
esac
out=.build-fuzz
# Whole-module, its code generation on both cores: 40% less time than a compile per file
# for the same -O libraries.
flags=("$optimization" -wmo -num-threads 2 -sanitize=fuzzer,address -swift-version 6 -package-name scenery)

# The fuzzers run once all are built, two at a time by default (libFuzzer keeps one core busy,
# so on two cores each has a core for its whole time); each one's output goes to .build-fuzz/<name>/log and is
# printed when it ends. `finish` runs them and fails if any failed.
queued=()
running=()
failed=()
# A build that fails ends the script: the fuzzers it started end with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
run() {  # name binary seeds
    local name="$1" binary="$2" seeds="$3"
    if [[ ! -x "$binary" ]]; then
        echo "Fuzz/run.sh: the $name fuzzer is not built ($binary); build it first: FUZZ_STEP=build Fuzz/run.sh $seconds $which." >&2
        exit 1
    fi
    # A fuzzer with no inputs to start from fuzzes next to nothing: that is a failure.
    local count
    count=$(find "$seeds" -type f | wc -l)
    if [[ "$count" -eq 0 ]]; then
        echo "Fuzz/run.sh: no seed inputs for $name in $seeds; a fixture folder moved? Fix the paths in Fuzz/run.sh." >&2
        exit 1
    fi
    echo "== $name: $count seed inputs"
    mkdir -p "$out/$name/corpus" "$out/$name/findings"
    queued+=("$name|$binary|$seeds")
}
wait_for_oldest() {
    local name="${running[0]%%:*}" pid="${running[0]##*:}"
    running=("${running[@]:1}")
    if wait "$pid"; then echo "== $name ended"; else failed+=("$name"); echo "== $name FAILED"; fi
    cat "$out/$name/log"
}
finish() {
    local entry name binary seeds
    for entry in "${queued[@]}"; do
        IFS='|' read -r name binary seeds <<< "$entry"
        [[ ${#running[@]} -ge $at_once ]] && wait_for_oldest
        echo "== fuzzing $name for ${seconds}s"
        ASAN_OPTIONS=detect_leaks=0 "$binary" "$out/$name/corpus" "$seeds" \
            -max_total_time="$seconds" -max_len=1048576 -timeout="$unit_timeout" -rss_limit_mb=2048 \
            -artifact_prefix="$out/$name/findings/" -print_final_stats=1 > "$out/$name/log" 2>&1 &
        running+=("$name:$!")
    done
    while [[ ${#running[@]} -gt 0 ]]; do wait_for_oldest; done
    if [[ ${#failed[@]} -gt 0 ]]; then
        echo "Fuzz/run.sh: ${failed[*]} found an input that crashes, hangs or runs out of memory: it is in .build-fuzz/<name>/findings; add it as a test." >&2
        exit 1
    fi
}

# The libraries the fuzzers link, each built once per run with the fuzzers' flags (both
# fuzzers share Scenery's), in dependency order; the SQLite ones see CSQLite's module map.
modules="$out/modules"
built=" "
# A target's folder: Sources/NAME, or Sources/ProfileDemo/NAME for the profile demo's.
source_folder() {  # module
    if [[ -d "Sources/$1" ]]; then echo "Sources/$1"; else echo "Sources/ProfileDemo/$1"; fi
}

build_modules() {  # module...
    mkdir -p "$modules"
    local module folder
    for module in "$@"; do
        [[ "$built" == *" $module "* ]] && continue
        # Scenery stands on its layers (text, the view tree, scene files, rendering): build
        # them first, lowest first.
        [[ "$module" == Scenery ]] && build_modules SceneryText SceneryViewTree ScenerySceneFiles SceneryRendering
        folder=$(source_folder "$module")
        # A target with resources reads them through `Bundle.module`, which SwiftPM writes and
        # these builds (no SwiftPM) do not: the fuzzers read no resource, so it is the main bundle.
        local accessor=()
        if grep -rqs "Bundle.module" "$folder"; then
            printf 'import Foundation\nextension Foundation.Bundle { static var module: Bundle { Bundle.main } }\n' > "$modules/$module-resources.swift"
            accessor=("$modules/$module-resources.swift")
        fi
        swiftc "${flags[@]}" -parse-as-library -module-name "$module" -I "$modules" -I Sources/CSQLite -emit-module \
            -emit-module-path "$modules/$module.swiftmodule" -emit-library -static -o "$modules/lib$module.a" \
            $(find "$folder" -name '*.swift' | sort) "${accessor[@]}"
        built+="$module "
    done
}

if [[ "$which" == scene || "$which" == all ]]; then
    if [[ "$step" != run ]]; then
        mkdir -p "$out/scene/seeds"
        # Every scene file of the repository (bundled, fixtures, examples, benchmarks), each
        # under a name of its own. A missing folder fails here rather than fuzzing with less.
        cp Scenes/*.json Tests/SceneFileToolingTests/Fixtures/InvalidScenes/*.json "$out/scene/seeds/"
        while IFS= read -r file; do
            cp "$file" "$out/scene/seeds/$(echo "$file" | tr '/' '_')"
        done < <(find Tests Examples Benchmarks -path '*/Scenes/*' -name '*.json' -not -path '*/.build*' | sort)
        # One large seed, so inputs near the 1 MB limit are tried from the start.
        python3 -c 'import json; print(json.dumps({"parameters": {"user": "userID"}, "modules": [{"id": "m%d" % i, "type": "BlogModule", "params": {"author": "$user", "pageSize": i % 100 + 1}} for i in range(9000)]}))' \
            > "$out/scene/seeds/large.json"
        echo "== building the scene-loader fuzzer"
        build_modules Scenery
        swiftc "${flags[@]}" -parse-as-library -module-name SceneLoaderFuzz -I "$modules" -L "$modules" -lScenery -lSceneryRendering -lScenerySceneFiles -lSceneryViewTree -lSceneryText \
            Fuzz/SceneLoaderFuzzer.swift -o "$out/scene-loader-fuzzer"
    fi
    run scene "$out/scene-loader-fuzzer" "$out/scene/seeds"
fi

if [[ "$which" == theme || "$which" == all ]]; then
    seeds="$out/theme/seeds"
    if [[ "$step" != run ]]; then
        mkdir -p "$seeds"
        cp Scenes/*.tokens.json "$seeds/"
        python3 - "$seeds" <<'PY'
import json, sys
folder = sys.argv[1]
chain = {"$type": "color", "t0": {"$value": "#ffffff"}}
for i in range(1, 400):
    chain["t%d" % i] = {"$value": "{chain.t%d}" % (i - 1)}
loop = {"$type": "color"}
for i in range(300):
    loop["c%d" % i] = {"$value": "{loop.c%d}" % ((i + 1) % 300)}
missing = {"$type": "color"}
for i in range(300):
    missing["m%d" % i] = {"$value": "{nowhere.m%d}" % i}
for name, doc in [("chain", {"chain": chain}), ("loop", {"loop": loop}), ("missing", {"missing": missing})]:
    with open("%s/%s.json" % (folder, name), "w") as f:
        json.dump(doc, f)
PY
        echo "== building the theme fuzzer"
        build_modules Scenery
        swiftc "${flags[@]}" -parse-as-library -module-name ThemeFuzz -I "$modules" -L "$modules" -lScenery -lSceneryRendering -lScenerySceneFiles -lSceneryViewTree -lSceneryText \
            Fuzz/ThemeFuzzer.swift -o "$out/theme-fuzzer"
    fi
    run theme "$out/theme-fuzzer" "$seeds"
fi

if [[ "$which" == import || "$which" == all ]]; then
    if [[ "$step" != run ]]; then
        mkdir -p "$out/import/seeds"
        echo "== building the data-set import fuzzer"
        build_modules Scenery SceneryLive SceneryExperiments ProfileDemoDomain ScenerySiteStore ProfileDemoStore
        swiftc "${flags[@]}" -parse-as-library -module-name ImportFuzz -I "$modules" -I Sources/CSQLite -L "$modules" \
            -lProfileDemoStore -lScenerySiteStore -lProfileDemoDomain -lSceneryExperiments -lSceneryLive -lScenery -lSceneryRendering -lScenerySceneFiles -lSceneryViewTree -lSceneryText -lsqlite3 Fuzz/DataSetImportFuzzer.swift -o "$out/import-fuzzer"
        # Seeds: the demo data (exported by a fresh in-memory store) and small hand-made sets.
        tool=(swift run --quiet scenery)
        [[ -n "${SCENERY_TOOL:-}" ]] && tool=("$SCENERY_TOOL")
        "${tool[@]}" data export --database "$out/import/demo.sqlite" "$out/import/seeds/demo.json" >/dev/null
        printf '{ "users": [ { "id": "1", "name": "Solo", "summary": "" } ] }' > "$out/import/seeds/solo.json"
        printf '{ "users": [ { "id": "1", "name": "A" } ], "blogs": [ { "id": 1.5, "author": "1", "title": "", "body": "", "createdAt": "2026-01-01T09:00:00Z" } ] }' \
            > "$out/import/seeds/number.json"
        python3 -c 'import json; print(json.dumps({"users": [{"id": str(i), "name": "User %d" % i} for i in range(1, 300)], "blogs": [{"id": i, "author": str(i % 299 + 1), "title": "Post %d" % i, "body": "words " * 20, "createdAt": "2026-01-01T09:00:00Z"} for i in range(1, 3800)], "likes": [{"blog": i, "user": str(i % 7 + 1)} for i in range(1, 2000)]}))' \
            > "$out/import/seeds/large.json"
    fi
    run import "$out/import-fuzzer" "$out/import/seeds"
fi

if [[ "$which" == protocol || "$which" == all ]]; then
    seeds="$out/protocol/seeds"
    if [[ "$step" != run ]]; then
        mkdir -p "$seeds"
        echo "== building the page-protocol fuzzer"
        build_modules Scenery SceneryPageProtocol
        swiftc "${flags[@]}" -parse-as-library -module-name PageProtocolFuzz -I "$modules" -L "$modules" -lSceneryPageProtocol -lScenery -lSceneryRendering -lScenerySceneFiles -lSceneryViewTree -lSceneryText \
            Fuzz/PageProtocolFuzzer.swift -o "$out/page-protocol-fuzzer"
        # One message of each type of both directions, as the ends write them.
        number=0
        while IFS= read -r message; do
            number=$((number + 1))
            printf '%s' "$message" > "$seeds/$number.json"
        done <<'MESSAGES'
{"type":"event","node":"blogs/blog.26.like","action":"0f1e2d3c4b5a6978","values":{"title":"Tea"}}
{"type":"window","module":"blogs","start":60}
{"type":"answer","question":2,"accept":false}
{"type":"resync"}
{"type":"visibility","node":"friends","fraction":0.5}
{"t":"event","node":"x"}
{"operations":[{"id":"a","op":"detach"},{"html":"<p>1</p>","index":1,"op":"insert","parent":"c"},{"first":11,"id":"e","op":"window","total":null}],"sequence":4,"type":"patch"}
{"html":"<div></div>","sequence":5,"type":"reset"}
{"cancel":"Cancel","confirm":"Unfollow","destructive":true,"message":null,"question":2,"title":"Unfollow Alice?","type":"confirm"}
{"type":"navigate","url":"/scenes/blog-detail?blog=27"}
{"text":null,"type":"errors"}
{"action":"submit-1","message":"No.","type":"refused"}
{"format":"scenery.view-tree","root":{"children":[{"id":"scene/title","text":"Alice","type":"text"}],"id":"scene","type":"stack"},"scene":"user-profile","sequence":7,"type":"tree","variant":"default","version":1}
{"applied":["0f1e2d3c4b5a6978"],"token":"e30.ab","type":"resume"}
{"sequence":6,"text":"Alice Liddell","type":"title"}
{"texts":["New like"],"type":"announce"}
{"href":"/assets/theme.css?v=2","type":"theme"}
{"module":"info","node":"scene","patches":[],"sequence":9,"type":"patches"}
MESSAGES
    fi
    run protocol "$out/page-protocol-fuzzer" "$seeds"
fi

if [[ "$step" == build ]]; then
    echo "== built: ${#queued[@]} fuzzers; fuzz with FUZZ_STEP=run Fuzz/run.sh $seconds $which"
    exit 0
fi
finish
