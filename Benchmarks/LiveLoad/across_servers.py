#!/usr/bin/env python3
"""How long a like takes to reach a page held by another server on the same PostgreSQL
database (NOTIFY from the writing transaction, LISTEN on the other server), beside the
same like reaching a page on the server that took it. A benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    python3 Benchmarks/LiveLoad/across_servers.py --likes 300

Starts a PostgreSQL server of its own (Debian's programs, as the browser tests do) and two
release `scenery serve` processes on it with one signing key. A page of the ten-row scene is
open on each server; each like is sent from the page on server A, alternately to a row, and
timed to the patch it causes on A's page (same server) and on B's page (across servers).
"""
import argparse
import asyncio
import json
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from compare_peers import SceneryPage  # noqa: E402
from conftest import Postgres, signing_key_file  # noqa: E402
from live_load import ROOT, percentile, print_machine, sign_in, start_server  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


class ObservedPage(SceneryPage):
    """A page that records when each patch arrives."""

    def __init__(self, socket):
        self.patches = asyncio.Queue()
        super().__init__(socket)

    async def read(self):
        async for message in self.socket:
            if '"type":"patch"' in message:
                self.patches.put_nowait(time.perf_counter())
            elif '"type":"refused"' in message:
                raise RuntimeError(f"the server refused the like: {message}")


async def measure(servers, likes):
    pages = []
    for parsed in servers:
        cookie = await sign_in(parsed.hostname, parsed.port, "2")
        session = await SceneryPage.load(parsed.hostname, parsed.port, cookie)
        pages.append(await ObservedPage.connect(parsed.hostname, parsed.port, cookie, session))
    await asyncio.sleep(1)
    here, there = pages
    same, across = [], []
    for index in range(likes):
        started = time.perf_counter()
        # Bob likes and unlikes in turn, so every like is a real change.
        await here.socket.send(json.dumps({"type": "event", "node": f"blogs/blog.{18 + index % 10}.like"}))
        same.append(await asyncio.wait_for(here.patches.get(), timeout=30) - started)
        across.append(await asyncio.wait_for(there.patches.get(), timeout=30) - started)
        await asyncio.sleep(0.2)  # under a page's own event rate limit
    for page in pages:
        await page.socket.close()
    return same, across


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--likes", type=int, default=300)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    arguments = parser.parse_args()
    print_machine()
    database = Postgres()
    key = signing_key_file()
    started = []
    try:
        for _ in range(2):
            started.append(start_server(arguments.binary, 10, "--database", database.url, "--secret-file", str(key), "--scenes", str(HERE / "Scenes")))
        same, across = asyncio.run(measure([parsed for _, parsed in started], arguments.likes))
        for name, values in [("same server", same), ("across servers", across)]:
            values = [value * 1000 for value in values]
            print(f"{name:>15}: like → patch p50 {statistics.median(values):.2f} ms, p99 {percentile(values, 0.99):.2f} ms, max {max(values):.2f} ms "
                  f"({len(values)} likes)")
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=10)
        database.stop()


if __name__ == "__main__":
    main()
