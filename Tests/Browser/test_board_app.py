"""The second app on Scenery (Examples/Board, another domain than the demo, on public API
only), served by its own tool: two of its servers on one PostgreSQL database, one behind the
Deploying guide's nginx; a member's tick through one server reaches the owner's page on the
other, live, and only the owner is offered Remove.

Needs the app built: (cd Examples/Board && swift build), as .ci/run does before these tests."""
import os
import pathlib
import shutil

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Nginx, Postgres, Server, open_live, same_page, sign_in, signing_key_file

BOARD = pathlib.Path(os.environ.get("BOARD_BINARY", str(ROOT / "Examples" / "Board" / ".build" / "debug" / "board")))
SEVERAL = ROOT / "Examples" / "Deploying" / "nginx-several.conf"
ADAS_BOARD = "/scenes/board?owner=1"


@pytest.fixture(scope="module")
def board():
    if not BOARD.is_file():
        raise RuntimeError(f"{BOARD} is missing: build the example first, (cd Examples/Board && swift build), as .ci/run does.")
    database = Postgres()
    key = signing_key_file()
    servers, proxy = [], None
    try:
        for _ in range(2):
            servers.append(Server("--secret-file", str(key), database=database.url, binary=str(BOARD), bundled_scenes=None))
        second = servers[1].url.removeprefix("http://")
        # Both of the guide's upstream slots on the second server: what comes through nginx is served there.
        proxy = Nginx(SEVERAL, {
            "server 127.0.0.1:8081 max_fails=0;": f"server {second} max_fails=0;",
            "server 127.0.0.1:8082 max_fails=0;": f"server {second} max_fails=0;",
        })
        yield servers[0], proxy
    finally:
        if proxy:
            proxy.stop()
        for server in servers:
            server.stop()
        database.stop()
        shutil.rmtree(key.parent, ignore_errors=True)


def test_a_members_tick_through_one_server_reaches_the_owners_page_on_the_other(browser, board):
    first, proxy = board
    people = []
    try:
        for name, url in [("Ada", first.url), ("Grace", proxy.url)]:
            context = browser.new_context()
            people.append(context)
            page = context.new_page()
            sign_in(page, url, name)
            open_live(page, url + ADAS_BOARD)
        ada, grace = (context.pages[0] for context in people)
        title = ada.locator("#tasks\\/task\\.2\\.title")
        expect(title).to_have_text("Book the room")
        expect(ada.locator("#tasks\\/task\\.2\\.remove")).to_have_count(1)
        expect(grace.locator("#tasks\\/task\\.2\\.remove")).to_have_count(0)
        grace.locator("#tasks\\/task\\.2\\.toggle").click()
        # The tick's NOTIFY reaches the first server's listening connection, and Ada's page.
        expect(title).to_have_text("✓ Book the room", timeout=2_000)
        assert same_page(ada), "in place, over the socket, not by a reload"
        expect(grace.locator("#tasks\\/task\\.2\\.title")).to_have_text("✓ Book the room")
    finally:
        for context in people:
            context.close()
