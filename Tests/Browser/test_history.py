"""Back, Forward and Reload keep the reader's place (issue 25, part 3; Public/history.js, controls.js). Scrolled 300+
rows deep, a link away and Back (or Reload): the same rows, none twice, the same row in view, put back from the tab's
sessionStorage before the stream resumes after them, so the upstream is not asked again. Sort and filter choices
live in the page URL: Back, Reload and a shared link show the same view, with the controls matching the rows.
Playwright's own browser turns the back/forward cache off (the document is loaded again); the profile fixture's
chromium keeps it on (the page may come back from the cache, its stream resumed): both must hold."""
import time

from conftest import figure
from support import after_frames, events, scroll_until, server_fixture, wait_until

server = server_fixture("--demo-items", 1000, "--batch-size", 50, "--demo-latency-ms", 30, "--demo-controls", "on")

# The row at a fixed point of the window: what the reader is looking at (whatever the page keeps internally).
AT_POINT = """() => { const cell = document.elementFromPoint(300, 400); const row = cell && cell.closest('tr');
  return row && row.dataset.index !== undefined ? Number(row.dataset.index) : null; }"""
KEYS = """() => Array.from(document.querySelectorAll('#rs-rows tr[data-key]')).map((r) => r.dataset.key)"""
PERSISTED = "window.__persisted = [];  addEventListener('pageshow', (e) => { window.__persisted.push(e.persisted); });"


def view(probe):
    page = probe.page
    return {"keys": page.evaluate(KEYS), "at": page.evaluate(AT_POINT), "sort": page.input_value("select[name='p.sort']"),
            "status": page.input_value("select[name='p.status']")}


def read_deep(probe, rows=400, into_view=320):
    """Scrolls until `rows` rows are shown, then puts row `into_view` at the top (the end far below: no demand)."""
    scroll_until(probe, lambda: len(probe.indexes()) >= rows, scroll="window.scrollBy(0, 400)",
                 message="%d rows" % rows)
    probe.page.evaluate("document.querySelector('#rs-rows tr[data-index=\"%d\"]').scrollIntoView()" % into_view)
    wait_until(lambda: probe.table("data-state") == "idle", message="idle")
    after_frames(probe.page)
    return view(probe)


def leave_and_come_back(server, probe, back):
    """A link away (a page without a stream), then `back(page)`; returns the upstream requests the return cost and
    the seconds until the rows were back."""
    url = probe.page.url
    probe.page.evaluate("(url) => { const a = document.createElement('a'); a.href = url; a.id = 'away'; a.textContent = 'away'; "
                        "document.querySelector('.rs-bar').append(a); }", "about:blank")
    probe.page.evaluate("document.getElementById('away').click()")      # no scrolling to it, as a real click
    probe.page.wait_for_url("about:blank")
    before = server.quiet_upstream_requests()
    started = time.monotonic()
    back(probe.page)
    wait_until(lambda: probe.page.url == url, message="the table page again")
    wait_until(lambda: probe.page.evaluate("document.querySelectorAll('tbody tr[data-key]:not(.rs-skeleton)').length")
               > 0, message="rows")
    elapsed = time.monotonic() - started
    wait_until(lambda: probe.page.evaluate("window.__rsOpenSources ? window.__rsOpenSources() : 0") == 1,
               message="the stream open again")
    wait_until(lambda: server.metric("rowstream_streams_open") == 1, message="the stream resumed on the server")
    after_frames(probe.page)
    return server.upstream_requests() - before, elapsed


def assert_same_place(probe, before, what):
    now = view(probe)
    assert now["keys"] == before["keys"], what + ": other rows"
    assert len(set(now["keys"])) == len(now["keys"]), what + ": a row twice"
    assert now["at"] == before["at"], what + ": row %r in view, not %r" % (now["at"], before["at"])
    assert (now["sort"], now["status"]) == (before["sort"], before["status"]), what + ": the controls"
    assert not [f for f in probe.rs()["fetches"] if "/rows" in f["url"] or "/next" in f["url"]], what + ": fetched"


