"""A part of someone else's app (Examples/Guestbook, added to the bundled profile): its
tables and data live in the profile's PostgreSQL database; two of its servers on that
database, and a message Bob signs through one reaches Alice's page on the other, live, with
Delete offered to Alice alone. The tool's data commands cover both parts on PostgreSQL.

Needs the app built: (cd Examples/Guestbook && swift build), as .ci/run does before these tests."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Postgres, Server, open_live, same_page, sign_in, signing_key_file

GUESTBOOK = pathlib.Path(os.environ.get("GUESTBOOK_BINARY", str(ROOT / ".build" / "debug" / "guestbook")))
ALICES_PROFILE = "/scenes/user-profile?user=1"


@pytest.fixture(scope="module")
def database():
    if not GUESTBOOK.is_file():
        raise RuntimeError(f"{GUESTBOOK} is missing: build the example first, (cd Examples/Guestbook && swift build), as .ci/run does.")
    database = Postgres()
    yield database
    database.stop()


def guestbook(database, *arguments):
    return subprocess.run([str(GUESTBOOK), *arguments, "--database", database.url], capture_output=True, text=True, timeout=120)


def test_bobs_message_through_one_server_reaches_alices_page_on_the_other(browser, database):
    key = signing_key_file()
    servers, people = [], []
    try:
        for _ in range(2):
            servers.append(Server("--secret-file", str(key), database=database.url, binary=str(GUESTBOOK), bundled_scenes=None))
        for name, server in [("Alice", servers[0]), ("Bob", servers[1])]:
            context = browser.new_context()
            people.append(context)
            page = context.new_page()
            sign_in(page, server, name)
            open_live(page, server.url + ALICES_PROFILE)
        alice, bob = (context.pages[0] for context in people)
        expect(alice.get_by_text("2: Lovely tea party!")).to_be_visible()
        expect(alice.get_by_role("button", name="Delete")).to_have_count(1)
        expect(bob.get_by_role("button", name="Delete")).to_have_count(0)
        bob.locator("form#guestbook\\/sign input, form#guestbook\\/sign textarea").first.fill("Hello from the other server")
        bob.get_by_role("button", name="Sign", exact=True).click()
        # The write's NOTIFY reaches the first server's listening connection, and Alice's page.
        expect(alice.get_by_text("2: Hello from the other server")).to_be_visible(timeout=5_000)
        assert same_page(alice), "in place, over the socket, not by a reload"
    finally:
        for context in people:
            context.close()
        for server in servers:
            server.stop()
        shutil.rmtree(key.parent, ignore_errors=True)


def test_the_data_commands_cover_both_parts_on_postgresql(database):
    reset = guestbook(database, "data", "reset")
    assert reset.returncode == 0 and "guestbook: 1 messages" in reset.stdout, reset.stdout + reset.stderr
    exported = guestbook(database, "data", "export", "-")
    assert exported.returncode == 0, exported.stderr
    parts = json.loads(exported.stdout)["parts"]
    assert sorted(parts) == ["guestbook", "profile"]
    assert parts["guestbook"]["messages"][0]["text"] == "Lovely tea party!"
    parts["guestbook"]["messages"][0]["text"] = ""
    parts["profile"]["users"] = parts["profile"]["users"][:1]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as broken:
        json.dump({"format": "scenery.site-data", "version": 1, "parts": parts}, broken)
    try:
        refused = guestbook(database, "data", "import", broken.name)
        assert refused.returncode != 0
        assert "parts.guestbook.messages[0].text: must have 1 to 280 characters." in refused.stdout + refused.stderr
        assert guestbook(database, "data", "export", "-").stdout == exported.stdout, "nothing imported, in either part"
    finally:
        os.unlink(broken.name)
