"""Without JavaScript: the page sends the browser to the plain table, a streamed HTML document whose first
bytes hold the skeleton, whose rows arrive batch by batch, and which links to the next page."""
import socket
import time

from support import TIMEOUT, TIMEOUT_MS, server_fixture

server = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100)
slow = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 3000)


def test_first_bytes_hold_the_skeleton_before_any_row(slow):
    with socket.create_connection(("127.0.0.1", slow.port), timeout=TIMEOUT) as connection:
        connection.sendall(b"GET /tables/customers/html HTTP/1.1\r\nHost: x\r\n\r\n")
        first = b""
        deadline = time.monotonic() + TIMEOUT
        while b"</tbody>" not in first and time.monotonic() < deadline:
            first += connection.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        assert first.count(b'<tr class="rs-skeleton"') == 10
        assert b"data-key" not in first                                    # no row yet: the upstream is slow
        rest = b""
        while time.monotonic() < deadline + TIMEOUT:
            chunk = connection.recv(65536)
            if not chunk:
                break
            rest += chunk
    assert rest.count(b"<tr data-key=") == 30
    assert b"<style" not in first + rest and b"style=" not in first + rest   # the CSP refuses inline style
    assert b'id="rs-next" rel="next"' in rest and rest.rstrip().endswith(b"</html>")


def test_without_javascript_the_table_pages_through_every_row(server, open_page):
    probe = open_page(server.url, wait_for_rows=False, java_script_enabled=False)
    keys = []
    for _ in range(20):                                                    # bounded: 4 pages expected
        probe.page.wait_for_url("**/tables/customers/html*", timeout=TIMEOUT_MS)
        probe.page.wait_for_selector("#rs-next, #rs-end", state="attached", timeout=TIMEOUT_MS)
        assert not probe.page.is_visible("tr.rs-skeleton")                # every skeleton was replaced
        keys += probe.page.eval_on_selector_all("#rs-table tbody tr[data-key]", "rows => rows.map(r => r.dataset.key)")
        if probe.page.query_selector("#rs-end"):
            break
        probe.page.click("#rs-next")
    assert keys == server.upstream_keys()
    assert "All 95 rows shown" in probe.page.text_content("#rs-end")
    assert probe.page.eval_on_selector_all(
        "#rs-table tbody tr[data-index]", "rows => rows.map(r => Number(r.dataset.index))") == list(range(90, 95))
