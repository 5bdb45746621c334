#!/usr/bin/env python3
"""Scrolling through a 10,000-row list in the live browser host: how many patches each
window move costs, the bytes the page receives, how long a move takes from the page's
request to its patch, and whether the page's row count stays bounded. A benchmark you run,
not a test.

    swift build -c release --product scenery
    python3 Benchmarks/LongList/scroll.py

It starts the release `scenery serve` on a free loopback port (the browser tests' `Server`
helper) with demo data plus 10,000 generated blogs by user 1, opens user 1's profile in
Debian's Chromium through Playwright, and scrolls the blog list to its end and back, three
ways: a mouse wheel (120 px steps, 16 ms apart, as a person flicks through), page by page
(one viewport per step, 150 ms apart, as a person reads), and jumps (to 20 random places).
"""
import argparse
import json
import os
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
os.environ.setdefault("SCENERY_BINARY", str(ROOT / ".build" / "release" / "scenery"))
sys.path.insert(0, str(ROOT / "Tests" / "Browser"))

from conftest import CHROMIUM, Server  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ROWS = """(() => {
  const section = document.getElementById('blogs/all');
  const list = section.querySelector(':scope > ul');
  return { first: Number(section.dataset.firstRow), total: Number(section.dataset.totalRows),
           rows: list.children.length, height: document.documentElement.scrollHeight,
           y: window.scrollY, inner: window.innerHeight };
})()"""


class Traffic:
    """What went over the page's socket: window requests sent, messages received."""

    def __init__(self):
        self.sent = []
        self.received = []

    def attach(self, socket):
        socket.on("framesent", lambda payload: self.sent.append((time.perf_counter(), payload)))
        socket.on("framereceived", lambda payload: self.received.append((time.perf_counter(), payload)))

    def mark(self):
        return len(self.sent), len(self.received)

    def since(self, mark):
        sent = [(at, json.loads(text)) for at, text in self.sent[mark[0]:]]
        received = [(at, text, json.loads(text)) for at, text in self.received[mark[1]:]]
        return sent, received


def run_pass(page, traffic, name, steps, pause_ms):
    """Runs one way of scrolling (a list of actions) and summarises the traffic."""
    mark = traffic.mark()
    largest = 0
    started = time.perf_counter()
    for step in steps:
        step()
        page.wait_for_timeout(pause_ms)
        largest = max(largest, page.evaluate(ROWS)["rows"])
    page.wait_for_timeout(800)  # the trailing request and its patch
    elapsed = time.perf_counter() - started
    largest = max(largest, page.evaluate(ROWS)["rows"])
    sent, received = traffic.since(mark)
    requests = [(at, message) for at, message in sent if message.get("t") == "window"]
    patches = [(at, text, message) for at, text, message in received if message.get("t") == "patch"]
    moves = [(at, text, message) for at, text, message in patches if any(op.get("op") == "window" for op in message["ops"])]
    latencies = []
    for at, message in requests:
        answer = next((arrived for arrived, _, patch in moves if arrived >= at and any(
            op.get("op") == "window" and op.get("first") == message["start"] for op in patch["ops"])), None)
        if answer is not None:
            latencies.append((answer - at) * 1000)
    operations = [len(message["ops"]) for _, _, message in moves]
    payload = [len(text.encode()) for _, text, _ in moves]
    resets = sum(1 for _, _, message in received if message.get("t") == "reset")
    return {
        "way": name, "seconds": elapsed, "requests": len(requests), "moves": len(moves),
        "patches_per_move": len(patches) / max(1, len(moves)),
        "ops_per_move": statistics.median(operations) if operations else 0,
        "bytes_per_move": statistics.median(payload) if payload else 0,
        "bytes_total": sum(len(text.encode()) for _, text, _ in received),
        "latency_p50": statistics.median(latencies) if latencies else None,
        "latency_max": max(latencies) if latencies else None,
        "answered": len(latencies), "largest_dom": largest, "resets": resets,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blogs", type=int, default=10_000)
    parser.add_argument("--window-rows", type=int, default=60)
    arguments = parser.parse_args()
    if not pathlib.Path(os.environ["SCENERY_BINARY"]).exists():
        sys.exit(f"No {os.environ['SCENERY_BINARY']}; run 'swift build -c release --product scenery' first.")
    server = Server("--window-rows", str(arguments.window_rows), generated_blogs=arguments.blogs)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            traffic = Traffic()
            page.on("websocket", traffic.attach)
            page.goto(server.url + "/scenes/user-profile?user=1")
            page.wait_for_timeout(1000)
            state = page.evaluate(ROWS)
            print(f"{state['total']} rows; the page holds {state['rows']}; document {state['height']} px high;"
                  f" load average {os.getloadavg()[0]:.2f}")
            bottom = lambda: page.evaluate(ROWS)["height"]
            results = []
            wheel = [lambda: page.mouse.wheel(0, 120)] * 0
            # Flicking: 120 px wheel steps down through the first 2,000 rows and back up.
            down = int(2000 * (bottom() / state["total"]) / 120)
            wheel = [lambda: page.mouse.wheel(0, 120)] * down + [lambda: page.mouse.wheel(0, -120)] * down
            results.append(run_pass(page, traffic, "wheel, 120 px steps", wheel, 16))
            # Reading: a viewport per step to the end.
            pages = int(bottom() / state["inner"]) + 1
            results.append(run_pass(page, traffic, "page by page to the end", [lambda: page.keyboard.press("PageDown")] * pages, 150))
            # Jumping: random places.
            generator = random.Random(7)
            jumps = [(lambda y: (lambda: page.evaluate(f"window.scrollTo(0, {y})")))(generator.randrange(0, bottom())) for _ in range(20)]
            results.append(run_pass(page, traffic, "20 random jumps", jumps, 400))
            browser.close()
    finally:
        server.stop()
    print()
    print("way | window moves (requests) | patches per move | ops per move (median) | bytes per move (median) |"
          " all bytes | request → patch p50 / max | most rows in the DOM | resets")
    for r in results:
        latency = "–" if r["latency_p50"] is None else f"{r['latency_p50']:.1f} / {r['latency_max']:.1f} ms"
        print(f"{r['way']} | {r['moves']} ({r['requests']}) | {r['patches_per_move']:.2f} | {r['ops_per_move']:.0f} |"
              f" {r['bytes_per_move'] / 1024:.1f} KiB | {r['bytes_total'] / 1024:.0f} KiB | {latency} |"
              f" {r['largest_dom']} | {r['resets']}")


if __name__ == "__main__":
    main()
