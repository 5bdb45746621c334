"""Motion from the diff: a scene file's transitions play on what each patch touched, for
other people's changes too; reduced motion plays none, and a scene without transitions
never moves."""
import json

from playwright.sync_api import expect

from conftest import ROOT, Server, act_in_parallel, open_live, sign_in

RECORD_MOTION = """() => {
  window.__played = [];
  new MutationObserver((records) => {
    for (const record of records) {
      const nodes = record.type === "attributes" ? [record.target] : Array.from(record.addedNodes);
      for (const node of nodes) {
        if (!(node instanceof Element)) continue;
        for (const name of node.classList) {
          if (name.startsWith("t-")) window.__played.push([name, node.id || (node.firstElementChild && node.firstElementChild.id) || ""]);
        }
      }
    }
  }).observe(document.getElementById("scene-root"), { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
}"""


def moving_profile():
    """The bundled profile whose blogs fade in and out and flash when they change."""
    scene = json.loads((ROOT / "Scenes" / "user-profile.json").read_text(encoding="utf-8"))
    for module in scene["modules"]:
        if module["id"] == "blogs":
            module["transitions"] = {"appear": "fade", "disappear": "fade", "change": "highlight"}
    return json.dumps(scene)


def still_profile():
    """The bundled profile with every transition taken out."""
    scene = json.loads((ROOT / "Scenes" / "user-profile.json").read_text(encoding="utf-8"))
    for module in scene["modules"] + [added for variant in scene["variants"] for added in variant.get("add", [])]:
        module.pop("transitions", None)
    return json.dumps(scene)


def watch_bob_like(browser, server, path, reduced_motion="no-preference"):
    """Carol watches `path` while Bob likes blog 24 there; returns what moved on her page."""
    carol_context = browser.new_context(reduced_motion=reduced_motion)
    bob_context = browser.new_context()
    try:
        carol = carol_context.new_page()
        sign_in(carol, server, "Carol Mint")
        open_live(carol, server.url + path)
        carol.evaluate(RECORD_MOTION)
        bob = bob_context.new_page()
        sign_in(bob, server, "Bob Chen")
        open_live(bob, server.url + path)
        likes = carol.locator("#blogs\\/blog\\.24\\.likes")
        before = likes.inner_text()
        bob.locator("#blogs\\/blog\\.24\\.like").click()
        expect(likes).not_to_have_text(before)
        running = carol.evaluate("document.getAnimations().filter((animation) => animation.animationName && animation.animationName.startsWith('scenery-')).length")
        return carol.evaluate("window.__played"), running
    finally:
        carol_context.close()
        bob_context.close()


def test_a_declared_transition_plays_on_another_viewers_change(browser):
    server = Server(scenes={"moving-profile": moving_profile()})
    try:
        played, running = watch_bob_like(browser, server, "/scenes/moving-profile?user=1")
        assert any(name == "t-change-highlight" and "blog.24" in where for name, where in played), played
        assert running >= 1, "the highlight is playing"
    finally:
        server.stop()


def test_reduced_motion_plays_nothing(browser):
    server = Server(scenes={"moving-profile": moving_profile()})
    try:
        played, running = watch_bob_like(browser, server, "/scenes/moving-profile?user=1", reduced_motion="reduce")
        assert played == [] and running == 0, (played, running)
    finally:
        server.stop()


def test_a_scene_without_transitions_never_moves(browser):
    server = Server(scenes={"still-profile": still_profile()})
    try:
        played, running = watch_bob_like(browser, server, "/scenes/still-profile?user=1")
        assert played == [] and running == 0, (played, running)
    finally:
        server.stop()


def test_the_bundled_profile_shows_another_viewers_change(browser, server):
    """The bundled scenes use the engine's transitions: a like by someone else flashes its row."""
    played, _ = watch_bob_like(browser, server, "/scenes/user-profile?user=1")
    assert any(name == "t-change-highlight" and "blog.24" in where for name, where in played), played


