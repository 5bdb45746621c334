#!/usr/bin/env python3
"""Several servers: likes per second sustained (SQLite, PostgreSQL, two servers behind
nginx), one like fanned out to 1,000 pages over two servers, and how long pages take to
resume on another server when theirs is killed. A benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    python3 Benchmarks/LiveLoad/several_servers.py

Starts what it needs on loopback: a PostgreSQL server of its own (Debian's programs, as the
browser tests do), release `scenery serve` processes with one signing key, and nginx with
Examples/Deploying/nginx-several.conf. Clients are Python websockets pages speaking the page
protocol on the ten-row scene (Benchmarks/LiveLoad/Scenes/ten-rows.json).

- throughput: PAGES pages, signed in as the seven demo users in turn, each liking and
  unliking the ten blogs in a closed loop (an action's key, then the server's answer naming
  it), paced under a page's own event limit (10 per second); likes answered per second over
  SECONDS seconds.
- fan-out: 1,000 signed-out pages, half on each of two servers; Bob likes through the
  first; the time until the last page has the patch, over ROUNDS likes.
- resume: RESUME pages through nginx while one server is up; a second starts; the first is
  killed (SIGKILL); each page reconnects at once (the page script waits 250 ms first) with its
  token; the time from the kill to each page's whole scene from the other server.
"""
import argparse
import asyncio
import json
import os
import pathlib
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from conftest import Nginx, Postgres, free_port, signing_key_file  # noqa: E402
from live_load import ROOT, http, percentile, print_machine, sign_in, start_server  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
SEVERAL = ROOT / "Examples" / "Deploying" / "nginx-several.conf"


# How many pages a server lets one address and one viewer open (all the benchmark's pages
# come from loopback): raised by `--fanout-pages` when it asks for more.
PAGES_ALLOWED = 5000
# Every server started, stopped at the end whatever happened (a server left running keeps
# the output's pipe open, and its PostgreSQL connections, after the benchmark fails).
STARTED = []


def start(binary, database, key, port=0, scenes=HERE / "Scenes"):
    """A release server on `database` (a path or a postgres:// URL), with the ten-row scene
    (`scenes=None`: the app's own); returns (process, host, port)."""
    options = ["--scenes", str(scenes)] if scenes else []
    process, address = start_server(binary, PAGES_ALLOWED, "--database", str(database), "--secret-file", str(key), *options, port=port)
    STARTED.append(process)
    return process, address.hostname, address.port


def stop(process, kill=False):
    process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
    process.wait(timeout=20)


