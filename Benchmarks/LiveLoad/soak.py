#!/usr/bin/env python3
"""A soak: two servers on one PostgreSQL behind nginx, pages liking and watching, and faults
at random intervals; at the end, what was acknowledged is in the database exactly once.

    swift build -c release --product scenery && swift build -c release --product scenery-serve
    python3 Benchmarks/LiveLoad/soak.py --seconds 1800 --pages 500          # by hand
    python3 Benchmarks/LiveLoad/soak.py --seconds 60 --pages 60 --binary .build/debug/scenery   # .ci/run

Starts on loopback a PostgreSQL server of its own, two `scenery serve` processes with one
signing key, and nginx with Examples/Deploying/nginx-several.conf (sticky by cookie). Pages
speak the page protocol as the page script does (an action key per action, sent again after
a reconnect until the server names it applied; a resume token to come back on the other
server) on the ten-row scene (Benchmarks/LiveLoad/Scenes/ten-rows.json).

- actors: one page per (viewer, blog) pair (seven demo viewers, Alice's ten blogs), each
  liking and unliking its blog in a closed loop, paced under a page's event limit;
- watchers: the other pages, signed out, reading what changes;
- drafts: Alice writes a draft every half second on her page of her blogs and drafts
  (Scenes/soak-drafts.json, a form's submit with an action key), while Bob keeps the same
  scene of hers open (his variant has no drafts);
- follows: three viewers each follow and unfollow the three people Alice follows, on the
  list of her followings (Scenes/soak-follows.json), nine pages besides --pages;
- faults, one every --fault-every seconds at random: a server killed (SIGKILL) and started
  again on its port; PostgreSQL restarted (immediate stop); a client that upgrades a socket
  and never reads; a burst of twenty watchers reconnecting at once; a rolling restart (each
  server stopped with SIGTERM and started again, one after the other, as a deploy does); ten
  acting pages offline for --offline-seconds (their network gone: what they do meanwhile
  waits, under its action key, and is sent once they are back).

At the end (exit 1 and the reasons when one fails):
- every action a page was told is applied is in `applied_actions` (as its viewer's key),
  and each (viewer, blog) is liked exactly when its acknowledged toggles say so: nothing
  lost, nothing applied twice (the actions taken offline counted apart);
- each following page shows each person followed exactly when the database has the follow;
- every draft save Alice was told is done is stored exactly once (one whose answer was lost,
  at most once), and no other page ever received one of her drafts;
- no page was refused its resume token as used (a deploy or a kill that lost a page's place:
  its tabs, pages loaded and windows);
- a sample of open pages (every actor's viewer and twenty watchers), asked for the whole
  scene, get what a fresh load of the page renders for their viewer;
- the server that was never killed holds memory within 10% of its level after warm-up, for
  as many open connections as it has at the end (the killed server's pages come over to it
  and stay); after a rolling restart, its new process is held to the same cost a connection
  over its own bare memory;
- no server died except those the soak killed.
"""
import argparse
import asyncio
from collections import Counter
import json
import os
import pathlib
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from conftest import Nginx, Postgres, free_port, signing_key_file  # noqa: E402
from live_load import ROOT, http, print_machine, rss_kib, sign_in, start_server  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
SEVERAL = ROOT / "Examples" / "Deploying" / "nginx-several.conf"
BLOGS = list(range(18, 28))  # Alice's ten newest blogs: the rows of the ten-row scene


def open_sockets(port):
    """How many TCP connections a server on `port` has open: its pages' sockets (through
    nginx) and kept-alive requests."""
    output = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True).stdout
    return len(output.splitlines())


