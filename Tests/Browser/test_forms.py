"""Forms in Chromium, on the board example (another app than the demo, on public API): the
board's owner types a task and submits it; the page checks the field's rule first and says
what is wrong next to the field; typed text, its caret and focus survive live patches and an
input method's composition; a paste longer than the field takes is cut to its maximum; the
task reaches a member's open page.

Needs the app built: (cd Examples/Board && swift build), as .ci/run does before these tests."""
import os
import pathlib

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Server, open_live, same_page, sign_in

BOARD = pathlib.Path(os.environ.get("BOARD_BINARY", str(ROOT / "Examples" / "Board" / ".build" / "debug" / "board")))
ADAS_BOARD = "/scenes/board?owner=1"
# The sockets each page opened, by page: a test waits on what a page's socket received.
SOCKETS = {}


@pytest.fixture()
def board():
    if not BOARD.is_file():
        raise RuntimeError(f"{BOARD} is missing: build the example first, (cd Examples/Board && swift build), as .ci/run does.")
    server = Server(binary=str(BOARD), bundled_scenes=None)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def people(browser, board):
    """Ada (the board's owner) and Grace (a member), each on Ada's board, live."""
    contexts = []
    pages = []
    try:
        for name in ["Ada", "Grace"]:
            context = browser.new_context()
            contexts.append(context)
            page = context.new_page()
            opened = SOCKETS.setdefault(id(page), [])
            page.on("websocket", lambda socket, opened=opened: opened.append(socket))
            sign_in(page, board, name)
            open_live(page, board.url + ADAS_BOARD)
            expect(page.locator("#tasks\\/task\\.1\\.title")).to_be_visible()
            pages.append(page)
        yield pages
    finally:
        for context in contexts:
            context.close()


def test_the_owner_types_a_task_submits_it_with_return_and_a_members_page_shows_it(people):
    ada, grace = people
    field = ada.get_by_label("New task")
    expect(field).to_have_attribute("placeholder", "What needs doing? (2 open)")
    expect(grace.get_by_label("New task")).to_have_count(0)  # a member is not offered the form
    field.fill("Send the invitations")
    field.press("Enter")
    expect(ada.locator("#tasks\\/list")).to_contain_text("Send the invitations")
    expect(field).to_have_value("")  # saved: the field is empty again
    expect(grace.locator("#tasks\\/list")).to_contain_text("Send the invitations")
    assert same_page(ada) and same_page(grace), "in place, over the socket"


@pytest.mark.allows_toasts(r"^Name the task first", r"^New task is 3 to 120")
def test_an_empty_task_is_refused_next_to_the_field_and_announced(people):
    ada, _ = people
    field = ada.get_by_label("New task")
    field.fill("   ")
    ada.get_by_role("button", name="Add task").click()
    error = ada.locator("#tasks\\/new\\.title--error")
    expect(error).to_have_text("Name the task first.")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", "tasks/new.title--error")
    expect(field).to_be_focused()
    expect(ada.locator("#scenery-status")).to_have_text("Name the task first.")  # a polite live region
    expect(field).to_have_value("   ")  # what was typed stays
    # The length rule, checked by the page in the words the module uses (BoardFormTests).
    field.fill("ab")
    field.press("Enter")
    expect(error).to_have_text("New task is 3 to 120 characters; it has 2.")
    field.fill("Order flowers")
    field.press("Enter")
    expect(ada.locator("#tasks\\/list")).to_contain_text("Order flowers")
    expect(error).to_have_count(0)
    expect(field).not_to_have_attribute("aria-invalid", "true")


