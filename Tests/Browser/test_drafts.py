"""The demo's own forms in Chromium: the owner writes a draft, publishes it, and a visitor's
open page shows the new blog at once; the owner edits their summary inline, and visitors
see it live; none of it (nor any keystroke) ever reaches another viewer's socket."""
import re

import pytest
from playwright.sync_api import expect

from conftest import People, Server, open_live, same_page, sign_in

PROFILE = "/scenes/user-profile?user=1"


@pytest.fixture
def people(browser):
    """A server of its own (the tests write), and a page of Alice's profile per person."""
    server = Server()
    opened = People(browser, server, PROFILE)
    try:
        yield opened.open
    finally:
        opened.close()
        server.stop()


def test_the_owner_writes_a_draft_publishes_it_and_a_visitors_open_page_shows_it(people):
    alice = people("Alice Liddell")
    carols_frames = []
    carol = people("Carol Mint", frames=carols_frames)
    expect(carol.locator("#info\\/blogs")).to_have_text("Blogs: 27")

    alice.get_by_role("tab", name="Drafts").click()
    compose = alice.locator("form[data-form='drafts/compose']")
    compose.get_by_label("Title").fill("Tea at four")
    compose.get_by_label("Text").fill("The hatter is late again.\nSecond line.")
    compose.get_by_role("button", name="Save draft").click()
    drafts = alice.locator("#drafts\\/list")
    expect(drafts).to_contain_text("Tea at four")
    expect(compose.get_by_label("Title")).to_have_value("")  # saved: the form is empty again

    drafts.get_by_role("button", name="Publish").first.click()  # the newest draft is first
    dialog = alice.get_by_role("dialog", name="Publish “Tea at four”?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Publish").click()
    expect(drafts).not_to_contain_text("Tea at four")

    # Carol's open page: the new blog on top, her count one up, in place.
    expect(carol.locator("#blogs\\/list")).to_contain_text("Tea at four")
    expect(carol.locator("#info\\/blogs")).to_have_text("Blogs: 28")
    expect(carol.get_by_text("New draft")).to_have_count(0)
    assert same_page(alice) and same_page(carol)
    assert not any("The hatter is late again" in frame and "Tea at four" not in frame for frame in carols_frames)
    assert not any("Through the looking glass" in frame for frame in carols_frames), "a draft reached another viewer"


def test_an_empty_draft_is_refused_next_to_the_form_and_keeps_nothing_back(people):
    alice = people("Alice Liddell")
    alice.get_by_role("tab", name="Drafts").click()
    compose = alice.locator("form[data-form='drafts/compose']")
    compose.get_by_label("Title").fill("   ")
    compose.get_by_role("button", name="Save draft").click()
    expect(compose).to_contain_text("Write a title or some text first.")
    expect(compose.get_by_label("Title")).to_have_value("   ")  # what was typed stays
    expect(alice.locator("#drafts\\/list").get_by_role("button", name="Publish")).to_have_count(3)  # nothing stored


def test_the_owner_edits_their_summary_and_a_visitors_page_shows_it(people):
    alice = people("Alice Liddell")
    bobs_frames = []
    bob = people("Bob Chen", frames=bobs_frames)
    expect(bob.get_by_role("button", name="Edit summary")).to_have_count(0)  # only the owner edits it

    alice.get_by_role("button", name="Edit summary").click()
    field = alice.get_by_label("Summary")
    expect(field).to_have_value("Writes about rabbits, clocks and tea.")
    field.fill("Tea, clocks, and the occasional rabbit")
    field.press_sequentially(".")
    assert not any("occasional rabbit" in frame for frame in bobs_frames), "typed text stays the typist's until saved"
    alice.get_by_role("button", name="Save summary").click()
    expect(alice.locator("#info\\/summary")).to_have_text("Tea, clocks, and the occasional rabbit.")
    expect(bob.locator("#info\\/summary")).to_have_text("Tea, clocks, and the occasional rabbit.")
    assert same_page(alice) and same_page(bob)


