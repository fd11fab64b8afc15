"""Compressed responses in Chromium (which asks for gzip on every request): the page's EventSource decodes a
gzip-coded event stream batch by batch, and the no-JavaScript table streams gzip-coded too."""
from support import TIMEOUT_MS, scroll_to_end, server_fixture

server = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 50)


def test_event_source_reads_a_gzip_stream(server, open_page):
    probe = open_page(server.url)
    # The stream opened again under watch (the first may have opened before a listener could be attached).
    with probe.page.expect_response(lambda r: r.url.endswith("/stream") or "/stream?" in r.url) as info:
        probe.page.reload(wait_until="domcontentloaded")
    stream = info.value
    assert stream.status == 200
    assert stream.headers.get("content-encoding") == "gzip", stream.headers
    assert stream.headers.get("content-type", "").startswith("text/event-stream")
    probe.page.wait_for_selector("#rs-rows tr", timeout=TIMEOUT_MS)
    scroll_to_end(probe)                                                 # every batch, asked for by scrolling
    assert probe.indexes() == list(range(95))


def test_the_plain_table_streams_gzip_without_javascript(server, open_page):
    # Not the main page: without scripts its <noscript> refresh goes to the same URL as the goto below, and the
    # later of the two navigations interrupts the other.
    probe = open_page("about:blank", wait_for_rows=False, java_script_enabled=False)
    with probe.page.expect_response(lambda r: "/tables/customers/html" in r.url) as info:
        probe.page.goto(server.url + "/tables/customers/html", wait_until="domcontentloaded")
    assert info.value.headers.get("content-encoding") == "gzip", info.value.headers
    probe.page.wait_for_selector("#rs-next, #rs-end", state="attached", timeout=TIMEOUT_MS)
    keys = probe.page.eval_on_selector_all("#rs-table tbody tr[data-key]", "rows => rows.map(r => r.dataset.key)")
    assert len(keys) == 30 and len(set(keys)) == 30
