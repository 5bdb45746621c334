"""Live data across viewers: what one person changes reaches every other open page that
shows it, in place (no reload, the scroll position, tab and open dialog kept), and a
change made by another process on the same database reaches open pages too. Each person
is a Chromium context of their own."""
import json
import re
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import BINARY, People, Server, same_page

PROFILE = "/scenes/user-profile?user=1"


@pytest.fixture(scope="module")
def live_server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def people(browser, live_server):
    """Opens a page of `path` for a person (signed in by name, or signed out with None),
    each in a context of their own; closes them all afterwards."""
    opened = People(browser, live_server, PROFILE)
    yield opened.open
    opened.close()


def number_in(text):
    return int(re.search(r"\d+", text).group())


def test_a_like_reaches_every_other_open_copy_of_that_row(people):
    carol, nobody, bob = people("Carol Mint"), people(None), people("Bob Chen")
    likes = carol.locator("#blogs\\/blog\\.26\\.likes")
    before = number_in(likes.inner_text())
    carol.locator("#info\\/follow").click()  # Carol's unfollow dialog stays open meanwhile
    dialog = carol.get_by_role("dialog", name="Unfollow Alice Liddell?")
    expect(dialog).to_be_visible()
    carol.evaluate("window.scrollTo(0, 400)")  # and she has scrolled down the page
    scrolled = carol.evaluate("window.scrollY")
    assert scrolled > 0

    bob.locator("#blogs\\/blog\\.26\\.like").click()
    expect(bob.locator("#blogs\\/blog\\.26\\.like")).to_have_text("Unlike")

    expect(likes).to_have_text(f"Likes: {before + 1}")
    expect(nobody.locator("#blogs\\/blog\\.26\\.likes")).to_have_text(f"Likes: {before + 1}")
    expect(carol.locator("#blogs\\/blog\\.26\\.like")).to_have_text("Like")  # her own like state
    expect(dialog).to_be_visible()
    assert carol.evaluate("window.scrollY") == scrolled
    assert same_page(carol) and same_page(nobody)
    dialog.get_by_role("button", name="Cancel").click()


def test_an_unfollow_changes_the_follower_count_on_every_open_card(people):
    carol, nobody, bob = people("Carol Mint"), people(None), people("Bob Chen")
    followers = number_in(carol.locator("#info\\/followers").inner_text())
    bob.locator("#info\\/follow").click()
    bob.get_by_role("dialog").get_by_role("button", name="Unfollow").click()
    expect(bob.locator("#info\\/follow")).to_have_text("Follow")
    for page in (carol, nobody):
        expect(page.locator("#info\\/followers")).to_contain_text(str(followers - 1))
        assert same_page(page)
    bob.locator("#info\\/follow").click()  # and back: every card counts it again
    for page in (carol, nobody):
        expect(page.locator("#info\\/followers")).to_contain_text(str(followers))


def test_accepting_a_friend_request_updates_both_peoples_carousels(people):
    alice = people("Alice Liddell")
    other = people("Anonymous", path="/scenes/user-profile?user=4")
    expect(other.locator("#friends")).not_to_contain_text("Alice Liddell")
    alice.locator("#friends\\/user\\.4\\.action").click()
    expect(other.locator("#friends")).to_contain_text("Alice Liddell")
    expect(alice.locator("#friends\\/requests")).to_have_count(0)
    assert same_page(alice) and same_page(other)


def test_a_draft_imported_by_another_process_reaches_its_owners_tab_and_no_one_else(people, live_server, tmp_path):
    alice = people("Alice Liddell")
    alice.get_by_role("tab", name="Drafts").click()
    expect(alice.get_by_text("Through the looking glass")).to_be_visible()
    bobs_frames = []
    bob = people("Bob Chen", frames=bobs_frames)

    data_file = tmp_path / "data.json"
    database = ["--database", str(live_server.database)]
    subprocess.run([BINARY, "data", "export", str(data_file), *database], check=True, capture_output=True)
    data = json.loads(data_file.read_text(encoding="utf-8"))
    data["drafts"].append({"id": 90, "owner": "1", "title": "Written in another process", "body": "", "editedAt": "2026-11-24T10:00:00Z"})
    next(user for user in data["users"] if user["id"] == "1")["name"] = "Alice P. Liddell"
    data_file.write_text(json.dumps(data), encoding="utf-8")
    subprocess.run([BINARY, "data", "import", str(data_file), *database], check=True, capture_output=True)

    expect(alice.get_by_text("Written in another process")).to_be_visible()
    expect(alice.get_by_role("tab", name="Drafts")).to_have_attribute("aria-selected", "true")
    expect(bob.get_by_role("heading", name="Alice P. Liddell")).to_be_visible()  # Bob's page is live too
    assert not any("Written in another process" in frame for frame in bobs_frames), "a draft reached another viewer"
    assert "Written in another process" not in bob.content()
    assert same_page(alice) and same_page(bob)


RECORD_SAID = """() => {
  window.__said = [];
  const status = document.getElementById("scenery-status");
  new MutationObserver(() => {
    if (status.textContent) window.__said.push([performance.now(), status.textContent]);
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""


def test_others_likes_are_announced_at_most_once_a_moment_and_never_to_the_liker(browser):
    running = Server()
    opened = People(browser, running, PROFILE)
    try:
        carol, bob = opened.open("Carol Mint"), opened.open("Bob Chen")
        for page in (carol, bob):
            page.evaluate(RECORD_SAID)
        like = bob.locator("#blogs\\/blog\\.25\\.like")
        expect(like).to_have_text("Like")
        like.click()
        expect(like).to_have_text("Unlike")
        # Carol hears what happened, not who did it.
        expect(carol.locator("#scenery-status")).to_have_text("New like on “Down the rabbit hole, part 3”")

        # A burst: Bob likes every row of the first page he has not liked yet, as fast as a script clicks.
        clicked = bob.evaluate("""() => {
          const buttons = Array.from(document.querySelectorAll("button[id^='blogs/blog.'][id$='.like']"))
            .filter((button) => button.textContent === "Like");
          buttons.forEach((button) => button.click());
          return buttons.length;
        }""")
        assert clicked >= 4, clicked  # more than an announcement names
        # Batched: one announcement names three and counts the rest.
        expect(carol.locator("#scenery-status")).to_contain_text("(+", timeout=15_000)
        expect(bob.locator("button[id^='blogs/blog.'][id$='.like']", has_text=re.compile(r"^Like$"))).to_have_count(0)
        said = carol.evaluate("window.__said")
        likes_said = [(at, text) for at, text in said if "New like" in text]
        assert len(likes_said) < clicked, said
        gaps = [later[0] - earlier[0] for earlier, later in zip(likes_said, likes_said[1:])]
        assert all(gap >= 900 for gap in gaps), f"at most one announcement a moment: {said}"
        assert not [text for _, text in bob.evaluate("window.__said") if "New like" in text], "the liker is not told of his own likes"
        assert same_page(carol) and same_page(bob)
    finally:
        opened.close()
        running.stop()