def test_back_and_reload_put_the_rows_and_the_place_back(server, open_page):
    probe = open_page(server.url + "/tables/customers")
    before = read_deep(probe)
    cost, elapsed = leave_and_come_back(server, probe, lambda page: page.go_back(wait_until="domcontentloaded"))
    figure("Back 400 rows deep: rows and place back (s)", elapsed, "s")
    assert_same_place(probe, before, "Back")
    assert cost == 0, "Back asked the upstream %d times" % cost
    assert "lastEventId=" in probe.rs()["sources"][-1]["url"]          # resumed after the rows put back
    assert not events(probe, "reset")

    probe.page.reload(wait_until="domcontentloaded")
    wait_until(lambda: len(probe.page.evaluate(KEYS)) == len(before["keys"]), message="the rows after Reload")
    after_frames(probe.page)
    assert_same_place(probe, before, "Reload")
    scroll_until(probe, lambda: len(probe.indexes()) >= 450, message="more rows after Reload")
    indexes = probe.indexes()
    assert indexes == list(range(len(indexes)))                          # resumed exactly after the last row


# `complete` never reaches the table: the page stays between its final `rows` and `complete`.
NO_COMPLETE = """(() => { const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'complete') add.call(this, type, listener, options);
  }; })();
document.addEventListener('DOMContentLoaded', () => {   // after app.js ran (the rows put back), before any event
  window.__atStart = window.Rowstream ? window.Rowstream.snapshot() : null; });"""
SAVED_LAST_BATCH = """() => { const key = Object.keys(sessionStorage).find((k) => k.startsWith('rowstream:place:') && k !== 'rowstream:place:list');
  const batches = JSON.parse(sessionStorage.getItem(key)).tables.customers.batches;
  return batches[batches.length - 1].html.slice(-40); }"""


def test_a_table_saved_between_its_last_rows_and_complete_asks_nothing_after_reload(server, open_page):
    """Saved after its final `rows` but before `complete`, a table came back without knowing it had its last batch
    (the marker was kept only for `complete`), so it could POST `next` to a session that was ending. Now the saved
    last batch carries the marker and the table comes back with nothing to ask (pending until `complete`)."""
    probe = open_page(server.url + "/tables/customers", init_scripts=[NO_COMPLETE])
    scroll_until(probe, lambda: len(probe.indexes()) == 1000, scroll="window.scrollTo(0, 1e9)", message="every row")
    wait_until(lambda: probe.page.evaluate("window.Rowstream.snapshot().pending"), message="the last batch seen")
    assert probe.table("data-state") != "complete"
    probe.page.reload(wait_until="domcontentloaded")
    wait_until(lambda: len(probe.indexes()) == 1000 and events(probe, "session"), message="rows back, stream resumed")
    assert probe.page.evaluate(SAVED_LAST_BATCH).endswith("<!--rs:last-->")
    at_start = probe.page.evaluate("window.__atStart")
    assert at_start["shown"] == 1000 and at_start["pending"], at_start
    probe.page.evaluate("window.scrollTo(0, 1e9)")                     # the end in view: a table that may ask, asks
    after_frames(probe.page)
    assert "lastEventId=" in probe.rs()["sources"][-1]["url"]
    assert not [f for f in probe.rs()["fetches"] if "/next" in f["url"]], "asked for more after the last batch"


def test_back_with_the_back_forward_cache_on(server, profile):
    probe = profile.tab(server.url + "/tables/customers", init_scripts=[PERSISTED])
    before = read_deep(probe)
    cost, elapsed = leave_and_come_back(server, probe, lambda page: page.go_back(wait_until="commit"))
    figure("Back, back/forward cache on: rows and place back (s)", elapsed, "s")
    figure("Back, back/forward cache on: page from the cache (1) or loaded again (0)",
           1.0 if probe.page.evaluate("window.__persisted")[-1] else 0.0, "")
    now = view(probe)
    assert now["keys"] == before["keys"] and now["at"] == before["at"]
    assert cost == 0


