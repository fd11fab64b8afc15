"""A demand POST the network fails while the event stream stays open (issue 12, item 4): only the POSTs fail
(Playwright routes abort or swallow them), the stream is untouched. The page sends a failed or unanswered `next`
again with backoff and recovers by itself once POSTs work; when they keep failing it shows the error row with
Retry; `online` and `visibilitychange` ask again at once. No batch is ever loaded twice."""
import pytest

from support import RowstreamServer, wait_settled, wait_until
from test_stream_page import events, scroll_to_end

BATCH = 10
ITEMS = 95
NEXT = "**/sessions/*/next"
RELOAD = "**/sessions/*/reload"
# A route's abort shows in the console as a failed load; every HTTP error response still fails the test.
ABORTED = ("net::ERR_FAILED",)


@pytest.fixture
def server():
    # One server per test: the demo's page cache would hide a page fetched twice across tests.
    server = RowstreamServer("--demo-items", ITEMS, "--batch-size", BATCH, "--demo-latency-ms", 100)
    yield server
    server.stop()


def config(timeout=5000, attempts=8, backoff=200, cap=1000):
    return "{postTimeout: %d, postAttempts: %d, postBackoff: %d, postBackoffCap: %d}" % (
        timeout, attempts, backoff, cap)


def open_idle(open_page, server, init_config):
    """The page, once its table has filled the viewport and stays idle (its end out of reach) a few frames on."""
    return wait_settled(open_page(server.url, allowed_console=ABORTED, init_config=init_config))


def fail_posts(probe, pattern=NEXT):
    """Aborts every POST matching `pattern` from now on (a network error); returns the list of aborted URLs."""
    aborted = []

    def abort(route):
        aborted.append(route.request.url)
        route.abort()
    probe.page.route(pattern, abort)
    return aborted


def seen(probe, routed):
    """How many requests a route handler took. Playwright runs handlers only while the test talks to the page."""
    probe.page.wait_for_timeout(50)
    return len(routed)


def ask_for_more(probe):
    probe.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


def batches_shown(probe):
    return len(events(probe, "rows"))


def finish_and_check_once(probe, server):
    """Scrolls to the end: every upstream row once, in order; no batch loaded twice (one `loading` per offset,
    one upstream page per batch)."""
    scroll_to_end(probe)
    assert probe.keys() == server.upstream_keys()
    offsets = [event["offset"] for event in events(probe, "loading")]
    assert len(offsets) == len(set(offsets)), "a batch loaded twice: %r" % offsets
    assert server.quiet_upstream_requests() == (ITEMS + BATCH - 1) // BATCH


def test_failed_next_posts_are_retried_and_the_table_recovers_by_itself(server, open_page):
    probe = open_idle(open_page, server, config())
    before = batches_shown(probe)
    aborted = fail_posts(probe)
    ask_for_more(probe)
    wait_until(lambda: seen(probe, aborted) >= 2, message="the failed POST sent again")
    assert probe.table("aria-busy") == "true" and probe.page.query_selector("#rs-error") is None
    probe.page.unroute(NEXT)                                              # the network is back
    settled = []

    def recovered():
        # The next batch may start at once (the end is still near), so state and busy are read together.
        snapshot = probe.table_state()
        if batches_shown(probe) > before and snapshot["state"] in ("idle", "complete"):
            settled.append(snapshot)
        return bool(settled)
    wait_until(recovered, message="the table to recover by itself")
    assert settled[0]["busy"] == "false"
    assert events(probe, "reconnect") == [] and events(probe, "error") == []   # the stream was never touched
    finish_and_check_once(probe, server)


@pytest.mark.parametrize("recover", ["click", "online"])
def test_posts_that_keep_failing_show_the_error_row_and_retry_recovers(server, open_page, recover):
    probe = open_idle(open_page, server, config(attempts=3, backoff=100, cap=200))
    before = batches_shown(probe)
    aborted = fail_posts(probe)
    ask_for_more(probe)
    probe.page.wait_for_selector("#rs-error", timeout=15_000)
    assert len(aborted) == 3, "bounded attempts: %r" % aborted
    assert "could not be reached" in probe.page.text_content("#rs-error")
    assert probe.page.is_visible("#rs-retry")
    assert probe.table("aria-busy") == "false" and probe.table("data-state") == "error"
    assert "could not be reached" in probe.page.text_content("#rs-status")
    probe.page.unroute(NEXT)
    if recover == "click":
        probe.page.click("#rs-retry")
    else:
        probe.page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until(lambda: batches_shown(probe) > before and probe.page.query_selector("#rs-error") is None,
               message="Retry to load the batch")
    finish_and_check_once(probe, server)


@pytest.mark.parametrize("trigger", [
    "window.dispatchEvent(new Event('online'))",
    "document.dispatchEvent(new Event('visibilitychange'))",
])
def test_online_and_visibility_ask_again_at_once(server, open_page, trigger):
    # Every backoff wait is the longest it can be (59.9 s): only the event can bring the batch within 15 s.
    probe = open_idle(open_page, server, config(attempts=4, backoff=60_000, cap=60_000))
    probe.page.evaluate("Math.random = () => 0.999")
    before = batches_shown(probe)
    aborted = fail_posts(probe)
    ask_for_more(probe)
    wait_until(lambda: seen(probe, aborted) >= 1, message="a failed POST")
    probe.page.unroute(NEXT)
    probe.page.evaluate(trigger)
    wait_until(lambda: batches_shown(probe) > before, timeout=15, message="the batch, asked again at once")
    assert len(aborted) == 1
    assert events(probe, "reconnect") == []                               # the stream is healthy: kept
    finish_and_check_once(probe, server)


def test_an_unanswered_post_is_aborted_and_sent_again(server, open_page):
    probe = open_idle(open_page, server, config(timeout=1000))
    before = batches_shown(probe)
    held = []

    def swallow_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)                                            # never answered, never forwarded
    probe.page.route(NEXT, swallow_first)
    ask_for_more(probe)
    wait_until(lambda: batches_shown(probe) > before, message="the batch after the timeout")
    assert len(held) == 1 and len(probe.posts("/next")) >= 2
    assert probe.page.query_selector("#rs-error") is None
    probe.page.unroute(NEXT)
    finish_and_check_once(probe, server)


def test_a_failed_reload_post_shows_the_error_row_and_retry_reloads(server, open_page):
    probe = open_idle(open_page, server, config(attempts=2, backoff=100, cap=200))
    aborted = fail_posts(probe, RELOAD)
    probe.page.click("#rs-reload")
    probe.page.wait_for_selector("#rs-error", timeout=15_000)
    assert len(aborted) == 2 and events(probe, "reset") == []
    assert "could not be reached" in probe.page.text_content("#rs-error")
    probe.page.unroute(RELOAD)
    probe.page.click("#rs-retry")
    wait_until(lambda: events(probe, "reset") and probe.table("data-state") in ("idle", "complete")
               and probe.page.query_selector("#rs-error") is None, message="the reload, retried")
    shown = probe.indexes()                       # read once: the table may go on to the next batch meanwhile
    assert shown == list(range(len(shown)))
