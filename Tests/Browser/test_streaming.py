"""Pages streamed before their slowest module: the first response is the page with a busy
placeholder for a module that is still loading, and the module is patched in when it loads,
with the page's heading; a module that never loads says so, announced, with a retry."""
import json
import re
import urllib.request

from axe_playwright_python.sync_playwright import Axe
import pytest
from playwright.sync_api import expect

from conftest import ROOT, Server, open_live

# Long enough that a page is open, checked and scanned before the blogs arrive, on a loaded
# machine; the test waits for the blogs themselves, not for the time.
SLOW_BLOGS = "blogs=6s"


def patient_profile():
    """The bundled profile, with a minute for its blogs to load (each read takes 6 s here)."""
    scene = json.loads((ROOT / "Scenes" / "user-profile.json").read_text(encoding="utf-8"))
    for module in scene["modules"]:
        if module["id"] == "blogs":
            module["timeout"] = 60_000
    return json.dumps(scene)


def test_a_slow_module_is_a_busy_placeholder_first_then_streams_in(context):
    slow = Server("--latency", SLOW_BLOGS, first_response_wait=200, scenes={"patient-profile": patient_profile()})
    try:
        with urllib.request.urlopen(slow.url + "/scenes/patient-profile?user=1", timeout=30) as response:
            first = response.read().decode("utf-8")
        # The person and her friends come at once; the blogs are a busy, sized placeholder.
        assert '<h1 class="in-scene">Alice Liddell</h1>' in first
        assert re.search(r'data-module="info"[^>]*data-status="ready"', first)
        assert re.search(r'data-module="blogs"[^>]*data-status="loading" aria-busy="true"', first)
        assert "The pool of tears" not in first

        page = context.new_page()
        open_live(page, slow.url + "/scenes/patient-profile?user=1")
        blogs = page.locator("#blogs")
        expect(blogs).to_have_attribute("aria-busy", "true")
        expect(blogs.get_by_role("status")).to_have_text("Loading blogs…")
        assert blogs.bounding_box()["height"] >= 80, "the placeholder holds the module's place"
        results = Axe().run(page)
        assert results.response["violations"] == [], results.generate_report()

        expect(page.get_by_text("The pool of tears, part 3")).to_be_visible(timeout=60_000)
        expect(blogs).not_to_have_attribute("aria-busy", "true")
        expect(page.get_by_role("heading", level=1)).to_have_text("Alice Liddell")
    finally:
        slow.stop()


def test_the_heading_names_the_person_when_her_module_streams_in(context):
    slow = Server("--latency", "profiles=6s", first_response_wait=200)
    try:
        page = context.new_page()
        open_live(page, slow.url + "/scenes/user-profile?user=1")
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text("Profile")  # the scene's title while the person loads
        expect(heading).to_have_text("Alice Liddell", timeout=30_000)
        assert page.title() == "Alice Liddell · Scenery"
    finally:
        slow.stop()


@pytest.mark.allows_toasts(r"did not load within")
def test_a_module_that_does_not_load_in_time_says_so_announced_with_a_retry(context, tmp_path):
    slow = Server("--latency", SLOW_BLOGS, first_response_wait=200,
                  scenes={"quick-profile": QUICK_PROFILE})
    try:
        page = context.new_page()
        open_live(page, slow.url + "/scenes/quick-profile?user=1")
        error = page.locator("#blogs\\/error")
        expect(error).to_contain_text("This part of the page did not load within 1.0 s; try again.", timeout=30_000)
        expect(page.locator("#scenery-status")).to_contain_text("did not load within")  # announced
        expect(error.get_by_role("button", name="Retry")).to_be_visible()
        expect(page.locator("#info")).to_contain_text("Alice Liddell")  # the others work
    finally:
        slow.stop()


QUICK_PROFILE = """{
  "title": "Quick profile",
  "parameters": { "user": "userID" },
  "modules": [
    { "id": "info", "type": "UserInfoModule", "params": { "user": "$user" } },
    { "id": "blogs", "type": "BlogModule", "params": { "author": "$user" }, "timeout": 1000 }
  ]
}
"""
