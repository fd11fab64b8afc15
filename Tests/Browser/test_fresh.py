"""Issue 28, "how much" and "how fresh and when", in Chromium against the real server.

How much: the demo upstream reports its list's size, so the header says "30 of 300" (and data-total), then "300 rows"
once complete; a config table over the same upstream that is not told where the total is says "30 so far"; its
sections say "(N loaded)" while the list loads and "(N rows)" once it is complete.
How fresh: a live table shows "Updated N s ago", ticking with no event, back to "just now" on a live change, and
"Reconnecting…" while its stream is down (a CutProxy holds the browser's reconnects), until the new session.
When: in a browser set to Asia/Tokyo, every date-time reads in Tokyo time with the zone named, the `datetime`
attribute stays UTC ISO 8601 (and the UTC text is the title); a table configured with `timeZone` shows that zone
whatever the browser's, and one configured with `locale` shows its numbers in it; the no-script page keeps UTC."""
import datetime
import json
import re

import pytest

from support import (LIVE_DEMO, CutProxy, RowstreamServer, assert_stable_layout, events, refresh, refresh_until_changed,
                     scroll_to_end, server_fixture, wait_until)

live = server_fixture(*LIVE_DEMO)

# Read in one evaluation: the header's count, data-count/-total, the freshness text and the first dates.
HEADER = """() => ({
  count: document.getElementById('rs-count').textContent,
  shown: Number(document.getElementById('rs-table').dataset.count || 0),
  total: document.getElementById('rs-table').dataset.total || null,
  state: document.getElementById('rs-table').dataset.state,
  fresh: (document.getElementById('rs-fresh') || {}).textContent || '',
  times: Array.from(document.querySelectorAll('#rs-rows time')).slice(0, 5)
    .map((t) => ({ iso: t.getAttribute('datetime'), text: t.textContent, title: t.title })),
})"""


def check_times(times, hours, zone):
    """Each date-time reads as its UTC instant moved by `hours`, followed by `zone`; its datetime stays UTC."""
    assert times, "no dates shown"
    for time in times:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", time["iso"]), time
        utc = datetime.datetime.strptime(time["iso"], "%Y-%m-%dT%H:%M:%SZ")
        local = (utc + datetime.timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")
        assert time["text"] == local + " " + zone, time
        assert time["title"] == utc.strftime("%Y-%m-%d %H:%M") + " UTC", time


def test_a_live_table_says_how_much_how_fresh_and_when(live, open_page):
    with CutProxy(live.port) as proxy:
        probe = open_page(proxy.url, timezone_id="Asia/Tokyo")
        first = wait_until(lambda: (lambda h: h if h["state"] == "idle" and h["fresh"] else None)(
            probe.page.evaluate(HEADER)), message="the first batch, counted, and its freshness")
        # The live demo's list grows a little each second: its total is at least the 300 it started with.
        assert first["count"] == "%d of %s" % (first["shown"], "{:,}".format(int(first["total"]))), first
        assert int(first["total"]) >= 300 > first["shown"], first
        check_times(first["times"], 9, "GMT+9")
        assert re.fullmatch(r"Updated (just now|\d s ago)", first["fresh"]), first

        # Ticks with no event at all (no refresh runs: LIVE_DEMO's server refreshes only when asked).
        ticked = wait_until(lambda: (lambda f: f if re.fullmatch(r"Updated [2-9] s ago", f) else None)(
            probe.page.evaluate(HEADER)["fresh"]), message="Updated N s ago to tick")
        refresh_until_changed(live)
        wait_until(lambda: probe.page.evaluate(HEADER)["fresh"] in ("Updated just now", "Updated 1 s ago"),
                   message="a live change to set it back, from %r" % ticked)

        # The stream goes down and stays down (its reconnects held): "Reconnecting…", visible; then back.
        proxy.hold()
        assert proxy.cut("/stream") >= 1
        wait_until(lambda: probe.page.evaluate(HEADER)["fresh"] == "Reconnecting…", message="Reconnecting…")
        assert probe.page.is_visible("#rs-fresh")
        proxy.release()
        probe.page.evaluate("window.dispatchEvent(new Event('online'))")
        wait_until(lambda: probe.page.evaluate(HEADER)["fresh"].startswith("Updated"), message="fresh again")

        scroll_to_end(probe)
        done = probe.page.evaluate(HEADER)
        assert done["count"] == "%d rows" % done["shown"], done
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d GMT\+9",
                            probe.page.evaluate("document.querySelector('#rs-rows tr:last-child time').textContent"))


