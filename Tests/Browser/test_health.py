"""A tab that stays healthy: heartbeats keep a quiet stream alive, the watchdog reconnects a silent one, and
`online` / `visibilitychange` reconnect a dead one; never more than one EventSource per page."""
import pytest

from support import CutProxy, events, read_sse, scroll_to_end, server_fixture, wait_settled, wait_until

fast_heartbeat = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100, "--heartbeat-seconds", 1)
slow_heartbeat = server_fixture("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100)
HEARTBEAT_MS = 2000                          # `heartbeat` events every two `: ping`s of --heartbeat-seconds 1
SILENCE_MS = 2.5 * HEARTBEAT_MS              # the watchdog's limit (health.js)


def open_idle(open_page, url):
    """The page once it has filled the viewport and stays idle: a `next` asked while a test cuts the stream would
    wait for rows the cut stream never brings (the fill asks batch after batch, idle for a moment between them)."""
    return wait_settled(open_page(url))


def finish_and_compare(probe, server):
    scroll_to_end(probe)
    assert probe.keys() == server.upstream_keys()                         # every row exactly once, in order
    assert probe.page.evaluate("window.__rsOpenSources()") == 0            # complete: the stream is closed


def test_the_stream_sends_heartbeats_between_ping_comments(fast_heartbeat):
    seen = read_sse(fast_heartbeat.url + "/tables/customers/stream",
                    until=lambda event: event.event == "heartbeat" and event.json()["interval"] > 0)
    assert seen[0].event == "session"
    assert seen[-1].json() == {"interval": HEARTBEAT_MS}


def test_heartbeats_keep_a_quiet_stream_open(fast_heartbeat, open_page):
    probe = open_idle(open_page, fast_heartbeat.url)
    first = wait_until(lambda: probe.rs("window.__rs.heartbeats"), message="the first heartbeat")[0]
    # The proof that the watchdog's moment passed is a later heartbeat on the same stream, not a sleep: one that
    # came a whole interval after the watchdog would have fired had heartbeats not counted.
    wait_until(lambda: events(probe, "reconnect") or any(
        h["source"] == 0 and h["t"] > first["t"] + SILENCE_MS + HEARTBEAT_MS for h in probe.rs("window.__rs.heartbeats")),
        message="heartbeats for longer than the watchdog's limit, or a reconnect")
    assert events(probe, "reconnect") == []
    assert len(probe.rs()["sources"]) == 1
    assert probe.page.evaluate("window.__rsOpenSources()") == 1


def test_watchdog_reconnects_a_silent_stream(fast_heartbeat, open_page):
    with CutProxy(fast_heartbeat.port) as proxy:
        probe = open_idle(open_page, proxy.url)
        wait_until(lambda: probe.page.evaluate("window.Rowstream.snapshot().heartbeat") == HEARTBEAT_MS,
                   message="the first heartbeat (it arms the watchdog)")
        assert proxy.freeze("/stream") == 1          # open but silent: EventSource alone would wait forever
        reconnect = wait_until(lambda: events(probe, "reconnect"), message="the watchdog")[0]
        assert reconnect["why"] == "silent"
        wait_until(lambda: len(events(probe, "session")) >= 2, message="a new session")
        assert "lastEventId=" in probe.rs()["sources"][-1]["url"]
        assert probe.page.evaluate("window.__rsOpenSources()") == 1
        finish_and_compare(probe, fast_heartbeat)


@pytest.mark.parametrize("trigger", [
    "window.dispatchEvent(new Event('online'))",
    "document.dispatchEvent(new Event('visibilitychange'))",
])
def test_online_and_visibility_reconnect_a_dead_stream(slow_heartbeat, open_page, trigger):
    with CutProxy(slow_heartbeat.port) as proxy:
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


def test_a_next_answered_session_ended_on_a_stream_that_looks_open_reconnects(slow_heartbeat, open_page):
    """The server's side of the stream is gone (its session ended) while the browser's side stays open and silent:
    the next `next` is answered `204` (session ended); the table reconnects at once instead of keeping its skeletons
    (this server's heartbeat is too slow for the watchdog to be the one), and goes on to the end, every row once."""
    with CutProxy(slow_heartbeat.port) as proxy:
        probe = open_idle(open_page, proxy.url)
        assert proxy.sever("/stream") == 1
        wait_until(lambda: slow_heartbeat.metric("rowstream_sessions_open") == 0, message="the server ended the session")
        finish_and_compare(probe, slow_heartbeat)
        assert {e["why"] for e in events(probe, "reconnect")} == {"ended"}


# Counts the watchdog's timers (setTimeout for its limit, SILENCE_MS here) that neither ran nor were cleared.
WATCHDOG_TIMERS = """(() => {
  const pending = new Set();
  const set = window.setTimeout, clear = window.clearTimeout;
  window.setTimeout = function (callback, ms, ...args) {
    if (ms !== %d) return set.call(window, callback, ms, ...args);
    const id = set.call(window, () => { pending.delete(id); callback(...args); }, ms);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.delete(id); return clear.call(window, id); };
  window.__watchdogTimers = () => pending.size;
})();""" % SILENCE_MS


def test_a_stream_closed_when_complete_leaves_no_watchdog_timer(fast_heartbeat, open_page):
    """Once the list is complete and its stream closed, the watchdog's timer is cleared too: it would only wake a
    finished tab for nothing."""
    probe = open_page(fast_heartbeat.url, init_scripts=[WATCHDOG_TIMERS])
    wait_until(lambda: probe.rs("window.__rs.heartbeats"), message="the first heartbeat (it arms the watchdog)")
    assert probe.page.evaluate("window.__watchdogTimers()") == 1
    finish_and_compare(probe, fast_heartbeat)
    assert probe.page.evaluate("window.__watchdogTimers()") == 0, "the watchdog's timer cleared with the stream"
