"""The page protocol is versioned and typed: a page announces the version it speaks when it
opens its socket; one from another version of the site (or from before versions) is closed
with the code that makes the page load itself again and a reason that says so, and a
message of the old, untyped shape is refused with a message that says what to do."""
import json

import pytest
from playwright.sync_api import expect

from conftest import Server, forged_socket, free_port, open_live, same_page, sign_in

PROFILE = "/scenes/user-profile?user=1"


def test_the_page_announces_the_version_it_speaks(server, context):
    page = context.new_page()
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    open_live(page, server.url + PROFILE)
    assert sockets and "&protocol=1&" in sockets[0] + "&", sockets
    assert "&resume=" in sockets[0], "with its resume token, in case its server went away"


def test_a_page_of_another_version_is_told_to_load_again(server, context):
    page = context.new_page()
    open_live(page, server.url + PROFILE)
    session = page.locator("main").get_attribute("data-session")
    newer = forged_socket(page, server, session, [], protocol=2)
    assert newer == {"received": [], "code": 4404,
                     "reason": "This page was updated: reload it to get the new version (it speaks page protocol 2, the site 1)."}
    older = forged_socket(page, server, session, [], protocol=None)
    assert older == {"received": [], "code": 4404, "reason": "This page was updated: reload it to get the new version."}


def test_a_message_of_the_old_untyped_shape_is_refused_clearly(server, context):
    page = context.new_page()
    open_live(page, server.url + PROFILE)
    session = page.locator("main").get_attribute("data-session")
    result = forged_socket(page, server, session, [json.dumps({"t": "event", "node": "blogs/refresh"})], "refused")
    assert [message for message in result["received"] if message["type"] == "refused"] == [{
        "type": "refused",
        "message": "This page speaks the page protocol from before version 1 (messages with \"t\"); load the page again."}]


@pytest.mark.allows_toasts(r"was not signed by this site; load the page again\.")
def test_a_page_the_new_server_cannot_take_says_so_keeps_what_was_typed_and_never_reloads_itself(browser):
    """A deploy with another signing key: the page's socket comes back to a server that
    cannot resume it (4404). The page says why and offers Reload; it does not reload by
    itself, so the title Alice typed stays; Reload asks first, because of that title."""
    port = free_port()
    server = Server(port=port)
    context = browser.new_context()
    try:
        page = context.new_page()
        sign_in(page, server, "Alice Liddell")
        open_live(page, server.url + PROFILE)
        page.get_by_role("tab", name="Drafts").click()
        title = page.locator("form[data-form='drafts/compose']").get_by_label("Title")
        title.click()
        page.keyboard.type("Kept across a deploy")
        server.stop()
        server = Server(port=port)  # a new server with a key of its own
        reload = page.locator("#scenery-status button.reload")
        expect(reload).to_be_visible(timeout=20_000)
        expect(page.locator("#scenery-status")).to_contain_text("was not signed by this site")
        expect(title).to_have_value("Kept across a deploy")
        assert same_page(page), "not reloaded by itself"
        questions = []
        page.on("dialog", lambda dialog: (questions.append(dialog.type), dialog.accept()))
        with page.expect_navigation():
            reload.click()
        assert questions == ["beforeunload"], questions
        assert not same_page(page), "reloaded when asked"
    finally:
        context.close()
        server.stop()