class Page:
    """One page: its session and socket; records resume tokens, answered actions and patches."""

    def __init__(self, host, port, cookie, path="/scenes/ten-rows?user=1"):
        self.host, self.port, self.cookie, self.path = host, port, cookie, path
        self.sequence, self.token, self.socket = 0, None, None
        self.answered = {}
        self.patched = None
        self.reset = None

    async def open(self):
        headers = {"Cookie": self.cookie} if self.cookie else {}
        status, _, content, _ = await http(self.host, self.port, "GET", self.path, headers)
        assert status == 200, status
        self.session = re.search(rb'data-session="([0-9a-f]+)"', content).group(1).decode()
        self.token = re.search(rb'data-resume="([^"]+)"', content).group(1).decode()
        await self.connect()

    async def connect(self, resume=False):
        query = f"session={self.session}&since={self.sequence}&protocol=1" + (f"&resume={self.token}" if resume else "")
        headers = {"Origin": f"http://{self.host}:{self.port}"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.socket = await websockets.connect(f"ws://{self.host}:{self.port}/live?{query}", additional_headers=headers, max_queue=None,
                                               ping_interval=None)
        self.reader = asyncio.create_task(self.read(self.socket))

    async def read(self, socket):
        try:
            async for text in socket:
                message = json.loads(text)
                kind = message.get("type")
                if "sequence" in message:
                    self.sequence = message["sequence"]
                if kind == "resume":
                    self.token = message["token"]
                    for key in message["applied"]:
                        waiting = self.answered.pop(key, None)
                        if waiting and not waiting.done():
                            waiting.set_result(time.perf_counter())
                elif kind == "patch" and self.patched and not self.patched.done():
                    self.patched.set_result(time.perf_counter())
                elif kind == "reset" and self.reset and not self.reset.done():
                    self.reset.set_result(time.perf_counter())
                elif kind == "refused":
                    raise RuntimeError(f"refused: {message}")
        except websockets.ConnectionClosed:
            pass

    async def act(self, node):
        key = secrets.token_hex(16)
        self.answered[key] = asyncio.get_running_loop().create_future()
        await self.socket.send(json.dumps({"type": "event", "node": node, "action": key}))
        return await asyncio.wait_for(self.answered[key], timeout=30)


async def cookies(host, port):
    return [await sign_in(host, port, str(user)) for user in range(1, 8)]


async def throughput(addresses, pages, seconds):
    """Likes answered per second by `pages` pages spread over `addresses` (host, port)."""
    signed = {address: await cookies(*address) for address in addresses}
    opened = []
    for index in range(pages):
        address = addresses[index % len(addresses)]
        page = Page(*address, signed[address][index % 7])
        await page.open()
        opened.append(page)
    done = 0
    deadline = time.perf_counter() + seconds

    async def loop(page, offset):
        nonlocal done
        index = offset
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await page.act(f"blogs/blog.{18 + index % 10}.like")
            done += 1
            index += 1
            await asyncio.sleep(max(0, 0.11 - (time.perf_counter() - started)))  # under 10 a second

    started = time.perf_counter()
    await asyncio.gather(*(loop(page, index) for index, page in enumerate(opened)))
    elapsed = time.perf_counter() - started
    for page in opened:
        await page.socket.close()
    return done / elapsed


async def fanout(first, second, pages, rounds, path="/scenes/ten-rows?user=1", node=lambda index: f"blogs/blog.{18 + index % 10}.like"):
    """The time until the last of `pages` signed-out pages of `path`, half on each server, has
    the patch of one change made through the first by member 2 (Bob) tapping `node(round)`."""
    watchers = []
    for index in range(pages):
        page = Page(*(first if index % 2 == 0 else second), None, path)
        await page.open()
        watchers.append(page)
    bob = Page(*first, await sign_in(*first, "2"), path)
    await bob.open()
    await asyncio.sleep(1)
    lasts = []
    for index in range(rounds):
        for page in watchers:
            page.patched = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await bob.socket.send(json.dumps({"type": "event", "node": node(index)}))
        arrivals = await asyncio.wait_for(asyncio.gather(*(page.patched for page in watchers)), timeout=60)
        lasts.append(max(arrivals) - started)
        await asyncio.sleep(0.3)
    for page in [*watchers, bob]:
        await page.socket.close()
    return lasts


async def resume(proxy_port, start_second, kill_first, pages):
    """Opens pages through nginx while one server is up (so all are on it), starts the second,
    kills the first, and times each page's resume."""
    host = "127.0.0.1"
    signed = await cookies(host, proxy_port)
    opened = []
    for index in range(pages):
        page = Page(host, proxy_port, signed[index % 7])
        await page.open()
        opened.append(page)
    start_second()
    await asyncio.sleep(1)
    for page in opened:
        page.reset = asyncio.get_running_loop().create_future()
    killed = time.perf_counter()
    kill_first()

    async def come_back(page):
        await page.reader  # the socket closes with its server
        while True:
            try:
                await page.connect(resume=True)
                break
            except (OSError, websockets.InvalidStatus):
                await asyncio.sleep(0.05)
        return await asyncio.wait_for(page.reset, timeout=30) - killed

    times = await asyncio.gather(*(come_back(page) for page in opened))
    for page in opened:
        await page.socket.close()
    return times


def summary(values):
    values = [value * 1000 for value in values]
    return f"p50 {statistics.median(values):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms ({len(values)})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300, help="pages liking in the throughput runs")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--fanout-pages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--resume", type=int, default=100, help="pages resumed after a kill")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    arguments = parser.parse_args()
    global PAGES_ALLOWED
    PAGES_ALLOWED = max(PAGES_ALLOWED, arguments.fanout_pages + arguments.pages + arguments.resume)
    print_machine()
    key = signing_key_file()
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="scenery-several-"))
    database = Postgres()
    try:
        # Likes per second: SQLite, PostgreSQL, then two servers on PostgreSQL behind nginx.
        process, host, port = start(arguments.binary, scratch / "demo.sqlite", key)
        rate = asyncio.run(throughput([(host, port)], arguments.pages, arguments.seconds))
        stop(process)
        print(f"likes/s, one server on SQLite:     {rate:.0f} ({arguments.pages} pages)")
        process, host, port = start(arguments.binary, database.url, key)
        rate = asyncio.run(throughput([(host, port)], arguments.pages, arguments.seconds))
        stop(process)
        print(f"likes/s, one server on PostgreSQL: {rate:.0f}")
        ports = [free_port(), free_port()]
        servers = [start(arguments.binary, database.url, key, port) for port in ports]
        # Sticky by viewer (the cookie), so the seven viewers' pages spread over both servers.
        by_viewer = SEVERAL.read_text(encoding="utf-8").replace("ip_hash;", "hash $http_cookie consistent;")
        variant = scratch / "nginx-by-viewer.conf"
        variant.write_text(by_viewer, encoding="utf-8")
        proxy = Nginx(variant, {f"server 127.0.0.1:{8081 + index} max_fails=0;": f"server 127.0.0.1:{port} max_fails=0;"
                                for index, port in enumerate(ports)})
        proxy_port = urllib.parse.urlparse(proxy.url).port
        rate = asyncio.run(throughput([("127.0.0.1", proxy_port)], arguments.pages, arguments.seconds))
        print(f"likes/s, two servers behind nginx: {rate:.0f}")
        # One like to 1,000 pages over the two servers.
        lasts = asyncio.run(fanout(servers[0][1:], servers[1][1:], arguments.fanout_pages, arguments.rounds))
        print(f"fan-out to {arguments.fanout_pages} pages on two servers, last patch: {summary(lasts)}")
        proxy.stop()
        for process, _, _ in servers:
            stop(process)
        # Resume: nginx (the checked-in configuration), the first server only, then both.
        proxy = Nginx(SEVERAL, {f"server 127.0.0.1:{8081 + index} max_fails=0;": f"server 127.0.0.1:{port} max_fails=0;"
                                for index, port in enumerate(ports)})
        proxy_port = urllib.parse.urlparse(proxy.url).port
        first = start(arguments.binary, database.url, key, ports[0])
        second = []
        times = asyncio.run(resume(proxy_port, lambda: second.append(start(arguments.binary, database.url, key, ports[1])),
                                   lambda: stop(first[0], kill=True), arguments.resume))
        print(f"resume of {arguments.resume} pages after SIGKILL of their server: {summary(times)}")
        stop(second[0][0])
        proxy.stop()
    finally:
        for process in STARTED:
            if process.poll() is None:
                stop(process, kill=True)
        database.stop()
        subprocess.run(["rm", "-rf", str(scratch), str(key.parent)])


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
