"""The guide "Your own app", followed: the app it makes from `scenery new` (built by
.ci/follow-guide.py, as .ci/run does before these tests) served as the guide's last step
says: a wave on one page reaches another page of the same name, live, on its SQLite file and
across two servers sharing PostgreSQL and a signing key.

Needs the guide's app: python3 .ci/follow-guide.py .build/debug/scenery .build /tmp/guide
(it leaves the tool at .build/debug/Waves; WAVES_BINARY names another)."""
import os
import pathlib
import shutil

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Postgres, Server, open_live, same_page, signing_key_file

WAVES = pathlib.Path(os.environ.get("WAVES_BINARY", str(ROOT / ".build" / "debug" / "Waves")))
ADA = "/scenes/welcome?name=Ada"


def guide_app():
    if not WAVES.is_file():
        raise RuntimeError(f"{WAVES} is missing: follow the guide first, python3 .ci/follow-guide.py .build/debug/scenery .build /tmp/guide, "
                           "as .ci/run does.")
    return str(WAVES)


def wave_and_see_it_elsewhere(browser, first_url, second_url):
    """Opens Ada's welcome at both addresses, waves on the first, and sees the second count it."""
    contexts = [browser.new_context() for _ in range(2)]
    try:
        pages = [context.new_page() for context in contexts]
        for page, url in zip(pages, [first_url, second_url]):
            open_live(page, url + ADA)
            expect(page.locator("#welcome\\/waves")).to_have_text("0 waves")
        pages[0].get_by_role("button", name="Wave").click()
        expect(pages[0].locator("#welcome\\/waves")).to_have_text("1 wave")
        expect(pages[1].locator("#welcome\\/waves")).to_have_text("1 wave")
        pages[1].get_by_role("button", name="Wave").click()
        expect(pages[0].locator("#welcome\\/waves")).to_have_text("2 waves")
        assert all(same_page(page) for page in pages), "in place, over the socket, not by a reload"
    finally:
        for context in contexts:
            context.close()


def test_a_wave_reaches_another_page_of_the_guides_app_on_sqlite(browser):
    server = Server(binary=guide_app(), bundled_scenes=None)
    try:
        wave_and_see_it_elsewhere(browser, server.url, server.url)
    finally:
        server.stop()


def test_a_wave_through_one_server_reaches_a_page_on_the_other_on_postgresql(browser):
    database = Postgres()
    key = signing_key_file()
    servers = []
    try:
        for _ in range(2):
            servers.append(Server("--secret-file", str(key), database=database.url, binary=guide_app(), bundled_scenes=None))
        wave_and_see_it_elsewhere(browser, servers[0].url, servers[1].url)
    finally:
        for server in servers:
            server.stop()
        database.stop()
        shutil.rmtree(key.parent, ignore_errors=True)
