#!/usr/bin/env python3
"""Load generator for `scenery serve`: opens N live profile pages (each a page session with
its WebSocket), measures the server's memory per idle session, then has every page send
likes and tab switches and measures event-to-update latency; also time to first byte of a
page. With --fanout, N pages of Alice's profile (signed in as several people, and signed
out) wait while one more page likes a blog, round after round: the time from the like to
each page's patch of that row (p50, p99, and the last page). A benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    python3 Benchmarks/LiveLoad/live_load.py --sessions 100 1000
    python3 Benchmarks/LiveLoad/live_load.py --fanout --sessions 100 1000
    python3 Benchmarks/LiveLoad/live_load.py --fanout --metrics-overhead 5 --rounds 20 --sessions 1000
    (cd Examples/Board && swift build -c release --product board --scratch-path ../../.build-examples)
    python3 Benchmarks/LiveLoad/live_load.py --keystrokes --sessions 1000 --binary .build-examples/release/board

With --keystrokes (the board example, whose search field sends changes as people type), N
board pages are open and each types into the field, round after round, spread over two
seconds: the time from a change message (what the page script sends after a pause) to the
patch that answers it, p50 and p99, and the bytes of each change message.

It starts the release `scenery serve` itself on a free loopback port with a fresh demo
database, and stops it at the end. Needs Python's `websockets` package.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import pathlib
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import websockets

ROOT = pathlib.Path(__file__).resolve().parents[2]


def rss_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """The process's user and system CPU time so far, in seconds."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def http(host, port, method, path, headers=None, body=b""):
    """A minimal HTTP/1.1 request; returns (status, headers, body, seconds to first byte)."""
    reader, writer = await asyncio.open_connection(host, port)
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    started = time.perf_counter()
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    first = await reader.read(1)
    ttfb = time.perf_counter() - started
    rest = await reader.read()
    writer.close()
    raw = first + rest
    head, _, content = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.decode().partition(": ")
        fields.setdefault(name.lower(), []).append(value)
    return status, fields, content, ttfb


async def sign_in(host, port, user):
    origin = f"http://{host}:{port}"
    _, headers, _, _ = await http(host, port, "POST", "/sign-in", {"Origin": origin, "Content-Type": "application/x-www-form-urlencoded"},
                                  f"user={user}".encode())
    return headers["set-cookie"][0].split(";")[0]


class Page:
    def __init__(self, session, socket, cookie):
        self.session, self.socket, self.cookie = session, socket, cookie
        self.waiting = None
        self.tab = "blogs"
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        async for message in self.socket:
            if '"type":"patch"' in message and self.waiting and not self.waiting.done():
                self.waiting.set_result(time.perf_counter())

    async def act(self, node, values=None):
        self.waiting = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        if values is None:
            await self.socket.send('{"type":"event","node":"%s"}' % node)
        else:
            await self.socket.send(change_message(node, values))
        finished = await asyncio.wait_for(self.waiting, timeout=10)
        return finished - started


def patches_blog_26(message):
    return '"type":"patch"' in message and "blogs/blog.26.likes" in message


class Listener:
    """A page that only watches, read until its socket closes: when each round's change
    arrived (a message `shows_change` accepts: by default a patch of blog 26's row), and the
    size of each such message."""

    def __init__(self, socket, shows_change=patches_blog_26):
        self.socket, self.shows_change, self.arrived, self.sizes = socket, shows_change, None, []
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        try:
            async for message in self.socket:
                if self.arrived and not self.arrived.done() and self.shows_change(message):
                    self.sizes.append(len(message.encode() if isinstance(message, str) else message))
                    self.arrived.set_result(time.perf_counter())
        except websockets.ConnectionClosed:
            pass


def probe(host, port, stop, results):
    """Asks the server for a small static file every 10 ms until `stop` is set, and puts how
    long each answer took into `results`: the longest is how long the server left a request
    waiting while it fanned out (its event loops and task pool stalled for at most that).
    Runs in a process of its own, so that the client reading thousands of pages does not
    delay it."""
    import http.client
    latencies = []
    while not stop.is_set():
        started = time.perf_counter()
        connection = http.client.HTTPConnection(host, port, timeout=30)
        connection.request("GET", "/assets/scenery.css")
        connection.getresponse().read()
        latencies.append(time.perf_counter() - started)
        connection.close()
        time.sleep(0.01)
    results.put(latencies)


