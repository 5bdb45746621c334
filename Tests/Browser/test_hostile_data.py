"""Script and markup in every field of the data, loaded in a real Chromium: shown as text,
never run, in the first page and in every live update."""
import json
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import BINARY, Server, open_live, sign_in

HOSTILE = '<img src=x onerror="window.__pwned=1">"\'><script>window.__pwned=2</script>'


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    exported = subprocess.run([BINARY, "data", "export", "-", "--database", str(tmp_path_factory.mktemp("export") / "demo.sqlite")],
                              check=True, capture_output=True, text=True).stdout
    data = json.loads(exported)
    for user in data["users"]:
        if user["id"] == "1":
            user["name"] = "Alice " + HOSTILE
            user["summary"] = HOSTILE
            user["avatarURL"] = "javascript:window.__pwned=3"
    for blog in data["blogs"]:
        if blog["id"] == 26:
            blog["title"] = "Tea " + HOSTILE
    running = Server(data=json.dumps(data))
    yield running
    running.stop()


def test_hostile_text_is_shown_not_run_in_pages_and_live_updates(hostile_server, context):
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    sign_in(page, hostile_server, "Bob Chen")
    open_live(page, hostile_server.url + "/scenes/user-profile?user=1")
    expect(page.locator("#info\\/name")).to_have_text("Alice " + HOSTILE)
    like = page.locator("#blogs\\/blog\\.26\\.like")
    like.click()
    expect(like).to_have_text("Unlike")  # the row came back as a server fragment
    expect(page.locator("#blogs\\/blog\\.26\\.title")).to_have_text("Tea " + HOSTILE)
    page.locator("#info\\/follow").click()
    expect(page.get_by_role("dialog")).to_contain_text(HOSTILE)  # the confirmation names the user as text
    page.keyboard.press("Escape")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src^='javascript']").count() == 0
    assert dialogs == []
