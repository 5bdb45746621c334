"""One like shown on N open ten-row pages, three ways in one run, each server fresh and
alone on the machine in turn: Scenery (`Scenes/ten-rows.json`), pyview-web with its PubSub
(`Peer/ten_rows.py` with PEER_PUBSUB=1: every page subscribes, a like is broadcast and each
page sends its diff), and the floor (`broadcast_floor.py`: one pre-encoded frame of the size
of Scenery's patch written to N sockets, nothing else). For each: the server's CPU per page
per change, and the time from the like to each page's message and to the last page's. A
benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    pip install pyview-web uvicorn websockets
    python3 Benchmarks/LiveLoad/fanout_floor.py --pages 1000 --rounds 20

The same client for all three: Python's `websockets`, no compression offered, a reader per
page that notes when its page's message arrives. Scenery's pages are signed in as four
people and signed out, in turn (a like changes the row each of them sees); pyview-web's
pages are anonymous, each a viewer of its own. Issue 62's goal: Scenery ≤ 2× the floor.
"""
import argparse
import asyncio
import json
import os
import pathlib
import re
import signal
import statistics
import subprocess
import sys
import time

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from compare_peers import HERE, PeerPage, start_peer, wait_until_listening  # noqa: E402
from live_load import ROOT, Listener, cpu_seconds, http, percentile, print_machine, sign_in, start_server  # noqa: E402


async def rounds_of(listeners, rounds, pid, act):
    """`rounds` changes made by `act`, each awaited on every listener; the server's CPU
    per page per change and the latencies."""
    per_page, last = [], []
    cpu_before = cpu_seconds(pid)
    for round in range(rounds):
        loop = asyncio.get_running_loop()
        for listener in listeners:
            listener.arrived = loop.create_future()
        started = time.perf_counter()
        await act(round)
        arrivals = await asyncio.gather(*(asyncio.wait_for(listener.arrived, timeout=60) for listener in listeners))
        latencies = [arrived - started for arrived in arrivals]
        per_page += latencies
        last.append(max(latencies))
    cpu = cpu_seconds(pid) - cpu_before
    return {"cpu_us": cpu / (rounds * len(listeners)) * 1e6, "p50": statistics.median(per_page) * 1000,
            "p99": percentile(per_page, 0.99) * 1000, "last_p50": statistics.median(last) * 1000, "last_max": max(last) * 1000,
            "bytes": statistics.median([size for listener in listeners for size in listener.sizes])}


async def scenery(host, port, pid, pages, rounds, record=None):
    cookies = [await sign_in(host, port, user) for user in ("3", "5", "6", "7")] + [None]

    async def open_page(cookie):
        headers = {"Cookie": cookie} if cookie else {}
        status, _, content, _ = await http(host, port, "GET", "/scenes/ten-rows?user=1", headers)
        assert status == 200, status
        session = re.search(rb'data-session="([0-9a-f]+)"', content).group(1).decode()
        return await websockets.connect(f"ws://{host}:{port}/live?session={session}&since=0&protocol=1",
                                        additional_headers={**headers, "Origin": f"http://{host}:{port}"},
                                        max_queue=None, ping_interval=None, compression=None)

    listeners = [Listener(await open_page(cookies[index % len(cookies)]), lambda message: '"type":"patch"' in message) for index in range(pages)]
    liker = await open_page(await sign_in(host, port, "2"))
    await asyncio.sleep(1)

    async def like(_):
        await liker.send(json.dumps({"type": "event", "node": "blogs/blog.26.like"}))  # like, then unlike: the count changes each round

    recorder = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-g", "-p", str(pid), "-o", record],
                                stderr=subprocess.DEVNULL) if record else None
    if recorder:
        await asyncio.sleep(0.5)  # perf attaches before the first like
    result = await rounds_of(listeners, rounds, pid, like)
    if recorder:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)
    for listener in listeners:
        await listener.socket.close()
    await liker.close()
    return result


