"""Layouts a scene chooses (`"display"`), drawn by the live host: a carousel scrolls
sideways and the keyboard reaches it; an adaptive grid puts cells side by side."""
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import Server, open_live

LAYOUTS = """
{ "title": "Layouts", "language": "en",
  "parameters": { "user": "userID" },
  "modules": [
    { "id": "band", "type": "UserListModule", "params": { "user": "$user", "list": "followers" }, "display": "carousel" },
    { "id": "fit", "type": "UserListModule", "params": { "user": "$user", "list": "followers" }, "display": { "minCellWidth": 20 } }
  ] }
"""


@pytest.fixture(scope="module")
def layouts_server():
    running = Server(scenes={"layouts": LAYOUTS})
    yield running
    running.stop()


def test_a_carousel_scrolls_sideways_and_the_keyboard_reaches_it(layouts_server, browser):
    context = browser.new_context(viewport={"width": 420, "height": 800})
    page = context.new_page()
    open_live(page, layouts_server.url + "/scenes/layouts?user=1")
    track = page.locator("#band ul.track")
    expect(track).to_be_visible()
    style = track.evaluate("t => { const s = getComputedStyle(t); return [s.display, s.overflowX] }")
    assert style == ["flex", "auto"]
    cells = track.locator(":scope > li")
    assert cells.count() >= 2
    # Side by side: every cell on the first cell's line.
    tops = {round(box["y"]) for box in (cells.nth(i).bounding_box() for i in range(cells.count()))}
    assert len(tops) == 1, tops
    assert track.evaluate("t => t.scrollWidth > t.clientWidth"), "the band is wider than the page: it scrolls"
    # The keyboard reaches the scroller and scrolls it.
    track.focus()
    assert page.evaluate("document.activeElement.classList.contains('track')")
    before = track.evaluate("t => t.scrollLeft")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("t => t.scrollLeft > %d" % before, arg=track.element_handle())
    context.close()


def test_an_adaptive_grid_puts_cells_side_by_side(layouts_server, browser):
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    open_live(page, layouts_server.url + "/scenes/layouts?user=1")
    grid = page.locator("#fit ul[data-slot]")
    assert grid.evaluate("g => getComputedStyle(g).display") == "grid"
    first, second = grid.locator(":scope > li").nth(0).bounding_box(), grid.locator(":scope > li").nth(1).bounding_box()
    assert round(first["y"]) == round(second["y"]) and second["x"] > first["x"]
    context.close()


def test_layouts_pass_axe(layouts_server, browser):
    context = browser.new_context(viewport={"width": 420, "height": 800})
    page = context.new_page()
    open_live(page, layouts_server.url + "/scenes/layouts?user=1")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    context.close()
