"""The WebKit and Firefox lanes (issue 25, part 1) and the demand checks in every engine (issue 32, part 3):
what the Chromium suite proves about the page, proven again in WebKitGTK's MiniBrowser (WebKitWebDriver, selenium)
and Firefox ESR (Marionette) through engines.py's driver-neutral `Tab` (docs/BROWSER.md "Engines"). Each test runs
once per engine; `-k webkit`, `-k firefox` or `-k chromium` runs one lane."""
import csv
import datetime
import io
import re
import time

import pytest

from conftest import figure
from engines import busy_loops, engine_fixture
from lanes import (INDEXES, STATE, asked_once_per_batch, assert_every_row_once, fills_without_scrolling, scroll_to_rows, scroll_until,
                   stays_where_scrolled)
from support import (LIVE_DEMO, CutProxy, RowstreamServer, refresh_until_new_on_top, server_fixture, stop_process,
                     wait_until)
from test_embed import host  # noqa: F401 (the host site's fixture)
from test_login import users_server

BATCH = 50
ITEMS = 1200
TABLES = ["customers", "customers-by-city", "customers-cards"]

engine = engine_fixture("webkit", "firefox")                  # the lanes of issue 25
every_engine = engine_fixture("chromium", "webkit", "firefox")  # issue 32's demand checks

failing = server_fixture("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 50, "--demo-fail-every", 3,
                         scope="function")   # fresh: another engine's run would leave the pages cached
live = server_fixture(*LIVE_DEMO)
small = server_fixture("--demo-items", 400, "--batch-size", 5, "--demo-latency-ms", 20)
searchable = server_fixture("--demo-items", 120, "--batch-size", 20, "--demo-latency-ms", 50, "--demo-controls", "on")

@pytest.fixture(scope="module")
def server(host):
    """The demo (1,200 customers in batches of 50, each page 100 ms away: a batch takes a few frames to come;
    /pages/overview too), embeddable by the host site."""
    rowstream = RowstreamServer("--demo-items", ITEMS, "--batch-size", BATCH, "--demo-latency-ms", 100,
                                "--allowed-origins", host.origin)
    try:
        yield rowstream
    finally:
        rowstream.stop()


@pytest.fixture(scope="module")
def users(tmp_path_factory):
    with users_server(tmp_path_factory.mktemp("lanes-login")) as rowstream:
        yield rowstream


@pytest.fixture
def busy():
    """Two busy loops (`yes > /dev/null`), one per core, for the test's length; stopped by PID."""
    loops = busy_loops(2)
    try:
        yield loops
    finally:
        for loop in loops:
            stop_process(loop)


def state(tab):
    return tab.js(STATE)


def shown(tab, table=None):
    selector = "#rs-table--%s tr[data-index]" % table if table else "#rs-rows tr[data-index]"
    return tab.js("return document.querySelectorAll(arguments[0]).length", selector)


def idle_with_rows(tab, rows=1):
    try:
        tab.wait("""const t = document.getElementById('rs-table');
                    return t.dataset.state === 'idle' && document.querySelectorAll('#rs-rows tr[data-index]').length >= arguments[0]""",
                 rows, message="idle with %d rows" % rows)
    except AssertionError as error:
        raise AssertionError("%s: %s; the page: %r; its last events: %r" % (
            tab.engine.name, error, state(tab), [(e["type"], e.get("total")) for e in tab.events()][-8:])) from None


# ---- Issue 25, part 1: the page in WebKit and Firefox ----------------------------------------------------

# Rectangles (top, left, width, height) of the first `n` rows matching a selector, and the header's.
RECTS = """
const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.left, r.width, r.height]; };
return { head: box(document.querySelector('#rs-table thead')),
         rows: Array.from(document.querySelectorAll(arguments[0])).slice(0, arguments[1]).map(box) };
"""


# Each shown date-time with its UTC `datetime` and the engine's own offset there (localize.js, issue 28).
ZONED = """return Array.from(document.querySelectorAll('#rs-rows time')).slice(0, 5).map((t) => ({
  iso: t.getAttribute('datetime'), text: t.textContent,
  offset: new Date(t.getAttribute('datetime')).getTimezoneOffset() }))"""


def check_zoned(name, times):
    """Each date-time reads in the engine's own time zone (the machine's), the zone named after it; `datetime`
    stays UTC: Intl's formatToParts with a zone name works the same in every engine."""
    assert times, "%s: no dates" % name
    for time in times:
        utc = datetime.datetime.strptime(time["iso"], "%Y-%m-%dT%H:%M:%SZ")
        local = (utc - datetime.timedelta(minutes=time["offset"])).strftime("%Y-%m-%d %H:%M ")
        assert time["text"].startswith(local) and len(time["text"]) > len(local), (name, time)


