"""Column shape in WebKit and Firefox (issue 28, part 5; docs/BROWSER.md "Columns"): a column hidden through the
Columns panel (real clicks) and another resized from its handle with the arrow keys; every row follows; a new tab of
the same page draws the kept shape in its skeleton rows (the stream held in the proxy), and the rows that replace
them have the same widths. Engine-sensitive: constructed stylesheets, `display: none` columns of a fixed table."""
from engines import engine_fixture
from support import CutProxy, server_fixture, wait_until

engine = engine_fixture("webkit", "firefox")
server = server_fixture("--demo-items", 40, "--batch-size", 10, "--demo-latency-ms", 20)

# The shown cells' widths (px, to a tenth) of the row the selector finds.
WIDTHS = """const row = document.querySelector(arguments[0]); if (row === null) return null;
return Array.from(row.cells).filter((c) => getComputedStyle(c).display !== 'none')
  .map((c) => Math.round(c.getBoundingClientRect().width * 10) / 10);"""
ARROWS = """const handle = document.querySelector('#rs-table thead th:nth-child(6) .rs-resize'); handle.focus();
for (let i = 0; i < 3; i += 1) handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
return document.activeElement === handle;"""
HEAD, ROW, SKELETON = "#rs-table thead tr", "#rs-rows tr[data-index]", "#rs-pending tr.rs-skeleton"


def close(a, b):
    return a is not None and b is not None and len(a) == len(b) and all(abs(x - y) <= 1 for x, y in zip(a, b))


def test_a_kept_shape_in_skeletons_and_rows(server, engine, tabs):
    with CutProxy(server.port) as proxy:
        tab = tabs(engine, proxy.url)
        tab.wait("return document.getElementById('rs-table').dataset.state === 'complete'", message="all 40 rows")
        tab.js("localStorage.clear(); return true")
        before = tab.js(WIDTHS, HEAD)
        tab.click("#rs-columns-button")
        tab.click("#rs-columns-menu input[data-place='2']")            # City
        tab.wait("return document.getElementById('rs-status').textContent === 'City column hidden.'",
                 message="the hide announced")
        assert tab.js(ARROWS)
        shaped = tab.js(WIDTHS, HEAD)
        assert len(shaped) == len(before) - 1
        assert abs(shaped[4] - (before[5] + 48)) <= 1.5, (before, shaped)   # Seats, after City went
        assert close(tab.js(WIDTHS, ROW), shaped)

        proxy.pause()
        paused = proxy.paused_count()
        again = tabs(engine, proxy.url)
        wait_until(lambda: proxy.paused_count() > paused, message="the new tab's stream, paused")
        skeleton = again.wait(WIDTHS, SKELETON)
        assert close(skeleton, shaped), (engine.name, skeleton, shaped)
        proxy.resume()
        again.wait("return document.querySelectorAll(arguments[0]).length >= 10", ROW, message="the new tab's rows")
        assert close(again.js(WIDTHS, ROW), skeleton), engine.name
        again.js("localStorage.clear(); return true")