class Page:
    """One page through nginx: its session, socket and resume token; sends actions again
    after a reconnect until the server names them applied."""

    def __init__(self, port, cookie, viewer, path="/scenes/ten-rows?user=1", never_hears=None):
        self.port, self.cookie, self.viewer, self.path = port, cookie, viewer, path
        # Text this page must never receive (another viewer's drafts), and whether it did.
        self.never_hears, self.heard_forbidden = never_hears, False
        self.sequence, self.token, self.socket, self.reader = 0, None, None, None
        self.pending = {}  # action key -> (node, future)
        self.reset = None
        self.closed = asyncio.Event()
        self.close_code = None
        self.last_error = None
        self.unanswered = 0
        # Why the page was told to load afresh (4404), each time it was.
        self.loaded_afresh = []
        # While its network is gone (`go_offline`): until when, and the actions taken meanwhile.
        self.offline_until = 0.0
        self.taken_offline = []

    async def open(self):
        status, _, content, _ = await http("127.0.0.1", self.port, "GET", self.path, self.headers())
        if self.never_hears and self.never_hears.encode() in content:
            self.heard_forbidden = True
        assert status == 200, f"a page did not load: {status}"
        self.session = re.search(rb'data-session="([0-9a-f]+)"', content).group(1).decode()
        self.token = re.search(rb'data-resume="([^"]+)"', content).group(1).decode()
        # With its token from the first socket on, as the page script: a server that stops
        # between the page's load and its socket leaves it to the other.
        await self.connect()

    def headers(self):
        return {"Cookie": self.cookie} if self.cookie else {}

    async def connect(self):
        query = f"session={self.session}&since={self.sequence}&protocol=1" + (f"&resume={self.token}" if self.token else "")
        headers = {"Origin": f"http://127.0.0.1:{self.port}", **self.headers()}
        self.closed = asyncio.Event()
        self.socket = await websockets.connect(f"ws://127.0.0.1:{self.port}/live?{query}", additional_headers=headers, max_queue=None,
                                               ping_interval=None, open_timeout=20)
        self.reader = asyncio.create_task(self.read(self.socket))
        for key, (message, _) in list(self.pending.items()):  # what was not answered goes again, same key
            await self.socket.send(message)

    async def read(self, socket):
        try:
            async for text in socket:
                if self.never_hears and self.never_hears in text:
                    self.heard_forbidden = True
                message = json.loads(text)
                kind = message.get("type")
                if "sequence" in message:
                    self.sequence = message["sequence"]
                if kind == "resume":
                    self.token = message["token"]
                    for key in message["applied"]:
                        entry = self.pending.pop(key, None)
                        if entry and not entry[1].done():
                            entry[1].set_result(True)
                elif kind == "reset" and self.reset and not self.reset.done():
                    self.reset.set_result(message["html"])
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = socket.close_code
            if self.close_code == 4404:
                self.loaded_afresh.append(socket.close_reason or "")
            self.closed.set()

    async def go_offline(self, seconds):
        """The page's network goes for `seconds`: its socket closes, and it reconnects only
        after; what it does meanwhile waits in `pending` and is sent once it is back."""
        self.offline_until = time.monotonic() + seconds
        await self.socket.close()

    async def stay_connected(self, stop):
        """Reconnects (with the resume token) whenever the socket closes, until `stop`; a
        page told to load again (4404: its token was used, or it was away too long) loads
        afresh as the page script does, and what it had not heard back of is unknown."""
        while not stop.is_set():
            await self.closed.wait()
            if stop.is_set():
                return
            await asyncio.sleep(max(0.0, self.offline_until - time.monotonic()))
            for attempt in range(400):
                try:
                    if self.close_code == 4404:
                        for key, (_, done) in list(self.pending.items()):
                            if not done.done():
                                done.set_result(False)
                        self.pending = {}
                        self.sequence = 0
                        await self.open()
                    else:
                        await self.connect()
                    break
                except Exception as error:  # noqa: BLE001 - a server away, restarting or refusing: try again
                    self.last_error = error
                    await asyncio.sleep(min(0.05 * (attempt + 1), 1))
            else:
                print(f"a page gave up reconnecting: {self.last_error!r}")

    async def act(self, node, values=None):
        """Sends an action (a form's submit with `values`); returns its key and whether the
        server named it done (`False`: the page had to load afresh before it heard back, so
        whether it ran is unknown)."""
        key = secrets.token_hex(16)
        done = asyncio.get_running_loop().create_future()
        message = json.dumps({"type": "event", "node": node, "action": key, **({"values": values} if values else {})})
        self.pending[key] = (message, done)
        if time.monotonic() < self.offline_until:
            self.taken_offline.append(key)
        try:
            await self.socket.send(message)
        except websockets.ConnectionClosed:
            pass  # sent again on the reconnect
        try:
            return key, await asyncio.wait_for(done, timeout=120)
        except asyncio.TimeoutError:
            state = "open" if self.socket and self.socket.state == websockets.protocol.State.OPEN else "closed"
            self.unanswered += 1
            print(f"an action of viewer {self.viewer} had no answer in 120 s (socket {state}, last close {self.close_code}, "
                  f"last error {self.last_error!r})")
            self.pending.pop(key, None)
            return key, False

    async def whole_scene(self):
        """The whole scene as the server has it for this page (a resync), once connected."""
        for _ in range(20):
            self.reset = asyncio.get_running_loop().create_future()
            try:
                await self.socket.send(json.dumps({"type": "resync"}))
                return await asyncio.wait_for(asyncio.shield(self.reset), timeout=30)
            except (websockets.ConnectionClosed, asyncio.TimeoutError):
                await asyncio.sleep(0.5)  # stay_connected brings the socket back
        raise RuntimeError("the page never got its whole scene")


