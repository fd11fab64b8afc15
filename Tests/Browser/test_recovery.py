"""Failures a viewer meets: an upstream error (Retry recovers), and the SSE connection cut by the network
mid-list (the page reconnects and every row arrives exactly once)."""
from support import (TO_THE_BOTTOM, CutProxy, RowstreamServer, events, proxy_fixture, scroll_to_end, scroll_until,
                     server_fixture, wait_until)

BATCH = 10

failing = server_fixture("--demo-items", 60, "--batch-size", BATCH, "--demo-latency-ms", 100, "--demo-fail-every", 3)
server = server_fixture("--demo-items", 95, "--batch-size", BATCH, "--demo-latency-ms", 300)
proxy = proxy_fixture("server")


def test_upstream_error_shows_error_row_and_retry_recovers(failing, open_page):
    probe = open_page(failing.url)
    retries = []

    def complete_or_retried():
        """Complete; or after an error row (checked), Retry clicked and the row gone; else scroll on."""
        state = probe.table("data-state")
        if state == "error":
            assert probe.page.is_visible("#rs-error")
            assert "Loading rows failed" in probe.page.text_content("#rs-error")
            assert probe.table("aria-busy") == "false"
            assert "Loading rows failed" in probe.page.text_content("#rs-status")
            probe.page.click("#rs-retry")
            retries.append(state)
            wait_until(lambda: probe.page.query_selector("#rs-error") is None, message="error row to go")
        return state == "complete"
    scroll_until(probe, complete_or_retried, message="the list to complete, with Retry after every error")
    assert probe.table("data-state") == "complete"
    assert len(retries) >= 2
    assert probe.keys() == [str(i) for i in range(1, 61)]                 # ids 1...60, each once, in order


def test_cut_stream_reconnects_and_delivers_every_row_once(server, proxy, open_page):
    probe = open_page(proxy.url)
    wait_until(lambda: len(events(probe, "rows")) >= 2 and probe.table("data-state") == "idle",
               message="two batches, idle")
    assert proxy.cut("/stream") == 1                                      # cut while idle
    wait_until(lambda: len(events(probe, "session")) >= 2, message="a reconnection")
    wait_until(lambda: probe.table("data-state") == "idle", message="idle on the new stream")
    assert proxy.freeze("/stream") == 1               # the next batch cannot arrive: the page stays loading
    probe.page.evaluate(TO_THE_BOTTOM)
    wait_until(lambda: probe.table("data-state") == "loading", message="a batch loading")
    assert proxy.cut("/stream") == 1                                      # cut while a batch loads
    wait_until(lambda: len(events(probe, "session")) >= 3, message="a second reconnection")
    scroll_to_end(probe)
    assert probe.keys() == server.upstream_keys()                         # every row exactly once, in order
    assert len(probe.streams()) >= 3
    assert "Reconnecting" not in probe.page.text_content("#rs-status")


def test_a_demand_racing_the_streams_end_is_no_error_and_is_asked_again(server, proxy, open_page):
    """A `next` that reaches a session whose stream has just ended (the server saw its viewer leave; the browser
    has not noticed yet) gets `204`, session ended (docs/PROTOCOL.md), not a 404 the console would log; the page
    reconnects at once and asks for that batch again, the sentinel being still near, and every row arrives once."""
    probe = open_page(proxy.url)
    wait_until(lambda: len(events(probe, "rows")) >= 2 and probe.table("data-state") == "idle",
               message="two batches, idle")
    assert proxy.sever("/stream") == 1                    # the server's side ends; the page's stays open, silent
    wait_until(lambda: server.metric("rowstream_sessions_open") == 0, message="the session to end")
    with probe.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/next")) as answer:
        probe.page.evaluate(TO_THE_BOTTOM)                # the page POSTs next to its session: it has ended
    assert answer.value.status == 204                     # not a 404: no console error
    assert answer.value.headers.get("rowstream-session") == "ended"
    batches = len(events(probe, "rows"))
    # The 204 told the page its session ended: it reconnects at once (`why: "ended"`), not when its watchdog
    # notices the silent stream.
    wait_until(lambda: len(events(probe, "session")) >= 2, message="a reconnection")
    assert [e["why"] for e in events(probe, "reconnect")][:1] == ["ended"]
    # No scroll in between: the new session (which waits for demand) gets the POST by itself.
    wait_until(lambda: len(events(probe, "rows")) > batches, message="the batch asked for again by the new session")
    scroll_to_end(probe)
    assert probe.keys() == server.upstream_keys()         # every row exactly once, in order


def test_a_demand_after_a_restart_the_page_has_not_noticed_is_no_error(open_page):
    """The server restarts while the page's stream is silently dead (a middlebox dropped it: the page has not
    noticed yet). The page's `next` for its old session reaches a server that never held it: `204`, session ended
    (docs/PROTOCOL.md), not a 404 the console would log; the page reconnects at once and goes on with the new
    server, every row once. The same holds for a POST that reaches another instance of a cluster."""
    flags = ("--demo-items", 60, "--batch-size", BATCH, "--demo-latency-ms", 20)
    servers = [RowstreamServer(*flags)]
    try:
        with CutProxy(servers[0].port) as proxy:
            probe = open_page(proxy.url)
            wait_until(lambda: len(events(probe, "rows")) >= 2 and probe.table("data-state") == "idle",
                       message="two batches, idle")
            assert proxy.sever("/stream") == 1                 # the server's side ends; the page's stays open, silent
            servers.append(RowstreamServer(*flags))
            proxy.target_port = servers[1].port                # new connections reach the new server
            servers[0].stop()                                  # the restart: its kept-alive connections close too
            with probe.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/next")) as answer:
                probe.page.evaluate(TO_THE_BOTTOM)             # the page POSTs next to its old session
            assert answer.value.status == 204                  # not a 404: no console error
            assert answer.value.headers.get("rowstream-session") == "ended"
            # The 204 told the page its session ended: it reconnects at once (`why: "ended"`), to the new server,
            # without waiting for its watchdog to notice the dead stream.
            wait_until(lambda: len(events(probe, "session")) >= 2, message="a reconnection")
            assert [e["why"] for e in events(probe, "reconnect")][:1] == ["ended"]
            scroll_to_end(probe)
            assert probe.keys() == servers[1].upstream_keys()  # every row exactly once, in order
    finally:
        for server in servers:
            server.stop()