async def peer(host, port, pid, pages, rounds):
    def is_diff(message):
        return json.loads(message)[3] == "diff"

    opened = []
    for _ in range(pages):
        text, _ = await PeerPage.load(host, port, None)
        page = await PeerPage.connect(host, port, None, text)
        page.reader.cancel()
        opened.append(page)
    listeners = [Listener(page.socket, is_diff) for page in opened]
    text, _ = await PeerPage.load(host, port, None)
    liker = await PeerPage.connect(host, port, None, text)
    await asyncio.sleep(1)

    async def like(_):
        await liker.like(26)  # answered once the write is made and broadcast

    result = await rounds_of(listeners, rounds, pid, like)
    for listener in listeners:
        await listener.socket.close()
    await liker.socket.close()
    return result


async def floor(port, pid, pages, rounds, size):
    listeners = []
    for _ in range(pages):
        socket = await websockets.connect(f"ws://127.0.0.1:{port}/", max_queue=None, ping_interval=None, compression=None)
        listeners.append(Listener(socket, lambda _: True))
    await asyncio.sleep(1)

    async def broadcast(_):
        status, _, body, _ = await http("127.0.0.1", port, "POST", f"/broadcast?bytes={size}")
        assert status == 200 and int(body) == pages, (status, body)

    result = await rounds_of(listeners, rounds, pid, broadcast)
    for listener in listeners:
        listener.reader.cancel()
        await listener.socket.close()
    return result


def line(name, result, floor_result=None):
    ratio = ""
    if floor_result:
        # /proc counts CPU in clock ticks (10 ms): too few pages or rounds give the floor none.
        ratio = f"; {result['cpu_us'] / floor_result['cpu_us']:.1f}× the floor's CPU" if floor_result["cpu_us"] else "; the floor's CPU is below a clock tick: give more pages or rounds"
    return (f"{name:>22}: CPU {result['cpu_us']:.1f} µs per page per change{ratio}; message {result['bytes']:.0f} B; "
            f"like → each page p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms; → last page p50 {result['last_p50']:.1f} ms, "
            f"worst {result['last_max']:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, nargs="+", default=[1000], help="open pages, each count on fresh servers")
    parser.add_argument("--rounds", type=int, default=20, help="likes, one at a time, each awaited on every page")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    parser.add_argument("--peer-port", type=int, default=8765)
    parser.add_argument("--peer-ws", default="wsproto", help="uvicorn's WebSocket implementation for the peer (wsproto or websockets)")
    parser.add_argument("--floor-port", type=int, default=8790)
    parser.add_argument("--skip-peer", action="store_true", help="Scenery and the floor only")
    parser.add_argument("--perf-record", metavar="PATH", help="record Scenery's server with `perf record -g` over the likes alone")
    arguments = parser.parse_args()
    print_machine()
    for pages in arguments.pages:
        server, address = start_server(arguments.binary, pages, "--scenes", str(HERE / "Scenes"))
        try:
            ours = asyncio.run(scenery(address.hostname, address.port, server.pid, pages, arguments.rounds, arguments.perf_record))
        finally:
            server.terminate()
            server.wait(timeout=10)
        floor_server = subprocess.Popen([sys.executable, str(HERE / "broadcast_floor.py"), "--port", str(arguments.floor_port)])
        try:
            wait_until_listening(arguments.floor_port)
            bottom = asyncio.run(floor(arguments.floor_port, floor_server.pid, pages, arguments.rounds, int(ours["bytes"])))
        finally:
            floor_server.terminate()
            floor_server.wait(timeout=10)
        print(f"{pages} pages, {arguments.rounds} likes each shown on every page:")
        print(line("floor (one frame)", bottom))
        print(line("Scenery", ours, bottom))
        if arguments.skip_peer:
            continue
        os.environ["PEER_PUBSUB"] = "1"
        peer_server = start_peer(arguments)
        try:
            theirs = asyncio.run(peer("127.0.0.1", arguments.peer_port, peer_server.pid, pages, arguments.rounds))
        finally:
            peer_server.terminate()
            peer_server.wait(timeout=10)
        print(line("pyview-web with PubSub", theirs, bottom))


if __name__ == "__main__":
    main()
