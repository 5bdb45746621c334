#!/usr/bin/env python3
"""Takes the screenshots under docs/screenshots/ from a real `scenery serve` in Chromium:
every bundled scene, as its owner, as another person and as a visitor, in the light, dark
and high-contrast themes, at desktop and phone width, and writes docs/screenshots/README.md,
the table that shows them side by side. It also makes the README's picture (docs/serve.png:
Alice's profile as Bob sees it, just after Carol liked a blog). Run it after changing how
pages look:

    swift build --product scenery
    python3 docs/screenshots.py

Each screenshot is the first screen a person sees (the viewport, not the whole page), with
motion reduced so a picture never catches a transition half-way."""
import pathlib
import sys

from playwright.sync_api import expect, sync_playwright

HERE = pathlib.Path(__file__).resolve().parent
SHOTS = HERE / "screenshots"
sys.path.insert(0, str(HERE.parent / "Tests" / "Browser"))
from conftest import CHROMIUM, People, Server, open_live, sign_in  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
THEMES = ["light", "dark", "high-contrast"]
# Each bundled scene with its arguments, and who owns what it shows (Alice: her profile,
# her blogs, her friends).
SCENES = {
    "user-profile": "user=1",
    "user-blogs": "user=1",
    "friend-list": "user=1",
    "follow-list": "user=1&list=followers",
    "blog-detail": "blog=27",
}
VIEWERS = {"owner": "Alice Liddell", "other": "Bob Chen", "visitor": None}


def shoot_every_scene(browser, server):
    """Every scene × viewer × theme × size, each in a fresh context (its own cookies)."""
    names = []
    for size, viewport in SIZES.items():
        for viewer, person in VIEWERS.items():
            context = browser.new_context(viewport=viewport, device_scale_factor=1, reduced_motion="reduce")
            page = context.new_page()
            if person:
                sign_in(page, server, person)
            for scene, arguments in SCENES.items():
                for theme in THEMES:
                    open_live(page, f"{server.url}/scenes/{scene}?{arguments}&theme={theme}")
                    expect(page.locator("[aria-busy=true]")).to_have_count(0)
                    name = f"{scene}-{viewer}-{theme}-{size}.png"
                    page.screenshot(path=str(SHOTS / name))
                    names.append(name)
            context.close()
    return names


def shoot_the_readme_picture(browser, server):
    """Alice's profile as Bob sees it, with Carol's like just announced."""
    context = browser.new_context(viewport=SIZES["desktop"], device_scale_factor=1, reduced_motion="reduce")
    page = context.new_page()
    sign_in(page, server, "Bob Chen")
    open_live(page, server.url + "/scenes/user-profile?user=1")
    others = People(browser, server, "/scenes/user-profile?user=1")
    carol = others.open("Carol Mint")
    like = carol.locator("#blogs\\/blog\\.27\\.like")
    like.click()
    expect(like).to_have_text("Unlike")
    expect(page.locator("#scenery-status")).to_contain_text("New like")
    page.screenshot(path=str(HERE / "serve.png"))
    like.click()  # as it was
    expect(like).to_have_text("Like")
    others.close()
    context.close()


def write_index(names):
    """docs/screenshots/README.md: a table per scene, viewers down, sizes and themes across."""
    lines = ["# Screenshots", "", "Made by `python3 docs/screenshots.py` from a real server in Chromium; do not edit by hand.", ""]
    for scene in SCENES:
        lines += [f"## {scene}", ""]
        header = [f"{size}, {theme}" for size in SIZES for theme in THEMES]
        lines.append("| viewer | " + " | ".join(header) + " |")
        lines.append("| --- | " + " | ".join("---" for _ in header) + " |")
        for viewer in VIEWERS:
            cells = []
            for size in SIZES:
                for theme in THEMES:
                    name = f"{scene}-{viewer}-{theme}-{size}.png"
                    assert name in names, name
                    cells.append(f"[<img src=\"{name}\" width=\"{120 if size == 'desktop' else 60}\">]({name})")
            lines.append(f"| {viewer} | " + " | ".join(cells) + " |")
        lines.append("")
    (SHOTS / "README.md").write_text("\n".join(lines), encoding="utf-8")


def main():
    SHOTS.mkdir(exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    server = Server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            names = shoot_every_scene(browser, server)
            shoot_the_readme_picture(browser, server)
            browser.close()
        write_index(names)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
