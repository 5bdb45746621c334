"""Experiments in a real browser: the page reports what is on screen, the server counts a
module seen after it was half visible for a second, and an experiment's exposure is logged
only for people who saw what their arm changes. Bob scrolls to the friends module and stays;
Carol never scrolls (the module stays below the window); Dana jumps past it to the bottom.
Only Bob is exposed; the report reads the server's database."""
import json
import os
import sqlite3
import subprocess
import time

import pytest

from conftest import BINARY, Server, forged_socket, open_live, sign_in

PROFILE = "/scenes/user-profile?user=1"
SMALL_WINDOW = {"width": 900, "height": 320}


@pytest.fixture(scope="module")
def experiment_server():
    running = Server("--preview")
    yield running
    running.stop()


def rows(server, query, arguments=()):
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as connection:
        return connection.execute(query, arguments).fetchall()


def wait_for(server, query, arguments=(), timeout=15):
    """Waits for the server to have recorded something (the event), then returns it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = rows(server, query, arguments)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"nothing recorded for {query} {arguments} within {timeout} s")


def open_profile(browser, server, name):
    context = browser.new_context(viewport=SMALL_WINDOW)
    page = context.new_page()
    sign_in(page, server, name)
    open_live(page, server.url + PROFILE)
    return context, page


def below_the_window(page, selector):
    return page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().top >= window.innerHeight")


def test_only_people_who_saw_the_module_are_exposed(browser, experiment_server):
    server = experiment_server
    opened = []
    try:
        bob = open_profile(browser, server, "Bob Chen")
        carol = open_profile(browser, server, "Carol Mint")
        dana = open_profile(browser, server, "Dana Quiet")
        opened = [bob[0], carol[0], dana[0]]
        for _, page in (bob, carol, dana):
            assert below_the_window(page, "#friends"), "the friends module starts below the window"
        # Every page assembled the profile with an arm for its viewer.
        assigned = wait_for(server, "SELECT DISTINCT unit FROM impressions WHERE kind = 'assignment' AND experiment = 'friends-layout' "
                                    "AND unit IN ('2', '5', '7')")
        assert sorted(unit for (unit,) in assigned) == ["2", "5", "7"]

        bob[1].locator("#friends").scroll_into_view_if_needed()
        dana[1].evaluate("window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' })")

        exposure = wait_for(server, "SELECT unit, module, arm FROM impressions WHERE kind = 'exposure'")
        assert [(unit, module) for unit, module, _ in exposure] == [("2", "friends")]
        # Carol's and Dana's reports are counted too (what they do see), so the absence of
        # their exposures is not a report still on its way.
        wait_for(server, "SELECT 1 FROM impressions WHERE kind = 'impression' AND unit = '7' AND module = 'info'")
        wait_for(server, "SELECT 1 FROM impressions WHERE kind = 'impression' AND unit = '5' AND module = 'blogs' AND node IS NULL")
        # The blog module counts its rows too: the ones at the bottom of the page Dana stays on.
        seen_rows = wait_for(server, "SELECT node FROM impressions WHERE kind = 'impression' AND unit = '5' AND node LIKE 'blogs/%'")
        assert all(dana[1].evaluate(f"document.getElementById('{node}').getBoundingClientRect().bottom > 0") for (node,) in seen_rows)
        assert rows(server, "SELECT unit FROM impressions WHERE kind = 'exposure'") == [("2",)]
        assert rows(server, "SELECT unit FROM impressions WHERE module = 'friends' AND unit IN ('5', '7')") == []

        environment = dict(os.environ, SCENERY_DATABASE=str(server.database))
        report = subprocess.run([BINARY, "experiments", "report", "--scenes", str(server.scenes)], env=environment, capture_output=True,
                                text=True, check=True)
        lines = [line.split() for line in report.stdout.splitlines() if line.strip().startswith(("carousel", "compact"))]
        assert sum(int(line[2]) for line in lines) == 3, report.stdout
        assert sum(int(line[5]) for line in lines) == 1, report.stdout
    finally:
        for context in opened:
            context.close()


def test_a_forged_flood_of_visibility_reports_counts_once(browser, experiment_server):
    server = experiment_server
    context, page = open_profile(browser, server, "韩梅梅")
    try:
        session = page.locator("main").get_attribute("data-session")
        flood = [json.dumps({"type": "visibility", "node": "drafts", "fraction": 1})]
        flood += [json.dumps({"type": "visibility", "node": "info", "fraction": 1})] * 200
        # A resync after the flood: its answer (the whole scene) comes after every report was
        # handled.
        reply = forged_socket(page, server, session, flood + [json.dumps({"type": "resync"})], "reset")
        # A node not on the page, and the flood past the reports' rate (bursts of 120), are
        # declined quietly: reports are the page's bookkeeping, never a toast.
        assert [message for message in reply["received"] if message["type"] == "refused"] == []
        wait_for(server, "SELECT 1 FROM impressions WHERE kind = 'impression' AND unit = '6' AND module = 'info'")
        assert rows(server, "SELECT COUNT(*) FROM impressions WHERE kind = 'impression' AND unit = '6' AND module = 'info'") == [(1,)]
        assert rows(server, "SELECT COUNT(*) FROM impressions WHERE unit = '6' AND module = 'drafts'") == [(0,)]
    finally:
        context.close()


def test_the_preview_shows_both_arms_side_by_side(browser, experiment_server):
    server = experiment_server
    context = browser.new_context()
    page = context.new_page()
    try:
        sign_in(page, server, "Bob Chen")
        page.goto(server.url + "/preview/user-profile?user=1")
        frames = page.locator("iframe")
        titles = [frames.nth(index).get_attribute("title") for index in range(frames.count())]
        assert "Profile, Arm 'carousel' of friends-layout (another viewer)" in titles
        assert "Profile, Arm 'compact' of friends-layout (another viewer)" in titles
        compact = page.frame_locator("iframe[title=\"Profile, Arm 'compact' of friends-layout (another viewer)\"]")
        carousel = page.frame_locator("iframe[title=\"Profile, Arm 'carousel' of friends-layout (another viewer)\"]")
        assert carousel.locator("#friends .list.carousel").count() == 1
        assert compact.locator("#friends .list.carousel").count() == 0
        assert compact.locator("#friends .list").count() == 1
    finally:
        context.close()
