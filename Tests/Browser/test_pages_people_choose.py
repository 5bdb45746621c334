"""Pages people would choose (issue 61): a one-line bar with languages and themes in one
menu, the page's subject named once, counts and names that read as links, a quiet like
control, a way back from a blog, and one name for a nameless person."""
import pytest
from playwright.sync_api import expect

from conftest import GUARD, Server, open_live, sign_in

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def one_line_high(page, selector):
    """Whether every child of the element sits on one line: the tops of its children are
    within a few pixels of each other."""
    return page.evaluate(
        """(selector) => {
          const children = Array.from(document.querySelector(selector).children).filter((child) => child.getClientRects().length);
          const tops = children.map((child) => child.getBoundingClientRect());
          const middle = (box) => box.top + box.height / 2;
          return Math.max(...tops.map(middle)) - Math.min(...tops.map(middle));
        }""",
        selector)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("who", ["Alice Liddell", "Bob Chen", None])
def test_the_bar_is_one_line_with_languages_and_themes_in_one_menu(browser, server, size, who):
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        if who:
            sign_in(page, server, who)
        open_live(page, server.url + "/scenes/user-profile?user=1")
        spread = one_line_high(page, "header.bar")
        assert spread <= 4, f"the bar's parts are {spread} px apart in height: it wraps"
        languages = page.get_by_role("navigation", name="Language")
        expect(languages).to_be_hidden()  # inside the closed menu
        page.locator("summary", has_text="Display").click()
        expect(languages.get_by_role("link", name="English")).to_be_visible()
        expect(page.get_by_role("navigation", name="Theme").get_by_role("link", name="Dark")).to_be_visible()
        box = page.locator(".display .choices").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"], f"the open menu leaves the screen: {box}"
    finally:
        context.close()


def visible_texts(page, text):
    """How many elements a person sees (larger than a pixel) whose own text is exactly `text`."""
    return page.evaluate(
        """(text) => Array.from(document.querySelectorAll("main *")).filter((element) =>
            Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.textContent.trim() === text)
            && element.getBoundingClientRect().width > 1 && element.getBoundingClientRect().height > 1).length""",
        text)


def test_the_page_names_its_subject_once_and_keeps_its_heading_for_screen_readers(context, server):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=1")
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice Liddell")
    assert visible_texts(page, "Alice Liddell") == 1
    open_live(page, server.url + "/scenes/blog-detail?blog=27")
    expect(page.get_by_role("heading", level=1)).to_have_text("The pool of tears, part 3")
    assert visible_texts(page, "The pool of tears, part 3") == 1


def test_counts_and_bylines_read_as_links_and_the_like_control_is_quiet(context, server):
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    accent = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--scenery-color-accent').trim()")
    accent_rgb = page.evaluate(
        "(hex) => { const d = document.createElement('i'); d.style.color = hex; document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c; }",
        accent)
    for count in ["#info\\/blogs", "#info\\/friends", "#info\\/followers"]:
        style = page.locator(count).evaluate("(e) => [getComputedStyle(e).color, getComputedStyle(e).textDecorationLine]")
        assert style == [accent_rgb, "underline"], (count, style)
    like = page.locator("#blogs\\/blog\\.26\\.like")
    expect(like).to_have_text("Like")
    background = like.evaluate("(e) => getComputedStyle(e).backgroundColor")
    assert background != accent_rgb, "a like on every row is not the page's call to action"
    # Follow is the one call to action on someone's profile.
    follow = page.locator("#info\\/follow")
    assert follow.evaluate("(e) => e.className") in ("primary", "destructive")


def test_a_blog_page_leads_back_to_its_author(context, server):
    page = context.new_page()
    open_live(page, server.url + "/scenes/blog-detail?blog=27")
    byline = page.locator("#post\\/blog\\.27\\.byline")
    assert byline.evaluate("(e) => getComputedStyle(e).textDecorationLine") == "underline"
    with page.expect_websocket():
        byline.click()
    expect(page).to_have_url(server.url + "/scenes/user-profile?user=1")
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice Liddell")


def test_a_nameless_person_has_one_name_on_every_page(context, server):
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("ul.people")).to_contain_text("Anonymous")
    expect(page.locator("ul.people")).not_to_contain_text("User 4")
    page.goto(server.url + "/sign-in")
    expect(page.get_by_role("button", name="Sign in as Anonymous")).to_be_visible()
    open_live(page, server.url + "/scenes/user-profile?user=4")
    expect(page.get_by_role("heading", level=1)).to_have_text("Anonymous")


def test_the_guard_hears_a_notice_a_test_did_not_declare(context):
    """Every test's pages are watched: a notice no test declared (here, a page losing its
    server) is found, and would fail the test; an announcement of others' changes is not."""
    lost = Server()
    try:
        page = context.new_page()
        open_live(page, lost.url + "/scenes/user-profile?user=1")
        lost.process.kill()  # not stop(): the guard is not told
        expect(page.locator("#scenery-status")).to_contain_text("Reconnecting")
        page.wait_for_function("true")  # let the binding's report arrive
        toasts, _ = GUARD.unexpected([], [])
        assert any(text.startswith("Reconnecting") for text in toasts), GUARD.toasts
        GUARD.clear()  # what this test meant to meet
    finally:
        lost.stop()


def test_the_guard_does_not_blame_a_test_for_a_page_an_earlier_test_left_open(context):
    """A page keeps the test that opened it: when it loses its server after that test (a
    failed test's page left open), the tests after it are not failed for its notices."""
    lost = Server()
    try:
        page = context.new_page()
        open_live(page, lost.url + "/scenes/user-profile?user=1")
        GUARD.clear()  # as when the next test starts, with this page still open
        lost.process.kill()
        expect(page.locator("#scenery-status")).to_contain_text("Reconnecting")
        page.wait_for_function("true")  # let the binding's report arrive
        assert GUARD.unexpected([], []) == ([], []), (GUARD.toasts, GUARD.console)
    finally:
        lost.stop()


def test_a_focused_control_in_the_friends_carousel_is_shown_whole(context, server):
    """Tabbing through the friends carousel on a wide page: each control that takes the focus
    is scrolled wholly into the track's visible part (the third card's was cut off by 43 px)."""
    page = context.new_page()
    page.set_viewport_size(SIZES["desktop"])
    sign_in(page, server, "Alice Liddell")  # her own profile: no experiment turns the carousel into rows
    open_live(page, server.url + "/scenes/user-profile?user=1")
    track = page.get_by_role("list", name="Friends, scrolls sideways")
    expect(track).to_be_visible()
    controls = track.locator("button, a[href], [tabindex='0']")
    assert controls.count() >= 3, "the carousel has controls to tab through"
    assert track.evaluate("t => t.scrollWidth > t.clientWidth"), "the track is wider than its box: some card is cut off"
    for index in range(controls.count()):
        control = controls.nth(index)
        control.focus()
        page.wait_for_function(
            """([track, control]) => {
              const outer = track.getBoundingClientRect(), inner = control.getBoundingClientRect();
              return inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
            }""",
            arg=[track.element_handle(), control.element_handle()], timeout=2_000)
