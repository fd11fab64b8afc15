"""A page of several tables keeps what a table's own page does, per table and in its scroll box: live changes
(flash, rows inserted above do not move the rows in view) and the bounded DOM (pruned batches come back)."""
from support import (INSERTS, LIVE_DEMO, WATCH_LIVE, CutProxy, after_frames, refresh_until_changed,
                     refresh_until_new_on_top, scroll_until, server_fixture, wait_until)
from test_pages import counts, indexes, open_overview, settled

live = server_fixture(*LIVE_DEMO)
long_list = server_fixture("--demo-items", 600, "--batch-size", 20, "--demo-latency-ms", 0)
fast_heartbeat = server_fixture("--demo-items", 200, "--batch-size", 20, "--demo-latency-ms", 50, "--heartbeat-seconds", 1)

# The first customers row at least 60 px below the top of its scroll box: its key and its offset in the box.
ANCHOR = """() => {
  const box = document.getElementById('rs-scroll--customers');
  const top = box.getBoundingClientRect().top;
  const row = Array.from(document.querySelectorAll('#rs-rows--customers tr[data-index]'))
    .find((r) => r.getBoundingClientRect().top >= top + 60);
  return [row.dataset.key, row.getBoundingClientRect().top - top];
}"""

OFFSET = """(k) => document.querySelector('#rs-rows--customers tr[data-key="' + k + '"]').getBoundingClientRect().top
  - document.getElementById('rs-scroll--customers').getBoundingClientRect().top"""


def test_live_changes_on_a_page_flash_and_keep_the_rows_in_view(live, open_page):
    probe = open_overview(open_page, live.url)
    probe.page.evaluate(WATCH_LIVE)
    probe.page.evaluate("""() => {
      const box = document.getElementById('rs-scroll--customers');
      const row = document.querySelector('#rs-rows--customers tr[data-index="12"]');
      box.scrollTop += row.getBoundingClientRect().top - box.getBoundingClientRect().top;
    }""")
    after_frames(probe.page)
    key, top = probe.page.evaluate(ANCHOR)
    scrolled = probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop")
    page_scroll = probe.page.evaluate("window.scrollY")
    assert scrolled > 0
    first, _ = refresh_until_new_on_top(live, lambda: probe.page.evaluate(INSERTS), lambda: probe.page.eval_on_selector(
        "#rs-rows--customers tr", "r => [r.dataset.key, r.hasAttribute('data-live')]"))
    assert {e["kind"] for e in probe.page.evaluate("window.__live.events")} >= {"insert", "update"}
    assert {e["table"] for e in probe.page.evaluate("window.__live.events")} == {"customers"}, "that table only"
    after = probe.page.evaluate(OFFSET, key)
    assert abs(after - top) < 1, "the rows in view moved by %.1f px" % (after - top)
    assert probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop") > scrolled, \
        "the box scrolled by the inserted rows' height"
    assert probe.page.evaluate("window.scrollY") == page_scroll, "the page itself did not move"
    assert int(first[0]) > 300, "the new customer is on top: %r" % first
    wait_until(lambda: probe.page.evaluate("window.__live.flashes") > 0, message="a flash")
    shown = probe.page.eval_on_selector_all("#rs-rows--customers tr[data-key]", "rows => rows.map(r => r.dataset.key)")
    assert len(shown) == len(set(shown)), "no key twice"


def test_a_table_on_a_page_prunes_in_its_box_and_brings_rows_back(long_list, open_page):
    probe = open_page(long_list.url + "/pages/overview", wait_for_rows=False,
                      init_config="{maxRows: 60, pruneMargin: 200}")
    wait_until(lambda: counts(probe)["customers"] > 0, message="rows")
    scroll_until(probe, lambda: probe.page.evaluate("window.Rowstream.tables.customers.snapshot().shown") >= 200,
                 "document.getElementById('rs-scroll--customers').scrollTop = 1e9", message="200 rows in the box")
    stats = wait_until(lambda: (lambda s: s if s["pruned"] > 0 else None)(
        probe.page.evaluate("window.Rowstream.tables.customers.pruning()")), message="pruned batches")
    assert stats["liveRows"] <= 60 + 2 * 20
    assert len(indexes(probe, "customers")) < 200
    for _ in range(100):                                                  # back to the top, a step at a time
        probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop -= 400")
        after_frames(probe.page, 1)                   # the page handles each step's scroll
        if probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop") == 0:
            break
    wait_until(lambda: 0 in indexes(probe, "customers"), message="the first batch back")
    assert probe.page.evaluate("window.Rowstream.tables.customers.pruning()")["refetched"] > 0
    shown = indexes(probe, "customers")
    assert shown == sorted(set(shown)), "every row at most once, in order"


