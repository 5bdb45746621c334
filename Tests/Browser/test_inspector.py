"""The page inspector (`scenery serve --inspect`), in Chromium: press Inspect, click a part of
the page, and read how it was made (the module, the scene file line that placed it, the
variant, the experiment's arm) and the page's recent events; for the demo's profile and for
the board app (Examples/Board, built as .ci/run does). Without the flag a page has none of it."""
import os
import pathlib
import re

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Server, open_live, same_page, sign_in


def line_of(text):
    """The line of the bundled profile's scene file that holds `text` (where the inspector
    must say a module was placed)."""
    lines = (ROOT / "Scenes" / "user-profile.json").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if text in line)

BOARD = pathlib.Path(os.environ.get("BOARD_BINARY", str(ROOT / "Examples" / "Board" / ".build" / "debug" / "board")))


@pytest.fixture(scope="module")
def inspected():
    # The editor this machine uses: the panel links the scene file's line with it.
    os.environ["SCENERY_EDITOR"] = "vscode://file/{file}:{line}:{column}"
    try:
        running = Server("--inspect")
    finally:
        del os.environ["SCENERY_EDITOR"]
    yield running
    running.stop()


def inspect(page, selector):
    """Presses Inspect, clicks the element, and returns the panel's text once it shows (an
    earlier answer's panel is closed first, so the one that shows is this element's)."""
    page.keyboard.press("Escape")
    expect(page.locator("#scenery-inspector")).to_be_hidden()
    page.locator("#scenery-inspect").click()
    expect(page.locator("#scenery-inspect")).to_have_attribute("aria-pressed", "true")
    page.locator(selector).click()
    panel = page.locator("#scenery-inspector")
    expect(panel).to_be_visible()
    return panel.inner_text()


def test_a_like_button_inspected_names_its_scene_line_variant_arm_and_the_likes_trace(context, inspected):
    page = context.new_page()
    sign_in(page, inspected, "Bob Chen")
    open_live(page, inspected.url + "/scenes/user-profile?user=1")
    like = page.locator("#blogs\\/blog\\.26\\.like")
    like.click()
    expect(page.locator("#blogs\\/blog\\.26\\.likes")).to_have_text("Likes: 1")

    text = inspect(page, "#blogs\\/blog\\.26\\.like")
    assert text.startswith("blogs/blog.26.like\nblogs (BlogModule), ready\n"), text
    line = line_of('"id": "blogs"')
    assert re.search(rf"placed at \S*Scenes/user-profile\.json:{line}:5\n", text), text
    expect(page.locator("#scenery-inspector-editor")).to_have_attribute(
        "href", re.compile(rf"^vscode://file/\S+/Scenes/user-profile\.json:{line}:5$"))
    assert re.search(r"scene user-profile, variant \S+\n", text) and "variant owner" not in text, text
    # Why Bob's page has no drafts: the owner's variant, with its condition, did not hold.
    assert "passed over: owner (when viewer == user)\n" in text, text
    assert re.search(r"arms: friends-layout = (carousel|compact)\n", text), text
    assert "viewer 2, arguments user=1" in text, text
    # The module's parameters as the scene file wrote them, and its state as it says it.
    assert re.search(r'parameters: [^\n]*author="\$user"', text), text
    assert re.search(r"state: [^\n]*following=[1-9]\d* [^\n]*rows=[1-9]\d* [^\n]*status=\"loaded\" [^\n]*visible=true", text), text
    # The like's line: its route, its time and the patch it wrote (Bob's row, at once), after
    # any updates the page had before it (modules that finished loading once it was shown).
    assert re.search(
        r"recent events:\n(  update: [^\n]*\n)*  blog\.like from blogs/blog\.26\.like: module blogs: handled "
        r"\(handled by module blogs\) · \d+ µs · patches: blogs \(blogs/blog\.26\) \d+ ops? \d+ B \+\d+ µs(\n|$)", text), text
    # The guide's picture (Inspecting a page) is of this run, taken when asked:
    # SCENERY_SCREENSHOTS=Sources/SceneryServer/SceneryServer.docc/Resources (DEVELOPING.md).
    if os.environ.get("SCENERY_SCREENSHOTS"):
        page.screenshot(path=str(pathlib.Path(os.environ["SCENERY_SCREENSHOTS"]) / "inspector-panel.png"))
    # The click while inspecting asked, and sent nothing: the like stands, its page has had
    # one event, on the same page.
    expect(page.locator("#blogs\\/blog\\.26\\.likes")).to_have_text("Likes: 1")
    again = inspect(page, "#blogs\\/blog\\.26\\.title")
    events = [line for line in again.split("recent events:\n")[1].strip().splitlines() if line != "Open in editor"]
    assert [line for line in events if not line.startswith("update: ")] == [events[-1]] and "blog.like" in events[-1], again
    assert same_page(page)
    page.keyboard.press("Escape")
    expect(page.locator("#scenery-inspector")).to_be_hidden()


