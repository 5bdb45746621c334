"""Shared set-up for the browser tests: a real `scenery serve` on loopback, driven by
Debian's Chromium through Playwright.

Run from the package root after `swift build`:  python3 -m pytest Tests/Browser
"""
import asyncio
import json
import os
import pathlib
import queue
import random
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

import pytest
import websockets
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SCENERY_BINARY", str(ROOT / ".build" / "debug" / "scenery"))
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


class Server:
    """A `scenery serve` process on a free port, with its own database and scene folder (a copy
    of `bundled_scenes` with `scenes` added); another app's tool with `binary`, and its own
    scenes with `bundled_scenes=None`. A page's first response waits for every module (a
    test not about streaming reads whole pages); `first_response_wait` (milliseconds) is the
    server's own choice for the tests of streamed pages."""

    def __init__(self, *arguments, data=None, scenes=None, generated_blogs=None, database=None, port=0, binary=BINARY,
                 bundled_scenes=ROOT / "Scenes", first_response_wait=60_000):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="scenery-browser-"))
        self.scenes = self.directory / "Scenes"
        scene_arguments = []
        if bundled_scenes is not None:
            shutil.copytree(bundled_scenes, self.scenes)
            for name, text in (scenes or {}).items():
                (self.scenes / f"{name}.json").write_text(text, encoding="utf-8")
            scene_arguments = ["--scenes", str(self.scenes)]
        self.database = database or self.directory / "demo.sqlite"
        environment = dict(os.environ, SCENERY_DATABASE=str(self.database))
        if data is not None:
            data_file = self.directory / "data.json"
            data_file.write_text(data, encoding="utf-8")
            subprocess.run([binary, "data", "import", str(data_file)], env=environment, check=True, capture_output=True)
        if generated_blogs is not None:
            subprocess.run([binary, "data", "generate", "--user", "1", "--blogs", str(generated_blogs)], env=environment, check=True,
                           capture_output=True)
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--first-response-wait", str(first_response_wait), *scene_arguments, *arguments],
            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in self.process.stdout], daemon=True).start()
        self.log = []
        self.logged = threading.Condition()
        threading.Thread(target=self.read_log, daemon=True).start()
        try:
            first = lines.get(timeout=60)
        except queue.Empty:
            self.stop()
            raise RuntimeError("scenery serve did not start within 60 s: " + "".join(self.log))
        assert first.startswith("Listening on http://127.0.0.1:"), first
        self.url = first.strip().removeprefix("Listening on ")

    def read_log(self):
        for line in self.process.stderr:
            with self.logged:
                self.log.append(line)
                self.logged.notify_all()

    def wait_for_log(self, text, timeout=10):
        """The first line of the server's log holding `text`, as soon as it is written; fails
        after `timeout` seconds with the log so far."""
        with self.logged:
            if not self.logged.wait_for(lambda: any(text in line for line in self.log), timeout=timeout):
                raise AssertionError(f"the server never logged {text!r}:\n" + "".join(self.log[-20:]))
            return next(line for line in self.log if text in line)

    def stop(self):
        stop_process(self.process, self.directory)


def signing_key_file():
    """A new signing key (48 random bytes, URL-safe text) in a file of its own folder, as the
    Deploying guide has people make one; remove its folder when done."""
    key = pathlib.Path(tempfile.mkdtemp(prefix="scenery-key-")) / "site.key"
    key.write_text(secrets.token_urlsafe(48), encoding="utf-8")
    return key


class Postgres:
    """A PostgreSQL server of the tests' own: Debian's programs, a temporary folder, a free
    loopback port, run by the unprivileged `postgres` account when the tests run as root."""

    def __init__(self):
        versions = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(path.parts[-3]))
        if not versions:
            raise RuntimeError("These tests need PostgreSQL's programs (initdb, pg_ctl): apt-get install postgresql, or run .ci/run.")
        self.binaries = versions[-1].parent
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="scenery-pg-"))
        self.user = "postgres" if os.getuid() == 0 else None
        if self.user:
            shutil.chown(self.directory, self.user)
        self.port = free_port()
        self.run("initdb", "-D", str(self.directory / "data"), "-A", "trust", "-U", "scenery", "--locale=C", "-E", "UTF8", "--no-sync")
        self.run("pg_ctl", "-D", str(self.directory / "data"), "-l", str(self.directory / "server.log"), "-w", "-o",
                 f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "scenery", "scenery")
        self.url = f"postgres://scenery@127.0.0.1:{self.port}/scenery?sslmode=disable"

    def run(self, program, *arguments):
        command = [str(self.binaries / program), *arguments]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, stdin=subprocess.DEVNULL)

    def stop(self):
        self.run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)


