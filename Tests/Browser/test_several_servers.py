"""Several `scenery serve` processes on one PostgreSQL database (a real server of the test's
own), sharing a signing key: a like through one server reaches a page held by the other."""
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import BINARY, Postgres, Server, open_live, same_page, sign_in, signing_key_file

PROFILE = "/scenes/user-profile?user=1"


@pytest.fixture(scope="module")
def servers():
    database = Postgres()
    key = signing_key_file()
    started = []
    try:
        for _ in range(2):
            started.append(Server("--secret-file", str(key), database=database.url))
        yield started
    finally:
        for server in started:
            server.stop()
        database.stop()
        shutil.rmtree(key.parent, ignore_errors=True)


def test_a_like_through_one_server_reaches_a_page_on_the_other(browser, servers):
    first, second = servers
    people = []
    try:
        for name, server in [("Carol Mint", first), ("Bob Chen", second)]:
            context = browser.new_context()
            people.append(context)
            page = context.new_page()
            sign_in(page, server, name)
            open_live(page, server.url + PROFILE)
        carol, bob = (context.pages[0] for context in people)
        likes = carol.locator("#blogs\\/blog\\.26\\.likes")
        before = likes.inner_text()
        bob.locator("#blogs\\/blog\\.26\\.like").click()
        # Within a second: the like's NOTIFY reaches the other server's listening connection.
        expect(likes).not_to_have_text(before, timeout=1_000)
        assert same_page(carol), "in place, over the socket, not by a reload"
        expect(bob.locator("#blogs\\/blog\\.26\\.likes")).to_have_text(likes.inner_text())
    finally:
        for context in people:
            context.close()


def test_a_cookie_signed_by_one_server_is_signed_in_on_the_other(browser, servers):
    first, second = servers
    context = browser.new_context()
    try:
        page = context.new_page()
        sign_in(page, first, "Bob Chen")
        # Both servers on one host: the browser sends the cookie to the other port too.
        page.goto(second.url + PROFILE)
        expect(page.locator("body")).to_contain_text("Signed in as Bob Chen")
    finally:
        context.close()


def test_every_database_command_works_on_postgresql_as_on_sqlite(tmp_path):
    """`scenery` (which hands a postgres:// database to scenery-serve) prints the same on
    either database, and a SQLite export imported into PostgreSQL exports back byte for byte."""
    database = Postgres()
    try:
        sqlite = str(tmp_path / "demo.sqlite")

        def scenery(*arguments, database_=None):
            result = subprocess.run([BINARY, *arguments, "--database", database_], capture_output=True, text=True, timeout=120)
            assert result.returncode == 0, result.stderr
            return result.stdout

        for command in [["run", "user-profile", "--viewer", "1", "--arg", "user=1"],
                        ["run", "user-profile", "--viewer", "2", "--arg", "user=1"],
                        ["run", "friend-list", "--viewer", "1", "--arg", "user=1"]]:
            assert scenery(*command, database_=database.url) == scenery(*command, database_=sqlite)
        scenery("data", "generate", "--user", "2", "--blogs", "25", database_=sqlite)
        exported = tmp_path / "sqlite.json"
        scenery("data", "export", str(exported), database_=sqlite)
        scenery("data", "import", str(exported), database_=database.url)
        again = scenery("data", "export", "-", database_=database.url)
        assert again == exported.read_text(encoding="utf-8")
        back = str(tmp_path / "back.sqlite")
        scenery("data", "import", str(exported), database_=back)
        assert scenery("data", "export", "-", database_=back) == again
        # A bad URL is an error that says what is wrong, without the password.
        failed = subprocess.run([BINARY, "data", "export", "-", "--database", "postgres://me:hunter2@127.0.0.1:1/x?sslmode=disable"],
                                capture_output=True, text=True, timeout=120)
        assert failed.returncode == 2 and "127.0.0.1:1" in failed.stderr and "hunter2" not in failed.stderr, failed.stderr
    finally:
        database.stop()
