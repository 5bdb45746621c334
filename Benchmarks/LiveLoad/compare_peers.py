#!/usr/bin/env python3
"""Scenery beside a Python LiveView port (pyview-web) on the same ten-row page, with the same
client: idle memory per live page, event-to-update latency while the pages are open, and
each page's GET (made one at a time: the first byte after the request is sent, and the whole
page with its connection). A benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    pip install pyview-web uvicorn websockets
    python3 Benchmarks/LiveLoad/compare_peers.py --pages 1000

The page: ten of Alice's blogs, each with its title, byline, excerpt, like count and a Like
button (`Scenes/ten-rows.json` for Scenery, `Peer/ten_rows.py` for pyview-web). For each
server, in turn and each fresh: open N live pages (load the page, then its socket, as a
browser does), wait a second, read the server's RSS; then send `--events` likes, one at a
time, from each page in turn, and time each to the update it causes on that page.
Both sides get the same client settings and the same work per like:
- the client offers no WebSocket compression to either (an offer pyview-web accepted, and
  Scenery declines, once cost pyview-web a compression buffer per connection here);
- each page reads its rows from SQLite when it is made, and a like is a write in a
  transaction with the count read back, before the page shows it (`Peer/ten_rows.py` keeps
  the rows and likes in SQLite as Scenery's demo store does).
What still differs: Scenery's like also reaches every other open page of the blog (live
data); pyview-web's reaches the acting page only (it would need its PubSub). Scenery's pages
are signed in, pyview-web's anonymous (each likes as a person of its own).
"""
import argparse
import asyncio
import json
import pathlib
import random
import re
import statistics
import subprocess
import sys
import time

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from live_load import ROOT, cpu_seconds, http, percentile, print_machine, rss_kib, sign_in, start_server  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


class SceneryPage:
    """A Scenery page: GET makes its page session, the socket speaks the page protocol."""

    @staticmethod
    async def load(host, port, cookie):
        started = time.perf_counter()
        status, _, content, ttfb = await http(host, port, "GET", "/scenes/ten-rows?user=1", {"Cookie": cookie})
        assert status == 200, status
        return re.search(rb'data-session="([0-9a-f]+)"', content).group(1).decode(), (ttfb, time.perf_counter() - started)

    @classmethod
    async def connect(cls, host, port, cookie, session):
        socket = await websockets.connect(
            f"ws://{host}:{port}/live?session={session}&since=0&protocol=1",
            additional_headers={"Cookie": cookie, "Origin": f"http://{host}:{port}"}, max_queue=None, ping_interval=None,
            compression=None)
        return cls(socket)

    def __init__(self, socket):
        self.socket, self.waiting = socket, None
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        async for message in self.socket:
            if not self.waiting or self.waiting.done():
                continue
            if '"type":"patch"' in message:
                self.waiting.set_result(time.perf_counter())
            elif '"type":"refused"' in message:  # the page's event rate limit, say
                self.waiting.set_exception(RuntimeError(f"the server refused the like: {message}"))

    async def like(self, blog):
        self.waiting = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await self.socket.send(json.dumps({"type": "event", "node": f"blogs/blog.{blog}.like"}))
        return await asyncio.wait_for(self.waiting, timeout=30) - started


class PeerPage:
    """A pyview-web page: GET renders it statelessly, the socket joins the LiveView (Phoenix's
    channel protocol) and keeps its state."""

    @staticmethod
    async def load(host, port, _cookie):
        started = time.perf_counter()
        status, _, content, ttfb = await http(host, port, "GET", "/")
        assert status == 200, status
        return content.decode(), (ttfb, time.perf_counter() - started)

    @classmethod
    async def connect(cls, host, port, _cookie, text):
        token = re.search(r'name="csrf-token" content="([^"]+)"', text).group(1)
        session = re.search(r'data-phx-session="([^"]+)"', text).group(1)
        topic = "lv:" + re.search(r'id="(phx-[^"]+)"', text).group(1)
        socket = await websockets.connect(f"ws://{host}:{port}/live/websocket?_csrf_token={token}&vsn=2.0.0",
                                          max_queue=None, ping_interval=None, compression=None)
        await socket.send(json.dumps(["1", "1", topic, "phx_join",
                                      {"url": f"http://{host}:{port}/", "params": {"_csrf_token": token}, "session": session, "static": ""}]))
        reply = json.loads(await socket.recv())
        assert reply[3] == "phx_reply" and reply[4]["status"] == "ok", reply
        return cls(socket, topic)

    def __init__(self, socket, topic):
        self.socket, self.topic, self.reference, self.waiting = socket, topic, 1, None
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        async for message in self.socket:
            if self.waiting and not self.waiting.done() and json.loads(message)[1] == str(self.reference):
                self.waiting.set_result(time.perf_counter())

    async def like(self, blog):
        self.reference += 1
        self.waiting = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await self.socket.send(json.dumps(["1", str(self.reference), self.topic, "event",
                                           {"type": "click", "event": "like", "value": {"id": str(blog)}}]))
        return await asyncio.wait_for(self.waiting, timeout=30) - started


async def measure(kind, host, port, pid, pages, events):
    cookie = await sign_in(host, port, "2") if kind is SceneryPage else None
    await asyncio.sleep(0.5)
    before = rss_kib(pid)
    loaded, timings = zip(*[await kind.load(host, port, cookie) for _ in range(pages)])  # one at a time
    await asyncio.sleep(1)
    without_sockets = rss_kib(pid)  # what a page holds before its socket opens (pyview-web: nothing)
    opened = [await kind.connect(host, port, cookie, page) for page in loaded]
    await asyncio.sleep(1)
    idle = rss_kib(pid)
    # Each page in turn (a page's own event rate limit is never reached), a random row.
    latencies = [await opened[index % pages].like(random.randint(18, 27)) for index in range(events)]
    for page in opened:
        await page.socket.close()
    return ((idle - before) / pages, (without_sockets - before) / pages), latencies, timings