async def fanout(host, port, pid, count, rounds, settle=0, probing=False, record=None):
    """One like reaching `count` open pages that show its row; with `settle`, also the
    server's RSS that many seconds after the last like (memory returning once changes stop);
    with `probing`, the longest a small request waited while the likes fanned out; with
    `record`, a `perf record` of the server over the likes alone, written to that path."""
    cookies = [await sign_in(host, port, user) for user in ("3", "5", "6", "7")] + [None]
    before = rss_kib(pid)
    listeners = []
    for index in range(count):
        page, _ = await open_page(host, port, "/scenes/user-profile?user=1", cookies[index % len(cookies)])
        page.reader.cancel()
        listeners.append(Listener(page.socket))
    await asyncio.sleep(1)
    idle = rss_kib(pid)
    liker, _ = await open_page(host, port, "/scenes/user-profile?user=1", await sign_in(host, port, "2"))
    per_page, last = [], []
    cpu_before = cpu_seconds(pid)
    probed, stop, results = [], multiprocessing.Event(), multiprocessing.Queue()
    prober = multiprocessing.Process(target=probe, args=(host, port, stop, results)) if probing else None
    if prober:
        prober.start()
    recorder = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-g", "-p", str(pid), "-o", record],
                                stderr=subprocess.DEVNULL) if record else None
    if recorder:
        await asyncio.sleep(0.5)  # perf attaches before the first like
    for _ in range(rounds):
        loop = asyncio.get_running_loop()
        for listener in listeners:
            listener.arrived = loop.create_future()
        started = time.perf_counter()
        await liker.act("blogs/blog.26.like")  # like, then unlike next round: every round changes the count
        arrivals = await asyncio.gather(*(asyncio.wait_for(listener.arrived, timeout=30) for listener in listeners))
        latencies = [arrived - started for arrived in arrivals]
        per_page += latencies
        last.append(max(latencies))
    cpu = cpu_seconds(pid) - cpu_before
    if recorder:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)
    if prober:
        stop.set()
        probed = results.get()
        prober.join()
    busy = rss_kib(pid)
    if settle:
        await asyncio.sleep(settle)
    settled = rss_kib(pid)
    for listener in listeners:
        await listener.socket.close()
    await liker.socket.close()
    return {
        "sessions": count, "idle_kib_per_session": (idle - before) / count, "rounds": rounds,
        "p50_ms": statistics.median(per_page) * 1000, "p99_ms": percentile(per_page, 0.99) * 1000,
        "last_p50_ms": statistics.median(last) * 1000, "last_max_ms": max(last) * 1000,
        "idle_kib": idle, "busy_kib": busy, "settled_kib": settled, "settle": settle,
        # The server's CPU time over the rounds (the liker's own page included), per page per change.
        "cpu_us_per_page_change": cpu / (rounds * count) * 1e6,
        "probe_max_ms": max(probed) * 1000 if probed else None,
        "probe_p99_ms": percentile(probed, 0.99) * 1000 if probed else None, "probes": len(probed),
    }


def change_message(node, values):
    """A field's change as the page script sends it: the field's node, an action key, the text."""
    return json.dumps({"type": "event", "node": node, "action": "%032x" % random.getrandbits(128), "values": values}, separators=(",", ":"))


async def keystrokes(host, port, pid, count, rounds):
    """`count` board pages, each typing into the board's search field: change → patch."""
    cookies = [await sign_in(host, port, user) for user in ("1", "2", "3")] + [None]
    before = rss_kib(pid)
    pages = [(await open_page(host, port, "/scenes/board?owner=1", cookies[index % len(cookies)]))[0] for index in range(count)]
    await asyncio.sleep(1)
    idle = rss_kib(pid)
    # Each round a page types a search that hides some tasks, then clears it: every change
    # changes its list, so every change is answered by a patch.
    typed = ["Se", ""]
    latencies, errors = [], 0
    for round in range(rounds):
        async def one(page):
            await asyncio.sleep(random.random() * 2)
            try:
                return await page.act("tasks/filter", {"filter": typed[round % 2]})
            except Exception:
                return None
        results = await asyncio.gather(*(one(page) for page in pages))
        latencies += [value for value in results if value is not None]
        errors += sum(1 for value in results if value is None)
    for page in pages:
        await page.socket.close()
    return {
        "sessions": count, "idle_kib_per_session": (idle - before) / count, "events": len(latencies), "errors": errors,
        "p50_ms": statistics.median(latencies) * 1000 if latencies else None,
        "p99_ms": percentile(latencies, 0.99) * 1000 if latencies else None,
        "change_bytes": len(change_message("tasks/filter", {"filter": typed[0]}).encode()),
    }


async def load_page(host, port, path, cookie):
    """GETs a scene page: the server makes its page session. Returns the session and TTFB."""
    status, _, content, ttfb = await http(host, port, "GET", path, {"Cookie": cookie} if cookie else {})
    assert status == 200, status
    return re.search(rb'data-session="([0-9a-f]+)"', content).group(1).decode(), ttfb


