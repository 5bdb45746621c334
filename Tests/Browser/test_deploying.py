"""The Deploying guide, as a person would follow it: `scenery serve` behind a real nginx
running the checked-in configuration (Examples/Deploying/nginx.conf, only its two loopback
addresses changed), with the server's signing key from a file. Sign-in, pages and their
live sockets all go through nginx."""
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Server, open_live, same_page, sign_in, signing_key_file, stop_process

CONFIGURATION = ROOT / "Examples" / "Deploying" / "nginx.conf"
PROFILE = "/scenes/user-profile?user=1"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx on a free loopback port with the guide's configuration, in a folder of its own."""

    def __init__(self, upstream):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="scenery-nginx-"))
        port = free_port()
        text = CONFIGURATION.read_text(encoding="utf-8")
        assert "server 127.0.0.1:8080;" in text and "listen 127.0.0.1:8000;" in text, "the guide's addresses moved"
        text = text.replace("server 127.0.0.1:8080;", f"server {upstream};").replace("listen 127.0.0.1:8000;", f"listen 127.0.0.1:{port};")
        # Logs and temporary files in this folder, so that nothing of the system's is needed.
        temporary = "".join(f"{kind}_temp_path {self.directory / kind};\n" for kind in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
        text = text.replace("http {\n", "http {\n" + f"access_log {self.directory / 'access.log'};\n" + temporary, 1)
        configuration = self.directory / "nginx.conf"
        configuration.write_text(text, encoding="utf-8")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        globals_ = f"daemon off; pid {self.directory / 'nginx.pid'}; error_log {self.directory / 'error.log'};"
        self.process = subprocess.Popen([nginx, "-p", str(self.directory), "-c", str(configuration), "-g", globals_],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
def site():
    key = signing_key_file()
    server = Server("--secret-file", str(key))
    proxy = Nginx(server.url.removeprefix("http://"))
    yield proxy
    proxy.stop()
    server.stop()
    shutil.rmtree(key.parent, ignore_errors=True)


def test_pages_sign_in_and_live_sockets_work_through_nginx(browser, site):
    people = []
    try:
        for name in ["Carol Mint", "Bob Chen"]:
            context = browser.new_context()
            people.append(context)
            page = context.new_page()
            sign_in(page, site, name)
            expect(page.locator("body")).to_contain_text(f"Signed in as {name}")
            open_live(page, site.url + PROFILE)
        carol, bob = (context.pages[0] for context in people)
        likes = carol.locator("#blogs\\/blog\\.26\\.likes")
        before = likes.inner_text()
        bob.locator("#blogs\\/blog\\.26\\.like").click()
        expect(likes).not_to_have_text(before)  # Bob's like reached Carol's page through nginx
        assert same_page(carol), "in place, over the socket, not by a reload"
    finally:
        for context in people:
            context.close()