@pytest.mark.allows_toasts(r"^The form was not sent")
def test_a_submit_the_server_refuses_keeps_what_was_typed_and_says_why(people):
    alice = people("Alice Liddell")
    alice.get_by_role("button", name="Edit summary").click()
    field = alice.get_by_label("Summary")
    # A page whose own checks were taken away (an old script, a forged page): the server
    # checks the form again, refuses it, and the form keeps the text.
    field.evaluate("input => { input.removeAttribute('maxlength'); input.removeAttribute('data-rules'); }")
    long = "tea " * 126
    field.fill(long)
    alice.get_by_role("button", name="Save summary").click()
    error = alice.locator("#info\\/summary\\.editor--error")
    expect(error).to_contain_text("Summary is at most 500 characters")
    expect(field).to_have_value(long)
    expect(alice.locator("#scenery-status")).to_contain_text("The form was not sent")
    assert same_page(alice)


def test_a_draft_saved_in_two_tabs_at_once_tells_the_losing_tab_why(browser):
    """Both tabs edit draft 1 and save at the same moment: one save wins; the other tab keeps
    its editor, with what was typed, and says why nothing was saved. (The losing editor once
    moved and changed in one update, and the page removed it instead of moving it.)"""
    server = Server("--max-pages-per-viewer", "64")
    context = browser.new_context()
    try:
        first = context.new_page()
        sign_in(first, server, "Alice Liddell")
        second = context.new_page()
        for round in range(3):
            tabs = [first, second]
            for tab in tabs:
                open_live(tab, server.url + PROFILE)
                tab.get_by_role("tab", name="Drafts").click()
                tab.locator("#drafts\\/draft\\.1\\.edit").click()
                expect(tab.locator("form[data-form='drafts/draft.1.editor']")).to_be_visible()
            for index, tab in enumerate(tabs):
                tab.locator("form[data-form='drafts/draft.1.editor']").get_by_label("Title").fill(f"Tab {index}, round {round}")
            for tab in tabs:
                tab.evaluate("document.querySelector(\"form[data-form='drafts/draft.1.editor']\").requestSubmit()")
            # One save wins; the other tab is told why its save was refused (a bounded look
            # at both pages until one says so).
            refusal = "changed in another tab or window"
            told = [False, False]
            for _ in range(300):
                told = [tab.locator("form[data-form='drafts/draft.1.editor'] .form-error").filter(has_text=refusal).count() > 0 for tab in tabs]
                if any(told):
                    break
                first.wait_for_timeout(50)
            assert told.count(True) == 1, f"round {round}: the losing tab was not told why ({told})"
            loser = told.index(True)
            editor = tabs[loser].locator("form[data-form='drafts/draft.1.editor']")
            expect(editor.get_by_label("Title")).to_have_value(f"Tab {loser}, round {round}")  # what was typed stays
            expect(tabs[1 - loser].locator("#drafts\\/list")).to_contain_text(f"Tab {1 - loser}, round {round}")
            assert same_page(first) and same_page(second)
    finally:
        context.close()
        server.stop()


def test_a_form_reads_as_made_with_care_labels_above_fields_a_proportional_text_area_and_errors_in_the_danger_colour(people):
    """Forms had no style of their own: labels on the baseline, a monospace text area, a
    20 px input, the error in plain black."""
    alice = people("Alice Liddell")
    alice.get_by_role("tab", name="Drafts").click()
    compose = alice.locator("form[data-form='drafts/compose']")
    title, text = compose.get_by_label("Title"), compose.get_by_label("Text")
    style = """element => { const s = getComputedStyle(element); const box = element.getBoundingClientRect();
        return { family: s.fontFamily, height: box.height, top: box.top, left: box.left, width: box.width,
                 border: s.borderTopStyle, color: s.color } }"""
    label = compose.locator("label", has_text="Title").evaluate(style)
    field = title.evaluate(style)
    area = text.evaluate(style)
    body = alice.locator("body").evaluate("element => getComputedStyle(element).fontFamily")
    assert label["top"] + label["height"] <= field["top"] + 1, f"the label stands above its field: {label}, {field}"
    assert field["height"] >= 44 and area["height"] >= 44, f"as tall as a button: {field}, {area}"
    assert field["border"] == "solid" and area["border"] == "solid"
    assert area["family"] == body, f"the text area writes in the page's font, not {area['family']}"
    assert field["width"] >= 0.9 * compose.evaluate("element => element.getBoundingClientRect().width") - 1, "fields take the form's width"
    title.fill("   ")
    compose.get_by_role("button", name="Save draft").click()
    error = compose.get_by_text("Write a title or some text first.")
    expect(error).to_be_visible()
    danger = alice.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--scenery-color-danger').trim()")
    shown = error.evaluate("element => getComputedStyle(element).color")
    probe = alice.evaluate("colour => { const p = document.createElement('p'); p.style.color = colour; document.body.append(p);"
                           " const c = getComputedStyle(p).color; p.remove(); return c }", danger)
    assert shown == probe, f"the error is in the danger colour {danger} ({probe}), not {shown}"