def test_skeleton_then_rows_without_layout_shift(server, engine, tabs):
    """The first paint is a batch of skeleton rows (the stream held in the proxy: no batch can come); the first
    batch replaces them with every row in view at the skeleton's place and size, the header unmoved. (Chromium's
    CLS observer exists in no other engine: the rows are measured before and after.)"""
    with CutProxy(server.port) as proxy:
        proxy.pause()
        tab = tabs(engine, proxy.url)
        wait_until(lambda: proxy.paused_count() > 0, message="the page's stream request, paused")
        first = state(tab)
        assert first["rows"] == 0 and first["skeletons"] >= BATCH, first
        assert first["state"] == "loading" and first["busy"] == "true", first
        in_view = tab.js("""return Array.from(document.querySelectorAll('#rs-pending tr.rs-skeleton'))
                            .filter((r) => r.getBoundingClientRect().top < innerHeight).length""")
        before = tab.js(RECTS, "#rs-pending tr.rs-skeleton", in_view)
        proxy.resume()
        tab.wait("return document.querySelectorAll('#rs-rows tr[data-index]').length >= arguments[0]", BATCH,
                 message="the first batch")
        after = tab.js(RECTS, "#rs-rows tr[data-index]", in_view)
        times = tab.js(ZONED)
    assert in_view > 5 and len(after["rows"]) == in_view
    check_zoned(engine.name, times)
    assert after["head"] == pytest.approx(before["head"], abs=0.5), "the header moved"
    moved = [(n, b, a) for n, (b, a) in enumerate(zip(before["rows"], after["rows"]))
             if a != pytest.approx(b, abs=0.5)]
    assert not moved, "%s: rows not where their skeletons were (index, skeleton, row): %r" % (engine.name, moved[:5])


def test_scrolls_to_1000_rows_none_twice(server, engine, tabs):
    tab = tabs(engine, server.url)
    start = time.monotonic()
    scrolls = scroll_to_rows(tab, 1000)
    figure("%s: 1,000 rows by scrolling (%d scrolls)" % (engine.name, scrolls), time.monotonic() - start, "s")
    assert assert_every_row_once(tab) >= 1000


def test_a_cut_stream_resumes_exactly_once(server, engine, tabs):
    with CutProxy(server.port) as proxy:
        tab = tabs(engine, proxy.url)
        idle_with_rows(tab, BATCH)
        sessions = len(tab.events("session"))
        assert proxy.cut("/stream") == 1
        wait_until(lambda: len(tab.events("session")) == sessions + 1, message="one reconnection")
        idle_with_rows(tab, BATCH)
        scroll_until(tab, lambda: shown(tab) >= 4 * BATCH, message="more rows on the resumed stream")
        tab.wait("return ['idle', 'complete'].includes(document.getElementById('rs-table').dataset.state)",
                 message="idle or complete")
        assert len(tab.events("session")) == sessions + 1, "resumed once"
        assert not tab.events("reset"), "resumed, not started over"
        assert proxy.count("/stream") <= 1
    rows = assert_every_row_once(tab)
    keys = tab.js("return Array.from(document.querySelectorAll('#rs-rows tr[data-key]'), (r) => r.dataset.key)")
    assert keys == server.upstream_keys()[:rows], "every upstream row once, in order"


def test_an_upstream_error_shows_retry_and_retry_recovers(failing, engine, tabs):
    tab = tabs(engine, failing.url)
    retries = []

    def complete_or_retried():
        now = state(tab)
        if now["state"] == "error":
            error = tab.js("const e = document.getElementById('rs-error'); return e ? e.textContent : ''")
            assert "Loading rows failed" in error and now["busy"] == "false", now
            assert "Loading rows failed" in now["status"]
            tab.click("#rs-retry")
            retries.append(now["rows"])
            tab.wait("return document.getElementById('rs-error') === null", message="the error row to go")
        return now["state"] == "complete"
    scroll_until(tab, complete_or_retried, message="the list to complete, with Retry after every error")
    assert len(retries) >= 2
    keys = tab.js("return Array.from(document.querySelectorAll('#rs-rows tr[data-key]'), (r) => r.dataset.key)")
    assert keys == [str(i) for i in range(1, 61)]


