"""Every value readable (#28 part 1) and the table's keyboard (part 8), in Chromium on a config table whose upstream
is a small JSON server of this module: a truncated cell gets its whole value as a title on hover and shows it wrapped
on keyboard focus; rows are one Tab stop moved by the arrow keys; Enter or a click opens the row's detail (every
column, the configured detail fields that are not columns, the upstream link only when it is http(s), values escaped),
Copy copies a value, Escape closes it and focus goes back to the row; on a 390 px phone it is a bottom sheet; the skip
link moves focus past the table; the table is named by its title."""
import contextlib

import pytest

from support import TIMEOUT_MS, config_server, json_upstream, wait_until

LONG = "A very long description that cannot fit in its narrow column and so ends in an ellipsis " * 3
ITEMS = [
    {"id": 1, "name": "Ada", "notes": LONG.strip(), "owner": {"login": "ada-l"}, "url": "https://example.test/items/1"},
    {"id": 2, "name": "Grace", "notes": "short", "owner": {"login": "<img src=x onerror=alert(1)>"},
     "url": "http://example.test/items/2"},
    {"id": 3, "name": "Linus", "notes": "short too", "owner": {"login": "torvalds"}, "url": "javascript:alert(1)"},
]


Items = json_upstream(lambda request: {"data": ITEMS, "next": None})
"""One page of the items above, then done."""


@contextlib.contextmanager
def detail_server(folder, **more):
    """A rowstream server of the table `items` (title "Items", a detail with the owner and the upstream link);
    `more`: other top-level config keys."""
    def config(upstream):
        table = {
            "name": "items", "title": "Items", "items": "data", "key": "id",
            "request": {"url": upstream + "/items"},
            "columns": [{"title": "Name", "path": "name", "width": "8rem"},
                        {"title": "Notes", "path": "notes", "width": "12rem"}],
            "detail": {"fields": [{"path": "owner.login", "label": "Owner"}], "link": "url",
                       "linkLabel": "Open upstream"},
            "pagination": {"style": "cursor", "cursorPath": "next"},
        }
        return dict({"tables": [table]}, **more)
    with config_server(folder, Items, config) as rowstream:
        yield rowstream


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with detail_server(tmp_path_factory.mktemp("detail")) as rowstream:
        yield rowstream


def active(page):
    """The focused element as `TAG#id[data-key]`."""
    return page.evaluate("(() => { const e = document.activeElement;"
                         " return e.tagName + '#' + e.id + '[' + (e.dataset.key || '') + ']'; })()")


def focused_row(page, key):
    """Waits for the detail to close and focus to be back on the row `key` (the dialog's `close` event comes after
    it is hidden)."""
    page.wait_for_selector("dialog.rs-detail", state="hidden", timeout=TIMEOUT_MS)
    wait_until(lambda: active(page) == "TR#[%s]" % key, message="focus back on row %s" % key)


def shown_fields(page):
    """The open dialog's fields as {label: value text}."""
    return page.eval_on_selector_all(
        "dialog.rs-detail[open] .rs-detail-field",
        "items => Object.fromEntries(items.map(i => [i.querySelector('dt').textContent,"
        " i.querySelector('.rs-detail-value').textContent]))")