def stop_process(process, directory):
    """Ends a process the tests started (killing it after 10 s) and removes its folder. Pages
    still open on it then say they reconnect: the guard lets that pass."""
    GUARD.server_stopped()
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    shutil.rmtree(directory, ignore_errors=True)


def free_port():
    """A loopback port nothing listens on now, below the range the system hands out to
    outgoing connections: a server (or PostgreSQL) killed and started again on it finds it
    free, where within that range any connection of the tests (nginx's to another server,
    say) may take it as its own end meanwhile."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="utf-8") as ports:
            lowest_ephemeral = int(ports.read().split()[0])
    except (OSError, ValueError, IndexError):
        lowest_ephemeral = 32768
    for _ in range(200):
        port = random.randrange(10_000, max(10_001, lowest_ephemeral))
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx on a free loopback port running a checked-in configuration of the Deploying
    guide (Examples/Deploying), in a folder of its own; `addresses` maps each upstream line of
    the file to the line the test uses."""

    def __init__(self, configuration, addresses):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="scenery-nginx-"))
        port = free_port()
        text = configuration.read_text(encoding="utf-8")
        assert "listen 127.0.0.1:8000;" in text, "the guide's listening address moved"
        for old, new in addresses.items():
            assert old in text, f"the guide's upstream {old!r} moved"
            text = text.replace(old, new)
        text = text.replace("listen 127.0.0.1:8000;", f"listen 127.0.0.1:{port};")
        # Logs and temporary files in this folder, so that nothing of the system's is needed.
        temporary = "".join(f"{kind}_temp_path {self.directory / kind};\n" for kind in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
        text = text.replace("http {\n", "http {\n" + f"access_log {self.directory / 'access.log'};\n" + temporary, 1)
        path = self.directory / "nginx.conf"
        path.write_text(text, encoding="utf-8")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        globals_ = f"daemon off; pid {self.directory / 'nginx.pid'}; error_log {self.directory / 'error.log'};"
        command = [nginx, "-p", str(self.directory), "-c", str(path), "-e", str(self.directory / "error.log"), "-g", globals_]
        # Run as root (CI), nginx runs as the unprivileged `nobody` in its own folder.
        if os.getuid() == 0:
            for item in [self.directory, *self.directory.rglob("*")]:
                shutil.chown(item, "nobody")
            command = ["runuser", "-u", "nobody", "--", *command]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:  # nginx prints nothing when it is ready: wait until its port answers
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("nginx did not start: " + (self.directory / "error.log").read_text(errors="replace"))
                time.sleep(0.05)

    def stop(self):
        stop_process(self.process, self.directory)


@pytest.fixture(scope="module")
def server():
    running = Server("--watch", "--preview")
    yield running
    running.stop()


# --- The guard: every page of every test is watched for what a person should not meet ---
# A toast that is not an announcement of someone else's change (a refusal, an error, a
# connection notice) and every console error or uncaught exception fail the test that met
# it, unless the test declares it: @pytest.mark.allows_toasts(r"pattern", …) and
# @pytest.mark.allows_console(r"pattern", …) (regular expressions searched in the text).

def pytest_configure(config):
    config.addinivalue_line("markers", "allows_toasts(*patterns): toasts this test expects a page to show")
    config.addinivalue_line("markers", "allows_console(*patterns): console errors this test expects a page to log")


class Guard:
    """What the pages of the running test showed and logged."""

    def __init__(self):
        self.toasts, self.console = [], []
        self.stopped_at = None
        self.ended_at = None
        # Which test the records belong to: a page keeps the number of the test that opened
        # it, and what it shows after that test is over (a failed test's page left open,
        # reconnecting to a server that is gone) is not blamed on the tests after it.
        self.test = 0

    def clear(self):
        self.toasts.clear()
        self.console.clear()
        self.stopped_at = None
        self.ended_at = None
        self.test += 1

    def record(self, test, kind, text):
        """Keeps a page's toast or console error if the test that opened the page is running."""
        if test != self.test:
            return
        if kind is None:
            self.console.append(text)
        else:
            self.toasts.append((kind, text))

    def test_ended(self):
        """The test's own steps are over: what its pages show while its fixtures close them (a
        page closed under an action that waits says it reconnects) is no one's to meet."""
        self.ended_at = (len(self.toasts), len(self.console))

    def server_stopped(self):
        """A server the test started was stopped: from here its pages' lost connections are
        what the test did, not something a person would meet."""
        if self.stopped_at is None:
            self.stopped_at = (len(self.toasts), len(self.console))

    def unexpected(self, allowed_toasts, allowed_console):
        """The toasts (other than announcements) and console errors no pattern allows; after
        a server was stopped, its pages' reconnecting and failed sockets are allowed."""
        toasts_from, console_from = self.stopped_at or (len(self.toasts), len(self.console))
        toasts_to, console_to = self.ended_at or (len(self.toasts), len(self.console))
        toasts = [
            text for index, (kind, text) in enumerate(self.toasts[:toasts_to])
            if kind != "announcement" and not any(p.search(text) for p in allowed_toasts)
            and not (index >= toasts_from and text.startswith("Reconnecting"))
        ]
        console = [
            text for index, text in enumerate(self.console[:console_to])
            if not any(p.search(text) for p in allowed_console) and not (index >= console_from and "WebSocket connection" in text)
        ]
        return toasts, console


GUARD = Guard()

# Reports each text the status line shows, with its kind, to the test (a binding).
RECORD_TOASTS = """
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("scenery-status");
  if (!status || !window.__sceneryToast) return;
  new MutationObserver(() => {
    if (status.textContent) window.__sceneryToast(status.dataset.kind || "notice", status.textContent);
  }).observe(status, { childList: true, characterData: true, subtree: true });
});
"""


def watch(context):
    """Watches every page of a context: its toasts and its console errors go to GUARD, for
    the test that opened the context."""
    test = GUARD.test
    context.expose_binding("__sceneryToast", lambda source, kind, text: GUARD.record(test, kind, text))
    context.add_init_script(RECORD_TOASTS)

    def on_page(page):
        page.on("console", lambda message: message.type == "error" and GUARD.record(test, None, message.text))
        page.on("pageerror", lambda error: GUARD.record(test, None, f"uncaught: {error}"))

    context.on("page", on_page)
    return context


class WatchedBrowser:
    """The session's Chromium, whose every new context is watched (tests use it as the
    browser)."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, *arguments, **options):
        return watch(self._browser.new_context(*arguments, **options))

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield WatchedBrowser(launched)
        launched.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield
    GUARD.test_ended()


@pytest.fixture(autouse=True)
def nothing_unexpected_reaches_a_person(request):
    """Fails a test whose pages showed a toast or logged a console error it did not declare."""
    GUARD.clear()
    yield
    allowed_toasts = [re.compile(pattern) for mark in request.node.iter_markers("allows_toasts") for pattern in mark.args]
    allowed_console = [re.compile(pattern) for mark in request.node.iter_markers("allows_console") for pattern in mark.args]
    toasts, console = GUARD.unexpected(allowed_toasts, allowed_console)
    GUARD.clear()
    if toasts or console:
        pytest.fail(f"unexpected toasts: {toasts}; unexpected console errors: {console}", pytrace=False)


@pytest.fixture
def context(browser):
    made = browser.new_context()
    yield made
    made.close()


def sign_in(page, server, name):
    """Signs in the way a person does: the sign-in page's button for that user (on a server,
    or at an address such as a proxy's)."""
    page.goto(getattr(server, "url", server) + "/sign-in")
    page.get_by_role("button", name=f"Sign in as {name}").click()
    page.wait_for_load_state()


def open_live(page, url):
    """Opens a scene page, waits for its socket, and marks the window so that a reload
    would show (the marker is gone after a page load)."""
    with page.expect_websocket():
        page.goto(url)
    page.evaluate("window.__sceneryMarker = 'still the same page'")


def forged_socket(page, server, session, messages, until=None, count=1, protocol=1):
    """A hand-made client on the page socket of `session`: leaves whatever live page `page`
    shows for the server's sign-in page (the page's own client would otherwise reconnect a
    quarter of a second after this socket takes its session, and take it back before a slow
    server answered), opens a WebSocket to the session from there (same origin, same
    cookies) announcing page protocol `protocol` (`None`: announcing none), sends
    `messages` (texts), and returns `{"received", "code", "reason"}` once `count` messages
    of type `until` arrived (`code` and `reason` are `None`), or once the server closed the
    socket (with its close code and reason)."""
    page.goto(getattr(server, "url", server) + "/sign-in")
    return page.evaluate(
        """async ([session, messages, until, count, protocol]) => {
            const received = [];
            const done = () => until !== null && received.filter(message => message.type === until).length >= count;
            const query = protocol === null ? "" : `&protocol=${protocol}`;
            const socket = new WebSocket(`ws://${location.host}/live?session=${session}&since=0${query}`);
            return await new Promise(resolve => {
                socket.onopen = () => messages.forEach(message => socket.send(message));
                socket.onmessage = event => {
                    received.push(JSON.parse(event.data));
                    if (done()) { socket.close(); resolve({ received, code: null, reason: null }); }
                };
                socket.onclose = event => resolve({ received, code: event.code, reason: event.reason });
            });
        }""",
        [session, messages, until, count, protocol])


def same_page(page):
    return page.evaluate("window.__sceneryMarker") == "still the same page"


class People:
    """Pages of one site, each person in a Chromium context of their own: `open(name, path,
    frames)` signs the person in (or not, for None), opens a live page, and can collect the
    frames its socket receives; `close()` closes every context."""

    def __init__(self, browser, server, path):
        self.browser, self.server, self.path = browser, server, path
        self.contexts = []

    def open(self, name, path=None, frames=None):
        context = self.browser.new_context()
        self.contexts.append(context)
        page = context.new_page()
        if frames is not None:
            page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
        if name is not None:
            sign_in(page, self.server, name)
        open_live(page, self.server.url + (path or self.path))
        return page

    def close(self):
        for context in self.contexts:
            context.close()


async def act(url, path, user, tab, nodes):
    """Signs `user` in, opens a page of `path` (tab number `tab` of theirs), sends an event
    for each node under a key of its own (answering yes to any confirmation), and returns
    once the server said it applied them all."""
    address = urllib.parse.urlparse(url)
    origin = f"http://{address.hostname}:{address.port}"
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    body = f"user={user}".encode()
    writer.write((f"POST /sign-in HTTP/1.1\r\nHost: {address.netloc}\r\nOrigin: {origin}\r\nConnection: close\r\n"
                  f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
    response = (await reader.read()).decode("utf-8", "replace")
    writer.close()
    cookie = re.search(r"(?im)^set-cookie: ([^;]+)", response).group(1)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n".encode())
    page = (await reader.read()).decode("utf-8", "replace")
    writer.close()
    session = re.search(r'data-session="([0-9a-f]+)"', page).group(1)
    keys = {f"scripted-{user}-{tab}-{index:04}": node for index, node in enumerate(nodes)}
    async with websockets.connect(f"ws://{address.netloc}/live?session={session}&since=0&protocol=1", origin=origin,
                                  additional_headers={"Cookie": cookie}) as live:
        for key, node in keys.items():
            await live.send(json.dumps({"type": "event", "node": node, "action": key}))
        waiting = set(keys)
        while waiting:
            message = json.loads(await asyncio.wait_for(live.recv(), timeout=60))
            if message.get("type") == "resume":
                waiting -= set(message.get("applied", []))
            elif message.get("type") == "confirm":  # an unfollow asks first: yes
                await live.send(json.dumps({"type": "answer", "question": message["question"], "accept": True}))
            assert message.get("type") != "refused", message


def act_in_parallel(url, path, plan, timeout=120):
    """Scripted people acting at once on pages of `path`: `plan` maps (user id, tab number) to
    the nodes that page activates, in order. Runs in a thread of its own (Playwright's loop
    is busy in this one) and returns once every action was applied; raises what failed."""
    failures = []

    def run():
        async def everyone():
            await asyncio.gather(*(act(url, path, user, tab, nodes) for (user, tab), nodes in plan.items()))
        try:
            asyncio.run(everyone())
        except Exception as error:  # raised below, in the test's thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=timeout)
    assert not thread.is_alive(), f"the scripted people did not finish within {timeout} s"
    if failures:
        raise failures[0]