@pytest.fixture(scope="module")
def configured(live, tmp_path_factory):
    """A config server over the live demo's upstream: `counted` (told where the total is, sectioned by city),
    `uncounted` (not told; its dates in New York time whatever the browser's)."""
    upstream = "http://127.0.0.1:%d/v1/customers" % live.demo_port
    columns = [{"title": "Name", "path": "name"}, {"title": "City", "path": "city"},
               {"title": "Created", "path": "created_at", "format": "date", "width": "12rem"},
               {"title": "MRR", "path": "mrr", "format": "number", "decimals": 2}]
    cursor = {"style": "cursor", "cursorPath": "next_cursor", "cursorParameter": "cursor"}
    config = {"tables": [
        {"name": "counted", "request": {"url": upstream + "?sort=city"}, "items": "data", "key": "id", "batchSize": 50,
         "columns": columns, "pagination": dict(cursor, total="total_count"),
         "sections": {"by": "city", "footer": "count"}},
        {"name": "uncounted", "request": {"url": upstream}, "items": "data", "key": "id", "batchSize": 30,
         "columns": columns, "pagination": cursor, "timeZone": "America/New_York", "locale": "de-DE"},
    ]}
    path = tmp_path_factory.mktemp("fresh") / "config.json"
    path.write_text(json.dumps(config))
    server = RowstreamServer("--config", str(path))
    try:
        yield server
    finally:
        server.stop()


SECTION_COUNTS = """() => Array.from(document.querySelectorAll('#rs-table tbody.rs-section')).map((body) => ({
  count: body.querySelector('.rs-section-count').textContent,
  rows: body.querySelectorAll('tr[data-key]').length,
}))"""


