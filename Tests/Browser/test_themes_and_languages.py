"""The profile in English, Chinese, Arabic (right to left) and the pseudo-locale, in the
light, dark and high-contrast themes: axe finds no violation in any of the twelve; the
browser's preferences choose the theme until the visitor does; and saving a token file
under `serve --watch` restyles an open page without a reload."""
import json
import re

import pytest

from conftest import Server, open_live, same_page
from test_accessibility import violations

LANGUAGES = ["en", "zh-Hans", "ar", "en-XA"]
THEMES = ["light", "dark", "high-contrast"]


@pytest.fixture(scope="module")
def themed():
    running = Server("--watch", "--pseudo-locale")
    yield running
    running.stop()


def surface(server, theme):
    """The hex of a theme's `color.surface`, through its alias, from the server's token file."""
    tokens = json.loads((server.scenes / f"{theme}.tokens.json").read_text(encoding="utf-8"))
    value = tokens["color"]["surface"]["$value"]
    while isinstance(value, str) and value.startswith("{"):
        group, name = value.strip("{}").split(".")
        value = tokens[group][name]["$value"]
    return value["hex"] if isinstance(value, dict) else value


def rgb(hex_colour):
    return "rgb({}, {}, {})".format(*(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))


def background(page):
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_profile_in_every_language_and_theme_has_no_violation(themed, browser, language, theme):
    context = browser.new_context()
    page = context.new_page()
    open_live(page, f"{themed.url}/scenes/user-profile?user=1&lang={language}&theme={theme}")
    page.wait_for_function("() => Array.from(document.images).every(image => image.complete)")
    html = page.locator("html")
    assert html.get_attribute("lang") == language
    assert html.get_attribute("data-theme") == theme
    assert background(page) == rgb(surface(themed, theme))
    if language == "ar":
        # Right to left: the page's direction, and the bar's home link on the right.
        assert html.get_attribute("dir") == "rtl"
        assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
        home = page.locator(".bar .home").bounding_box()
        assert home["x"] > page.viewport_size["width"] / 2
        assert page.get_by_text("المدونات").first.is_visible()
    if language == "en-XA":
        # Every word the modules say is a message: bracketed and accented.
        assert page.get_by_text(re.compile(r"^\[Ļöåð ɱöŕé")).first.is_visible() or page.get_by_text(re.compile(r"^\[Ɓļöĝš")).first.is_visible()
    assert violations(page) == []
    context.close()


def test_the_browsers_preferences_choose_until_the_visitor_does(themed, browser):
    dark = browser.new_context(color_scheme="dark")
    page = dark.new_page()
    open_live(page, themed.url + "/scenes/user-profile?user=1")
    assert page.locator("html").get_attribute("data-theme") is None
    assert background(page) == rgb(surface(themed, "dark"))
    # The visitor's choice wins over the preference, and is kept for the next page.
    page.locator("summary", has_text="Display").click()  # the language and theme menu
    page.get_by_role("navigation", name="Theme").get_by_role("link", name="Light").click()
    page.wait_for_load_state()
    assert background(page) == rgb(surface(themed, "light"))
    open_live(page, themed.url + "/scenes/friend-list?user=1")
    assert background(page) == rgb(surface(themed, "light"))
    dark.close()
    more = browser.new_context(contrast="more")
    page = more.new_page()
    open_live(page, themed.url + "/scenes/user-profile?user=1")
    assert background(page) == rgb(surface(themed, "high-contrast"))
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"
    more.close()


def test_saving_a_token_file_restyles_an_open_page_without_a_reload(browser):
    server = Server("--watch")
    try:
        context = browser.new_context()
        page = context.new_page()
        open_live(page, server.url + "/scenes/user-profile?user=1&theme=dark")
        before = background(page)
        assert before == rgb(surface(server, "dark"))
        # A darker surface, written the way an editor saves.
        path = server.scenes / "dark.tokens.json"
        tokens = json.loads(path.read_text(encoding="utf-8"))
        tokens["color"]["surface"]["$value"] = {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000000"}
        path.write_text(json.dumps(tokens, indent=2), encoding="utf-8")
        page.wait_for_function("() => getComputedStyle(document.body).backgroundColor === 'rgb(0, 0, 0)'")
        assert same_page(page)
        # A broken token file: its errors in the overlay, the page keeps its last good look.
        tokens["color"]["surface"]["$value"] = "{palette.nothing}"
        path.write_text(json.dumps(tokens, indent=2), encoding="utf-8")
        page.locator("#scenery-errors").wait_for()
        assert "palette.nothing" in page.locator("#scenery-errors").inner_text()
        assert background(page) == "rgb(0, 0, 0)"
        assert same_page(page)
        context.close()
    finally:
        server.stop()


def test_latin_user_text_on_an_arabic_page_reads_left_to_right(themed, browser):
    """People's own words keep their direction on a right-to-left page: Carol's summary in
    Alice's lists ends with its full stop on the right (it read ".Gardens, mostly"), however
    the module put it on the page (as it is, or isolated by a message)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        open_live(page, themed.url + "/scenes/user-profile?user=1&lang=ar")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        summaries = page.get_by_text("Gardens, mostly.", exact=True)
        assert summaries.count() > 0
        for index in range(summaries.count()):
            # Where the first letter and the full stop are drawn.
            first, stop = summaries.nth(index).evaluate("""element => {
                const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
                let text = walker.nextNode();
                while (text && !text.data.includes("Gardens")) text = walker.nextNode();
                const at = (offset) => { const range = document.createRange(); range.setStart(text, offset); range.setEnd(text, offset + 1); return range.getBoundingClientRect().left; };
                return [at(text.data.indexOf("G")), at(text.data.lastIndexOf("."))];
            }""")
            assert stop > first, f"the full stop is drawn at {stop}, left of the first letter at {first}"
        assert same_page(page)
    finally:
        context.close()
