"""Only the latest session's URLs (issue 12, item 5): after the stream is cut, the browser's EventSource reconnects
by itself and the server starts new sessions; the old ones have ended (a POST to one gets `204`, session ended;
docs/PROTOCOL.md). The viewer acts at the worst moment, as the
stream opens again and before its `session` events: scrolls every table's box to its end (a page of several
tables: `next`) or clicks Reload (a table's own page: `reload`). The console stays clean through several cuts: no
404, no error, every row once."""
import pytest

from support import CutProxy, RowstreamServer, wait_until
from test_stream_page import events, scroll_to_end

# Calls window.__onReopen() when an EventSource opens again by itself (the browser's reconnect), before any event
# of the new connection is dispatched: the `open` event is queued ahead of them.
REOPEN_HOOK = """(() => {
  const Native = window.EventSource;
  window.__reopens = 0;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      let opens = 0;
      this.addEventListener('open', () => {
        opens += 1;
        if (opens < 2) return;
        window.__reopens += 1;
        if (window.__onReopen) window.__onReopen();
      });
    }
  };
})();"""

SCROLL_BOXES = """window.__onReopen = () => document.querySelectorAll('.rs-scroll').forEach((box) => {
  box.scrollTop = box.scrollHeight;
  box.dispatchEvent(new Event('scroll'));
});"""

CLICK_RELOAD = "window.__onReopen = () => document.getElementById('rs-reload').click();"

SETTLED = """() => Object.values(window.Rowstream.tables || {table: window.Rowstream})
  .every((t) => !t.snapshot().pending && ['idle', 'complete'].includes(t.snapshot().phase))"""


@pytest.fixture
def proxy():
    """A fresh server (1,000 rows: no table ends during the test) behind a proxy that can cut its streams."""
    server = RowstreamServer("--demo-items", 1000, "--batch-size", 20, "--demo-latency-ms", 100)
    try:
        cutter = CutProxy(server.port)
        yield cutter
        cutter.close()
    finally:
        server.stop()


def open_hooked(open_page, url, on_reopen):
    """Opens `url` with the reopen hook. Init scripts apply from the next navigation on, so the probe starts on a
    blank page: a first load of `url` would have its own sessions and, on a busy machine, post to them before
    the second load replaced it."""
    probe = open_page("about:blank", wait_for_rows=False)
    probe.context.add_init_script(REOPEN_HOOK)
    probe.context.add_init_script(on_reopen)
    probe.page.goto(url, wait_until="domcontentloaded")
    wait_until(lambda: probe.page.evaluate("window.__reopens") == 0, message="the hook")
    return probe


def settle(probe):
    wait_until(lambda: probe.page.evaluate(SETTLED), message="every table settled")


def cut_times(probe, proxy, times, sessions_per_connection):
    for cut in range(times):
        settle(probe)                                         # no demand in flight while the stream is cut
        sessions = len(events(probe, "session"))
        assert proxy.cut("/stream") == 1
        wait_until(lambda: probe.page.evaluate("window.__reopens") == cut + 1, message="the browser's reconnect")
        wait_until(lambda: len(events(probe, "session")) >= sessions + sessions_per_connection,
                   message="the new sessions")
    settle(probe)


def assert_no_error_responses(probe):
    assert not [e for e in probe.errors if e.startswith("HTTP ")], probe.errors


def test_a_page_posts_next_only_to_its_latest_sessions(proxy, open_page):
    tables = ["customers", "customers-by-city", "customers-cards"]
    probe = open_hooked(open_page, proxy.url + "/pages/overview", SCROLL_BOXES)
    cut_times(probe, proxy, 3, len(tables))
    assert_no_error_responses(probe)
    announced = {event["session"] for event in events(probe, "session")}
    posted = {url.split("/sessions/")[1].split("/")[0] for url in probe.posts("/next")}
    assert posted and posted <= announced
    for table in tables:
        indexes = probe.page.eval_on_selector_all(
            "#rs-table--%s tr[data-index]" % table, "rows => rows.map(r => Number(r.dataset.index))")
        assert indexes == list(range(len(indexes))) and len(indexes) > 20, "%s: every row once, in order" % table


def test_a_table_page_reloads_only_through_its_latest_session(proxy, open_page):
    probe = open_hooked(open_page, proxy.url, CLICK_RELOAD)
    wait_until(lambda: events(probe, "rows"), message="the first batch")
    cut_times(probe, proxy, 3, 1)
    assert_no_error_responses(probe)
    assert len(events(probe, "reset")) >= 3                   # each Reload started the table over
    assert probe.indexes() == list(range(len(probe.indexes())))
    assert "Reconnecting" not in probe.page.text_content("#rs-status")
