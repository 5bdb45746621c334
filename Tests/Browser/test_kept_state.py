"""State that survives patches: while a person has typed into a field (with a selection in
it), scrolled the page and has a confirmation open, 100 changes in random order, by other
people and by the same person in another tab, patch the page; the field's text and
selection, the scroll position and the open dialog are exactly as they were."""
import json
import random

from playwright.sync_api import expect

from conftest import Server, act_in_parallel, open_live, same_page, sign_in

BUSY = json.dumps({
    "title": "A busy page",
    "modules": [
        {"id": "me", "type": "UserInfoModule", "params": {"user": "1"}},
        {"id": "other", "type": "UserInfoModule", "params": {"user": "2"}},
        {"id": "blogs", "type": "BlogModule", "params": {"author": "1", "pageSize": 10}},
    ],
    "events": [
        {"on": "user.unfollow", "confirm": {"title": "Unfollow $event.name?", "confirm": "Unfollow", "cancel": "Cancel", "destructive": True}},
    ],
})
ROWS = range(18, 28)  # the ten rows the page shows


def test_typed_text_selection_scroll_and_an_open_dialog_survive_a_hundred_patches(browser):
    server = Server(scenes={"busy": BUSY}, first_response_wait=60_000)
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page = context.new_page()
        sign_in(page, server, "Alice Liddell")
        open_live(page, server.url + "/scenes/busy")
        follow = page.locator("#other\\/follow")
        if follow.inner_text() == "Follow":  # set-up: she follows Bob, so she may unfollow him
            follow.click()
            expect(follow).to_have_text("Unfollow")

        page.get_by_role("button", name="Edit summary").click()
        field = page.get_by_label("Summary")
        field.fill("Typing while the page changes under me")
        field.evaluate("(node) => node.setSelectionRange(3, 9)")
        page.evaluate("window.scrollTo(0, 320)")
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        follow.click()
        dialog = page.get_by_role("dialog", name="Unfollow Bob Chen?")
        expect(dialog).to_be_visible()
        sequence = int(page.locator("main").get_attribute("data-sequence"))

        # 100 likes and unlikes in random order: Bob and Carol (others), and Alice in other
        # tabs; two pages each, so that no page sends more than its burst of events.
        rng = random.Random(39)
        people = [(user, tab) for user in ["2", "7", "1"] for tab in (1, 2)]
        # Bob also unfollows and follows Alice again: her own card (the field's module) changes.
        controls = [f"blogs/blog.{row}.like" for row in ROWS]
        actions = [(rng.choice(people), rng.choice(controls)) for _ in range(90)]
        actions += [(("2", 1), "me/follow")] * 10
        rng.shuffle(actions)
        plan = {}
        for user, node in actions:
            plan.setdefault(user, []).append(node)
        assert all(len(nodes) <= 30 for nodes in plan.values()), "within each page's burst of events"
        act_in_parallel(server.url, "/scenes/busy", plan)

        # The page shows the final counts (what a fresh page shows), patched in place.
        fresh = context.new_page()
        fresh.goto(server.url + "/scenes/busy")
        for row in ROWS:
            expected = fresh.locator(f"#blogs\\/blog\\.{row}\\.likes").inner_text()
            expect(page.locator(f"#blogs\\/blog\\.{row}\\.likes")).to_have_text(expected)
        expect(page.locator("#me\\/followers")).to_have_text(fresh.locator("#me\\/followers").inner_text())
        fresh.close()
        assert int(page.locator("main").get_attribute("data-sequence")) >= sequence + 10, "the page was patched"

        expect(dialog).to_be_visible()
        assert page.evaluate("document.activeElement.closest('dialog') !== null"), "the focus stays in the dialog"
        assert field.input_value() == "Typing while the page changes under me"
        assert field.evaluate("(node) => [node.selectionStart, node.selectionEnd]") == [3, 9]
        assert page.evaluate("window.scrollY") == scrolled
        assert same_page(page)
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_be_hidden()
    finally:
        context.close()
        server.stop()
