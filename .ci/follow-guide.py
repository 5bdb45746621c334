#!/usr/bin/env python3
"""Follows the guide "Your own app" (Sources/Scenery/Scenery.docc/YourOwnApp.md) as a reader
does, in a package made by `scenery new`, and fails on the first step that does not work.

    python3 .ci/follow-guide.py SCENERY SCRATCH FOLDER

SCENERY is the scenery tool, SCRATCH the build folder to build in (a shared one saves a
second build of Scenery), FOLDER where to make the package. Its steps are the guide's:

1. `scenery new Waves`: the package as written builds with no warning, its scene
   runs, its tests pass (the bundle `swift test` runs) and it serves its welcome scene out
   of the box.
2. Every ```swift block of the guide, each under a line naming its file (`PATH`:), is
   written to that file, whole (Package.swift keeps the path to Scenery that `new` wrote).
3. The app's files pass Scenery's `swift format lint --strict`, it builds with no warning
   and its tests pass; its tool keeps a wave in its SQLite file (`interact`, then
   `run` shows it).

The guide's last step, served live on SQLite and on two servers sharing PostgreSQL, is
Tests/Browser/test_your_own_app.py, on the tool this leaves at SCRATCH/debug/Waves.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDE = ROOT / "Sources/Scenery/Scenery.docc/YourOwnApp.md"
NAME = "Waves"
FILE_LINE = re.compile(r"^`([^`]+)`:$")
SCENERY_PATH = re.compile(r'\.package\(name: "Scenery", path: "([^"]*)"\)')


def run(command, cwd, *, input=None, env=None, expect=None):
    """Runs a step; exits with what it printed when it fails, or when its output lacks `expect`."""
    print("$", " ".join(str(part) for part in command), flush=True)
    result = subprocess.run(command, cwd=cwd, input=input, env=env, capture_output=True, text=True)
    if result.returncode != 0 or (expect is not None and expect not in result.stdout):
        wanted = f" (wanted {expect!r} in its output)" if expect is not None else ""
        sys.exit(f"The guide's step failed{wanted}: exit {result.returncode}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result.stdout


def guide_files(text):
    """The guide's files: (path, contents) for each ```swift block, in order. A block without
    a `PATH`: line above it is an error naming its line."""
    files, lines = [], text.split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            label = next((line for line in reversed(lines[:index]) if line.strip()), "")
            match = FILE_LINE.match(label.strip())
            if not match:
                sys.exit(f"{GUIDE.name}:{index + 1}: a ```swift block with no `PATH`: line above it; name the file it is.")
            end = lines.index("```", index + 1)
            files.append((match.group(1), "\n".join(lines[index + 1:end]) + "\n"))
            index = end
        index += 1
    return files


def main(scenery, scratch, folder):
    scenery, scratch, folder = (str(pathlib.Path(part).resolve()) for part in (scenery, scratch, folder))
    package = pathlib.Path(folder) / NAME
    tool = pathlib.Path(scratch) / "debug" / NAME
    # Warnings fail the step, read from the build's output (.ci/build-without-warnings): no
    # -Xswiftc flag, so Scenery is reused as the package's own build compiled it.
    build = [ROOT / ".ci/build-without-warnings", "--build-tests", "--scratch-path", scratch]
    # The tests `swift test` would run, from the bundle the build made (no second planning of
    # the package: about 6 s of one core).
    test = [str(pathlib.Path(scratch) / "debug" / f"{NAME}PackageTests.xctest"), "--testing-library", "swift-testing"]
    data = tempfile.mkdtemp(prefix="waves-data-")
    env = dict(os.environ, XDG_DATA_HOME=data)

    # 1. A new package, as `scenery new` writes it.
    run([scenery, "new", NAME, "--output", package], cwd=folder)
    run(build, cwd=package)
    run([tool, "run", "welcome", "--arg", "name=Ada"], cwd=package, env=env, expect="Welcome, Ada!")
    run(test, cwd=package)
    run([sys.executable, ROOT / ".ci/serve-probe.py", tool, "/scenes/welcome?name=Ada", "Welcome, Ada!"], cwd=package)

    # 2. The guide's files, whole.
    written = SCENERY_PATH.search((package / "Package.swift").read_text())
    files = guide_files(GUIDE.read_text(encoding="utf-8"))
    if not any(path == "Package.swift" for path, _ in files):
        sys.exit(f"{GUIDE.name} has no Package.swift: the guide must give the package whole.")
    for path, contents in files:
        if path == "Package.swift":
            contents, count = SCENERY_PATH.subn(f'.package(name: "Scenery", path: "{written.group(1)}")', contents)
            if count != 1:
                sys.exit(f"{GUIDE.name}: its Package.swift must depend on Scenery as `scenery new` writes it (.package(name: \"Scenery\", path: …)).")
        target = package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(contents, encoding="utf-8")
        print(f"wrote {path} ({len(contents.splitlines())} lines)")

    # 3. Built, tested, and a wave kept in the tool's SQLite file; the files in Scenery's style.
    run(["swift", "format", "lint", "--strict", "--configuration", ROOT / ".swift-format", "--recursive", "Package.swift", "Sources", "Tests"],
        cwd=package)
    run(build, cwd=package)
    run(test, cwd=package)
    run([tool, "run", "welcome", "--arg", "name=Ada"], cwd=package, env=env, expect="0 waves")
    run([tool, "interact", "welcome", "--arg", "name=Ada"], cwd=package, env=env, input="1\nquit\n", expect="1 wave")
    run([tool, "run", "welcome", "--arg", "name=Ada"], cwd=package, env=env, expect="1 wave")
    print(f"Followed {GUIDE.name}: {tool} is the guide's app.")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:4])