async def first_bytes(scenery, peer, requests, pids):
    """`requests` GETs of each server's page, one at a time and alternating (which server goes
    first changes every round), so both see the same machine load; returns each side's
    (first byte, whole page) timings and its CPU seconds over the GETs."""
    cookie = await sign_in(*scenery, "2")
    timings = {SceneryPage: [], PeerPage: []}
    cpu = {kind: cpu_seconds(pid) for kind, pid in pids.items()}
    for index in range(requests):
        for kind, (host, port) in ([(SceneryPage, scenery), (PeerPage, peer)][::1 if index % 2 else -1]):
            timings[kind].append((await kind.load(host, port, cookie))[1])
    return timings, {kind: cpu_seconds(pid) - cpu[kind] for kind, pid in pids.items()}


def wait_until_listening(port):
    """Returns once a server on loopback `port` answers a GET (or after ten seconds)."""
    for _ in range(100):
        try:
            asyncio.run(http("127.0.0.1", port, "GET", "/"))
            return
        except OSError:
            time.sleep(0.1)


def start_peer(arguments):
    """pyview-web's ten-row page under uvicorn, once it accepts connections."""
    peer = subprocess.Popen([sys.executable, "-m", "uvicorn", "--app-dir", str(HERE / "Peer"), "ten_rows:app", "--port", str(arguments.peer_port),
                             "--log-level", "warning", "--ws", arguments.peer_ws])
    wait_until_listening(arguments.peer_port)
    return peer


def compare_first_bytes(arguments):
    """Both servers up at once, their pages fetched in turn: time to first byte, side by side."""
    scenery, address = start_server(arguments.binary, arguments.ttfb, "--scenes", str(HERE / "Scenes"))
    peer = start_peer(arguments)
    try:
        timings, cpu = asyncio.run(first_bytes((address.hostname, address.port), ("127.0.0.1", arguments.peer_port), arguments.ttfb,
                                               {SceneryPage: scenery.pid, PeerPage: peer.pid}))
    finally:
        for process in (scenery, peer):
            process.terminate()
            process.wait(timeout=10)
    medians = {}
    for kind, name in ((SceneryPage, "Scenery"), (PeerPage, "pyview-web")):
        first, whole = [timing[0] for timing in timings[kind]], [timing[1] for timing in timings[kind]]
        medians[name] = statistics.median(first)
        print(f"{name:>10}: {len(first)} GETs in turn with the other server's: first byte p50 {statistics.median(first) * 1000:.2f} ms, "
              f"p99 {percentile(first, 0.99) * 1000:.2f} ms; whole page p50 {statistics.median(whole) * 1000:.2f} ms, p99 {percentile(whole, 0.99) * 1000:.2f} ms; "
              f"server CPU {cpu[kind] / len(first) * 1e6:.0f} µs per GET")
    print(f"first byte, Scenery / pyview-web (p50): {medians['Scenery'] / medians['pyview-web']:.2f}×")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, nargs="+", default=[1000], help="open pages, each count on fresh servers")
    parser.add_argument("--events", type=int, default=300, help="likes sent one at a time while the pages are open")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    parser.add_argument("--scenery-only", action="store_true", help="measure Scenery alone (to compare two builds of it)")
    parser.add_argument("--window-rows", type=int, default=None,
                        help="the server's window of a long list (as shipped when left out: the scene's first page, then 60 rows)")
    parser.add_argument("--peer-port", type=int, default=8765)
    parser.add_argument("--peer-ws", default="wsproto", help="uvicorn's WebSocket implementation for the peer (wsproto or websockets)")
    parser.add_argument("--ttfb", type=int, default=0, metavar="N",
                        help="instead: N GETs of each server's page, alternating between the two servers (time to first byte)")
    arguments = parser.parse_args()
    print_machine()
    if arguments.ttfb:
        return compare_first_bytes(arguments)
    for count in arguments.pages:
        window = [] if arguments.window_rows is None else ["--window-rows", str(arguments.window_rows)]
        scenery, address = start_server(arguments.binary, count, "--scenes", str(HERE / "Scenes"), *window)
        try:
            report("Scenery", count, *asyncio.run(measure(SceneryPage, address.hostname, address.port, scenery.pid, count, arguments.events)))
        finally:
            scenery.terminate()
            scenery.wait(timeout=10)
        if arguments.scenery_only:
            continue
        peer = start_peer(arguments)
        try:
            report("pyview-web", count, *asyncio.run(measure(PeerPage, "127.0.0.1", arguments.peer_port, peer.pid, count, arguments.events)))
        finally:
            peer.terminate()
            peer.wait(timeout=10)


def report(name, pages, memory, latencies, timings):
    first, whole = [timing[0] for timing in timings], [timing[1] for timing in timings]
    print(f"{name:>10}, {pages} pages: idle {memory[0]:.1f} KiB per page ({memory[1]:.1f} before its socket opens); {len(latencies)} likes, event → update "
          f"p50 {statistics.median(latencies) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms")
    print(f"{'':>10}  page GET, one at a time: first byte p50 {statistics.median(first) * 1000:.2f} ms, p99 {percentile(first, 0.99) * 1000:.2f} ms; "
          f"whole page p50 {statistics.median(whole) * 1000:.2f} ms, p99 {percentile(whole, 0.99) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
