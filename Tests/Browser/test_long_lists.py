"""Long lists in the live host: the page holds a window of rows near the viewport, and
scrolling moves it with patches, never a page load. One user has 10,000 generated blogs."""
import pytest
from playwright.sync_api import expect

from conftest import Server, open_live, same_page, sign_in

WINDOW = 60
SECTION = "document.getElementById('blogs/all')"


@pytest.fixture(scope="module")
def long_list():
    running = Server(generated_blogs=10_000)
    yield running
    running.stop()


def window_state(page):
    """The section's window as the page holds it, and the row at the top of the viewport."""
    return page.evaluate(
        r"""(() => {
            const section = """ + SECTION + r""";
            const list = section.querySelector(':scope > ul');
            const rows = Array.from(list.children);
            const first = Number(section.dataset.firstRow);
            const topRow = rows.findIndex(row => row.getBoundingClientRect().bottom > 0);
            return {
                first, total: Number(section.dataset.totalRows), rows: rows.length,
                allRows: Array.from(document.querySelectorAll('[id^="blogs/blog."]')).filter(node => /^blogs\/blog\.\d+$/.test(node.id)).length,
                topIndex: topRow < 0 ? null : first + topRow,
                positions: rows.map(row => Number(row.getAttribute('aria-posinset'))),
                setSizes: Array.from(new Set(rows.map(row => row.getAttribute('aria-setsize')))),
                topTitle: topRow < 0 ? null : rows[topRow].querySelector('[id$=".title"], strong, h3, a, button')?.textContent ?? rows[topRow].textContent,
                topText: topRow < 0 ? null : rows[topRow].textContent,
            };
        })()""")


def title_at(index):
    """The generated data's title of the blog at a row index past the first thousand (the
    27 demo blogs are all newer than those)."""
    return f"Generated post {index - 26}"


# True once the window holds every row the viewport shows (the page asked for a window
# and the server's patch arrived): what the tests wait for instead of a pause.
WINDOW_COVERS_VIEW = r"""() => {
    const section = """ + SECTION + r""";
    const list = section.querySelector(':scope > ul');
    const pitch = Number(section.dataset.pitch || '0');
    if (!list || !pitch) return false;
    const first = Number(section.dataset.firstRow), rows = list.children.length, total = Number(section.dataset.totalRows);
    const top = list.getBoundingClientRect().top;
    const firstSeen = Math.max(0, Math.floor(-top / pitch));
    const lastSeen = Math.min(total, Math.ceil((window.innerHeight - top) / pitch));
    return first <= firstSeen && lastSeen <= first + rows;
}"""


def scroll_until_window_moves(page, y):
    before = window_state(page)["first"]
    page.evaluate(f"window.scrollTo(0, {y})")
    expect(page.locator("#blogs\\/all")).not_to_have_attribute("data-first-row", str(before), timeout=10_000)
    page.wait_for_function(WINDOW_COVERS_VIEW, timeout=10_000)
    return window_state(page)


def test_the_dom_holds_only_a_window_that_follows_the_scroll(long_list, context):
    page = context.new_page()
    open_live(page, long_list.url + "/scenes/user-profile?user=1")
    state = window_state(page)
    # The scene's first page (pageSize 10) first; scrolling moves a window of WINDOW rows.
    assert state == state | {"first": 0, "total": 10_027, "rows": 10}
    for y in [40_000, 400_000, 1_000_000, 3_000]:
        state = scroll_until_window_moves(page, y)
        assert state["rows"] <= WINDOW and state["allRows"] <= WINDOW + 5, state
        assert state["first"] <= state["topIndex"] < state["first"] + state["rows"], state
        # Assistive technology hears where each row is in the whole list.
        assert state["positions"] == list(range(state["first"] + 1, state["first"] + state["rows"] + 1)), state
        assert state["setSizes"] == ["10027"], state
        if state["topIndex"] >= 1000:
            assert title_at(state["topIndex"]) in state["topText"], state
    assert same_page(page)


