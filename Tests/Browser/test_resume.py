"""A page survives its server: two `scenery serve` processes on one PostgreSQL database (a
real server of the test's own) behind a real nginx running the checked-in
Examples/Deploying/nginx-several.conf (its three addresses changed to free loopback ports).

A server killed with SIGKILL under open pages, and a rolling restart of both: every page
reconnects through nginx to the server that is up and resumes from its signed token where it
was (selected tab, pages loaded, the same document), and an action taken meanwhile is applied
once."""
import re
import shutil

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Nginx, Postgres, Server, free_port, open_live, same_page, sign_in, signing_key_file

SEVERAL = ROOT / "Examples" / "Deploying" / "nginx-several.conf"
PROFILE = "/scenes/user-profile?user=1"
LIKES = "#blogs\\/blog\\.26\\.likes"
LIKE = "#blogs\\/blog\\.26\\.like"
LIKES_27 = "#blogs\\/blog\\.27\\.likes"
LIKE_27 = "#blogs\\/blog\\.27\\.like"


class Site:
    """Two server slots on fixed loopback ports behind nginx, one database, one key."""

    def __init__(self):
        self.database = Postgres()
        self.key = signing_key_file()
        self.ports = [free_port()]
        while len(self.ports) < 2:
            port = free_port()
            if port not in self.ports:
                self.ports.append(port)
        self.servers = [None, None]
        self.proxy = Nginx(SEVERAL, {
            "server 127.0.0.1:8081 max_fails=0;": f"server 127.0.0.1:{self.ports[0]} max_fails=0;",
            "server 127.0.0.1:8082 max_fails=0;": f"server 127.0.0.1:{self.ports[1]} max_fails=0;",
        })
        self.url = self.proxy.url

    def start(self, index):
        # Whole lists a page at a time (no row windows), so that "pages loaded" shows.
        self.servers[index] = Server("--secret-file", str(self.key), "--window-rows", "0", "--trusted-proxy", "127.0.0.1",
                                     database=self.database.url, port=self.ports[index])

    def kill(self, index):
        """SIGKILL: the server ends at once, its sessions with it."""
        server = self.servers[index]
        server.process.kill()
        server.process.wait(timeout=10)
        server.stop()
        self.servers[index] = None

    def restart(self, index):
        """A deploy: stop (SIGTERM, the server closes its pages' sockets) and start again."""
        self.servers[index].stop()
        self.start(index)

    def close(self):
        for server in self.servers:
            if server:
                server.stop()
        self.proxy.stop()
        self.database.stop()
        shutil.rmtree(self.key.parent, ignore_errors=True)


@pytest.fixture
def site():
    running = Site()
    yield running
    running.close()


class OneServer:
    """The only server of a site, on a fixed port, key and database: stopped, and started
    again, its pages come back to it."""

    def __init__(self, tmp_path):
        self.key, self.port, self.database = signing_key_file(), free_port(), tmp_path / "demo.sqlite"
        self.start()

    def start(self):
        self.server = Server("--secret-file", str(self.key), port=self.port, database=self.database)

    def stop(self):
        self.server.stop()

    @property
    def url(self):
        return self.server.url

    def close(self):
        self.server.stop()
        shutil.rmtree(self.key.parent, ignore_errors=True)


@pytest.fixture
def only_server(tmp_path):
    running = OneServer(tmp_path)
    yield running
    running.close()


def profile_as(context, server, name):
    """A page of Alice's profile, live, for `name` signed in."""
    page = context.new_page()
    sign_in(page, server, name)
    open_live(page, server.url + PROFILE)
    return page


def count(text):
    return int(re.search(r"\d+", text).group())


def open_pages(browser, site):
    """Alice on her own profile with the Drafts tab selected; Bob on it with a second page of
    blogs loaded. Both through nginx."""
    alice_context, bob_context = browser.new_context(), browser.new_context()
    alice, bob = alice_context.new_page(), bob_context.new_page()
    sign_in(alice, site, "Alice Liddell")
    open_live(alice, site.url + PROFILE)
    alice.get_by_role("tab", name="Drafts").click()
    expect(alice.get_by_role("tab", name="Drafts")).to_have_attribute("aria-selected", "true")
    expect(alice.get_by_text("Through the looking glass")).to_be_visible()
    sign_in(bob, site, "Bob Chen")
    open_live(bob, site.url + PROFILE)
    rows = bob.locator("#blogs\\/all > ul > li")
    expect(rows).to_have_count(10)
    bob.get_by_role("button", name="Load more").click()
    expect(rows).to_have_count(20)
    return (alice_context, alice), (bob_context, bob)