def test_sort_and_filter_live_in_the_url(server, open_page):
    probe = open_page(server.url + "/tables/customers")
    wait_until(lambda: probe.table("data-state") == "idle", message="idle")
    plain = view(probe)
    probe.page.select_option("select[name='p.sort']", "-mrr")
    wait_until(lambda: "p.sort=-mrr" in probe.page.url and probe.table("data-state") == "idle"
               and probe.page.evaluate(KEYS) != plain["keys"], message="sorted rows and the URL")
    sorted_view = view(probe)
    assert probe.page.get_attribute("#rs-table th[aria-sort='descending']", "aria-sort") == "descending"

    cost, _ = leave_and_come_back(server, probe, lambda page: page.go_back(wait_until="domcontentloaded"))
    assert view(probe)["sort"] == "-mrr" and view(probe)["keys"] == sorted_view["keys"]
    assert probe.page.get_attribute("#rs-table th[aria-sort='descending']", "aria-sort") == "descending"
    assert cost == 0

    probe.page.reload(wait_until="domcontentloaded")
    wait_until(lambda: probe.page.evaluate(KEYS) == sorted_view["keys"], message="sorted rows after Reload")
    assert view(probe)["sort"] == "-mrr"

    shared = open_page(server.url + "/tables/customers?p.sort=-mrr&p.status=active")
    wait_until(lambda: shared.table("data-state") == "idle", message="the shared link's rows")
    assert (view(shared)["sort"], view(shared)["status"]) == ("-mrr", "active")
    assert "p.sort=-mrr" in shared.streams()[0] and "p.status=active" in shared.streams()[0]
    statuses = shared.page.eval_on_selector_all("#rs-rows tr[data-key] .rs-badge", "cells => cells.map(c => c.textContent)")
    assert statuses and {s.lower() for s in statuses} == {"active"}, statuses

    shared.page.select_option("select[name='p.status']", "")              # back to the default: out of the URL
    wait_until(lambda: "p.status" not in shared.page.url, message="the default out of the URL")
    assert "p.sort=-mrr" in shared.page.url
    fresh = open_page(server.url + "/tables/customers")
    assert view(fresh)["sort"] == "" and "p.sort" not in fresh.streams()[0]

    # On a page of several tables the choice is the table's: `NAME.p.sort` (the page stream asks with `reload`).
    paged = open_page(server.url + "/pages/overview?customers.p.sort=-mrr", wait_for_rows=False)
    wait_until(lambda: paged.page.evaluate(PANEL_KEYS, "customers")[:50] == sorted_view["keys"][:50],
               message="the page's customers sorted as the URL says")
    assert paged.page.input_value("#rs-controls--customers select[name='p.sort']") == "-mrr"
    paged.page.select_option("#rs-controls--customers select[name='p.sort']", "name")
    wait_until(lambda: "customers.p.sort=name" in paged.page.url, message="the page URL follows the control")


PANEL_KEYS = """(name) => Array.from(document.querySelectorAll('#rs-table--' + name + ' tbody tr[data-key]:not(.rs-skeleton)'))
  .map((r) => r.dataset.key)"""


def test_back_on_a_page_of_tables(server, open_page):
    """A page of three tables: the plain table and the cards come back with their boxes where they were and resume;
    the sectioned table (not kept) starts over alone; every table's rows once."""
    probe = open_page(server.url + "/pages/overview", wait_for_rows=False)
    box = "document.getElementById('rs-scroll--customers')"
    scroll_until(probe, lambda: len(probe.page.evaluate(PANEL_KEYS, "customers")) >= 150,
                 scroll="%s.scrollBy(0, 400)" % box, message="150 rows in the customers box")
    wait_until(lambda: probe.page.get_attribute("#rs-table--customers", "data-state") == "idle", message="idle")
    wait_until(lambda: all(probe.page.evaluate(PANEL_KEYS, name) for name in ("customers-by-city", "customers-cards")),
               message="rows in every panel")
    before = probe.page.evaluate(PANEL_KEYS, "customers")
    top = probe.page.evaluate("%s.scrollTop" % box)
    cost, _ = leave_and_come_back(server, probe, lambda page: page.go_back(wait_until="domcontentloaded"))
    assert probe.page.evaluate(PANEL_KEYS, "customers") == before
    assert abs(probe.page.evaluate("%s.scrollTop" % box) - top) < 1
    assert "lastEventId=" in probe.rs()["sources"][-1]["url"]
    wait_until(lambda: all(probe.page.evaluate(PANEL_KEYS, name) for name in ("customers-by-city", "customers-cards")),
               message="rows in every panel after Back")
    for name in ("customers", "customers-by-city", "customers-cards"):
        keys = probe.page.evaluate(PANEL_KEYS, name)
        assert len(keys) == len(set(keys)), name
