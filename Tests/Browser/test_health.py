"""A tab that stays healthy: heartbeats keep a quiet stream alive, the watchdog reconnects a silent one, and
`online` / `visibilitychange` reconnect a dead one; never more than one EventSource per page."""
import pytest

from support import CutProxy, RowstreamServer, wait_until
from test_stream_page import events, scroll_to_end


@pytest.fixture(scope="module")
def fast_heartbeat():
    server = RowstreamServer("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100,
                             "--heartbeat-seconds", 1)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def slow_heartbeat():
    server = RowstreamServer("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100)
    yield server
    server.stop()


def open_idle(open_page, url):
    probe = open_page(url)
    wait_until(lambda: probe.table("data-state") == "idle" and len(events(probe, "rows")) >= 2,
               message="idle after two batches")
    return probe


def finish_and_compare(probe, server):
    scroll_to_end(probe)
    assert probe.keys() == server.upstream_keys()                         # every row exactly once, in order
    assert probe.page.evaluate("window.__rsOpenSources()") == 0            # complete: the stream is closed


def test_heartbeats_keep_a_quiet_stream_open(fast_heartbeat, open_page):
    probe = open_idle(open_page, fast_heartbeat.url)
    probe.page.wait_for_timeout(6500)                # longer than the watchdog's limit (5 s) without rows
    assert events(probe, "reconnect") == []
    assert len(probe.rs()["sources"]) == 1
    assert probe.page.evaluate("window.__rsOpenSources()") == 1


def test_watchdog_reconnects_a_silent_stream(fast_heartbeat, open_page):
    proxy = CutProxy(fast_heartbeat.port)
    try:
        probe = open_idle(open_page, proxy.url)
        wait_until(lambda: probe.page.evaluate("window.Rowstream.snapshot().heartbeat") == 2000,
                   message="the first heartbeat (it arms the watchdog)")
        assert proxy.freeze("/stream") == 1          # open but silent: EventSource alone would wait forever
        reconnect = wait_until(lambda: events(probe, "reconnect"), message="the watchdog")[0]
        assert reconnect["why"] == "silent"
        wait_until(lambda: len(events(probe, "session")) >= 2, message="a new session")
        assert "lastEventId=" in probe.rs()["sources"][-1]["url"]
        assert probe.page.evaluate("window.__rsOpenSources()") == 1
        finish_and_compare(probe, fast_heartbeat)
    finally:
        proxy.close()


@pytest.mark.parametrize("trigger", [
    "window.dispatchEvent(new Event('online'))",
    "document.dispatchEvent(new Event('visibilitychange'))",
])
def test_online_and_visibility_reconnect_a_dead_stream(slow_heartbeat, open_page, trigger):
    proxy = CutProxy(slow_heartbeat.port)
    try:
        probe = open_idle(open_page, proxy.url)
        proxy.hold()
        assert proxy.cut("/stream") == 1
        wait_until(lambda: proxy.held_count() >= 1, message="the browser's own retry to hang")
        assert probe.page.evaluate("window.__rs.events.filter(e => e.type === 'session').length") == 1
        proxy.release()
        probe.page.evaluate(trigger)
        reconnect = wait_until(lambda: events(probe, "reconnect"), message="a reconnect")[0]
        assert reconnect["why"] in ("online", "visible")
        wait_until(lambda: len(events(probe, "session")) >= 2, message="a new session")
        assert probe.page.evaluate("window.__rsOpenSources()") == 1
        finish_and_compare(probe, slow_heartbeat)
    finally:
        proxy.close()