def test_the_owner_inspects_her_drafts_and_the_owner_variant(context, inspected):
    page = context.new_page()
    sign_in(page, inspected, "Alice Liddell")
    open_live(page, inspected.url + "/scenes/user-profile?user=1")
    page.get_by_role("tab", name="Drafts").click()
    text = inspect(page, "#drafts\\/compose")
    assert "drafts (DraftModule), ready" in text, text
    line = line_of('"id": "drafts"')
    assert re.search(rf"placed at \S*Scenes/user-profile\.json:{line}:9\n", text), text
    assert "variant owner (when viewer == user)\n" in text and "passed over" not in text, text
    assert ", theme the system's (light or dark)" in text, text


@pytest.mark.allows_console(r"the widget broke")
def test_a_problem_the_page_met_itself_is_listed_in_its_inspector(context, inspected):
    """A script error on Bob's page reaches the server's log and, with the page's events, the
    inspector of that page (the author sees it where they look, not only in the log)."""
    page = context.new_page()
    sign_in(page, inspected, "Bob Chen")
    with page.expect_websocket() as socket:
        page.goto(inspected.url + "/scenes/user-profile?user=1")
    socket.value.wait_for_event("framereceived")  # connected: a problem is reported only then
    page.evaluate("setTimeout(() => { throw new Error('the widget broke') }, 0)")
    inspected.wait_for_log("the widget broke")
    text = inspect(page, "#blogs\\/blog\\.26\\.title")
    assert re.search(r"problems this page reported:\n  script problem at scene user-profile: '[^\n]*the widget broke", text), text


def test_a_page_served_without_the_flag_has_no_inspector(context, server):
    page = context.new_page()
    open_live(page, server.url + "/scenes/user-profile?user=1")
    expect(page.locator("#scenery-inspect")).to_have_count(0)
    assert page.locator("script[src='/assets/inspector.js']").count() == 0


def test_the_boards_task_inspected_names_its_module_and_scene_line(browser):
    if not BOARD.is_file():
        raise RuntimeError(f"{BOARD} is missing: build the example first, (cd Examples/Board && swift build), as .ci/run does.")
    board = Server("--inspect", binary=str(BOARD), bundled_scenes=None)
    context = browser.new_context()
    try:
        page = context.new_page()
        sign_in(page, board, "Ada")
        open_live(page, board.url + "/scenes/board?owner=1")
        text = inspect(page, "#tasks\\/task\\.2\\.title")
        assert "tasks (TaskListModule), ready" in text, text
        assert re.search(r"placed at \S*board\.json:8:5\n", text), text
        expect(page.locator("#scenery-inspector-editor")).to_have_count(0)  # no SCENERY_EDITOR: no link
        assert re.search(r"arms: task-order = (newest-first|oldest-first)\n", text), text
        assert re.search(r'state: filter="" following=1 live=true stale=false tasks=[1-9]\d*\n', text), text
    finally:
        context.close()
        board.stop()


def test_the_live_page_shows_a_like_made_on_another_page(context, inspected):
    """`/scenes/scenery-stats` on an inspecting server: a scene of its own, kept true by the
    page protocol; a like on Bob's page reaches it as the event's times."""
    stats = context.new_page()
    open_live(stats, inspected.url + "/scenes/scenery-stats")
    expect(stats.get_by_role("heading", level=1)).to_have_text("This server, live")
    before = re.search(r"of the newest (\d+) event", stats.locator("#stats\\/first-patch").inner_text())
    count = int(before.group(1)) + 1 if before else 1
    bob = context.new_page()
    sign_in(bob, inspected, "Bob Chen")
    open_live(bob, inspected.url + "/scenes/user-profile?user=1")
    bob.locator("#blogs\\/blog\\.25\\.like").click()
    expect(bob.locator("#blogs\\/blog\\.25\\.like")).to_have_text("Unlike")
    # The page that was open all along shows the like without a reload.
    expect(stats.locator("#stats\\/first-patch")).to_have_text(
        re.compile(rf"^Event → first patch: p50 \d+ µs · p99 \d+ µs \(of the newest {count} events?\)$"))
    expect(stats.locator("#stats\\/load\\.BlogModule")).to_have_text(re.compile(r"^BlogModule: p99 \d+ µs \(\d+ loads?\)$"))
    assert same_page(stats)
    if os.environ.get("SCENERY_SCREENSHOTS"):
        stats.screenshot(path=str(pathlib.Path(os.environ["SCENERY_SCREENSHOTS"]) / "inspector-live-page.png"))
