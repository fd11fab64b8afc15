"""Chromium's lane of the scrolling proofs (issue 32; the checks are scrolling.py's, shared with the other engines'
lanes): with batches smaller than the viewport the table fills it by itself, without a scroll; and the demo,
scrolled as a reader does while two busy loops take both cores, reaches 1,000 rows, every row once, one `next` POST
per batch."""
from conftest import figure
from scrolling import busy_loops, fills_the_viewport_without_scrolling, scroll_to_rows
from support import server_fixture

small = server_fixture("--demo-items", 500, "--batch-size", 5, "--demo-latency-ms", 20)
demo = server_fixture("--demo-items", 2500, "--batch-size", 50)      # the demo: 250 ms an upstream page


def lane(probe):
    """Chromium's run_js and scroll_by (a real wheel over the page)."""
    probe.page.mouse.move(640, 400)
    return probe.page.evaluate, lambda px: probe.page.mouse.wheel(0, px)


def test_batches_smaller_than_the_viewport_fill_it_without_a_scroll(small, open_page):
    probe = open_page(small.url)
    run_js, _ = lane(probe)
    final = fills_the_viewport_without_scrolling(run_js, batch=5)
    assert small.upstream_requests() == final["rows"] // 5           # one upstream page per batch
    figure("batch size 5: rows shown to fill an 800 px viewport", final["rows"], "rows")


def test_scrolling_the_demo_to_1000_rows_under_load(demo, open_page):
    probe = open_page(demo.url)
    run_js, scroll_by = lane(probe)
    with busy_loops(2):
        final, seconds = scroll_to_rows(run_js, scroll_by, target=1000, batch=50)
    assert demo.upstream_requests() == final["rows"] // 50           # one upstream page per batch
    figure("scrolling the demo to 1,000 rows, two busy loops beside", seconds, "s")
