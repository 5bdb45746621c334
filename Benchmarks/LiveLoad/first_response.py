#!/usr/bin/env python3
"""How soon a profile page shows something when one of its modules is slow: the first
response waiting for every module (`--first-response-wait 60000`, as before streaming)
against the page streamed after 200 ms (the default), with the blogs slowed by 2 s. A
benchmark you run, not a test.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    python3 Benchmarks/LiveLoad/first_response.py

For each setting, ROUNDS page loads one at a time from this client over loopback: the time
to the response's first byte; the time to the first visible module (the end of the first
response, which holds the person's card when streamed, every module otherwise); and the
time until every module is on the page (the response, or the blogs' patch on the page's
socket). Also the bytes of the first response of the ten-row page and of one like's patch
there, and the page script's size, plain and gzip.
"""
import argparse
import asyncio
import gzip
import json
import os
import pathlib
import re
import socket
import statistics
import time
import urllib.request

import websockets

from live_load import ROOT, print_machine, sign_in, start_server


def load_page(host, port, path, cookie=None):
    """One GET over a fresh connection: (time to first byte, time to the end, body)."""
    started = time.perf_counter()
    connection = socket.create_connection((host, port))
    extra = f"Cookie: {cookie}\r\n" if cookie else ""
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{extra}Connection: close\r\n\r\n".encode())
    chunks = [connection.recv(65536)]
    first = time.perf_counter() - started
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    whole = time.perf_counter() - started
    connection.close()
    return first, whole, b"".join(chunks).decode("utf-8", "replace")


async def until_every_module(address, body, started):
    """Waits on the page's socket until no module of the page is loading; the time since `started`."""
    session = re.search(r'data-session="([0-9a-f]+)"', body).group(1)
    loading = set(re.findall(r'data-module="([^"]+)"[^>]*data-status="loading"', body))
    if not loading:
        return time.perf_counter() - started
    url = f"ws://{address.hostname}:{address.port}/live?session={session}&since=0&protocol=1"
    async with websockets.connect(url, origin=f"http://{address.hostname}:{address.port}") as live:
        while loading:
            message = json.loads(await live.recv())
            for operation in message.get("operations", []):
                if 'data-status="ready"' in operation.get("html", "") or 'data-status="failed"' in operation.get("html", ""):
                    loading.discard(operation.get("id"))
    return time.perf_counter() - started


def measure(binary, wait_ms, rounds):
    server, address = start_server(binary, 10, "--latency", "blogs=2s", "--first-response-wait", str(wait_ms))
    try:
        firsts, visibles, everies = [], [], []
        for _ in range(rounds):
            started = time.perf_counter()
            first, whole, body = load_page(address.hostname, address.port, "/scenes/user-profile?user=1")
            everies.append(asyncio.run(until_every_module(address, body, started)))
            firsts.append(first)
            visibles.append(whole)
        return firsts, visibles, everies
    finally:
        server.terminate()
        server.wait()


def sizes(binary):
    """Bytes of the ten-row page's first response and of one like's patch; the script's size."""
    scenes = pathlib.Path(__file__).resolve().parent / "Scenes"
    server, address = start_server(binary, 10, "--scenes", str(scenes))
    try:
        cookie = asyncio.run(sign_in(address.hostname, address.port, "2"))
        _, _, response = load_page(address.hostname, address.port, "/scenes/ten-rows?user=1", cookie)
        head, body = response.split("\r\n\r\n", 1)
        script = urllib.request.urlopen(f"http://{address.hostname}:{address.port}/assets/scenery.js").read()

        async def like():
            session = re.search(r'data-session="([0-9a-f]+)"', body).group(1)
            node = re.search(r'data-node="(blogs/blog\.\d+\.like)"', body).group(1)
            url = f"ws://{address.hostname}:{address.port}/live?session={session}&since=0&protocol=1"
            async with websockets.connect(url, origin=f"http://{address.hostname}:{address.port}",
                                          additional_headers={"Cookie": cookie}) as live:
                await live.send(json.dumps({"type": "event", "node": node, "action": "benchmark-like-0001"}))
                while True:
                    text = await live.recv()
                    if json.loads(text).get("type") == "patch":
                        return len(text.encode())

        return len(body.encode()), len(gzip.compress(body.encode())), asyncio.run(like()), len(script), len(gzip.compress(script))
    finally:
        server.terminate()
        server.wait()


def describe(values):
    values = sorted(value * 1000 for value in values)
    return f"p50 {statistics.median(values):.1f} ms, max {values[-1]:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    arguments = parser.parse_args()
    print_machine()
    for label, wait in [("waiting for every module", 60_000), ("streamed after 200 ms", 200)]:
        first, visible, every = measure(arguments.binary, wait, arguments.rounds)
        print(f"{label}: first byte {describe(first)}; first visible module {describe(visible)}; every module {describe(every)}")
    page, page_gzip, patch, script, script_gzip = sizes(arguments.binary)
    print(f"ten-row page: first response {page} B ({page_gzip} B gzip); one like's patch {patch} B")
    print(f"page script: {script} B ({script_gzip} B gzip)")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
