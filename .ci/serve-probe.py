#!/usr/bin/env python3
"""Starts `TOOL serve --port 0` (an app's tool), reads PATH from it and checks the page holds
TEXT; exits non-zero, with what the server said, otherwise. Used by .ci/run on the app that
`scenery new` makes: a new app serves out of the box.

    python3 .ci/serve-probe.py .build/debug/Garden "/scenes/welcome?name=Ada" "Welcome, Ada!"
"""
import subprocess
import sys
import tempfile
import urllib.request


def main(tool, path, text):
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([tool, "serve", "--port", "0"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            first = server.stdout.readline()
            if not first.startswith("Listening on "):
                sys.exit(f"{tool} serve did not start: {first}{server.stderr.read() if server.poll() is not None else ''}")
            url = first.strip().removeprefix("Listening on ") + path
            with urllib.request.urlopen(url, timeout=60) as response:
                page = response.read().decode("utf-8")
            if text not in page:
                sys.exit(f"{url} does not hold {text!r}:\n{page[:2000]}")
            print(f"{tool} serve: {url} holds {text!r}")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main(*sys.argv[1:4])