def test_a_live_insert_and_update(live, engine, tabs):
    tab = tabs(engine, live.url)
    idle_with_rows(tab, 30)
    first, summary = refresh_until_new_on_top(
        live, lambda: len([e for e in tab.events("live") if e.get("kind") == "insert"]),
        lambda: tab.js("const r = document.querySelector('#rs-rows tr'); return [r.dataset.key, r.hasAttribute('data-live')]"))
    assert int(first[0]) > 300, "the new customer on top: %r" % first
    assert {e.get("kind") for e in tab.events("live")} >= {"insert", "update"}
    updated = tab.js("return document.querySelectorAll('#rs-rows tr.rs-updated').length")
    assert updated >= 1 and summary["updated"] >= 1
    keys = tab.js("return Array.from(document.querySelectorAll('#rs-rows tr[data-key]'), (r) => r.dataset.key)")
    assert len(keys) == len(set(keys)), "no key twice"
    # How much and how fresh (counts.js, freshness.js, issue 28): "N of TOTAL" from the demo's reported total, and a
    # visible "Updated ..." that ticks by itself in this engine's timers (read in one step with the count).
    header = tab.js(HEADER)
    assert re.fullmatch(r"%d of [\d,]+" % header["shown"], header["count"]), header
    assert header["visible"] and header["fresh"].startswith("Updated"), header
    tab.wait("return /^Updated [1-9]\\d* s ago$/.test(document.getElementById('rs-fresh').textContent)",
             message="Updated N s ago, ticking")


# The header's count, the rows shown and the freshness text, read in one step.
HEADER = """const fresh = document.getElementById('rs-fresh');
return { count: document.getElementById('rs-count').textContent,
         shown: Number(document.getElementById('rs-table').dataset.count || -1),
         fresh: fresh ? fresh.textContent : '', visible: !!fresh && fresh.getBoundingClientRect().width > 0 };"""


SNAPSHOT = """
const s = window.Rowstream && window.Rowstream.snapshot();
if (!s) return null;
return Object.fromEntries(Object.entries(s).map(([name, t]) => [name, t.phase === 'idle' && !t.pending ? t.shown : -1]));
"""


def test_a_page_of_three_tables_scrolls_in_its_panels(server, engine, tabs):
    tab = tabs(engine, server.url + "/pages/overview")
    wait_until(lambda: (lambda s: s and all(s.get(t, 0) > 0 for t in TABLES))(tab.js(SNAPSHOT)),
               message="every table showing rows, idle")
    page_y = tab.js("return window.scrollY")
    for table in TABLES:
        before = shown(tab, table)
        wait_until(lambda: tab.scroll_box("#rs-scroll--" + table) and shown(tab, table) >= before + BATCH,
                   message="%s: more rows by scrolling its box" % table)
    wait_until(lambda: (lambda s: s and all(s.get(t, 0) > 0 for t in TABLES))(tab.js(SNAPSHOT)), message="idle")
    for table in TABLES:
        indexes = tab.js("return Array.from(document.querySelectorAll(arguments[0]), (r) => Number(r.dataset.index))",
                         "#rs-table--%s tr[data-index]" % table)
        assert len(indexes) >= 2 * BATCH and indexes == list(range(len(indexes))), "%s: every row once" % table
    assert tab.js("return window.scrollY") == page_y, "the boxes scrolled, not the page"


EMBEDDED = """
const root = document.querySelector('rowstream-table')?.shadowRoot;
const table = root?.querySelector('#rs-table');
if (!table) return null;
return { state: table.dataset.state, indexes: Array.from(root.querySelectorAll('#rs-rows tr[data-index]'),
  (r) => Number(r.dataset.index)), skeletons: root.querySelectorAll('#rs-pending tr.rs-skeleton').length };
"""


def test_the_embedded_element_streams_and_scrolls_in_its_box(server, host, engine, tabs):
    # WebKit fetches the host page's /favicon.ico by itself, which the host's policy (img-src: the server) refuses.
    tab = tabs(engine, host.page(server.url), allowed=("img-src %s/favicon.ico" % host.origin,))
    first = wait_until(lambda: (lambda e: e if e and len(e["indexes"]) >= BATCH else None)(tab.js(EMBEDDED)),
                       message="the element's first batch")
    wait_until(lambda: tab.scroll_box(".rs-embed-scroll") and len(tab.js(EMBEDDED)["indexes"]) >= len(
        first["indexes"]) + BATCH, message="more rows by scrolling the element's box")
    embedded = tab.js(EMBEDDED)
    assert embedded["indexes"] == list(range(len(embedded["indexes"]))), "every row once, in order"
    assert tab.js("return window.scrollY") == 0, "the element's box scrolled, not the host page"
    heard = tab.events("rows")
    assert heard and all(e["table"] == "customers" for e in heard), "the host hears the element's events"


