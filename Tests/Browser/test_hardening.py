"""What an attacker tries in a browser: the preview as someone else, a socket for another
page, a sign-in that leads off the site, and a scene folder full of files that are not
files. Nobody's drafts reach anybody else, and the server keeps working."""
import json
import os
import re

import pytest
from playwright.sync_api import expect

from conftest import forged_socket, open_live, sign_in

DRAFT_TITLES = ["Through the looking glass", "草稿：下一篇茶会", "李雷的草稿"]


def frame_texts(page):
    return [frame.content() for frame in page.frames]


def test_signed_out_the_preview_shows_only_the_signed_out_variant(server, context):
    page = context.new_page()
    page.goto(server.url + "/preview/user-profile?user=1")
    expect(page.get_by_text("Sign in to see the owner's and another viewer's variants")).to_be_visible()
    # Signed out, then the bundled experiment's two arms (signed-out visitors take part).
    expect(page.locator("iframe")).to_have_count(3)
    expect(page.frame_locator("iframe").nth(0).get_by_role("heading", level=2, name="Alice Liddell")).to_be_visible()
    expect(page.frame_locator("iframe").nth(0).get_by_role("tab", name="Drafts")).to_have_count(0)
    for text in frame_texts(page):
        for title in DRAFT_TITLES:
            assert title not in text


def test_another_viewer_previews_with_their_own_data_only(server, context):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    page.goto(server.url + "/preview/user-profile?user=1")
    expect(page.locator("iframe")).to_have_count(5)  # owner, another viewer, signed out, two arms
    owner = page.frame_locator("iframe").nth(0)
    expect(owner.get_by_role("heading", level=2, name="Bob Chen")).to_be_visible()  # Bob's own profile
    owner.get_by_role("tab", name="Drafts").click()
    expect(owner.locator("#drafts\\/drafts\\.empty")).to_be_visible()  # Bob has no drafts
    for text in frame_texts(page):
        for title in DRAFT_TITLES:
            assert title not in text


@pytest.mark.allows_console(r"status of 403")  # the refusal itself
def test_a_forged_as_gets_a_refusal_not_a_page(server, context):
    page = context.new_page()
    for signed_in in (None, "Bob Chen"):
        if signed_in:
            sign_in(page, server, signed_in)
        for language in ("", "&lang=zh-Hans"):
            response = page.goto(server.url + f"/preview/user-profile/frame?as=1&user=1{language}")
            assert response.status == 403
            expect(page.get_by_role("heading", name="A preview shows your own view only")).to_be_visible()
            content = page.content()
            assert "data-session" not in content
            for title in DRAFT_TITLES:
                assert title not in content


def test_a_preview_socket_drives_only_its_own_page(server, context):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    open_live(page, server.url + "/preview/blog-detail/frame?as=&blog=26")
    session = page.locator("main").get_attribute("data-session")
    result = forged_socket(page, server, session, [json.dumps({"type": "event", "node": "sections#drafts"})], "refused")
    assert [message["message"] for message in result["received"] if message["type"] == "refused"] == ["That control is not on this page."]
    assert not any(title in json.dumps(result["received"], ensure_ascii=False) for title in DRAFT_TITLES)
    # Alice's own preview frame, then Bob's sign-in on its socket: closed, nothing sent.
    other = context.browser.new_context()
    alice = other.new_page()
    sign_in(alice, server, "Alice Liddell")
    open_live(alice, server.url + "/preview/user-profile/frame?as=1&user=1")
    alice_session = alice.locator("main").get_attribute("data-session")
    other.close()
    stolen = forged_socket(page, server, alice_session, [json.dumps({"type": "event", "node": "sections#drafts"})], None)
    assert stolen["received"] == []
    assert stolen["code"] == 1008


def test_a_sign_in_never_leads_off_the_site(server, context):
    page = context.new_page()
    page.goto(server.url + "/sign-in?next=%2F%09%2Fevil.example")
    page.get_by_role("button", name="Sign in as Bob Chen").click()
    page.wait_for_load_state()
    assert page.url == server.url + "/"
    expect(page.get_by_text("Signed in as")).to_be_visible()


def test_files_that_are_not_files_do_not_stop_other_scenes_reloading(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/friend-list?user=1")
    scene = server.scenes / "friend-list.json"
    original = scene.read_text(encoding="utf-8")
    fifo = server.scenes / "zz-pipe.json"
    loop = server.scenes / "zz-loop.json"
    os.mkfifo(fifo)
    os.symlink(loop, loop)
    try:
        overlay = page.locator("#scenery-errors")
        expect(overlay).to_contain_text("zz-pipe.json", timeout=5000)
        expect(overlay).to_contain_text("it is a FIFO, not a file")
        expect(overlay).to_contain_text("zz-loop.json")
        scene.write_text(original.replace('"presenter": "friend" }', '"presenter": "friend", "header": "Everyone I know" }'),
                         encoding="utf-8")
        expect(page.get_by_role("heading", name="Everyone I know")).to_be_visible(timeout=5000)
    finally:
        scene.write_text(original, encoding="utf-8")
        fifo.unlink()
        loop.unlink()
    expect(page.locator("#scenery-errors")).to_have_count(0, timeout=5000)
    expect(page.get_by_role("heading", name="Everyone I know")).to_have_count(0)


@pytest.mark.allows_console(r"a bug in this page|Scenery page: script problem")  # the error the test makes
def test_a_script_error_in_a_page_reaches_the_authors_log_and_no_one_else(server, context):
    """An error in the page's own script is reported over its socket and logged by the server
    as a warning, on one line, naming the scene; the page carries on."""
    page = context.new_page()
    # The page reports a problem only over an open socket, and open_live returns once the
    # socket is made, not open: an error thrown before it opened was dropped (a flaky test).
    page.add_init_script(
        "window.WebSocket = class extends window.WebSocket {"
        " constructor(...args) { super(...args); this.addEventListener('open', () => { window.__socketOpen = true; }); } };"
    )
    open_live(page, server.url + "/scenes/user-profile?user=1")
    page.wait_for_function("() => window.__socketOpen === true")
    page.evaluate("setTimeout(() => { throw new Error('a bug in this page\\nwarning: a forged line') }, 0)")
    line = server.wait_for_log("a bug in this page")
    assert "its script problem at scene user-profile: 'Error: a bug in this page\\nwarning: a forged line" in line, line
    assert "warning" in line.split("its script problem")[0], line
    with page.expect_websocket():  # the page still works: its followers' count leads on
        page.locator("#info\\/followers").click()
    expect(page).to_have_url(re.compile(r"/scenes/follow-list\?"))