async def connect_page(host, port, session, cookie):
    """Opens a loaded page's socket, as its script does."""
    socket = await websockets.connect(f"ws://{host}:{port}/live?session={session}&since=0&protocol=1",
                                      additional_headers={**({"Cookie": cookie} if cookie else {}), "Origin": f"http://{host}:{port}"},
                                      max_queue=None, ping_interval=None)
    return Page(session, socket, cookie)


async def open_page(host, port, path, cookie):
    session, ttfb = await load_page(host, port, path, cookie)
    return await connect_page(host, port, session, cookie), ttfb


async def run(host, port, pid, count, rounds):
    alice, bob = await sign_in(host, port, "1"), await sign_in(host, port, "2")
    before = rss_kib(pid)
    loaded, ttfbs = [], []
    for index in range(count):
        # Half Alice on her own profile (tabs), half Bob on Alice's (likes).
        cookie = alice if index % 2 == 0 else bob
        session, ttfb = await load_page(host, port, "/scenes/user-profile?user=1", cookie)
        loaded.append((session, cookie))
        ttfbs.append(ttfb)
    await asyncio.sleep(1)
    without_sockets = rss_kib(pid)  # the page sessions alone: scene, modules, the page's copy
    pages = []
    for session, cookie in loaded:
        pages.append((await connect_page(host, port, session, cookie), cookie is alice))
    await asyncio.sleep(1)
    idle = rss_kib(pid)
    latencies, errors = [], 0
    for _ in range(rounds):
        async def one(page, owner):
            await asyncio.sleep(random.random() * 2)  # spread over two seconds
            if owner:  # switch to the other tab, so every event changes the page
                page.tab = "drafts" if page.tab == "blogs" else "blogs"
                node = f"sections#{page.tab}"
            else:
                node = f"blogs/blog.{random.randint(18, 27)}.like"
            try:
                return await page.act(node)
            except Exception:
                return None
        results = await asyncio.gather(*(one(page, owner) for page, owner in pages))
        latencies += [value for value in results if value is not None]
        errors += sum(1 for value in results if value is None)
    for page, _ in pages:
        await page.socket.close()
    return {
        "sessions": count, "idle_kib_per_session": (idle - before) / count, "rss_before_kib": before, "rss_idle_kib": idle,
        "session_kib": (without_sockets - before) / count, "socket_kib": (idle - without_sockets) / count,
        "ttfb_p50_ms": statistics.median(ttfbs) * 1000, "ttfb_p99_ms": percentile(ttfbs, 0.99) * 1000,
        "events": len(latencies), "errors": errors,
        "p50_ms": statistics.median(latencies) * 1000 if latencies else None,
        "p99_ms": percentile(latencies, 0.99) * 1000 if latencies else None,
    }


def print_machine():
    machine = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2; nproc"], capture_output=True, text=True).stdout.split("\n")
    print(f"machine: {machine[0].strip()}, {machine[1]} cores; load average {open('/proc/loadavg').read().split()[:3]}")


def start_server(binary, pages, *options, port=0):
    """Starts the release `scenery serve` on `port` (a free loopback port by default) with a
    fresh demo database, allowing `pages` pages; returns the process and its address (parsed)."""
    directory = tempfile.mkdtemp(prefix="scenery-load-")
    environment = dict(os.environ, SCENERY_DATABASE=os.path.join(directory, "demo.sqlite"))
    limits = ["--max-pages-per-viewer", str(pages + 1), "--max-pages-per-address", str(pages + 1),
              "--new-visitors-per-address-per-hour", str(pages + 1)]
    server = subprocess.Popen([binary, "serve", "--port", str(port), *limits, *options], env=environment, stdout=subprocess.PIPE, text=True)
    return server, urllib.parse.urlparse(server.stdout.readline().strip().removeprefix("Listening on "))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, nargs="+", default=[100, 1000], help="page counts to measure, each on a fresh server")
    parser.add_argument("--rounds", type=int, default=3, help="events each page sends (one per round)")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    parser.add_argument("--fanout", action="store_true", help="measure one like reaching every open page instead")
    parser.add_argument("--settle", type=float, default=0,
                        help="with --fanout: also read the server's memory this many seconds after the last like (15 s lets replays age out)")
    parser.add_argument("--probe", action="store_true",
                        help="with --fanout: ask for a small file every 10 ms during the likes, and print the longest wait (the server's longest stall)")
    parser.add_argument("--postgres", action="store_true",
                        help="with --fanout: keep the data in a PostgreSQL server of the benchmark's own (Debian's programs) instead of SQLite")
    parser.add_argument("--keystrokes", action="store_true", help="measure a search field's change events on the board example (--binary board)")
    parser.add_argument("--perf-record", metavar="PATH",
                        help="with --fanout: record the server with `perf record -g` over the likes alone (read it with `perf report -i PATH`)")
    parser.add_argument("--metrics-overhead", type=int, default=0, metavar="PAIRS",
                        help="with --fanout: run each page count PAIRS times without and with `serve --metrics` in turn "
                             "(a server each), and print the server CPU per page per change of both and their ratio")
    arguments = parser.parse_args()
    print_machine()
    database, options = None, []
    if arguments.postgres:
        sys.path.insert(0, str(ROOT / "Tests" / "Browser"))
        from conftest import Postgres, signing_key_file  # noqa: E402 (the browser tests' PostgreSQL, started on loopback)
        database = Postgres()
        options = ["--database", database.url, "--secret-file", str(signing_key_file())]
    try:
        for count in arguments.sessions:
            if arguments.metrics_overhead:
                compare_metrics(arguments, count, options)
            else:
                measure(arguments, count, options)
    finally:
        if database:
            database.stop()


