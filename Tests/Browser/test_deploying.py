"""The Deploying guide, as a person would follow it: `scenery serve` behind a real nginx
running the checked-in configuration (Examples/Deploying/nginx.conf, only its two loopback
addresses changed), with the server's signing key from a file. Sign-in, pages and their
live sockets all go through nginx."""
import shutil

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Nginx, Server, open_live, same_page, sign_in, signing_key_file

CONFIGURATION = ROOT / "Examples" / "Deploying" / "nginx.conf"
PROFILE = "/scenes/user-profile?user=1"


@pytest.fixture(scope="module")
def site():
    key = signing_key_file()
    server = Server("--secret-file", str(key), "--trusted-proxy", "127.0.0.1")
    proxy = Nginx(CONFIGURATION, {"server 127.0.0.1:8080;": f"server {server.url.removeprefix('http://')};"})
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