def expect_where_they_were(alice, bob):
    expect(alice.get_by_role("tab", name="Drafts")).to_have_attribute("aria-selected", "true")
    expect(alice.get_by_text("Through the looking glass")).to_be_visible()
    expect(bob.locator("#blogs\\/all > ul > li")).to_have_count(20)
    assert same_page(alice) and same_page(bob), "resumed in place, not reloaded"


def likes_seen_by_someone_new(browser, site, likes=LIKES):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site.url + PROFILE)
        return count(page.locator(likes).inner_text())
    finally:
        context.close()


def test_pages_resume_on_the_other_server_after_a_kill_and_a_queued_like_counts_once(browser, site):
    site.start(0)
    (alice_context, alice), (bob_context, bob) = open_pages(browser, site)
    carol_context = browser.new_context()
    try:
        site.start(1)
        # Carol's page is on the second server (opened there directly); Bob's, through nginx,
        # on the first: his like reaches her within a second, through PostgreSQL.
        carol = carol_context.new_page()
        second = site.servers[1]
        sign_in(carol, second, "Carol Mint")
        open_live(carol, second.url + PROFILE)
        before = count(carol.locator(LIKES).inner_text())
        bob.locator(LIKE).click()
        expect(carol.locator(LIKES)).to_have_text(re.compile(rf"\b{before + 1}\b"), timeout=1_000)
        expect(bob.locator(LIKES)).to_have_text(re.compile(rf"\b{before + 1}\b"))
        before += 1
        liked_27 = count(bob.locator(LIKES_27).inner_text())
        liked_27 += 1 if bob.locator(LIKE_27).inner_text().strip() == "Like" else -1
        site.kill(0)
        # Taken while the page's server is gone: kept by the page, sent when it resumes.
        bob.locator(LIKE_27).click()
        # Within two seconds the page is back on the other server, with the like applied.
        expect(bob.locator(LIKES_27)).to_have_text(re.compile(rf"\b{liked_27}\b"), timeout=2_000)
        expect(carol.locator(LIKES_27)).to_have_text(re.compile(rf"\b{liked_27}\b"), timeout=1_000)
        expect_where_they_were(alice, bob)
        assert same_page(carol)
        assert likes_seen_by_someone_new(browser, site, LIKES_27) == liked_27, "the like was applied once"
        # The resumed pages are live on their new server: Alice sees Bob's unlike.
        alice.get_by_role("tab", name="Blogs").click()
        expect(alice.locator(LIKES)).to_have_text(re.compile(rf"\b{before}\b"))
        bob.locator(LIKE).click()
        expect(alice.locator(LIKES)).to_have_text(re.compile(rf"\b{before - 1}\b"), timeout=1_000)
        assert same_page(alice) and same_page(bob)
    finally:
        alice_context.close()
        bob_context.close()
        carol_context.close()