def test_sign_in_in_mode_users(users, engine, tabs):
    tab = tabs(engine, users.url + "/tables/items")
    tab.allowed = ("401",)                                        # the refused password's answer
    wait_until(lambda: tab.url().endswith("/login?next=/tables/items"), message="the login page")
    tab.fill("input[name=user]", "alice")
    tab.fill("input[name=password]", "not-it")
    tab.click("form[action='/login'] button")
    message = tab.wait("const m = document.querySelector('.rs-login-message'); return m && m.textContent",
                       message="the refusal")
    assert "Wrong user name or password" in message
    tab.fill("input[name=user]", "alice")
    tab.fill("input[name=password]", "wonderland")
    tab.click("form[action='/login'] button")
    wait_until(lambda: tab.url().endswith("/tables/items"), message="the table after signing in")
    tab.watch()
    keys = tab.wait("""const k = Array.from(document.querySelectorAll('#rs-rows tr[data-key]'), (r) => r.dataset.key);
                       return k.length === 7 && k""", message="the table's seven rows")
    assert keys == [str(i) for i in range(1, 8)]
    assert tab.js("return document.querySelector('header .rs-user-name').textContent") == "Signed in as alice"
    # The row detail (detail.js): Enter on a row opens the <dialog>, Escape closes it, focus is back on the row.
    tab.press("#rs-rows tr[data-key='1']", "Enter")   # the rows' Tab stop
    shown = tab.wait("const d = document.querySelector('dialog.rs-detail'); return d && d.open && "
                     "d.querySelector('.rs-detail-value').textContent", message="the row's detail")
    assert shown == "Item 1"
    tab.press("dialog.rs-detail .rs-detail-close", "Escape")
    tab.wait("return !document.querySelector('dialog.rs-detail').open", message="the detail closed")
    assert tab.js("return document.activeElement.dataset.key") == "1"
    assert tab.js("return document.cookie") == "", "HttpOnly: no script reads it"
    cookie = next(c for c in tab.cookies() if c["name"] == "rowstream_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax", cookie
    tab.open(users.url + "/login")
    assert "Signed in as alice" in tab.js("return document.querySelector('main').textContent")
    tab.click("form[action='/logout'] button")
    wait_until(lambda: tab.url().endswith("/login"), message="the login page after signing out")
    assert not [c for c in tab.cookies() if c["name"] == "rowstream_session"]


# The names shown, the search box's text, the table's state and its count, read in one step.
FOUND = """const table = document.getElementById('rs-table');
return { names: Array.from(document.querySelectorAll('#rs-rows tr[data-key]'), (r) => r.cells[1].textContent),
         box: document.querySelector('#rs-controls input[type=search]').value, state: table.dataset.state,
         skeletons: document.querySelectorAll('#rs-pending tr.rs-skeleton').length,
         old: document.querySelectorAll('#rs-rows tr[data-before-search]').length };"""
# Marks the rows shown now: a start-over replaces every one of them.
MARK_ROWS = """document.querySelectorAll('#rs-rows tr[data-key]').forEach((r) => r.setAttribute('data-before-search', ''));
return true;"""


def found(tab, text):
    """The table's rows once it has started over (no row marked by MARK_ROWS left) and settled on the search
    `text`: rows shown, none loading."""
    def settled():
        now = tab.js(FOUND)
        return now if (now["box"] == text and now["state"] in ("idle", "complete") and now["names"]
                       and not now["skeletons"] and not now["old"]) else None
    return wait_until(settled, message="the rows of %r" % text)


def test_search_by_typing_keeps_the_text_in_the_url(searchable, engine, tabs):
    """Find (search.js, issue 28) with real key presses in this engine: the table starts over with only matching
    rows, the text goes into the URL, and loading that URL again brings the same text and rows."""
    tab = tabs(engine, searchable.url + "/tables/customers")
    idle_with_rows(tab, 20)
    tab.js(MARK_ROWS)
    tab.fill("#rs-controls input[type=search]", "lam")
    typed = found(tab, "lam")
    assert all("lam" in name.lower() for name in typed["names"]), typed
    assert "p.q=lam" in tab.url()
    tab.open(tab.url())
    again = found(tab, "lam")
    assert again["names"][:len(typed["names"])] == typed["names"][:len(again["names"])], (typed, again)


# The file the page hands to the browser: URL.createObjectURL's Blob, kept for the test (export.js makes one).
KEEP_BLOB = """
if (!window.__laneBlobs) {
  window.__laneBlobs = [];
  const make = URL.createObjectURL;
  URL.createObjectURL = function (blob) { window.__laneBlobs.push(blob); return make.call(URL, blob); };
}
return true;
"""


def test_the_export_link_downloads_every_row(server, engine, tabs):
    tab = tabs(engine, server.url)
    idle_with_rows(tab, BATCH)
    tab.js(KEEP_BLOB)
    tab.click("#rs-export-csv")
    tab.wait("return !['idle', 'running'].includes(document.getElementById('rs-export').dataset.state || 'idle')",
             message="the export to end")
    assert tab.js("return document.getElementById('rs-export').dataset.state") == "done"
    assert tab.js("return document.getElementById('rs-export').dataset.rows") == str(ITEMS)
    text = tab.js("return window.__laneBlobs.length === 1 ? window.__laneBlobs[0].text() : null")
    records = list(csv.reader(io.StringIO(text)))
    assert records[0][0] == "ID"
    assert [record[0] for record in records[1:]] == server.upstream_keys(), "every row once, in order"


# ---- Issue 32, part 3: demand in every engine, under load ------------------------------------------------

def test_scrolls_to_1000_rows_under_two_busy_loops(server, every_engine, busy, tabs):
    with CutProxy(server.port) as proxy:                         # counts the tab's `next` POSTs
        tab = tabs(every_engine, proxy.url)
        start = time.monotonic()
        scrolls = scroll_to_rows(tab, 1000, timeout=120)
        figure("%s: 1,000 rows by scrolling, two busy loops (%d scrolls)" % (every_engine.name, scrolls),
               time.monotonic() - start, "s")
        assert asked_once_per_batch(tab, BATCH, lambda: proxy.requests("POST", "/next")) >= 1000


def test_the_view_stays_where_the_reader_scrolled(server, every_engine, tabs):
    tab = tabs(every_engine, server.url)
    stays_where_scrolled(tab, BATCH)


def test_small_batches_fill_the_viewport_without_scrolling(small, every_engine, tabs):
    with CutProxy(small.port) as proxy:                          # counts the tab's `next` POSTs
        tab = tabs(every_engine, proxy.url)
        rows = fills_without_scrolling(tab, 5)
        figure("%s: rows asked for in batches of 5 to fill the viewport" % every_engine.name, rows, "rows")
        assert rows == len(tab.js(INDEXES)) == asked_once_per_batch(tab, 5, lambda: proxy.requests("POST", "/next"))


# ---- Bare cells: the page asks for them and puts their classes back ---------------------------------------

CELL_CLASSES = """const skeleton = Array.from(document.getElementById('rs-skeleton-row').content.querySelectorAll('tr > td'),
                                 (cell) => cell.className);
const rows = Array.from(document.querySelectorAll('#rs-rows tr[data-index]'));
const wrong = [];
for (const row of rows) {
  Array.from(row.cells).forEach((cell, i) => { if (cell.className !== skeleton[i]) wrong.push([row.dataset.index, i, cell.className]); });
}
return {skeleton, rows: rows.length, cells: rows.reduce((n, row) => n + row.cells.length, 0), wrong: wrong.slice(0, 5),
        numbers: Array.from(document.querySelectorAll('#rs-rows td.rs-number')).length}"""


def test_the_page_asks_for_bare_cells_and_gives_them_their_classes(server, every_engine, tabs):
    """The page's stream asks for `cells=bare` (a first batch about 30% smaller); every cell of every batch, the first
    and those scrolled in, carries its column's classes as the skeleton row has them, so the CSS, the localized
    numbers and the detail view read the rows as before."""
    with CutProxy(server.port) as proxy:
        tab = tabs(every_engine, proxy.url)
        scroll_to_rows(tab, 2 * BATCH)
        seen = tab.js(CELL_CLASSES)
        streams = proxy.targets("GET", "/tables/customers/stream")
    assert streams and all("cells=bare" in target for target in streams), streams
    assert seen["skeleton"] and all(name.startswith("rs-c rs-") for name in seen["skeleton"]), seen
    assert seen["rows"] >= 2 * BATCH and seen["cells"] == seen["rows"] * len(seen["skeleton"]), seen
    assert seen["wrong"] == [], "%s: cells without their column's classes: %r" % (every_engine.name, seen["wrong"])
    assert seen["numbers"] >= seen["rows"], "the number columns' cells, found by their class"