def test_scrolling_row_by_row_moves_the_window_by_patches(long_list, context):
    page = context.new_page()
    frames = []
    page.on("websocket", lambda socket: (socket.on("framereceived", lambda frame: frames.append(frame)), socket.on("framesent", lambda frame: frames.append("SENT " + frame))))
    open_live(page, long_list.url + "/scenes/user-profile?user=1")
    for _ in range(25):
        before = page.evaluate("window.scrollY")
        page.mouse.wheel(0, 600)
        page.wait_for_function(f"() => window.scrollY !== {before}", timeout=10_000)
    page.wait_for_function("() => " + SECTION + ".dataset.firstRow !== '0'", timeout=10_000)
    try:
        page.wait_for_function(WINDOW_COVERS_VIEW, timeout=10_000)
    except Exception as error:
        # What the page held, and the socket's last frames, for a failure that is rare.
        held = page.evaluate("(() => { const s = " + SECTION + "; const l = s.querySelector(':scope > ul'); return { pitch: s.dataset.pitch, "
                             "windowRows: s.dataset.windowRows, first: s.dataset.firstRow, total: s.dataset.totalRows, rows: l.children.length, "
                             "scrollY: window.scrollY, listTop: l.getBoundingClientRect().top, height: window.innerHeight }; })()")
        raise AssertionError(f"the window does not cover the view: {held}; last frames: {[frame[:200] for frame in frames[-10:]]}") from error
    state = window_state(page)
    assert state["first"] > 0 and state["rows"] <= WINDOW, state
    patches = [frame for frame in frames if '"type":"patch"' in frame]
    assert patches and all('"op":"reset"' not in frame for frame in frames)
    assert same_page(page)


def test_window_moves_leave_the_rows_on_screen_where_they_were(long_list, context):
    # The browser's scroll anchoring made up for the rows a window move took away above the
    # screen but not for the padding put in their place: a move jumped the screen by the rows
    # moved, and a page that landed where the jump called for the window it had left asked for
    # both in turn without end.
    page = context.new_page()
    open_live(page, long_list.url + "/scenes/user-profile?user=1")
    page.evaluate("window.scrollTo(0, 1_500)")
    page.wait_for_function("() => " + SECTION + ".querySelector(':scope > ul').children.length === " + str(WINDOW), timeout=10_000)
    page.wait_for_function(WINDOW_COVERS_VIEW, timeout=10_000)
    # Each time a row near the window's end at the top of the screen: the window is short
    # below it and moves, and the row stays where it was.
    for _ in range(8):
        first = window_state(page)["first"]
        position = first + WINDOW - 8
        row = SECTION + ".querySelector(':scope > ul > [aria-posinset=\"" + str(position) + "\"]')"
        before = page.evaluate("(() => { const row = " + row + "; row.scrollIntoView(); return row.getBoundingClientRect().top; })()")
        page.wait_for_function("() => " + SECTION + ".dataset.firstRow !== '" + str(first) + "'", timeout=10_000)
        page.wait_for_function(WINDOW_COVERS_VIEW, timeout=10_000)
        after = page.evaluate("(() => { const row = " + row + "; return row && row.getBoundingClientRect().top; })()")
        state = window_state(page)
        assert after is not None and abs(after - before) < 1, (position, before, after, state)
    assert same_page(page)


def test_a_like_far_down_the_list_updates_its_row_in_place(long_list, context):
    page = context.new_page()
    sign_in(page, long_list, "Bob Chen")
    open_live(page, long_list.url + "/scenes/user-profile?user=1")
    state = scroll_until_window_moves(page, 600_000)
    index = state["topIndex"] + 2
    row_id = page.evaluate(
        SECTION + ".querySelector(':scope > ul').children[" + str(index - state["first"]) + "].firstElementChild.id")
    page.evaluate(f"document.getElementById('{row_id}').dataset.marker = 'kept'")
    like = page.locator(f"[id='{row_id}.like']")
    expect(like).to_have_text("Like")
    like.click()
    expect(like).to_have_text("Unlike")
    expect(page.locator(f"[id='{row_id}.likes']")).to_have_text("Likes: 1")
    assert page.evaluate(f"document.getElementById('{row_id}').dataset.marker") == "kept", "the row was patched, not replaced"
    # The window may still settle as row heights become known; the liked row stays in it.
    after = window_state(page)
    assert after["first"] <= index < after["first"] + after["rows"], (after, index)
    assert same_page(page)