def test_cells_readable_and_row_detail(server, open_page):
    probe = open_page(server.url + "/tables/items", permissions=["clipboard-read", "clipboard-write"])
    page = probe.page
    page.wait_for_selector("#rs-table[data-state=complete]", timeout=TIMEOUT_MS)

    # The table is named by its title; the skip link moves focus past it.
    assert page.get_by_role("table", name="Items").count() == 1
    page.focus("a.rs-skip")
    page.keyboard.press("Enter")
    wait_until(lambda: page.evaluate("document.activeElement.id") == "rs-after", message="focus past the table")

    # Hover: the truncated cell gets its whole value as a title; a cell that fits gets none.
    notes = "#rs-rows tr[data-key='1'] td:nth-child(2)"
    page.hover(notes)
    assert page.get_attribute(notes, "title") == LONG.strip()
    page.hover("#rs-rows tr[data-key='2'] td:nth-child(2)")
    assert page.get_attribute("#rs-rows tr[data-key='2'] td:nth-child(2)", "title") is None

    # Keyboard: rows are one Tab stop; the focused row shows the whole value (wrapped, not cut).
    assert page.eval_on_selector_all("#rs-rows tr[tabindex='0']", "rows => rows.map(r => r.dataset.key)") == ["1"]
    assert page.eval_on_selector(notes, "cell => cell.scrollWidth > cell.clientWidth")
    page.focus("#rs-rows tr[data-key='1']")
    assert page.eval_on_selector(notes, "cell => cell.scrollWidth <= cell.clientWidth")
    page.keyboard.press("ArrowDown")
    assert active(page) == "TR#[2]"
    assert page.eval_on_selector_all("#rs-rows tr[tabindex='0']", "rows => rows.map(r => r.dataset.key)") == ["2"]

    # Enter opens row 2's detail: the columns, the detail field (escaped: text, no element), the http link.
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.rs-detail[open]", timeout=TIMEOUT_MS)
    assert shown_fields(page) == {"Name": "Grace", "Notes": "short", "Owner": "<img src=x onerror=alert(1)>"}
    assert page.locator("dialog.rs-detail img").count() == 0
    assert page.get_attribute("dialog.rs-detail .rs-detail-link a", "href") == "http://example.test/items/2"
    assert page.text_content("dialog.rs-detail .rs-detail-title") == "Grace"
    page.click("dialog.rs-detail button[aria-label='Copy Owner']")
    wait_until(lambda: page.text_content(".rs-detail-status") == "Copied Owner", message="the copy announced")
    assert page.evaluate("navigator.clipboard.readText()") == "<img src=x onerror=alert(1)>"
    page.keyboard.press("Escape")
    focused_row(page, "2")

    # A click on a row opens its detail too; a javascript: URL is no link; the long value is whole.
    page.click("#rs-rows tr[data-key='3'] td:nth-child(1)")
    page.wait_for_selector("dialog.rs-detail[open]", timeout=TIMEOUT_MS)
    assert shown_fields(page)["Owner"] == "torvalds"
    assert page.locator("dialog.rs-detail a").count() == 0
    page.keyboard.press("Escape")
    focused_row(page, "3")
    page.click("#rs-rows tr[data-key='1'] td:nth-child(2)")
    page.wait_for_selector("dialog.rs-detail[open]", timeout=TIMEOUT_MS)
    assert shown_fields(page)["Notes"] == LONG.strip()
    page.click("dialog.rs-detail .rs-detail-close")
    focused_row(page, "1")


def test_detail_is_a_bottom_sheet_on_a_phone(server, open_page):
    probe = open_page(server.url + "/tables/items", viewport={"width": 390, "height": 844}, has_touch=True)
    page = probe.page
    page.wait_for_selector("#rs-rows tr[data-key='1']", timeout=TIMEOUT_MS)
    page.tap("#rs-rows tr[data-key='1'] td:nth-child(1)")
    page.wait_for_selector("dialog.rs-detail[open]", timeout=TIMEOUT_MS)
    box = page.locator("dialog.rs-detail").bounding_box()
    assert box["x"] == 0 and box["width"] == 390
    assert abs(box["y"] + box["height"] - 844) < 1 and box["height"] < 844
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.rs-detail", state="hidden", timeout=TIMEOUT_MS)


def test_proxy_mode_names_the_viewer_on_every_page(tmp_path, open_page):
    """Mode proxy (the test's browser is the proxy: 127.0.0.1 is trusted and it sends X-Forwarded-User): a table's
    page, a page of tables and the no-script page say who is signed in (escaped) and link the proxy's sign-out; on the page, the
    panel's skip link moves focus past its table, and the table is named by its title."""
    access = {"mode": "proxy", "proxy": {"addresses": ["127.0.0.1"], "logout": "/oauth2/sign_out?rd=/"}}
    pages = [{"name": "both", "title": "Both", "tables": ["items"]}]
    with detail_server(tmp_path, access=access, pages=pages) as server:
        for path in ("/tables/items", "/pages/both", "/tables/items/html"):
            probe = open_page(server.url + path, wait_for_rows=False, extra_http_headers={"X-Forwarded-User": "<b>bob</b>"})
            page = probe.page
            page.wait_for_selector("tbody tr[data-key]", timeout=TIMEOUT_MS)
            assert page.text_content("body > header .rs-user .rs-user-name") == "Signed in as <b>bob</b>"
            assert page.locator("body > header .rs-user b").count() == 0
            assert page.get_attribute("body > header .rs-user a", "href") == "/oauth2/sign_out?rd=/"
            assert page.get_by_role("table", name="Items").count() == 1
            if path == "/pages/both":
                page.focus("a.rs-skip")
                page.keyboard.press("Enter")
                wait_until(lambda: page.evaluate("document.activeElement.id") == "rs-after--items",
                           message="past the panel")