class Cluster:
    def __init__(self, binary, pages, scratch):
        self.binary, self.pages, self.scratch = binary, pages, scratch
        self.key = signing_key_file()
        self.database = Postgres()
        self.ports = [free_port(), free_port()]
        self.servers = [self.start(port) for port in self.ports]
        by_cookie = SEVERAL.read_text(encoding="utf-8").replace("ip_hash;", "hash $http_cookie consistent;")
        variant = scratch / "nginx-by-cookie.conf"
        variant.write_text(by_cookie, encoding="utf-8")
        self.proxy = Nginx(variant, {f"server 127.0.0.1:{8081 + index} max_fails=0;": f"server 127.0.0.1:{port} max_fails=0;"
                                     for index, port in enumerate(self.ports)})
        self.port = urllib.parse.urlparse(self.proxy.url).port
        self.killed = set()

    def start(self, port):
        # Room for every page, its resumed twin in grace, and the soak's fresh loads.
        process, _ = start_server(self.binary, self.pages * 10, "--database", self.database.url, "--secret-file", str(self.key),
                                  "--scenes", str(HERE / "Scenes"), port=port)
        return process

    def kill_and_restart(self, index):
        self.servers[index].send_signal(signal.SIGKILL)
        self.servers[index].wait(timeout=20)
        self.killed.add(index)
        self.servers[index] = self.start(self.ports[index])

    def restart_gracefully(self, index):
        """Stops a server as a deploy does (SIGTERM, waiting for it to exit) and starts it
        again on its port; returns the new process's memory before pages come to it."""
        self.servers[index].send_signal(signal.SIGTERM)
        self.servers[index].wait(timeout=60)
        self.servers[index] = self.start(self.ports[index])
        return rss_kib(self.servers[index].pid)

    def restart_postgres(self):
        data = str(self.database.directory / "data")
        self.database.run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        self.database.run("pg_ctl", "-D", data, "-l", str(self.database.directory / "server.log"), "-w", "-o",
                          f"-p {self.database.port} -k {self.database.directory} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def psql(self, sql):
        command = [str(self.database.binaries / "psql"), "-h", "127.0.0.1", "-p", str(self.database.port), "-U", "scenery", "-d", "scenery",
                   "-At", "-F", "\t", "-c", sql]
        if self.database.user:
            command = ["runuser", "-u", self.database.user, "--", *command]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()

    def stop(self):
        self.proxy.stop()
        for process in self.servers:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        self.database.stop()
        subprocess.run(["rm", "-rf", str(self.key.parent)])


def stalled_client(port, session):
    """A socket that upgrades and never reads: what the server sends it piles up."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall((f"GET /live?session={session}&since=0&protocol=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        f"Origin: http://127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return connection


async def soak(cluster, arguments):
    failures = []
    viewers = {str(user): await sign_in("127.0.0.1", cluster.port, str(user)) for user in range(1, 8)}
    initial = {(row.split("\t")[0], int(row.split("\t")[1])) for row in cluster.psql("SELECT user_id, blog FROM likes")}
    pairs = [(viewer, blog) for viewer in viewers for blog in BLOGS][:max(1, min(70, arguments.pages // 2))]
    actors = [(Page(cluster.port, viewers[viewer], viewer), blog) for viewer, blog in pairs]
    watchers = [Page(cluster.port, None, None) for _ in range(max(0, arguments.pages - len(actors)))]
    # Alice writes drafts on her page of her blogs and drafts; Bob keeps the same scene of
    # hers open (his variant has no drafts), and no page but hers may ever receive one.
    author = Page(cluster.port, viewers["1"], "1", path="/scenes/soak-drafts?user=1")
    snoop = Page(cluster.port, viewers["2"], "2", path="/scenes/soak-drafts?user=1")
    # Three viewers who follow none of the people Alice follows (2, 3, 7) each follow and
    # unfollow them on the list of Alice's followings (Scenes/soak-follows.json).
    follow_pairs = [(viewer, followee) for viewer in ("4", "5", "6") for followee in ("2", "3", "7")]
    followers = [(Page(cluster.port, viewers[viewer], viewer, path="/scenes/soak-follows?user=1"), followee) for viewer, followee in follow_pairs]
    for page in [*(page for page, _ in actors), *watchers, snoop, *(page for page, _ in followers)]:
        page.never_hears = "soak draft"
    never_killed = random.Random(arguments.seed).randrange(2)
    bare = rss_kib(cluster.servers[never_killed].pid)  # before any page: what the pages' share is measured from
    for page, _ in actors:
        await page.open()
    for page in [*watchers, author, snoop, *(page for page, _ in followers)]:
        await page.open()
    print(f"opened {len(actors)} acting, {len(watchers)} watching and {len(followers)} following pages")
    stop = asyncio.Event()
    every_page = [*(page for page, _ in actors), *watchers, author, snoop, *(page for page, _ in followers)]
    keepers = [asyncio.create_task(page.stay_connected(stop)) for page in every_page]
    acknowledged = {pair: [] for pair in [*pairs, *follow_pairs]}
    unknown = {pair: [] for pair in [*pairs, *follow_pairs]}
    # Warm-up: the first fifth of the run (at most two minutes) has no fault; the server that
    # is never killed is measured at its end.
    warm_up = min(120, arguments.seconds / 5)
    deadline = time.monotonic() + arguments.seconds
    warm = None

    async def toggle(page, node, pair, every):
        """Taps a toggle (like, follow) in a closed loop, at most once every `every` seconds."""
        while time.monotonic() < deadline:
            started = time.monotonic()
            key, answered = await page.act(node)
            (acknowledged if answered else unknown)[pair].append(key)
            await asyncio.sleep(max(0, every - (time.monotonic() - started)))

    drafts = {"acknowledged": [], "unknown": []}

    async def write_drafts():
        number = 0
        while time.monotonic() < deadline:
            started = time.monotonic()
            number += 1
            title = f"soak draft {number}"
            _, answered = await author.act("drafts/compose", {"title": title, "body": "Written under faults."})
            drafts["acknowledged" if answered else "unknown"].append(title)
            await asyncio.sleep(max(0, 0.5 - (time.monotonic() - started)))

    async def act_offline(page, blog, pair):
        key, answered = await page.act(f"blogs/blog.{blog}.like")
        (acknowledged if answered else unknown)[pair].append(key)

    taken_offline = []
    stalled = []
    connections = {}
    baseline = {"bare": bare, "rolled": False}
    random_faults = random.Random(arguments.seed + 1)

    async def faults():
        nonlocal warm
        await asyncio.sleep(warm_up)
        warm = rss_kib(cluster.servers[never_killed].pid)
        connections["warm"] = open_sockets(cluster.ports[never_killed])
        print(f"warm: server {never_killed} holds {warm} KiB after {warm_up:.0f} s, {connections['warm']} open connections")
        kinds = arguments.faults
        index = 0
        while time.monotonic() < deadline - arguments.fault_every / 2:
            await asyncio.sleep(arguments.fault_every * random_faults.uniform(0.5, 1.5))
            if time.monotonic() >= deadline:
                return
            kind = kinds[index % len(kinds)] if index < len(kinds) else random_faults.choice(kinds)
            index += 1
            print(f"{time.strftime('%H:%M:%S')} fault: {kind}")
            if kind == "kill":
                await asyncio.to_thread(cluster.kill_and_restart, 1 - never_killed)
            elif kind == "postgres":
                await asyncio.to_thread(cluster.restart_postgres)
            elif kind == "rolling":
                # Both servers, one after the other; the measured one's new process starts
                # from its own bare memory.
                await asyncio.to_thread(cluster.restart_gracefully, 1 - never_killed)
                baseline["bare"] = await asyncio.to_thread(cluster.restart_gracefully, never_killed)
                baseline["rolled"] = True
            elif kind == "offline":
                # Ten acting pages lose their network; each person likes (or unlikes) once more
                # meanwhile, as a person who does not notice would.
                # (`actor`, not `index`: the fault's turn must survive this loop.)
                chosen = random_faults.sample(range(len(actors)), min(10, len(actors)))
                for actor in chosen:
                    await actors[actor][0].go_offline(arguments.offline_seconds)
                taken_offline.extend(asyncio.create_task(act_offline(*actors[actor], pairs[actor])) for actor in chosen)
            elif kind == "stall":
                stalled.append(stalled_client(cluster.port, random_faults.choice(watchers or [actors[0][0]]).session))
            else:
                for page in random_faults.sample(watchers, min(20, len(watchers))):
                    await page.socket.close()

    await asyncio.gather(faults(), write_drafts(), *(toggle(page, f"blogs/blog.{blog}.like", pair, 0.2) for (page, blog), pair in zip(actors, pairs)),
                         *(toggle(page, f"people/user.{followee}.action", pair, 0.3) for (page, followee), pair in zip(followers, follow_pairs)))
    await asyncio.gather(*taken_offline)
    for connection in stalled:
        connection.close()
    await asyncio.sleep(3)
    end = rss_kib(cluster.servers[never_killed].pid)
    connections["end"] = open_sockets(cluster.ports[never_killed])

    # Every action answered: each acknowledged action whose write went through is in the
    # ledger as its viewer's (recorded in the write's own transaction); with PostgreSQL
    # restarted under it, some writes failed (their pages were told), so those are counted.
    # Each acting page shows its blog liked exactly when the database has the like: a write
    # lost, doubled the wrong way or left unannounced would part them.
    recorded = set(cluster.psql("SELECT key FROM applied_actions"))
    likes = {(row.split("\t")[0], int(row.split("\t")[1])) for row in cluster.psql("SELECT user_id, blog FROM likes")}
    counts = {"acknowledged": 0, "acknowledged, not in the ledger": 0, "unknown": 0, "unknown, applied": 0}
    for (viewer, target) in [*pairs, *follow_pairs]:
        counts["acknowledged"] += len(acknowledged[(viewer, target)])
        counts["acknowledged, not in the ledger"] += sum(f"u{viewer}:{key}" not in recorded for key in acknowledged[(viewer, target)])
        counts["unknown"] += len(unknown[(viewer, target)])
        counts["unknown, applied"] += sum(f"u{viewer}:{key}" in recorded for key in unknown[(viewer, target)])
    follow_count = sum(len(acknowledged[pair]) for pair in follow_pairs)
    print("actions: " + ", ".join(f"{value} {name}" for name, value in counts.items()))
    # Actions taken while a page was offline: each sent once it was back, under its key.
    offline = [(page.viewer, key) for page, _ in actors for key in page.taken_offline]
    offline_answered = [(viewer, key) for viewer, key in offline if any(key in keys for keys in acknowledged.values())]
    offline_recorded = sum(f"u{viewer}:{key}" in recorded for viewer, key in offline_answered)
    print(f"offline: {len(offline)} action(s) taken offline, {len(offline_answered)} acknowledged once back, {offline_recorded} of them in the ledger")
    if "offline" in arguments.faults and not offline:
        failures.append("no action was taken offline: the offline part of the soak did not run")
    if len(offline_answered) != offline_recorded and "postgres" not in arguments.faults:
        failures.append(f"{len(offline_answered) - offline_recorded} action(s) taken offline were acknowledged and are not in the ledger")
    if counts["acknowledged, not in the ledger"] and "postgres" not in arguments.faults:
        failures.append(f"{counts['acknowledged, not in the ledger']} acknowledged action(s) are not in the ledger, with the database up throughout")

    async def check_toggle(page, viewer, subject, pattern, on_title, is_on, state):
        """The toggle of `subject` on `page` (its button title matched by `pattern`) shows
        `state` exactly when the database has it (`is_on`)."""
        try:
            html = await page.whole_scene()
        except Exception as error:  # noqa: BLE001 - reported as a failure
            failures.append(f"viewer {viewer}'s page of {subject} did not get its whole scene: {error!r}")
            return
        shown = re.search(pattern, html)
        if not shown:
            failures.append(f"viewer {viewer}'s page shows no button for {subject}")
        elif (shown.group(1) == on_title) != is_on:
            failures.append(f"viewer {viewer}'s page shows {subject} {state if shown.group(1) == on_title else 'not ' + state}; "
                            f"the database says {state if is_on else 'not ' + state}")

    for (page, blog), (viewer, _) in zip(actors, pairs):
        await check_toggle(page, viewer, f"blog {blog}", rf'id="blogs/blog\.{blog}\.like"[^>]*>(Like|Unlike)<', "Unlike",
                           (viewer, blog) in likes, "liked")
    # Each following page shows the person followed exactly when the database has the follow.
    follows = {tuple(row.split("\t")) for row in cluster.psql("SELECT follower, followee FROM follows")}
    print(f"follows: {follow_count} acknowledged")
    if not follow_count:
        failures.append("no follow or unfollow was acknowledged: the follows part of the soak did not run")
    for (page, followee), (viewer, _) in zip(followers, follow_pairs):
        await check_toggle(page, viewer, f"user {followee}", rf'id="people/user\.{followee}\.action"[^>]*>(\+ Follow|Following)<', "Following",
                           (viewer, followee) in follows, "followed")
    # Every draft save acknowledged is stored exactly once; one whose answer was lost at most
    # once; and none reached Bob's page.
    stored = {}
    for title in cluster.psql("SELECT title FROM drafts WHERE owner = '1' AND title LIKE 'soak draft %'"):
        stored[title] = stored.get(title, 0) + 1
    print(f"drafts: {len(drafts['acknowledged'])} acknowledged, {len(drafts['unknown'])} unknown, {len(stored)} stored")
    for title in drafts["acknowledged"]:
        if stored.get(title, 0) != 1 and "postgres" not in arguments.faults:
            failures.append(f"the acknowledged draft {title!r} is stored {stored.get(title, 0)} times")
    doubled = [title for title, count in stored.items() if count > 1]
    if doubled:
        failures.append(f"{len(doubled)} draft(s) stored twice: {doubled[:5]}")
    if not drafts["acknowledged"]:
        failures.append("no draft save was acknowledged: the drafts part of the soak did not run")
    leaked = [page.viewer or "signed out" for page in [*(page for page, _ in actors), *watchers, snoop, *(page for page, _ in followers)] if page.heard_forbidden]
    if leaked:
        failures.append(f"pages of other viewers received Alice's drafts: {sorted(set(leaked))}")
    # A page told to load afresh lost what a resume keeps (its tabs, pages, windows): a
    # spent token means a restart or a kill lost a page's state. (A ledger away while a page
    # resumes, a PostgreSQL restart, is told so too, and is not a lost token.)
    reasons = Counter(reason for page in every_page for reason in page.loaded_afresh)
    print(f"loaded afresh: {sum(reasons.values())} time(s)" + "".join(f"; {count}× {reason!r}" for reason, count in reasons.items()))
    spent = sum(count for reason, count in reasons.items() if "used before" in reason)
    if spent:
        failures.append(f"{spent} page(s) were refused their resume token as used, and loaded afresh")
    unanswered = sum(page.unanswered for page, _ in [*actors, *followers]) + author.unanswered
    if unanswered:
        failures.append(f"{unanswered} action(s) had no answer within 120 s, though the page stayed or came back")
    if counts["acknowledged"] == 0:
        failures.append("no action was acknowledged: the soak did not run")

    # Open pages equal a fresh render for their viewer, but for the notice of a write that
    # failed while a server or the database was away: the page was told, a fresh load was not
    # (the notice, under the control that failed, stays until the module's next action).
    failed_write = re.compile(r'<p id="[^"]*(/notice" class="caption"|\.failure" class="status" role="status")>Couldn&#39;t [^<]*</p>\n?')
    # A change announced while PostgreSQL stalled or restarted reaches a page when its server
    # catches up, so each sample gets until `settle` to agree with a fresh render; one that
    # still differs then never converged.
    samples = [page for page, _ in actors[::10]] + watchers[:20]
    settle = time.monotonic() + 30
    for page in samples:
        try:
            while True:
                html = await page.whole_scene()
                _, _, fresh, _ = await http("127.0.0.1", cluster.port, "GET", "/scenes/ten-rows?user=1", page.headers())
                if failed_write.sub("", html) in fresh.decode() or time.monotonic() >= settle:
                    break
                await asyncio.sleep(1)
        except Exception as error:  # noqa: BLE001 - reported as a failure
            failures.append(f"a page did not get its whole scene: {error!r}")
            continue
        if failed_write.sub("", html) not in fresh.decode():
            if os.environ.get("SOAK_DUMP"):
                pathlib.Path(os.environ["SOAK_DUMP"]).write_text(html + "\n=====\n" + fresh.decode(), encoding="utf-8")
            counts = re.compile(r'id="blogs/blog\.(\d+)\.likes" class="caption">Likes: ([\d,]+)<')
            shown, stored = dict(counts.findall(html)), dict(counts.findall(fresh.decode()))
            stale = ", ".join(f"blog {blog} shows {shown[blog]} likes, {stored.get(blog, 'none')} stored"
                              for blog in sorted(shown, key=int) if shown[blog] != stored.get(blog))
            failures.append(f"a page of viewer {page.viewer or 'signed out'} differs from a fresh render of its scene"
                            + (f" ({stale})" if stale else ""))
    stop.set()
    for page in every_page:
        await page.socket.close()
    for task in keepers:
        task.cancel()
    # Pages of the killed server come over to this one and stay (a page keeps the socket it
    # has), so the server holds more pages at the end than after warm-up: it is held to its
    # warm memory for as many connections as it has at the end.
    per_connection = (warm - bare) / max(1, connections["warm"])
    expected = baseline["bare"] + per_connection * connections["end"]
    if baseline["rolled"]:
        print(f"server {never_killed} was restarted in a rolling restart: its new process started at {baseline['bare']} KiB")
    print(f"end: server {never_killed} holds {end} KiB ({(end - warm) / warm * 100:+.1f}% from warm) with {connections['end']} open connections "
          f"(pages that came over from the killed server stay); at its warm {per_connection:.0f} KiB a connection over {bare} KiB bare, "
          f"{expected:.0f} KiB: {(end - expected) / expected * 100:+.1f}%")
    if end > expected * (1 + arguments.memory_tolerance):
        failures.append(
            f"server {never_killed} holds {end} KiB, more than {arguments.memory_tolerance:.0%} over the {expected:.0f} KiB it held after warm-up "
            f"for {connections['end']} connections")
    for index, process in enumerate(cluster.servers):
        if process.poll() is not None:
            failures.append(f"server {index} died (exit {process.returncode})")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=1800)
    parser.add_argument("--fault-every", type=float, default=60, help="seconds between faults, on average")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--faults", nargs="+", default=["kill", "postgres", "stall", "burst", "rolling", "offline"], choices=["kill", "postgres", "stall", "burst", "rolling", "offline"],
                        help="the kinds of fault to inject, in turn and then at random")
    parser.add_argument("--offline-seconds", type=float, default=30, help="how long an offline fault keeps its pages' network away")
    parser.add_argument("--memory-tolerance", type=float, default=0.10,
                        help="how far over its warm level the server that is never killed may end (a fraction)")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "scenery"))
    arguments = parser.parse_args()
    print_machine()
    print(f"soak: {arguments.pages} pages, {arguments.seconds:.0f} s, a fault every ~{arguments.fault_every:.0f} s, seed {arguments.seed}")
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="scenery-soak-"))
    cluster = Cluster(arguments.binary, arguments.pages, scratch)
    try:
        failures = asyncio.run(soak(cluster, arguments))
    finally:
        cluster.stop()
        subprocess.run(["rm", "-rf", str(scratch)])
    for failure in failures:
        print(f"FAIL: {failure}")
    print("soak: " + ("passed" if not failures else f"{len(failures)} failure(s)"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
