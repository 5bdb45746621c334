"""axe-core (bundled in axe-playwright-python) finds no violation on any page: every
bundled scene for its owner, another viewer and a signed-out viewer, and the server's own
pages."""
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import open_live, sign_in

SCENES = [
    "/scenes/user-profile?user=1",
    "/scenes/follow-list?user=1&list=followers",
    "/scenes/friend-list?user=1",
    "/scenes/blog-detail?blog=27",
    # Last: the language switch's choice is kept (a cookie), so the pages after it are in
    # Chinese too.
    "/scenes/user-profile?user=1&lang=zh-Hans",
    "/scenes/user-profile?user=4",
    "/scenes/friend-list?user=1",
    "/scenes/follow-list?user=1&list=following",
]
VIEWERS = [("Alice Liddell", "the owner"), ("Bob Chen", "another viewer"), (None, "signed out")]


def violations(page):
    results = Axe().run(page)
    return [(violation["id"], [node["target"] for node in violation["nodes"]][:3]) for violation in results.response["violations"]]


@pytest.mark.parametrize("viewer,role", VIEWERS, ids=[role for _, role in VIEWERS])
def test_every_scene_page_has_no_violation(server, browser, viewer, role):
    context = browser.new_context()
    page = context.new_page()
    if viewer:
        sign_in(page, server, viewer)
    found = {}
    for path in SCENES:
        open_live(page, server.url + path)
        # Every image has loaded or failed over to its fallback circle.
        page.wait_for_function("() => Array.from(document.images).every(image => image.complete)")
        problems = violations(page)
        if problems:
            found[path] = problems
    context.close()
    assert found == {}


def test_the_drafts_tab_and_a_confirmation_have_no_violation(server, browser):
    context = browser.new_context()
    page = context.new_page()
    sign_in(page, server, "Alice Liddell")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    page.get_by_role("tab", name="Drafts").click()
    page.get_by_text("Through the looking glass").wait_for()
    assert violations(page) == []
    open_live(page, server.url + "/scenes/user-profile?user=2")
    page.locator("#info\\/follow").click()
    page.get_by_role("dialog").wait_for()
    assert violations(page) == []
    context.close()


@pytest.mark.allows_console(r"status of 404")  # the not-found page answers 404
@pytest.mark.parametrize("path", ["/", "/scenes", "/sign-in", "/preview/user-profile?user=1", "/scenes/no-such-scene"])
def test_the_servers_own_pages_have_no_violation(server, context, path):
    page = context.new_page()
    page.goto(server.url + path, wait_until="load")
    assert violations(page) == []
