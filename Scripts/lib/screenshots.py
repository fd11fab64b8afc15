"""The README's screenshots, taken with Playwright's Chromium (Debian's /usr/bin/chromium) from the main command's
demo: the release server with no flags but a free port (Scripts/run's defaults: 2,500 customers, 250 ms a page,
batches of 50, the sort, status and search controls on). Run by Scripts/screenshots, which makes the venv and the
build first.

    docs/screenshot.png                       light, "lam" typed into the search: the rows it found (README)
    docs/screenshots/loading-SCHEME.png      the first paint: skeleton rows (the stream held in a proxy)
    docs/screenshots/loaded-SCHEME.png       the first batch in, a row hovered

Every wait is bounded (support.TIMEOUT); the server and the proxy are stopped when done."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))

from playwright.sync_api import sync_playwright  # noqa: E402

from support import TIMEOUT_MS, CutProxy, RowstreamServer, wait_until  # noqa: E402

VIEWPORT = {"width": 1280, "height": 800}
SHOTS = os.path.join(ROOT, "docs", "screenshots")


# The table shows only rows of the search `arguments[0]`, idle or complete (the start-over done).
FOUND = """(text) => {
  const state = document.getElementById('rs-table').dataset.state;
  const names = Array.from(document.querySelectorAll('#rs-rows tr[data-index]'), (r) => r.cells[1].textContent);
  return ['idle', 'complete'].includes(state) && names.length > 0 && location.search.includes('p.q=' + text)
    && names.every((name) => name.toLowerCase().includes(text));
}"""


def shoot(browser, url, scheme, path, held=None, search=None):
    """Opens `url` in a fresh context of `scheme`; with `held` (a paused CutProxy) the first paint, else the page
    once its first batch is in and the table idle (with `search` typed into the search box first: its rows), a row
    hovered. Writes the viewport to `path`."""
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme, timezone_id="UTC", locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(url, wait_until="domcontentloaded")
        if held:
            wait_until(lambda: held.paused_count() > 0, message="the page's stream, paused")
            page.wait_for_selector("#rs-pending tr.rs-skeleton")
        else:
            page.wait_for_selector("#rs-table[data-state=idle] #rs-rows tr[data-index]")
            if search:
                page.type("#rs-controls input[type=search]", search)
                wait_until(lambda: page.evaluate(FOUND, search), message="the rows of %r" % search)
            page.mouse.move(400, 460)
        page.evaluate("document.fonts.ready")
        page.screenshot(path=path, animations="disabled")   # the shimmer at its start: the same image each run
    finally:
        context.close()
    print("%s (%d bytes)" % (os.path.relpath(path, ROOT), os.path.getsize(path)))


def main():
    server = RowstreamServer()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("ROWSTREAM_CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
            try:
                shoot(browser, server.url, "light", os.path.join(ROOT, "docs", "screenshot.png"), search="lam")
                for scheme in ("light", "dark"):
                    with CutProxy(server.port) as proxy:
                        proxy.pause()
                        shoot(browser, proxy.url, scheme, os.path.join(SHOTS, "loading-%s.png" % scheme), held=proxy)
                    shoot(browser, server.url, scheme, os.path.join(SHOTS, "loaded-%s.png" % scheme))
            finally:
                browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
