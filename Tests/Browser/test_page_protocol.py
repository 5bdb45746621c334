"""The page protocol is versioned and typed: a page announces the version it speaks when it
opens its socket; one from another version of the site (or from before versions) is closed
with the code that makes the page load itself again and a reason that says so, and a
message of the old, untyped shape is refused with a message that says what to do."""
import json

from conftest import forged_socket, open_live

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
                     "reason": "This page speaks page protocol 2, this server 1; load the page again."}
    older = forged_socket(page, server, session, [], protocol=None)
    assert older == {"received": [], "code": 4404, "reason": "This page was made by an older version of the site; load it again."}


def test_a_message_of_the_old_untyped_shape_is_refused_clearly(server, context):
    page = context.new_page()
    open_live(page, server.url + PROFILE)
    session = page.locator("main").get_attribute("data-session")
    result = forged_socket(page, server, session, [json.dumps({"t": "event", "node": "blogs/refresh"})], "refused")
    assert [message for message in result["received"] if message["type"] == "refused"] == [{
        "type": "refused",
        "message": "This page speaks the page protocol from before version 1 (messages with \"t\"); load the page again."}]