LEAVE = "Leave this page? What you typed here has not been sent."


def type_a_draft_title(page, text):
    page.get_by_role("tab", name="Drafts").click()
    title = page.locator("form[data-form='drafts/compose']").get_by_label("Title")
    title.click()
    page.keyboard.type(text)  # as a person types: the page counts it as their doing
    return title


def test_leaving_with_typed_text_not_sent_asks_once_and_staying_keeps_it(people):
    """A draft's title typed and not saved: the scene sending Alice elsewhere (her followers'
    count) asks once; she stays, the page live and her text in the field (she saves it). With
    another title typed, asked again, she leaves, and is not asked again as the page unloads."""
    alice = people("Alice Liddell")
    title = type_a_draft_title(alice, "Half a thought")
    with alice.expect_event("dialog") as asked:
        alice.locator("#info\\/followers").click(no_wait_after=True)  # the question holds the page's script
    assert (asked.value.type, asked.value.message) == ("confirm", LEAVE)
    asked.value.dismiss()
    expect(title).to_have_value("Half a thought")
    assert same_page(alice), "she stayed"
    # The page is still live: the draft she kept is saved.
    alice.locator("form[data-form='drafts/compose']").get_by_role("button", name="Save draft").click()
    expect(alice.locator("#drafts\\/list")).to_contain_text("Half a thought")
    expect(title).to_have_value("")

    title.click()
    alice.keyboard.type("Second thought")
    questions = []
    alice.on("dialog", lambda dialog: (questions.append(dialog.type), dialog.accept()))
    with alice.expect_navigation():
        alice.locator("#info\\/followers").click()
    assert "/scenes/follow-list" in alice.url, alice.url
    assert questions == ["confirm"], f"asked once, not again as the page unloads: {questions}"


def test_a_reload_with_typed_text_not_sent_asks_the_browsers_way_and_without_asks_nothing(people):
    alice = people("Alice Liddell")
    type_a_draft_title(alice, "Another")
    questions = []
    alice.on("dialog", lambda dialog: (questions.append(dialog.type), dialog.accept()))
    alice.reload()
    assert questions == ["beforeunload"], questions
    expect(alice.get_by_role("tab", name="Blogs")).to_be_visible()
    alice.reload()
    assert questions == ["beforeunload"], f"nothing typed: nothing asked ({questions})"


TYPED_BACK = "What you typed is back in its field; it has not been sent."


def kept_in_the_tab(page):
    return page.evaluate("sessionStorage.getItem('scenery-typed')")


@pytest.mark.allows_toasts(rf"^{re.escape(TYPED_BACK)}$")
def test_text_typed_and_not_sent_is_back_after_a_reload_once_its_field_is_shown_and_never_for_another_viewer(people):
    """Alice types a draft's title and reloads (as after a deploy's Reload): the page comes back
    on Blogs, and when she selects Drafts her title is in its field, said so, still unsent. Once
    saved, nothing comes back. Typed again and reloaded, then signed out: the signed-out page
    drops what she typed unread."""
    alice = people("Alice Liddell")
    alice.on("dialog", lambda dialog: dialog.accept())
    type_a_draft_title(alice, "Kept across a reload")
    alice.reload()
    title = type_a_draft_title(alice, "")
    expect(title).to_have_value("Kept across a reload")
    expect(alice.locator("#scenery-status")).to_have_text(TYPED_BACK)
    alice.locator("form[data-form='drafts/compose']").get_by_role("button", name="Save draft").click()
    expect(alice.locator("#drafts\\/list")).to_contain_text("Kept across a reload")
    expect(title).to_have_value("")
    alice.reload()
    assert kept_in_the_tab(alice) is None, "saved: nothing kept"
    expect(type_a_draft_title(alice, "")).to_have_value("")

    type_a_draft_title(alice, "Not for anyone else")
    alice.reload()
    assert "Not for anyone else" in (kept_in_the_tab(alice) or ""), "kept for her, in her tab"
    with alice.expect_navigation():
        alice.get_by_role("button", name="Sign out").click()
    alice.wait_for_load_state()
    assert kept_in_the_tab(alice) is None, "the signed-out page dropped it unread"
