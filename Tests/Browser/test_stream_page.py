"""The page as a viewer uses it, against the real server and its demo upstream (95 rows, batches of 10)."""
from support import (TIMEOUT, TIMEOUT_MS, after_frames, assert_stable_layout, events, open_paused,  # noqa: F401
                     proxy_fixture, scroll_to_end, server_fixture, wait_until)
# (`events` and `scroll_to_end` live in support.py; still importable from here, as older test files do.)

BATCH = 10
ITEMS = 95
HOSTILE = {  # index -> the exact text the upstream sends (Sources/Dashboard/Demo/DemoData.swift)
    6: "<script>alert('x')</script> & Sons",
    12: "\"><img src=x onerror=alert(1)>",
    19: "Ünïcödé 🚀 株式会社",
    41: "<b>unbalanced <i>markup",
}


DEMO = ("--demo-items", ITEMS, "--batch-size", BATCH, "--demo-latency-ms", 400)
server = server_fixture(*DEMO)
# First-paint checks open the page through this proxy, paused: its event stream waits in the proxy until the test
# resumes it, so no batch can replace the skeletons before they are measured, however busy the machine.
proxy = proxy_fixture("server")
# Counting upstream requests needs a server no other test used: the demo's 5 s page cache would serve a page that
# another test fetched, and a page another test's viewer is still fetching would be counted too.
fresh = server_fixture(*DEMO, scope="function")


def cell_boxes(probe, selector):
    return probe.page.eval_on_selector(selector, """row => Array.from(row.cells).map(c => {
        const r = c.getBoundingClientRect(); return [r.left, r.width, r.height]; })""")


def test_first_paint_has_skeleton_rows_shaped_like_real_rows(server, proxy, open_page):
    status, html = server.get("/")
    assert status == 200
    pending = html.split('<tbody id="rs-pending">', 1)[1].split("</tbody>", 1)[0]
    assert pending.count('<tr class="rs-skeleton"') == BATCH          # in the first bytes, no script needed
    probe = open_paused(proxy, open_page)
    skeleton = cell_boxes(probe, "#rs-pending tr.rs-skeleton")
    headers = probe.page.eval_on_selector_all("#rs-table thead th", "cells => cells.length")
    assert probe.page.eval_on_selector_all("#rs-rows tr", "rows => rows.length") == 0
    assert len(skeleton) == headers
    proxy.resume()
    probe.page.wait_for_selector("#rs-rows tr", timeout=TIMEOUT_MS)
    real = cell_boxes(probe, "#rs-rows tr")
    assert len(real) == len(skeleton)
    for (left_s, width_s, height_s), (left_r, width_r, height_r) in zip(skeleton, real):
        assert abs(left_s - left_r) < 0.5 and abs(width_s - width_r) < 0.5 and abs(height_s - height_r) < 0.5


def test_first_batch_replaces_skeletons_without_layout_shift(server, open_page):
    probe = open_page(server.url)
    wait_until(lambda: len(events(probe, "rows")) >= 3, message="three batches")
    rows = events(probe, "rows")
    assert rows[0]["skeletons"] == 0 and rows[0]["shownRows"] == BATCH
    assert probe.indexes()[:3 * BATCH] == list(range(3 * BATCH))
    assert_stable_layout(probe)


def test_scrolling_loads_each_batch_once_in_order(fresh, open_page):
    probe = open_page(fresh.url)
    scroll_to_end(probe)
    loading = [event["offset"] for event in events(probe, "loading")]
    assert loading == list(range(0, ITEMS, BATCH))                       # every batch once, in order
    assert probe.indexes() == list(range(ITEMS))
    assert len(set(probe.keys())) == ITEMS
    assert fresh.upstream_requests() == len(loading), "one upstream page per batch, none twice"


def test_fast_scrolling_never_loads_a_batch_twice(fresh, open_page):
    probe = open_page(fresh.url)

    def wheeled_to_the_end():
        if probe.table("data-state") == "complete":
            return True
        probe.page.mouse.wheel(0, 5000)
        probe.page.keyboard.press("End")
        return False
    wait_until(wheeled_to_the_end, timeout=2 * TIMEOUT, interval=0.005, message="complete, scrolling fast")
    loading = [event["offset"] for event in events(probe, "loading")]
    assert loading == list(range(0, ITEMS, BATCH))
    assert probe.indexes() == list(range(ITEMS))
    assert fresh.upstream_requests() == len(loading), "one upstream page per batch, none twice"


