"""Every width (issue 18, part 1): at 390, 768, 1024, 1280 and 1920 px, light and dark, the table scrolls sideways
inside its own box and the document never does; no column is narrower than its header's text; number headers
line up with their numbers; the live region is announced but not shown; CLS stays < 0.01. A screenshot of each
(docs/screenshots/width-W-SCHEME.png when run with ROWSTREAM_SCREENSHOTS=docs/screenshots)."""
import os

import pytest

from support import SHOTS, assert_stable_layout, events, server_fixture, wait_until

WIDTHS = [390, 768, 1024, 1280, 1920]
server = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100, "--demo-controls", "on")
grid = server_fixture("--demo-items", 30, "--batch-size", 12, "--demo-latency-ms", 50, "--demo-layout", "grid")

# Per header cell: its width, and the width its text needs (the text's own box plus the cell's padding).
HEADERS = """() => Array.from(document.querySelectorAll('#rs-table thead th')).map((th) => {
  const range = document.createRange(); range.selectNodeContents(th);
  const handle = th.querySelector('.rs-resize'); if (handle) range.setEndBefore(handle);   // columns.js's, not text
  const style = getComputedStyle(th);
  const text = range.getBoundingClientRect().width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  return { title: th.textContent, width: th.getBoundingClientRect().width, text, scroll: th.scrollWidth, client: th.clientWidth };
})"""

# Per number column: the right edge of the header's text and of the first row's number.
NUMBER_EDGES = """() => Array.from(document.querySelectorAll('#rs-table thead th')).flatMap((th, i) => {
  if (!th.classList.contains('rs-number')) return [];
  const cell = document.querySelector('#rs-rows tr[data-index] > td:nth-child(' + (i + 1) + ')');
  const right = (node) => { const r = document.createRange(); r.selectNodeContents(node);
    const handle = node.querySelector('.rs-resize'); if (handle) r.setEndBefore(handle);   // columns.js's, not text
    return r.getBoundingClientRect().right; };
  return [[th.textContent, right(th), right(cell)]];
})"""


def luminance(hex_color):
    channels = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    light, dark = sorted([luminance(a), luminance(b)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_every_width(server, open_page, width, scheme):
    probe = open_page(server.url, color_scheme=scheme, viewport={"width": width, "height": 800})
    page = probe.page
    wait_until(lambda: len(events(probe, "rows")) >= 3, message="three batches")
    assert_stable_layout(probe)

    # The document never scrolls sideways; the table's box does when the table is wider than it.
    sizes = page.evaluate("""() => ({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
        box: document.getElementById('rs-box').clientWidth, table: document.getElementById('rs-table').offsetWidth })""")
    assert sizes["doc"] <= sizes["view"], "the document scrolls sideways: %r" % sizes
    page.evaluate("window.scrollTo(10000, 0)")
    assert page.evaluate("window.scrollX") == 0

    # No column is narrower than its header's text (nor 0 px); every cell of a column is as wide as its header.
    for header in page.evaluate(HEADERS):
        assert header["width"] >= header["text"] - 0.5, "column narrower than its header: %r" % header
        assert header["scroll"] <= header["client"], "header text cut: %r" % header
    name = page.eval_on_selector("#rs-rows tr[data-index] > td:nth-child(2)", "td => td.getBoundingClientRect().width")
    assert name >= 8 * 16 - 0.5, "the Name column keeps its minimum (8rem)"

    # Number headers end where their numbers end (right-aligned both, same padding).
    edges = page.evaluate(NUMBER_EDGES)
    assert [title for title, _, _ in edges] == ["ID", "Seats"]   # MRR is a bar (test_charts.py)
    for title, head, number in edges:
        assert abs(head - number) < 1, "%s header ends at %.1f, its numbers at %.1f" % (title, head, number)

    # The polite live region is announced (it has text, role and aria-live) but takes no room on screen.
    status = page.eval_on_selector("#rs-status", """s => ({ text: s.textContent, live: s.getAttribute('aria-live'),
        role: s.getAttribute('role'), box: [s.getBoundingClientRect().width, s.getBoundingClientRect().height] })""")
    assert status["text"] and status["live"] == "polite" and status["role"] == "status"
    assert status["box"][0] <= 1 and status["box"][1] <= 1, "the live region shows: %r" % status

    # Skeleton bones stand out from the table's surface in both schemes.
    bone, surface = page.evaluate("""() => ['--rs-bone', '--rs-surface'].map(
        (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim())""")
    assert contrast(bone, surface) >= 1.35, "bones %s on %s: contrast %.2f" % (bone, surface, contrast(bone, surface))

    os.makedirs(SHOTS, exist_ok=True)
    shot = os.path.join(SHOTS, "width-%d-%s.png" % (width, scheme))
    page.screenshot(path=shot)
    assert os.path.getsize(shot) > 10_000
    if sizes["table"] > sizes["box"]:
        assert width < 1280, "the table fits at 1280 px and wider: %r" % sizes


def test_narrow_table_scrolls_in_its_box_with_sticky_first_column_and_header(server, open_page):
    probe = open_page(server.url, viewport={"width": 390, "height": 800})
    page = probe.page
    wait_until(lambda: len(events(probe, "rows")) >= 3, message="three batches")
    assert page.evaluate("document.getElementById('rs-box').scrollWidth > document.getElementById('rs-box').clientWidth")
    left = """() => { const box = document.getElementById('rs-box').getBoundingClientRect().left;
      const cell = (s) => document.querySelector(s).getBoundingClientRect().left - box;
      return [cell('#rs-rows tr[data-index] > td:first-child'), cell('#rs-table thead th:first-child'),
              cell('#rs-rows tr[data-index] > td:nth-child(2)')]; }"""
    before = page.evaluate(left)
    page.evaluate("document.getElementById('rs-box').scrollLeft = 200")
    wait_until(lambda: page.evaluate("document.getElementById('rs-box').scrollLeft") == 200, message="box scrolled")
    after = page.evaluate(left)
    assert abs(after[0] - before[0]) < 0.5 and abs(after[1] - before[1]) < 0.5, "the first column stays: %r" % [before, after]
    assert abs(after[2] - (before[2] - 200)) < 0.5, "the other columns scroll: %r" % [before, after]
    assert page.evaluate("window.scrollX") == 0

    # Down the document: the header stays at the top of the viewport, over the rows, and back in place at the top.
    page.evaluate("window.scrollTo(0, 600)")
    wait_until(lambda: abs(page.evaluate("document.querySelector('#rs-table thead').getBoundingClientRect().top")) < 1,
               message="the header at the top of the viewport")
    top = page.evaluate("document.elementFromPoint(30, 5).closest('thead') !== null")
    assert top, "the header is on top of the rows"
    page.evaluate("window.scrollTo(0, 0)")
    wait_until(lambda: page.evaluate("getComputedStyle(document.querySelector('#rs-table thead')).transform") == "none",
               message="the header back in place")
    assert_stable_layout(probe)


def test_cards_show_their_title_once(grid, open_page):
    probe = open_page(grid.url, wait_for_rows=False, viewport={"width": 390, "height": 800})
    probe.page.wait_for_selector("#rs-rows tr.rs-card", timeout=30_000)
    card = probe.page.eval_on_selector("#rs-rows tr.rs-card", """tr => ({ title: tr.querySelector('.rs-card-title').textContent,
        labels: Array.from(tr.cells).filter((td) => td.offsetParent !== null && td.dataset.label).map((td) => td.dataset.label) })""")
    assert card["title"] and "Name" not in card["labels"] and "City" in card["labels"], card
    assert probe.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert_stable_layout(probe)