def test_a_new_row_fades_in_and_a_removed_one_fades_out_of_reach(browser):
    scene = json.loads(moving_profile())
    for variant in scene["variants"]:
        for module in variant.get("add", []):
            if module["id"] == "drafts":
                module["transitions"] = {"appear": "fade", "disappear": "fade"}
    server = Server(scenes={"moving-profile": json.dumps(scene)})
    context = browser.new_context()
    try:
        page = context.new_page()
        sign_in(page, server, "Alice Liddell")
        open_live(page, server.url + "/scenes/moving-profile?user=1")
        page.get_by_role("tab", name="Drafts").click()
        drafts = page.locator("#drafts\\/list")
        expect(drafts.get_by_role("button", name="Delete")).to_have_count(3)
        page.evaluate(RECORD_MOTION)
        compose = page.locator("form[data-form='drafts/compose']")
        compose.get_by_label("Title").fill("Tea at four")
        compose.get_by_role("button", name="Save draft").click()
        expect(drafts).to_contain_text("Tea at four")
        drafts.get_by_role("button", name="Delete").first.click()  # the newest draft is first
        page.get_by_role("dialog").get_by_role("button", name="Delete").click()
        expect(drafts.get_by_role("button", name="Delete")).to_have_count(3)  # gone from reach at once
        expect(page.locator("[data-leaving]")).to_have_count(0)  # and from the page once it faded
        expect(drafts).not_to_contain_text("Tea at four")
        played = [name for name, _ in page.evaluate("window.__played")]
        assert "t-appear-fade" in played and "t-disappear-fade" in played, played
    finally:
        context.close()
        server.stop()


def test_a_burst_of_five_hundred_changes_is_a_few_announcements_and_no_backlog_of_motion(browser):
    """500 likes and unlikes by six people in two pages each, as fast as the server takes
    them, while Carol watches with transitions on: one announcement a moment at most, and
    the motion of a row restarts instead of queueing (nothing is still playing afterwards
    beyond the last highlights)."""
    server = Server("--max-pages-per-viewer", "64", scenes={"moving-profile": moving_profile()})
    context = browser.new_context()
    try:
        carol = context.new_page()
        sign_in(carol, server, "Carol Mint")
        open_live(carol, server.url + "/scenes/moving-profile?user=1")
        carol.evaluate(RECORD_MOTION)
        carol.evaluate("""() => {
          window.__said = [];
          const status = document.getElementById("scenery-status");
          new MutationObserver(() => { if (status.textContent) window.__said.push([performance.now(), status.textContent]); })
            .observe(status, { childList: true, characterData: true, subtree: true });
        }""")
        started = carol.evaluate("performance.now()")
        rows = [f"blogs/blog.{row}.like" for row in range(18, 28)]
        people = [(user, tab) for user in ["1", "2", "3", "4", "5", "6"] for tab in range(1, 4)]
        plan = {person: [rows[(index + offset) % len(rows)] for offset in range(28)] for index, person in enumerate(people)}
        assert sum(len(nodes) for nodes in plan.values()) >= 500
        act_in_parallel(server.url, "/scenes/moving-profile?user=1", plan)
        fresh = context.new_page()
        fresh.goto(server.url + "/scenes/moving-profile?user=1")
        for row in range(18, 28):
            expect(carol.locator(f"#blogs\\/blog\\.{row}\\.likes")).to_have_text(fresh.locator(f"#blogs\\/blog\\.{row}\\.likes").inner_text())
        fresh.close()
        ended = carol.evaluate("performance.now()")
        said = carol.evaluate("window.__said")
        gaps = [later[0] - earlier[0] for earlier, later in zip(said, said[1:])]
        assert all(gap >= 900 for gap in gaps), f"one announcement a moment at most: {said}"
        assert len(said) <= (ended - started) / 900 + 2, said
        playing = carol.evaluate("document.getAnimations().filter((animation) => animation.animationName.startsWith('scenery-')).length")
        assert playing <= 10, f"{playing} animations still playing: one per row at most"
        assert len(carol.evaluate("window.__played")) > 0, "the rows moved"
    finally:
        context.close()
        server.stop()