def test_typed_text_its_caret_and_focus_survive_a_hundred_live_patches(people, browser, board):
    """Each tick changes the field's placeholder (the open count): the patch replaces the
    field's element while Ada types in it. Grace ticks from two tabs in turn, so that no page
    sends more actions than the server takes from one page (ten a second after a burst)."""
    ada, grace = people
    second = browser.new_context()
    try:
        tab = second.new_page()
        sign_in(tab, board, "Grace")
        open_live(tab, board.url + ADAS_BOARD)
        field = ada.get_by_label("New task")
        field.click()
        typed = ""
        title = ada.locator("#tasks\\/task\\.1\\.title")
        for number in range(100):
            page = (grace, tab)[number % 2]
            tick = page.locator("#tasks\\/task\\.1\\.toggle")
            # This tab shows the last tick (from the other tab) before it ticks again.
            expect(tick, f"Grace's tick {number}").to_have_text("Done" if number % 2 == 0 else "Undo")
            tick.click()
            # The tick reaches Ada's page as a patch that replaces the field, while she types.
            expect(title).to_have_text("✓ Plan the offsite" if number % 2 == 0 else "Plan the offsite")
            expect(field).to_have_attribute("placeholder", f"What needs doing? ({1 if number % 2 == 0 else 2} open)")
            if number % 10 == 0:
                character = "abcdefghij"[number // 10]
                ada.keyboard.type(character)
                typed += character
    finally:
        second.close()
    expect(field).to_have_value(typed)
    expect(field).to_be_focused()
    assert field.evaluate("input => [input.selectionStart, input.selectionEnd]") == [len(typed), len(typed)]
    # The caret where she put it, in the middle, stays there too.
    field.evaluate("input => input.setSelectionRange(3, 5)")
    tick = grace.locator("#tasks\\/task\\.1\\.toggle")
    for number in range(4):
        expect(tick).to_have_text("Done" if number % 2 == 0 else "Undo")
        tick.click()
        expect(title).to_have_text("✓ Plan the offsite" if number % 2 == 0 else "Plan the offsite")
    assert field.evaluate("input => [input.selectionStart, input.selectionEnd]") == [3, 5]
    expect(field).to_have_value(typed)
    # What she typed and did not submit is hers: it reached neither the server nor Grace.
    expect(grace.locator("main")).not_to_contain_text(typed)
    assert typed not in ada.locator("#scene-root").inner_html(), "the module never rendered it: it was never sent"


def test_a_composition_is_not_broken_by_a_patch_that_arrives_meanwhile(people):
    ada, grace = people
    field = ada.get_by_label("New task")
    field.click()
    ime = ada.context.new_cdp_session(ada)
    ime.send("Input.imeSetComposition", {"text": "にほん", "selectionStart": 3, "selectionEnd": 3})
    with SOCKETS[id(ada)][-1].expect_event("framereceived", predicate=lambda frame: "✓ Book the room" in frame):
        grace.locator("#tasks\\/task\\.2\\.toggle").click()
    # The patch (which replaces the field: its placeholder counts open tasks) reached her page
    # and waits while she composes; her composition is intact.
    expect(field).to_have_value("にほん")
    expect(field).to_have_attribute("placeholder", "What needs doing? (2 open)")
    expect(ada.locator("#tasks\\/task\\.2\\.title")).to_have_text("Book the room")
    ime.send("Input.insertText", {"text": "日本語"})
    expect(field).to_have_value("日本語")
    # Once the composition ends, what arrived meanwhile is applied, and the text stays.
    expect(ada.locator("#tasks\\/task\\.2\\.title")).to_have_text("✓ Book the room")
    expect(field).to_have_attribute("placeholder", "What needs doing? (1 open)")
    expect(field).to_have_value("日本語")
    expect(field).to_be_focused()
    field.press("Enter")
    expect(ada.locator("#tasks\\/list")).to_contain_text("日本語")


def test_a_paste_longer_than_the_field_takes_is_cut_to_its_maximum(people, board):
    ada, _ = people
    field = ada.get_by_label("New task")
    field.focus()
    ada.keyboard.insert_text("x" * 500)
    expect(field).to_have_value("x" * 120)
    field.press("Enter")
    expect(ada.locator("#tasks\\/list")).to_contain_text("x" * 120)
    expect(field).to_have_value("")


def test_a_search_typed_by_a_member_filters_her_list_as_she_pauses_and_no_one_elses(people):
    ada, grace = people
    search = grace.get_by_label("Find a task")
    expect(search).to_have_attribute("type", "search")
    search.press_sequentially("room", delay=20)
    expect(grace.locator("#tasks\\/list")).to_contain_text("Book the room")
    expect(grace.locator("#tasks\\/list")).not_to_contain_text("Plan the offsite")
    expect(search).to_have_value("room")
    expect(search).to_be_focused()
    expect(ada.locator("#tasks\\/list")).to_contain_text("Plan the offsite")  # her search is hers
    search.fill("")
    expect(grace.locator("#tasks\\/list")).to_contain_text("Plan the offsite")


@pytest.mark.allows_toasts(r"control character")
def test_a_bidi_override_pasted_into_a_task_is_refused_on_the_page_and_what_was_typed_stays(people):
    ada, _ = people
    field = ada.get_by_label("New task")
    field.focus()
    ada.keyboard.insert_text("invoice\u202etxt.exe")
    field.press("Enter")
    # The page says it in the words the server would (Form.problems): nothing is sent.
    expect(ada.locator("#tasks\\/new\\.title--error")).to_have_text("New task holds a control character (U+202E); type text only.")
    expect(field).to_have_value("invoice\u202etxt.exe")
    expect(ada.locator("#tasks\\/list")).not_to_contain_text("invoice")
