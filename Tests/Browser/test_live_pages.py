"""The live browser host, as a person uses it: every control works in place, and the page
is never reloaded for it (a marker set on `window` survives)."""
import json
import pathlib
import re
import subprocess
import tempfile
import time

import pytest
from playwright.sync_api import expect

from conftest import BINARY, Server, forged_socket, open_live, same_page, sign_in

DRAFT_TITLES = ["Through the looking glass", "草稿：下一篇茶会"]


def test_a_page_is_readable_before_any_script_runs(server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/scenes/user-profile?user=1")
    expect(page.get_by_role("heading", level=1, name="Alice Liddell")).to_be_visible()  # the page names her
    expect(page.get_by_text("The pool of tears, part 3")).to_be_visible()
    context.close()


def test_like_and_unlike_update_in_place(server, context):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    like = page.locator("#blogs\\/blog\\.26\\.like")
    expect(like).to_have_text("Like")
    like.click()
    expect(like).to_have_text("Unlike")
    expect(page.locator("#blogs\\/blog\\.26\\.likes")).to_have_text("Likes: 1")
    like.click()
    expect(like).to_have_text("Like")
    assert same_page(page)


def test_unfollow_asks_in_a_real_dialog_that_escape_cancels(server, context):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    follow = page.locator("#info\\/follow")
    expect(follow).to_have_text("Unfollow")
    follow.click()
    dialog = page.get_by_role("dialog", name="Unfollow Alice Liddell?")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    expect(dialog.get_by_role("button", name="Unfollow")).to_have_class("danger")  # destructive looks destructive
    size = dialog.get_by_role("button", name="Unfollow").bounding_box()
    assert size["height"] >= 44 and size["width"] >= 44, size  # a touch target
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(follow).to_have_text("Unfollow")
    follow.click()
    page.get_by_role("dialog").get_by_role("button", name="Unfollow").click()
    expect(page.locator("#info\\/follow")).to_have_text("Follow")
    page.locator("#info\\/follow").click()  # follow again: no confirmation for that
    expect(page.locator("#info\\/follow")).to_have_text("Unfollow")
    assert same_page(page)


def test_the_owner_switches_tabs_on_a_list_that_needs_no_refresh(server, context):
    page = context.new_page()
    sign_in(page, server, "Alice Liddell")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    drafts = page.get_by_role("tab", name="Drafts")
    drafts.click()
    expect(drafts).to_have_attribute("aria-selected", "true")
    expect(page.get_by_text("Through the looking glass")).to_be_visible()
    page.get_by_role("tab", name="Blogs").click()
    # The page holds a window of a long list: the scene's first page (10) of 27 blogs, the
    # rest reached by scrolling, and nothing to load by hand.
    rows = page.locator("#blogs\\/all > ul > li")
    expect(rows).to_have_count(10)
    expect(page.locator("#blogs\\/all")).to_have_attribute("data-total-rows", "27")
    expect(page.get_by_role("button", name="Load more")).to_have_count(0)
    # The list is live: no Refresh to press (it shows only while a change could not be fetched).
    expect(page.get_by_role("button", name="Refresh")).to_have_count(0)
    assert same_page(page)


# Everything the page's status line said, recorded as it changes (a toast lasts 4 s).
RECORD_STATUS = """() => {
  window.__statusSaid = [];
  const status = document.getElementById("scenery-status");
  new MutationObserver(() => { if (status.textContent) window.__statusSaid.push(status.textContent); })
    .observe(status, { childList: true, characterData: true, subtree: true });
}"""


def test_switching_tabs_and_scrolling_shows_no_bookkeeping_toast(server, browser):
    """Visibility reports are the page's own bookkeeping: one the server declines (a row that
    just left the window, a tab just hidden) is dropped quietly, never a toast for a person
    who did nothing ("That is not on this page" appeared for visitors and the owner)."""
    for name in ["Alice Liddell", "Bob Chen", None]:
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        try:
            page = context.new_page()
            if name:
                sign_in(page, server, name)
            open_live(page, server.url + "/scenes/user-profile?user=1")
            page.evaluate(RECORD_STATUS)
            blogs = page.locator("#blogs\\/all")
            # Rows leave the window as it moves (each move a round trip to the server, after
            # the reports the page sent before it).
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            expect(blogs).not_to_have_attribute("data-first-row", "0")
            blogs.evaluate("section => section.scrollIntoView()")
            expect(blogs).to_have_attribute("data-first-row", "0")
            if name == "Alice Liddell":
                # Tabs hidden a moment after their rows were reported.
                for _ in range(3):
                    page.get_by_role("tab", name="Drafts").click()
                    expect(page.get_by_text("Through the looking glass")).to_be_visible()
                    page.get_by_role("tab", name="Blogs").click()
                    expect(blogs).to_be_visible()
                page.get_by_role("tab", name="Drafts").click()
                expect(page.get_by_text("Through the looking glass")).to_be_visible()
            said = page.evaluate("window.__statusSaid")
            assert not [text for text in said if "not on this page" in text or "nothing was counted" in text], f"{name}: {said}"
            assert same_page(page)
        finally:
            context.close()


def test_load_more_pages_a_list_when_pages_get_whole_lists(context):
    whole = Server("--window-rows", "0")
    try:
        page = context.new_page()
        open_live(page, whole.url + "/scenes/user-profile?user=1")
        rows = page.locator("#blogs\\/all > ul > li")
        expect(rows).to_have_count(10)
        page.get_by_role("button", name="Load more").click()
        expect(rows).to_have_count(20)
        expect(page.get_by_role("button", name="Refresh")).to_have_count(0)
        assert same_page(page)
    finally:
        whole.stop()


def test_navigation_changes_the_address_and_history_works(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=1")
    page.get_by_text("A mad tea party, part 3").click()
    expect(page).to_have_url(re.compile(r"/scenes/blog-detail\?blog=26$"))
    expect(page.get_by_role("heading", level=1, name="A mad tea party, part 3")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(re.compile(r"/scenes/user-profile\?user=1$"))
    page.go_forward()
    expect(page).to_have_url(re.compile(r"/scenes/blog-detail\?blog=26$"))
    page.reload()
    expect(page.get_by_role("heading", level=1, name="A mad tea party, part 3")).to_be_visible()


def test_rows_and_avatars_work_by_keyboard(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=1")
    row = page.locator("#blogs\\/blog\\.25")
    row.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/scenes/blog-detail\?blog=25$"))


@pytest.mark.allows_toasts(r"^Reconnecting")
def test_a_dropped_connection_resumes_the_same_scene_and_sends_what_was_done_meanwhile(server, context):
    page = context.new_page()
    sign_in(page, server, "Alice Liddell")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    page.get_by_role("tab", name="Drafts").click()
    expect(page.get_by_text("Through the looking glass")).to_be_visible()
    page.get_by_role("tab", name="Blogs").click()
    rows = page.locator("#blogs\\/all > ul > li")
    expect(rows).to_have_count(10)  # the scene's first page
    context.set_offline(True)
    expect(page.locator("#scenery-status")).to_contain_text("Reconnecting")
    page.locator("#blogs\\/blog\\.26\\.like").click()
    expect(page.locator("#scenery-status")).to_contain_text("your action will be sent")
    context.set_offline(False)
    expect(page.locator("#blogs\\/blog\\.26\\.like")).to_have_text("Unlike", timeout=10_000)
    expect(rows).to_have_count(10)  # the same scene, not a new one
    expect(page.locator("#scenery-status")).to_be_empty()
    assert same_page(page)


@pytest.mark.allows_toasts(r"^Reconnecting")  # its forged messages close the socket
def test_another_viewer_never_receives_drafts_whatever_the_client_sends(server, context):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    frames = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)))
    open_live(page, server.url + "/scenes/user-profile?user=1")
    session = page.locator("main").get_attribute("data-session")
    # A hand-made client beside the page (same cookies): forged controls, a draft id, a tab
    # that is not there. Done when each is refused, or when the page's own client reconnects
    # and takes its session back (the hand-made socket is closed then).
    forged = [json.dumps({"type": "event", "node": node}) for node in ["drafts/draft.1", "sections#drafts", "drafts/more", "../../etc"]]
    replies = forged_socket(context.new_page(), server, session, forged, "refused", count=4)["received"]
    page.locator("#blogs\\/blog\\.25\\.like").click()
    expect(page.locator("#blogs\\/blog\\.25\\.like")).to_have_text("Unlike")
    everything = page.content() + "".join(str(frame) for frame in frames) + json.dumps(replies, ensure_ascii=False)
    for title in DRAFT_TITLES:
        assert title not in everything


def test_the_demo_peoples_pictures_load_from_the_server(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=1")
    avatar = page.locator("img#info\\/avatar")
    expect(avatar).to_have_attribute("src", "/pictures/alice.svg")
    page.wait_for_function("document.getElementById('info/avatar').complete")
    assert avatar.evaluate("(image) => image.naturalWidth") > 0, "Alice's picture loaded"
    # A picture's name never reaches outside the server's picture folders.
    for name in ["..%2FPackage.swift", "alice.txt", ".hidden.svg", "missing.svg"]:
        assert page.request.get(server.url + "/pictures/" + name).status == 404, name


@pytest.mark.allows_console(r"status of 404")  # the picture that is gone
def test_avatars_that_fail_to_load_show_the_persons_initials(context):
    exported = subprocess.run([BINARY, "data", "export", "-", "--database", str(pathlib.Path(tempfile.mkdtemp()) / "demo.sqlite")],
                              check=True, capture_output=True, text=True).stdout
    data = json.loads(exported)
    for user in data["users"]:
        if user["id"] == "1":
            user["avatarURL"] = "/pictures/gone.svg"  # a picture that is no longer there
    broken = Server(data=json.dumps(data))
    try:
        page = context.new_page()
        open_live(page, broken.url + "/scenes/user-profile?user=1")
        avatar = page.locator("#info\\/avatar")
        # The image fails, and Alice's initials take its place.
        expect(avatar).to_have_class("symbol initials")
        expect(avatar).to_have_text("AL")
        expect(avatar).to_have_attribute("aria-label", "Avatar of Alice Liddell")
    finally:
        broken.stop()


def test_the_chinese_profile_is_marked_chinese(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=3&lang=zh-Hans")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    expect(page.get_by_role("heading", level=1, name="李雷")).to_be_visible()  # the page names the person


def test_preview_shows_every_variant_side_by_side(server, context):
    page = context.new_page()
    sign_in(page, server, "Alice Liddell")
    page.goto(server.url + "/preview/user-profile?user=1")
    frames = page.locator("iframe")
    expect(frames).to_have_count(5)  # owner, another viewer, signed out; then the two arms of friends-layout
    owner = page.frame_locator("iframe").nth(0)
    expect(owner.get_by_role("tab", name="Drafts")).to_be_visible()
    expect(page.frame_locator("iframe").nth(1).get_by_role("heading", level=2, name="Bob Chen")).to_be_visible()  # Alice on Bob's
    expect(page.frame_locator("iframe").nth(2).get_by_role("heading", level=2, name="Alice Liddell")).to_be_visible()  # signed out
    for index in (1, 2, 3, 4):
        expect(page.frame_locator("iframe").nth(index).get_by_role("tab", name="Drafts")).to_have_count(0)
    owner.get_by_role("tab", name="Drafts").click()
    expect(owner.get_by_text("Through the looking glass")).to_be_visible()


def test_saving_a_scene_file_updates_open_pages_and_errors_show_until_fixed(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/friend-list?user=1")
    scene = server.scenes / "friend-list.json"
    original = scene.read_text(encoding="utf-8")
    try:
        edited = original.replace('"presenter": "friend" }', '"presenter": "friend", "header": "Everyone I know" }')
        assert edited != original
        scene.write_text(edited, encoding="utf-8")
        expect(page.get_by_role("heading", name="Everyone I know")).to_be_visible(timeout=3000)
        scene.write_text(edited.replace('"modules": [', '"modules": [ { "id": "x", "type": "NoSuchModule" },'), encoding="utf-8")
        overlay = page.locator("#scenery-errors")
        expect(overlay).to_contain_text("friend-list.json:", timeout=3000)
        expect(overlay).to_contain_text("Unknown module type 'NoSuchModule'")
        expect(page.get_by_role("heading", name="Everyone I know")).to_be_visible()  # the last good version
        scene.write_text(original, encoding="utf-8")
        expect(overlay).to_have_count(0, timeout=3000)
        expect(page.get_by_role("heading", name="Everyone I know")).to_have_count(0)
        assert same_page(page)
    finally:
        scene.write_text(original, encoding="utf-8")


@pytest.mark.allows_toasts(r"injected fault")
def test_error_and_empty_states_show_as_in_the_terminal(context):
    from conftest import Server
    failing = Server("--fail", "blogs")
    try:
        page = context.new_page()
        open_live(page, failing.url + "/scenes/user-profile?user=1")
        error = page.locator("#blogs\\/error")
        expect(error).to_contain_text("The blogs service is unavailable (injected fault).")
        error.get_by_role("button", name="Retry").click()
        expect(page.locator("#scenery-status")).to_be_empty()
        expect(error).to_contain_text("The blogs service is unavailable")  # retried, and failed again, in place
        open_live(page, failing.url + "/scenes/user-profile?user=99")
        expect(page.locator("#info\\/error")).to_contain_text("No user with id '99' exists.")
        expect(page.locator("#info\\/error").get_by_role("button", name="Retry")).to_have_count(0)
        assert same_page(page)
    finally:
        failing.stop()


@pytest.mark.allows_console(r"status of 404")  # the not-found page answers 404
def test_a_missing_user_is_one_not_found_page_with_a_way_back(server, context):
    page = context.new_page()
    response = page.goto(server.url + "/scenes/user-profile?user=99")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Not found")
    expect(page.get_by_text("No user with id '99' exists.")).to_have_count(1)  # once, not once per module
    page.get_by_role("link", name="Back to the home page").click()
    expect(page).to_have_url(server.url + "/")


def test_an_empty_list_says_so_and_tells_its_own_person_what_to_do(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=5")
    expect(page.locator("#blogs\\/blogs\\.empty")).to_have_text("No blogs yet.")
    sign_in(page, server, "Dana Quiet")
    open_live(page, server.url + "/scenes/user-profile?user=5")
    expect(page.locator("#blogs\\/blogs\\.empty")).to_have_text("No blogs yet: publish one from the drafts on your profile.")


@pytest.mark.allows_toasts(r"injected fault")
def test_a_like_that_fails_to_save_rolls_back_with_a_notice_next_to_its_button_announced(context):
    from conftest import Server
    failing = Server("--fail", "blogs:writes")
    try:
        page = context.new_page()
        sign_in(page, failing, "Bob Chen")
        open_live(page, failing.url + "/scenes/user-profile?user=1")
        like = page.locator("#blogs\\/blog\\.26\\.like")
        like.click()
        notice = page.locator("#blogs\\/blog\\.26\\.failure")
        expect(notice).to_contain_text("Couldn't like “A mad tea party, part 3”")
        expect(notice).to_have_attribute("role", "status")
        expect(page.locator("#scenery-status")).to_contain_text("Couldn't like “A mad tea party, part 3”")  # announced
        expect(like).to_have_text("Like")  # rolled back
        # Next to the button, not 3,000 px down the page: within a screen of it.
        distance = page.evaluate("""() => Math.abs(document.getElementById('blogs/blog.26.failure').getBoundingClientRect().top
                                    - document.getElementById('blogs/blog.26.like').getBoundingClientRect().top)""")
        assert distance < 120, distance
        assert same_page(page)
    finally:
        failing.stop()


def test_the_home_page_is_where_a_visitor_starts(server, context):
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome")
    people = page.get_by_role("region", name="People")
    expect(people.get_by_role("link", name="Alice Liddell")).to_be_visible()
    page.get_by_role("link", name="Every scene of this site, for developers").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scenes")
    page.go_back()
    with page.expect_websocket():
        page.get_by_role("region", name="People").get_by_role("link", name="Alice Liddell").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice Liddell")
    sign_in(page, server, "Bob Chen")
    page.goto(server.url + "/")
    expect(page.get_by_text("Welcome back, Bob Chen.")).to_be_visible()
    with page.expect_websocket():
        page.get_by_role("link", name="Your page").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bob Chen")


def test_a_chinese_browser_gets_the_profile_in_chinese_and_the_switch_keeps_it_live(server, browser):
    context = browser.new_context(locale="zh-CN")  # Accept-Language: zh-CN
    try:
        page = context.new_page()
        sign_in(page, server, "Bob Chen")
        open_live(page, server.url + "/scenes/user-profile?user=1")
        assert page.locator("html").get_attribute("lang") == "zh-Hans"
        like = page.locator("#blogs\\/blog\\.26\\.like")
        expect(like).to_have_text("赞")
        page.locator("summary", has_text="Display").click()  # the language and theme menu
        switch = page.get_by_role("navigation", name="Language")
        expect(switch.get_by_role("link", name="English")).to_be_visible()
        with page.expect_websocket():
            switch.get_by_role("link", name="English").click()
        assert page.locator("html").get_attribute("lang") == "en"
        like = page.locator("#blogs\\/blog\\.26\\.like")
        expect(like).to_have_text("Like")
        like.click()  # the page in the chosen language is live
        expect(like).to_have_text("Unlike")
        like.click()
        expect(like).to_have_text("Like")
        # The choice is kept: the next page comes in English, whatever the browser says.
        with page.expect_websocket():
            page.goto(server.url + "/scenes/user-profile?user=2")
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()


def test_saving_a_message_catalog_rewords_open_pages_in_its_language(server, context):
    page = context.new_page()
    open_live(page, server.url + "/scenes/friend-list?user=1&lang=zh-Hans")
    scene = page.locator("#scene-root")  # the list's header, not the page's title (also 好友)
    expect(scene.get_by_role("heading", name="好友", exact=True)).to_be_visible()
    catalog = server.scenes / "zh-Hans.messages.json"
    original = catalog.read_text(encoding="utf-8")
    try:
        edited = original.replace("other {好友}}", "other {我的好友}}")
        assert edited != original
        catalog.write_text(edited, encoding="utf-8")
        expect(scene.get_by_role("heading", name="我的好友")).to_be_visible(timeout=3000)
        catalog.write_text(edited.replace('"modules": {', '"modules": { "NoSuchModule": {},', 1), encoding="utf-8")
        overlay = page.locator("#scenery-errors")
        expect(overlay).to_contain_text("zh-Hans.messages.json", timeout=3000)
        expect(overlay).to_contain_text("There is no module type 'NoSuchModule'")
        catalog.write_text(original, encoding="utf-8")
        expect(overlay).to_have_count(0, timeout=3000)
        expect(scene.get_by_role("heading", name="好友", exact=True)).to_be_visible()
        assert same_page(page)
    finally:
        catalog.write_text(original, encoding="utf-8")


def test_the_keyboard_skips_to_the_content_and_moves_between_tabs_with_arrows(server, context):
    """The first tab stop is a skip link to the content; tabs are one tab stop, and the arrow
    keys (and Home, End) select the next tab and keep the focus on it, as the ARIA tabs
    pattern has it."""
    page = context.new_page()
    sign_in(page, server, "Alice Liddell")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    blogs, drafts = page.get_by_role("tab", name="Blogs"), page.get_by_role("tab", name="Drafts")
    expect(drafts).to_have_attribute("tabindex", "-1")  # one tab stop for the tabs: the selected one
    blogs.focus()
    page.keyboard.press("ArrowRight")
    expect(drafts).to_have_attribute("aria-selected", "true")
    expect(page.get_by_text("Through the looking glass")).to_be_visible()
    expect(drafts).to_be_focused()  # the focus stays on the tab the patch replaced
    page.keyboard.press("Home")
    expect(blogs).to_have_attribute("aria-selected", "true")
    expect(blogs).to_be_focused()
    assert same_page(page)
