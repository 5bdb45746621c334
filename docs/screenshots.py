#!/usr/bin/env python3
"""Takes the screenshots under docs/ from a real `scenery serve` in Chromium: Alice's
profile as Bob sees it, at desktop and phone width, after Carol liked a blog (so the page
shows an announcement), and the home page. Run it after changing how pages look:

    swift build --product scenery && swift build --product scenery-serve
    python3 docs/screenshots.py

It writes docs/profile-desktop.png, docs/profile-phone.png, docs/home.png and the README's
docs/serve.png (the desktop one)."""
import pathlib
import shutil
import sys

from playwright.sync_api import expect, sync_playwright

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Tests" / "Browser"))
from conftest import CHROMIUM, People, Server, sign_in  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def main():
    server = Server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for name, size in SIZES.items():
                context = browser.new_context(viewport=size, device_scale_factor=1, reduced_motion="reduce")
                page = context.new_page()
                sign_in(page, server, "Bob Chen")
                with page.expect_websocket():
                    page.goto(server.url + "/scenes/user-profile?user=1")
                expect(page.get_by_role("heading", level=1)).to_have_text("Alice Liddell")
                others = People(browser, server, "/scenes/user-profile?user=1")
                carol = others.open("Carol Mint")
                like = carol.locator("#blogs\\/blog\\.27\\.like")
                like.click()
                expect(like).to_have_text("Unlike")
                expect(page.locator("#scenery-status")).to_contain_text("New like")
                page.screenshot(path=str(HERE / f"profile-{name}.png"))
                like.click()  # as it was, for the next size
                expect(like).to_have_text("Like")
                others.close()
                if name == "desktop":
                    page.goto(server.url + "/")
                    page.screenshot(path=str(HERE / "home.png"))
                context.close()
            browser.close()
        shutil.copyfile(HERE / "profile-desktop.png", HERE / "serve.png")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
