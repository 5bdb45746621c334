#!/usr/bin/env python3
"""One change to 1,000 pages over two servers on one PostgreSQL database, for Scenery's demo
(a like on the ten-row scene, `scenery serve`) and for the second app (a tick on a board,
Examples/Board's `board`), in one run: the same client, machine, database server and page
count, so that the generic live-data layer is compared with the demo's. A benchmark you run,
not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    (cd Examples/Board && swift build -c release --product board --scratch-path ../../.build-examples)
    python3 Benchmarks/LiveLoad/app_fanout.py

Each app: two release servers with one signing key on a fresh database of the test's own
PostgreSQL, PAGES signed-out pages (half on each), member 2 changing something through the
first ROUNDS times; the time until the last page has its patch.
"""
import argparse
import asyncio
import os
import pathlib
import subprocess

from several_servers import ROOT, Postgres, fanout, free_port, print_machine, signing_key_file, start, stop, summary


def measure(binary, scenes, path, node, pages, rounds):
    database = Postgres()
    key = signing_key_file()
    servers = []
    try:
        servers = [start(binary, database.url, key, free_port(), scenes=scenes) for _ in range(2)]
        return asyncio.run(fanout(servers[0][1:], servers[1][1:], pages, rounds, path=path, node=node))
    finally:
        for process, _, _ in servers:
            stop(process)
        database.stop()
        subprocess.run(["rm", "-rf", str(key.parent)])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--scenery", default=str(ROOT / ".build" / "release" / "scenery"))
    parser.add_argument("--board", default=str(ROOT / ".build-examples" / "release" / "board"))
    arguments = parser.parse_args()
    print_machine()
    demo = measure(arguments.scenery, pathlib.Path(__file__).resolve().parent / "Scenes", "/scenes/ten-rows?user=1",
                   lambda index: f"blogs/blog.{18 + index % 10}.like", arguments.pages, arguments.rounds)
    print(f"demo, a like to {arguments.pages} pages on two servers, last patch: {summary(demo)}")
    board = measure(arguments.board, None, "/scenes/board?owner=1", lambda index: f"tasks/task.{1 + index % 3}.toggle",
                    arguments.pages, arguments.rounds)
    print(f"board, a tick to {arguments.pages} pages on two servers, last patch: {summary(board)}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