def test_end_of_list_shows_end_row_and_stops_asking(server, open_page):
    probe = open_page(server.url)
    scroll_to_end(probe)
    end = probe.page.text_content("#rs-end")
    assert "All %d rows loaded" % ITEMS in end
    assert probe.page.is_visible("#rs-end")
    fetches, sources = probe.rs("window.__rs.fetches.length"), probe.rs("window.__rs.sources.length")
    requests, upstream = len(probe.requests), server.upstream_requests()
    for _ in range(5):
        probe.page.evaluate("window.scrollTo(0, 0)")
        after_frames(probe.page)                        # the scroll events and the end's observer have run
        probe.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        after_frames(probe.page)
    assert probe.rs("window.__rs.fetches.length") == fetches, "no POST: %r" % probe.rs("window.__rs.fetches")
    assert probe.rs("window.__rs.sources.length") == sources, "no reconnect"
    assert len(probe.requests) == requests
    assert server.upstream_requests() == upstream


def test_reload_starts_over_with_skeletons(server, open_page):
    probe = open_page(server.url)
    wait_until(lambda: len(events(probe, "rows")) >= 2, message="two batches")
    probe.page.click("#rs-reload")
    reset = wait_until(lambda: events(probe, "reset"), message="reset")[0]
    assert reset["shownRows"] == 0 and reset["skeletons"] == BATCH and reset["busy"] == "true"
    wait_until(lambda: [e for e in events(probe, "rows") if e["t"] > reset["t"]], message="rows after reset")
    assert probe.indexes()[:BATCH] == list(range(BATCH))
    assert len(probe.posts("/reload")) == 1


def test_first_paint_is_busy_with_skeletons_hidden_from_screen_readers(proxy, open_page):
    probe = open_paused(proxy, open_page)
    assert probe.table("aria-busy") == "true"
    assert probe.page.get_attribute("#rs-status", "aria-live") == "polite"
    assert probe.page.get_attribute("#rs-status", "role") == "status"
    assert probe.page.eval_on_selector_all(
        "#rs-pending tr", "rows => rows.length > 0 && rows.every(r => r.getAttribute('aria-hidden') === 'true')")


def test_busy_state_and_live_region_announcements(server, open_page):
    probe = open_page(server.url, wait_for_rows=False)
    scroll_to_end(probe)
    for event in events(probe, "loading"):
        assert event["busy"] == "true"
    rows = events(probe, "rows")
    assert rows[0]["status"] == "Loaded 10 more rows, 10 in total"
    assert rows[-1]["status"] == "Loaded 5 more rows, 95 in total"
    assert all(event["busy"] == "false" for event in rows)
    assert probe.page.text_content("#rs-status") == "All 95 rows loaded"
    assert probe.table("aria-busy") == "false"


def test_reduced_motion_stops_the_shimmer(proxy, open_page):
    animation = "getComputedStyle(document.querySelector('#rs-pending .rs-bone')).animationName"
    moving = open_paused(proxy, open_page)
    still = open_paused(proxy, open_page, reduced_motion="reduce")
    assert moving.page.evaluate(animation) == "rs-shimmer"
    assert still.page.evaluate(animation) == "none"


def test_hostile_upstream_values_are_text_and_never_run(server, open_page):
    probe = open_page(server.url)
    scroll_to_end(probe)
    for index, text in HOSTILE.items():
        name = probe.page.text_content('#rs-rows tr[data-index="%d"] td:nth-child(2)' % index)
        assert name == text
    table = "#rs-table"
    assert probe.page.eval_on_selector_all(table + " script, " + table + " img, #rs-rows b, #rs-rows i",
                                           "found => found.length") == 0
    assert probe.page.evaluate("""() => Array.from(document.querySelectorAll('#rs-rows *'))
        .every(e => Array.from(e.attributes).every(a => !a.name.startsWith('on')))""")
    hrefs = probe.page.eval_on_selector_all("#rs-rows a[href]", "links => links.map(a => a.href)")
    assert hrefs and all(href.startswith(("http://", "https://")) for href in hrefs)
    assert probe.page.text_content('#rs-rows tr[data-index="6"] td:last-child') == "javascript:alert(1)"
    assert probe.rs("window.__rs.dialogs") == 0
