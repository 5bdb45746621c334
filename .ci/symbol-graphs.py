#!/usr/bin/env python3
"""Writes the public symbol graphs of the named modules from the debug build that exists,
without building:

    python3 .ci/symbol-graphs.py BUILD_PLAN OUTPUT_FOLDER MODULE...

BUILD_PLAN is the build folder's plan (.build/debug.yaml, written by the last `swift build`
or `swift test` there); each module's search paths and C module maps come from its compile
command in it. Not `swift package dump-symbol-graph`: that command builds with every trait of
every package enabled (SwiftPM #8177), so it compiled Hummingbird's modules again, and the
next build compiled them back (about 45 s a CI run). Two modules at a time.
"""
import concurrent.futures
import json
import pathlib
import re
import subprocess
import sys

# The compiler's options the extractor needs to load a module as it was compiled: each with
# its value.
KEPT = {"-I", "-F", "-target", "-module-cache-path", "-swift-version", "-Xcc"}


def search_options(plan, module):
    """The options of `module`'s compile command in the plan that locate its dependencies:
    the command that builds it for the package (`C.NAME-TRIPLE-debug.module`), not the copy
    built for a plugin's tool (`…-debug-tool.module`), whose search paths name other modules."""
    command = re.search(rf'^  "C\.{re.escape(module)}-[^"\s]*-debug\.module":$', plan, re.MULTILINE)
    if command is None:
        sys.exit(f"{sys.argv[1]}: no compile command for {module}; build the package first (swift build --build-tests).")
    line = plan.index("args:", command.end())
    args = json.loads(plan[line + len("args:"):plan.index("\n", line)])
    kept = []
    for option, value in zip(args, args[1:]):
        if option in KEPT:
            kept += [option, value]
    return kept


def extract(module, options, output):
    result = subprocess.run(
        ["swift-symbolgraph-extract", "-module-name", module, *options, "-minimum-access-level", "public", "-output-dir", str(output)],
        capture_output=True, text=True)
    return module, result


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    plan = pathlib.Path(sys.argv[1]).read_text()
    output = pathlib.Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    modules = sys.argv[3:]
    jobs = {module: search_options(plan, module) for module in modules}
    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for module, result in pool.map(lambda item: extract(item[0], item[1], output), jobs.items()):
            if result.returncode != 0:
                failed = True
                print(f"error: the symbol graph of {module} could not be extracted:\n{result.stdout}{result.stderr}", file=sys.stderr)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