def test_counts_say_what_they_are_and_a_configured_zone_wins(configured, open_page):
    probe = open_page(configured.url + "/tables/uncounted", timezone_id="Asia/Tokyo")
    header = wait_until(lambda: (lambda h: h if h["state"] == "idle" else None)(probe.page.evaluate(HEADER)),
                        message="the first batch")
    assert header["count"] == "%d so far" % header["shown"] and header["total"] is None, header
    assert header["fresh"] == "", "not a live table: no freshness"
    # Demo dates are in winter and summer: New York is UTC-5 (EST) or UTC-4 (EDT).
    for time in header["times"]:
        utc = datetime.datetime.strptime(time["iso"], "%Y-%m-%dT%H:%M:%SZ")
        zone = time["text"].rsplit(" ", 1)[1]
        assert zone in ("EST", "EDT"), time
        hours = -5 if zone == "EST" else -4
        assert time["text"] == (utc + datetime.timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M ") + zone, time
    # `locale: de-DE`: numbers as Germans write them, two decimals kept; the no-script page keeps the server's.
    numbers = probe.page.eval_on_selector_all("#rs-rows td.rs-number", "cells => cells.map((c) => c.textContent)")
    assert numbers and all(re.fullmatch(r"-?\d{1,3}(\.\d{3})*,\d\d", n) for n in numbers), numbers[:5]
    assert any("." in n for n in numbers), "some MRR of a thousand or more, grouped"
    # Dates are localized before their rows go in (view.js parseRows): nothing shown changes width afterwards.
    assert_stable_layout(probe)
    status, plain = configured.get("/tables/uncounted/html")
    assert status == 200 and re.search(r'<time datetime="[^"]+Z">\d{4}-\d\d-\d\d \d\d:\d\d</time>', plain)

    probe = open_page(configured.url + "/tables/counted", wait_for_rows=False)   # rows go into sections
    wait_until(lambda: probe.page.evaluate(HEADER)["state"] == "idle", message="the first batch")
    sections, header = probe.page.evaluate("() => [(" + SECTION_COUNTS + ")(), (" + HEADER + ")()]")
    assert sections and all(s["count"] == "(%d loaded)" % s["rows"] for s in sections), sections
    assert re.fullmatch(r"%d of [\d,]+" % header["shown"], header["count"]), header
    scroll_to_end(probe)
    sections = probe.page.evaluate(SECTION_COUNTS)
    assert all(s["count"] == "(%d row%s)" % (s["rows"], "" if s["rows"] == 1 else "s") for s in sections), sections
    done = probe.page.evaluate(HEADER)
    assert done["count"] == "%d rows" % done["shown"], done
    numbers = probe.page.eval_on_selector_all("td.rs-number", "cells => cells.map((c) => c.textContent)")
    assert numbers and all(re.fullmatch(r"-?\d{1,3}(,\d{3})*\.\d\d", n) for n in numbers), numbers[:5]
    status, plain = configured.get("/tables/counted/html")
    assert status == 200 and re.search(r'<p id="rs-of">150 of \d+ rows shown\.</p>', plain), "the no-script page's count"
    status, body = configured.get("/api/tables/counted/pages")
    assert status == 200 and json.loads(body)["total"] >= 300
    status, body = configured.get("/api/tables/uncounted/pages")
    assert status == 200 and "total" not in json.loads(body)
    assert events(probe, "error") == []


# A live demo whose list stays as it is for the test (its next generation is an hour away): each refresh finds no change.
unchanging = server_fixture("--demo-items", 300, "--batch-size", 30, "--demo-latency-ms", 20,
                            "--demo-live-seconds", 3600, "--demo-refresh-seconds", 0)
# A table's freshness: when it was last set back (data-updated, ms), its text, and whether the table is idle.
FRESHNESS = """(suffix) => {
  const fresh = document.getElementById('rs-fresh' + suffix);
  const table = document.getElementById('rs-table' + suffix);
  return { at: fresh ? Number(fresh.dataset.updated) : 0, text: fresh ? fresh.textContent : '',
           idle: table.dataset.state === 'idle' && table.getAttribute('aria-busy') === 'false' };
}"""


def ticking(freshness):
    return freshness if freshness["idle"] and re.fullmatch(r"Updated [1-9]\d* s ago", freshness["text"]) else None


def test_a_refresh_that_finds_no_change_sets_updated_back(unchanging, open_page):
    """"Updated N s ago" says when the rows were last confirmed current: a refresh that finds the head unchanged sends
    `fresh` (docs/PROTOCOL.md) and sets it back, on a table's own page and on a page of several tables (`NAME:fresh`).
    Each table is idle first (nothing asked, no refresh but the test's): nothing else can set it back."""
    viewers = [(open_page(unchanging.url), ""),
               (open_page(unchanging.url + "/pages/overview", wait_for_rows=False), "--customers")]
    ticked = [wait_until(lambda: ticking(probe.page.evaluate(FRESHNESS, suffix)), message="idle, Updated N s ago")
              for probe, suffix in viewers]
    summary = refresh(unchanging)
    assert summary and (summary["inserted"], summary["updated"], summary["removed"], summary["baseline"]) == (
        0, 0, 0, False), summary
    assert summary["viewers"] == 2
    for (probe, suffix), before in zip(viewers, ticked):
        wait_until(lambda: probe.page.evaluate(FRESHNESS, suffix)["at"] > before["at"],
                   message="the unchanged refresh to set %r back" % before["text"])
    for probe, _ in viewers:
        assert probe.page.evaluate("document.querySelectorAll('tr[data-live], tr.rs-updated').length") == 0, "a change"