def test_offline_the_page_marks_what_needs_the_server_and_the_action_taken_meanwhile_then_applies_it_once(browser, only_server):
    """One server, stopped and started again on its port, key and database: while it is away
    the page says so, keeps what it shows, marks its controls, and marks the like Bob takes
    as pending; back, the like is applied once and every mark goes."""
    server = only_server
    context = browser.new_context()
    try:
        bob = profile_as(context, server, "Bob Chen")
        likes = count(bob.locator(LIKES_27).inner_text())
        liked = bob.locator(LIKE_27).inner_text().strip() == "Unlike"
        server.stop()
        expect(bob.locator("body")).to_have_class(re.compile(r"\boffline\b"))
        expect(bob.locator("#scenery-status")).to_contain_text("Reconnecting")
        bob.locator(LIKE_27).click()
        expect(bob.locator(LIKE_27)).to_have_attribute("aria-busy", "true")
        expect(bob.locator(LIKE_27)).to_have_class(re.compile(r"\bpending\b"))
        expect(bob.locator(LIKES_27)).to_have_text(re.compile(rf"\b{likes}\b"))  # shown as it was, to read
        server.start()
        expected = likes - 1 if liked else likes + 1
        expect(bob.locator(LIKES_27)).to_have_text(re.compile(rf"\b{expected}\b"), timeout=10_000)
        expect(bob.locator(LIKE_27)).not_to_have_attribute("aria-busy", "true")
        expect(bob.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
        assert same_page(bob), "resumed in place"
        assert likes_seen_by_someone_new(browser, server, LIKES_27) == expected, "applied once"
    finally:
        context.close()


# Counts the questions ("confirm" messages) the page's sockets received, whichever server
# sent them: `window.questionsAsked`.
COUNT_QUESTIONS = """
(() => {
  window.questionsAsked = 0;
  const listen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return listen.call(this, type, listener, options);
    return listen.call(this, type, (event) => {
      if (typeof event.data === "string" && event.data.includes('"type":"confirm"')) window.questionsAsked += 1;
      listener.call(this, event);
    }, options);
  };
})();
"""
FOLLOW = "#info\\/follow"


def asked_to_unfollow(context, server):
    """Bob on Alice's profile, asked "Unfollow Alice Liddell?" (he follows her)."""
    context.add_init_script(COUNT_QUESTIONS)
    bob = profile_as(context, server, "Bob Chen")
    expect(bob.locator(FOLLOW)).to_have_text("Unfollow")
    bob.locator(FOLLOW).click()
    dialog = bob.get_by_role("dialog", name="Unfollow Alice Liddell?")
    expect(dialog).to_be_visible()
    return bob, dialog


def follows_alice(context, server):
    """Whether a fresh page of Bob's shows him following Alice (the database's word)."""
    page = context.new_page()
    try:
        page.goto(server.url + PROFILE)
        return page.locator(FOLLOW).inner_text().strip() == "Unfollow"
    finally:
        page.close()


def test_a_question_open_when_the_server_restarts_stays_one_dialog_and_one_answer_does_it(browser, only_server):
    """The server restarts while Bob's dialog is open. The restarted server, sent the unfollow
    again under its key, asks again: the page keeps its one dialog for that question (not a
    second on top), and Bob's one answer unfollows."""
    context = browser.new_context()
    try:
        bob, dialog = asked_to_unfollow(context, only_server)
        only_server.stop()
        expect(bob.locator("body")).to_have_class(re.compile(r"\boffline\b"))
        only_server.start()
        bob.wait_for_function("() => window.questionsAsked >= 2")  # the restarted server asked again
        expect(bob.locator("dialog")).to_have_count(1)
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Unfollow").click()
        expect(bob.locator(FOLLOW)).to_have_text("Follow", timeout=10_000)
        expect(bob.locator("dialog")).to_have_count(0)
        assert same_page(bob), "resumed in place"
        assert not follows_alice(context, only_server)
    finally:
        context.close()


def test_a_question_answered_while_the_server_is_away_is_answered_when_it_asks_again(browser, only_server):
    """Bob answers while the server is down: the page keeps his answer, and when the server
    is back and asks again for the same unfollow, it is answered — no second dialog."""
    context = browser.new_context()
    try:
        bob, dialog = asked_to_unfollow(context, only_server)
        only_server.stop()
        expect(bob.locator("body")).to_have_class(re.compile(r"\boffline\b"))
        dialog.get_by_role("button", name="Unfollow").click()
        expect(bob.locator("dialog")).to_have_count(0)
        only_server.start()
        expect(bob.locator(FOLLOW)).to_have_text("Follow", timeout=10_000)
        assert bob.evaluate("window.questionsAsked") == 2, "asked again, and answered without a dialog"
        expect(bob.locator("dialog")).to_have_count(0)
        expect(bob.locator("#scenery-status")).not_to_contain_text("Not connected")
        assert not follows_alice(context, only_server)
    finally:
        context.close()


# Holds a page's socket as if it were still connecting (it reports CONNECTING and its open
# listeners wait) until `window.releaseSocket()`: what a person meets who acts on a page the
# moment it shows, before its connection is up.
HOLD_FIRST_CONNECTION = """
(() => {
  let held = true;
  const waiting = [];
  const state = Object.getOwnPropertyDescriptor(WebSocket.prototype, "readyState");
  Object.defineProperty(WebSocket.prototype, "readyState", {
    get() { const value = state.get.call(this); return held && value === WebSocket.OPEN ? WebSocket.CONNECTING : value; },
  });
  const listen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "open") return listen.call(this, type, listener, options);
    return listen.call(this, "open", (event) => { if (held) waiting.push(() => listener.call(this, event)); else listener.call(this, event); }, options);
  };
  window.releaseSocket = () => { held = false; for (const opened of waiting.splice(0)) opened(); };
})();
"""


def test_an_action_taken_while_the_page_first_connects_waits_marked_and_says_nothing_of_reconnecting(browser, only_server):
    """A like clicked before the page's connection is first up is not a reconnection: the
    control is marked as waiting, the status line says nothing, and once the connection opens
    the like is applied once."""
    server = only_server
    context = browser.new_context()
    try:
        bob = context.new_page()
        sign_in(bob, server, "Bob Chen")
        bob.add_init_script(HOLD_FIRST_CONNECTION)
        with bob.expect_websocket():
            bob.goto(server.url + PROFILE)
        likes = count(bob.locator(LIKES_27).inner_text())
        liked = bob.locator(LIKE_27).inner_text().strip() == "Unlike"
        bob.locator(LIKE_27).click()
        expect(bob.locator(LIKE_27)).to_have_attribute("aria-busy", "true")
        assert bob.locator("#scenery-status").inner_text() == "", "said at the click, as it was taken"
        bob.evaluate("window.releaseSocket()")
        expected = likes - 1 if liked else likes + 1
        expect(bob.locator(LIKES_27)).to_have_text(re.compile(rf"\b{expected}\b"))
        expect(bob.locator(LIKE_27)).not_to_have_attribute("aria-busy", "true")
        assert likes_seen_by_someone_new(browser, server, LIKES_27) == expected, "applied once"
    finally:
        context.close()


FULL = "Too much is waiting to be sent while the connection is away: that action was not taken. Try it again once it is back."


@pytest.mark.allows_toasts(rf"^{re.escape(FULL)}$")
def test_offline_what_waits_is_bounded_in_bytes_and_the_page_says_so_then_applies_what_it_kept_once(browser, only_server):
    """Alice saves a long draft five times while the server is away (about 60 KB each: what
    waits may reach four of the largest messages the server takes, 320 KB); the sixth is not
    taken, and the page says why. Back, the five saves are applied, each once."""
    server = only_server
    context = browser.new_context()
    try:
        alice = profile_as(context, server, "Alice Liddell")
        alice.on("dialog", lambda dialog: dialog.accept())
        alice.get_by_role("tab", name="Drafts").click()
        form = alice.locator("form[data-form='drafts/compose']")
        expect(form).to_be_visible()
        server.stop()
        expect(alice.locator("body")).to_have_class(re.compile(r"\boffline\b"))
        form.get_by_label("Title").fill("Written offline")
        form.get_by_label("Text").fill("語" * 20_000)  # 60,000 bytes as UTF-8
        save = form.get_by_role("button", name="Save draft")
        for _ in range(5):
            save.click()
        expect(alice.locator("#scenery-status")).to_contain_text("Reconnecting")
        save.click()
        expect(alice.locator("#scenery-status")).to_have_text(FULL)
        server.start()
        drafts = alice.locator("#drafts\\/list").get_by_text("Written offline", exact=True)
        expect(drafts).to_have_count(5, timeout=15_000)
        expect(alice.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
    finally:
        context.close()


EDITOR = "form[data-form='drafts/draft.1.editor']"
FORM_GONE = "What you typed was not sent: its form closed when the page came back. It is kept; open the form again to send it."


@pytest.mark.allows_toasts(r"^What you typed is back in its field; it has not been sent\.$", rf"^{re.escape(FORM_GONE)}$")
def test_text_typed_offline_into_an_editor_the_restarted_server_closed_comes_back_when_it_is_opened_again(browser, only_server):
    """Alice edits draft 1 while the only server is away and saves; the server comes back
    (a new process: it makes her page again from its token, with its editors closed, so her
    queued save has no form to go to). What she typed is not lost: opening the editor again
    puts it back, said so, and saving it then saves it once."""
    server = only_server
    context = browser.new_context()
    try:
        alice = profile_as(context, server, "Alice Liddell")
        alice.get_by_role("tab", name="Drafts").click()
        alice.locator("#drafts\\/draft\\.1\\.edit").click()
        expect(alice.locator(EDITOR)).to_be_visible()
        server.stop()
        expect(alice.locator("body")).to_have_class(re.compile(r"\boffline\b"))
        alice.locator(EDITOR).get_by_label("Title").fill("Edited while away")
        alice.locator(EDITOR).get_by_role("button", name="Save draft").click()
        server.start()
        expect(alice.locator("body")).not_to_have_class(re.compile(r"\boffline\b"), timeout=15_000)
        expect(alice.locator(EDITOR)).to_have_count(0)  # made again: its editors closed
        expect(alice.locator("#scenery-status")).to_have_text(FORM_GONE)
        alice.locator("#drafts\\/draft\\.1\\.edit").click()
        expect(alice.locator(EDITOR).get_by_label("Title")).to_have_value("Edited while away")
        expect(alice.locator("#scenery-status")).to_contain_text("What you typed is back in its field")
        alice.locator(EDITOR).get_by_role("button", name="Save draft").click()
        expect(alice.locator("#drafts\\/list").get_by_text("Edited while away", exact=True)).to_have_count(1)
        assert same_page(alice), "resumed in place"
    finally:
        context.close()


def test_fifty_open_pages_keep_their_place_and_typed_text_across_a_rolling_restart(browser, site):
    """A deploy under 50 open pages: both servers stopped (SIGTERM) and started again, one
    after the other. No page reloads or stays offline; each shows the like Bob makes after each
    restart (applied once); Alice's page keeps its selected tab, the title she was typing, its
    focus (the title field, caret where it was) and where she had scrolled to."""
    site.start(0)
    site.start(1)
    (alice_context, alice), (bob_context, bob) = open_pages(browser, site)
    title = alice.locator("form[data-form='drafts/compose']").get_by_label("Title")
    title.fill("Typed before the deploy")
    alice.evaluate("() => { const field = document.activeElement; field.setSelectionRange(5, 5); window.scrollTo(0, 200); }")
    assert alice.evaluate("() => window.scrollY") > 0, "scrolled"
    # Where she is: the field she types in, where it stands on her screen (not the page's
    # scroll offset: the browser keeps what she looks at in place when something above it
    # grows, which moves the offset), its name and her caret.
    where = ("() => [Math.round(document.activeElement.getBoundingClientRect().top), document.activeElement.name,"
             " document.activeElement.selectionStart]")
    place = alice.evaluate(where)
    assert place[1], f"the title focused: {place}"
    visitors_context = browser.new_context()
    try:
        visitors = [visitors_context.new_page() for _ in range(48)]
        for page in visitors:
            open_live(page, site.url + PROFILE)
        before = count(bob.locator(LIKES).inner_text())
        expected = before
        for index in [0, 1]:
            site.restart(index)
            # Whichever server held the pages, they answer now: a like (then an unlike)
            # through the page shows its new count, applied once.
            bob.locator(LIKE).click()
            expected = before + 1 if expected == before else before
            expect(bob.locator(LIKES)).to_have_text(re.compile(rf"\b{expected}\b"), timeout=30_000)
            expect_where_they_were(alice, bob)
            assert likes_seen_by_someone_new(browser, site) == expected
        for page in [alice, bob, *visitors]:
            expect(page.locator("body")).not_to_have_class(re.compile(r"\boffline\b"), timeout=30_000)
            assert same_page(page), "resumed in place, not reloaded"
        for page in visitors:
            expect(page.locator(LIKES)).to_have_text(re.compile(rf"\b{expected}\b"), timeout=30_000)
        expect(title).to_have_value("Typed before the deploy")
        expect(title).to_be_focused()
        # Where she was, once the page has settled: her field where it stood on her screen (to a
        # pixel), her caret where it was. (The page's scroll offset may differ: CI read 206 px
        # for her 200 for fifteen seconds, the browser keeping her field in place while
        # something above it had grown by 6 px.)
        same = f"(place) => {{ const now = ({where})(); return Math.abs(now[0] - place[0]) <= 1 && now[1] === place[1] && now[2] === place[2]; }}"
        try:
            alice.wait_for_function(same, arg=place, timeout=15_000)
        finally:
            now = alice.evaluate(where)
            assert abs(now[0] - place[0]) <= 1 and now[1:] == place[1:], f"where she was: {place}, now: {now}"
    finally:
        visitors_context.close()
        alice_context.close()
        bob_context.close()
