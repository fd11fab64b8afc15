"""Column shape (issue 28, part 5): the viewer hides, shows and resizes columns with the mouse and the keyboard;
the table keeps that shape after a reload (localStorage), its skeleton rows drawn at the same widths and with the
same columns hidden as the rows that replace them (no layout shift), and "Reset columns" brings the server's
widths back. A sectioned table: its section rows span the shown columns."""
from support import proxy_fixture, server_fixture, wait_until

server = server_fixture("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 50, "--demo-sections", "city")
proxy = proxy_fixture("server")

# The shown cells' widths of the row `selector` finds (px, to a tenth).
WIDTHS = """(selector) => { const row = document.querySelector(selector); return row === null ? null :
  Array.from(row.cells).filter((c) => getComputedStyle(c).display !== 'none')
    .map((c) => Math.round(c.getBoundingClientRect().width * 10) / 10); }"""
TITLES = """() => Array.from(document.querySelectorAll('#rs-table thead th'))
  .filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.textContent.trim())"""
HEAD, ROW = "#rs-table thead tr", "#rs-table tbody tr[data-index]"
SKELETON = "#rs-pending tr.rs-skeleton:not(.rs-section-head)"
SPANS = """() => { const head = document.querySelector('#rs-table thead tr').getBoundingClientRect().width;
  return Array.from(document.querySelectorAll('#rs-table tr.rs-section-head > th'))
    .map((th) => [th.colSpan, Math.abs(th.getBoundingClientRect().width - head) < 1]); }"""
KEY = "rowstream.columns:/:customers"


def widths(page, selector):
    return page.evaluate(WIDTHS, selector)


def close(a, b, tolerance=1.0):
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_hide_show_resize_remember_and_reset(server, proxy, open_page):
    probe = open_page(proxy.url, wait_for_rows=False)
    page = probe.page
    wait_until(lambda: page.evaluate("document.querySelectorAll('#rs-table tr[data-index]').length") >= 10,
               message="the first batch")
    initial = widths(page, HEAD)
    assert len(initial) == 10

    # The Columns button opens its panel (focus on the first checkbox); Escape closes it and focus goes back.
    button = page.locator("#rs-columns-button")
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.type") == "checkbox"
    page.keyboard.press("Escape")
    assert page.locator("#rs-columns-menu").is_hidden()
    assert page.evaluate("document.activeElement.id") == "rs-columns-button"

    # Hide City with the mouse, Plan with the keyboard (and show it again): announced, every row follows, the
    # section rows span the 9 columns shown.
    button.click()
    page.get_by_role("checkbox", name="City").click()
    wait_until(lambda: page.text_content("#rs-status") == "City column hidden.", message="the hide announced")
    page.get_by_role("checkbox", name="Plan").focus()
    page.keyboard.press("Space")
    assert "Plan" not in page.evaluate(TITLES)
    page.keyboard.press("Space")
    assert page.text_content("#rs-status") == "Plan column shown."
    assert page.evaluate(TITLES) == ["ID", "Name", "Status", "Plan", "Seats", "MRR ($)", "Trend", "Created", "Website"]
    assert close(widths(page, ROW), widths(page, HEAD))
    assert page.evaluate(SPANS) and all(span == [9, True] for span in page.evaluate(SPANS)), page.evaluate(SPANS)
    page.keyboard.press("Escape")

    # Resize Name by dragging its header's edge, Seats by its handle and the arrow keys.
    before = widths(page, HEAD)
    handle = page.locator("#rs-table thead th:nth-child(2) .rs-resize")
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for dx in (20, 40, 60, 80):
        page.mouse.move(box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2)
    page.mouse.up()
    seats = page.locator("#rs-table thead th:nth-child(6) .rs-resize")
    seats.focus()
    assert seats.get_attribute("role") == "separator" and seats.get_attribute("aria-label") == "Resize column Seats"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shaped = widths(page, HEAD)
    assert abs(shaped[1] - (before[1] + 80)) <= 1.5, (before, shaped)
    assert abs(shaped[4] - (before[4] + 32)) <= 1.5, (before, shaped)
    assert int(seats.get_attribute("aria-valuenow")) == round(shaped[4])
    assert close(widths(page, ROW), shaped)
    assert page.evaluate("(key) => localStorage.getItem(key) !== null", KEY)

    # After a reload, before any row: the skeleton rows have the shape; the rows that replace them the same widths,
    # and nothing moved on the way (CLS, from the first paint).
    proxy.pause()
    paused = proxy.paused_count()
    page.reload(wait_until="domcontentloaded")
    wait_until(lambda: proxy.paused_count() > paused, message="the reloaded page's stream, paused")
    assert page.evaluate(TITLES) == ["ID", "Name", "Status", "Plan", "Seats", "MRR ($)", "Trend", "Created", "Website"]
    skeleton = widths(page, SKELETON)
    assert close(skeleton, shaped), (skeleton, shaped)
    assert all(span == [9, True] for span in page.evaluate(SPANS))
    proxy.resume()
    page.wait_for_selector(ROW)
    assert close(widths(page, ROW), skeleton)
    assert page.evaluate(SPANS) and all(span == [9, True] for span in page.evaluate(SPANS))
    # No cell moved since the first paint. (A section's footer row moving down when the next batch of its section
    # arrives is a shift of its own, on main too, whatever the columns: not counted here.)
    shifts = [s for s in probe.rs("window.__rs.shifts")
              if not all(x.startswith("TR.rs-section-foot") for x in s["sources"])]
    assert sum(s["value"] for s in shifts) < 0.01, shifts

    # Reset: every column back, at the server's widths; nothing stored.
    page.locator("#rs-columns-button").click()
    page.get_by_role("button", name="Reset columns").click()
    assert close(widths(page, HEAD), initial)
    assert page.evaluate("(key) => localStorage.getItem(key)", KEY) is None
    assert page.get_by_role("checkbox", name="City").is_checked()
    assert "reset" in page.text_content("#rs-status")
    page.keyboard.press("Tab")                         # past the panel's last control: it closes
    assert page.locator("#rs-columns-menu").is_hidden()


CARD = """() => { const card = document.querySelector('#rs-table--customers-cards tr.rs-card[data-index]');
  return { height: card.getBoundingClientRect().height,
           labels: Array.from(card.cells).filter((td) => td.offsetParent !== null && td.dataset.label)
             .map((td) => td.dataset.label) }; }"""


def test_cards_on_a_page_hide_fields_and_keep_them(server, open_page):
    """On a page of several tables, each panel has its own Columns panel: a card field hidden makes every card
    (skeleton or real) one field shorter, kept for that page after a reload."""
    probe = open_page(server.url + "/pages/overview", wait_for_rows=False)
    page = probe.page
    page.wait_for_selector("#rs-table--customers-cards tr.rs-card[data-index]")
    before = page.evaluate(CARD)
    assert "City" in before["labels"]
    page.locator("#rs-columns-button--customers-cards").click()
    page.locator("#rs-columns-menu--customers-cards").get_by_role("checkbox", name="City").click()
    after = page.evaluate(CARD)
    assert "City" not in after["labels"] and len(after["labels"]) == len(before["labels"]) - 1
    assert abs(after["height"] - (before["height"] - 1.6 * 16)) < 0.5, (before, after)
    assert page.evaluate("""Array.from(document.querySelectorAll('#rs-table--customers thead th'))
        .filter((th) => getComputedStyle(th).display !== 'none').length""") == 10, "its own table only"
    page.reload(wait_until="domcontentloaded")
    page.wait_for_selector("#rs-table--customers-cards tr.rs-card[data-index]")
    assert page.evaluate(CARD) == after
    assert page.evaluate("Object.keys(localStorage)") == ["rowstream.columns:/pages/overview:customers-cards"]