def test_the_watchdog_resumes_every_table_of_a_frozen_page_stream(fast_heartbeat, open_page):
    with CutProxy(fast_heartbeat.port) as proxy:
        probe = open_overview(open_page, proxy.url)
        wait_until(lambda: probe.page.evaluate("window.Rowstream.heartbeat()") == 2000,
                   message="the first heartbeat (it arms the watchdog)")
        assert proxy.freeze("/pages/overview/stream") == 1                # open but silent
        reconnect = wait_until(lambda: [e for e in probe.rs()["events"] if e["type"] == "reconnect"],
                               message="the watchdog")
        assert {e["why"] for e in reconnect} == {"silent"}
        assert {e["table"] for e in reconnect} == {"customers", "customers-by-city", "customers-cards"}
        wait_until(lambda: len(probe.rs()["sources"]) == 2 and settled_after(probe), message="a new stream, idle")
        assert "lastEventId=p1." in probe.rs()["sources"][-1]["url"]
        assert probe.page.evaluate("window.__rsOpenSources()") == 1
        probe.page.evaluate("document.getElementById('rs-scroll--customers-by-city').scrollTop = 1e9")
        wait_until(lambda: counts(probe)["customers-by-city"] > 40, message="more rows after the reconnect")
        assert not any(e["type"] == "reset" for e in probe.rs()["events"]), "resumed, not started over"
        for table in ("customers", "customers-by-city", "customers-cards"):
            shown = indexes(probe, table)
            assert shown == list(range(len(shown))), table


def settled_after(probe):
    sessions = [e for e in probe.rs()["events"] if e["type"] == "session"]
    snapshot = probe.page.evaluate("window.Rowstream.snapshot()")
    return len(sessions) >= 6 and all(s["phase"] == "idle" and not s["pending"] for s in snapshot.values())


ROWS = """() => Array.from(document.querySelectorAll('#rs-rows--customers tr[data-key]'))
  .map((r) => [r.dataset.key, Array.from(r.cells).map((c) => c.textContent.trim()).join('|')])"""


def test_a_cut_page_stream_with_a_live_table_starts_over_with_the_changes_made_meanwhile(live, open_page):
    """The page's stream is cut and a live change is made before the browser's reconnect reaches the server: live
    changes carry no position, so the page starts over instead of resuming (which would miss that change): the
    live table then shows what a new viewer gets, each row once."""
    with CutProxy(live.port) as proxy:
        refresh_until_changed(live, "customers")                           # the head as sent: what the page gets
        probe = open_overview(open_page, proxy.url)
        proxy.pause()                                                      # the reconnect waits for the test
        assert proxy.cut("/pages/overview/stream") == 1
        wait_until(lambda: proxy.paused_count() > 0, message="the reconnect's stream request")
        refresh_until_changed(live, "customers")                           # rows updated (and inserted) meanwhile
        proxy.resume()
        wait_until(lambda: settled(probe) and probe.page.evaluate(
            "window.Rowstream.tables.customers.snapshot().session") is not None, message="every table again")
        fresh = open_overview(open_page, live.url)
        expected = fresh.page.evaluate(ROWS)
        shown = probe.page.evaluate(ROWS)
        assert shown[:len(expected)] == expected, "the rows as a new viewer gets them"
        assert len({key for key, _ in shown}) == len(shown), "each once"
        assert "lastEventId" not in probe.rs()["sources"][-1]["url"], "started over, not resumed"