def compare_metrics(arguments, count, options):
    """The fan-out with telemetry off and on, server after server in turn (off, on, off, on…),
    so that both see the same machine: the median server CPU per page per change of each."""
    cpu = {False: [], True: []}
    for _ in range(arguments.metrics_overhead):
        for metrics in (False, True):
            server, parsed = start_server(arguments.binary, count, *options, *(["--metrics"] if metrics else []))
            try:
                result = asyncio.run(fanout(parsed.hostname, parsed.port, server.pid, count, arguments.rounds))
                cpu[metrics].append(result["cpu_us_per_page_change"])
            finally:
                server.terminate()
                server.wait(timeout=10)
    off, on = statistics.median(cpu[False]), statistics.median(cpu[True])
    print(f"{count:>5} pages, {arguments.rounds} likes a server, {arguments.metrics_overhead} servers each: server CPU per page per change "
          f"without metrics {off:.1f} µs (each: {', '.join(f'{v:.1f}' for v in cpu[False])}), "
          f"with --metrics {on:.1f} µs (each: {', '.join(f'{v:.1f}' for v in cpu[True])}); on/off {on / off:.3f}")


def measure(arguments, count, options):
    """One page count on a fresh server: prints what `arguments` asks for."""
    server, parsed = start_server(arguments.binary, count, *options)
    try:
        if arguments.keystrokes:
            result = asyncio.run(keystrokes(parsed.hostname, parsed.port, server.pid, count, arguments.rounds))
            print(
                f"{result['sessions']:>5} board pages: idle {result['idle_kib_per_session']:.1f} KiB/session; {result['events']} changes, "
                f"{result['errors']} errors; change ({result['change_bytes']} B) → patch p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms")
            return
        if arguments.fanout:
            result = asyncio.run(fanout(parsed.hostname, parsed.port, server.pid, count, arguments.rounds, arguments.settle, arguments.probe,
                                       arguments.perf_record))
            print(
                f"{result['sessions']:>5} pages: idle {result['idle_kib_per_session']:.1f} KiB/session; {result['rounds']} likes; "
                f"like → each page's patch p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms; "
                f"→ last page p50 {result['last_p50_ms']:.2f} ms, worst {result['last_max_ms']:.2f} ms; "
                f"server CPU {result['cpu_us_per_page_change']:.0f} µs per page per change")
            if result["probe_max_ms"] is not None:
                print(f"      a small request every 10 ms meanwhile ({result['probes']}): p99 {result['probe_p99_ms']:.2f} ms, "
                      f"longest {result['probe_max_ms']:.2f} ms")
            if result["settle"]:
                idle = result["idle_kib"]
                print(f"      server RSS: idle {idle / 1024:.1f} MiB; after the likes {result['busy_kib'] / 1024:.1f} MiB "
                      f"({(result['busy_kib'] - idle) / idle * 100:+.1f}%); {result['settle']:.0f} s later {result['settled_kib'] / 1024:.1f} MiB "
                      f"({(result['settled_kib'] - idle) / idle * 100:+.1f}%)")
            return
        result = asyncio.run(run(parsed.hostname, parsed.port, server.pid, count, arguments.rounds))
        print(
            f"{result['sessions']:>5} sessions: idle {result['idle_kib_per_session']:.1f} KiB/session "
            f"(page session {result['session_kib']:.1f} + its socket {result['socket_kib']:.1f}; "
            f"RSS {result['rss_before_kib'] / 1024:.1f} → {result['rss_idle_kib'] / 1024:.1f} MiB); "
            f"page TTFB p50 {result['ttfb_p50_ms']:.2f} ms, p99 {result['ttfb_p99_ms']:.2f} ms; "
            f"{result['events']} events, {result['errors']} errors, event→update p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
