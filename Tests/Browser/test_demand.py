"""Demand that no timing can lose (issue 32), every ordering played on purpose. fakeframes.js gives the test the
page's animation frames, its IntersectionObservers' reports, the tab's visibility and its `next` POSTs (held until
released), so rows from the real server, the reader's scrolls, observer reports and frames happen in exactly the
order each test names, on any machine. An observer report the test does not make is one the browser missed (a
change undone within one rendering update: no change to report). In every ordering the table asks exactly once
for each batch it needs, and never while it cannot (a batch or a reload pending, no session, an error row, a hidden
tab)."""
import os

from support import events, proxy_fixture, server_fixture, wait_until

HERE = os.path.dirname(__file__)
FAKES = open(os.path.join(HERE, "fakeframes.js")).read()
BATCH = 10                     # rows of 41 px: a batch is 410 px, more than a 400 px viewport
SHORT = {"width": 1280, "height": 400}      # one batch pushes the end out of view
TALL = {"width": 1280, "height": 1200}      # two batches leave the end in view, three do not
CONFIG = "{prefetchMargin: 0, postTimeout: 60000, postAttempts: 1}"

server = server_fixture("--demo-items", 2000, "--batch-size", BATCH, "--demo-latency-ms", 0)
proxy = proxy_fixture("server")


class Play:
    """One table on a page opened with fakeframes.js: the moves of an ordering, and what the table asked."""

    def __init__(self, probe, table=""):
        self.probe = probe
        self.table = table
        self.suffix = "--" + table if table else ""
        self.sentinel = "#rs-sentinel" + self.suffix
        self.scroller = "rs-scroll" + self.suffix if table else None

    def js(self, expression, arg=None):
        return self.probe.page.evaluate(expression, arg)

    def frames(self):
        """Runs animation frames until none is queued (bounded): every decision the page scheduled is made."""
        for _ in range(10):
            if self.js("window.__frames.run()") == 0:
                return
        raise AssertionError("frames keep scheduling frames")

    def next_url(self):
        sessions = [e for e in events(self.probe, "session") if not self.table or e["table"] == self.table]
        return sessions[-1]["next"]

    def asked(self):
        """`next` POSTs this table made (held, failed or sent), counted as they were made."""
        url = self.next_url() if self.table else "/next"
        return self.js("(url) => window.__posts.calls.filter((u) => u.endsWith(url)).length", url)

    def release(self):
        return self.js("window.__posts.release()")

    def report(self, near=True):
        """The sentinel's observer reports a change (what a real one does when the end comes into or out of reach)."""
        assert self.js("([s, near]) => window.__io.report(s, near)", [self.sentinel, near]) >= 1

    def rows(self):
        return len([e for e in events(self.probe, "rows") if not self.table or e["table"] == self.table])

    def wait_rows(self, count):
        wait_until(lambda: self.rows() >= count, message="batch %d" % count)
        assert self.rows() == count

    def near(self):
        return self.js("""(s) => { const box = s[1] ? document.getElementById(s[1]).getBoundingClientRect().bottom
            : innerHeight; return document.querySelector(s[0]).getBoundingClientRect().top <= box; }""",
                       [self.sentinel, self.scroller])

    def rows_end_near(self):
        """The last row's bottom is in reach: the sentinel would be, without the skeletons of a batch asked for."""
        return self.js("""(s) => { const box = s[1] ? document.getElementById(s[1]).getBoundingClientRect().bottom
            : innerHeight; const rows = document.querySelectorAll(s[0] + ' tr[data-index]');
            return rows[rows.length - 1].getBoundingClientRect().bottom <= box; }""",
                       ["#rs-rows" + self.suffix, self.scroller])

    def to_bottom(self):
        """The reader scrolls to the end (the window, or the table's box); returns once the scroll event was
        dispatched (the page's own listener, added earlier, has heard it too), when the scroll moved anything."""
        self.scroll_to("bottom")

    def scroll_to(self, where):
        self.js("""([id, where]) => new Promise((done) => {
            const box = id ? document.getElementById(id) : document.scrollingElement;
            const target = id ? box : window;
            const before = box.scrollTop;
            target.addEventListener('scroll', () => done(), { once: true });
            box.scrollTop = where === 'top' ? 0 : box.scrollHeight;
            if (box.scrollTop === before) done();
          })""", [self.scroller, where])


def play(open_page, url, viewport, table=""):
    probe = open_page(url, viewport=viewport, init_config=CONFIG, init_scripts=[FAKES], wait_for_rows=not table)
    return Play(probe, table)


def test_near_while_a_batch_is_pending_then_rows_that_leave_the_end_in_view(server, open_page):
    p = play(open_page, server.url, TALL)
    p.wait_rows(1)
    assert p.near()
    p.frames()
    assert p.asked() == 1                               # the first batch left the end in view
    for _ in range(2):                                  # near, while that batch is pending: nothing more
        p.report(True)
        p.frames()
    assert p.asked() == 1
    p.release()
    p.wait_rows(2)
    assert p.rows_end_near()                            # the rows left the end in view
    p.frames()
    assert p.asked() == 2
    p.report(True)
    p.frames()
    p.release()
    p.wait_rows(3)
    assert not p.near()
    p.frames()
    assert p.asked() == 2                               # out of reach: nothing asked


def test_rows_and_a_scroll_in_the_same_frame_then_a_scroll_and_a_resize_the_observer_missed(server, open_page):
    p = play(open_page, server.url, SHORT)
    p.wait_rows(1)
    p.frames()
    assert not p.near() and p.asked() == 0
    p.to_bottom()
    p.report(True)                                      # a real observer reports this change
    p.frames()
    assert p.asked() == 1
    p.release()
    p.wait_rows(2)
    assert not p.near()                                 # the rows pushed the end out of reach...
    p.to_bottom()                                       # ...and the reader's scroll brought it back, before any
    assert p.near()                                     # frame: near, then near again, no change to report
    p.frames()
    assert p.asked() == 2                               # the stall: the code before issue 32 asked nothing here
    p.release()
    p.wait_rows(3)
    p.frames()
    assert not p.near() and p.asked() == 2
    # A late or throttled observer: the end comes into reach a frame after the rows, and nothing reports it.
    p.to_bottom()
    p.frames()
    assert p.asked() == 3                               # the window's scroll asked
    p.release()
    p.wait_rows(4)
    p.scroll_to("top")
    p.frames()
    assert not p.near() and p.asked() == 3
    # The window grows (the scroll stays at 0: no scroll event), the end comes into reach, unreported.
    height = p.js("Math.ceil(document.getElementById('rs-sentinel').getBoundingClientRect().top) + 40")
    resizes = p.js("window.__frames.resizes")
    p.probe.page.set_viewport_size({"width": SHORT["width"], "height": height})
    wait_until(lambda: p.js("window.__frames.resizes") > resizes, message="the resize event")
    assert p.near() and p.js("window.scrollY") == 0
    p.frames()
    assert p.asked() == 4                               # the window's resize asked


def test_the_end_in_view_when_a_resumed_streams_session_arrives(server, proxy, open_page):
    p = play(open_page, proxy.url, SHORT)
    p.wait_rows(1)
    p.frames()
    assert p.asked() == 0
    proxy.pause()                                       # the browser's own reconnect waits in the proxy
    paused = proxy.paused_count()
    assert proxy.cut() == 1
    wait_until(lambda: proxy.paused_count() > paused, message="the reconnect, paused")
    p.to_bottom()
    p.report(True)                                      # near while the table has no session
    p.frames()
    assert p.asked() == 0
    proxy.resume()
    wait_until(lambda: len(events(p.probe, "session")) == 2, message="the resumed stream's session")
    p.frames()
    assert p.js("window.__posts.calls") == [p.next_url()]   # once, to the new session
    p.frames()
    assert p.asked() == 1


def test_a_tab_hidden_at_the_end_and_shown_again(server, open_page):
    p = play(open_page, server.url, TALL)
    p.wait_rows(1)
    p.frames()
    assert p.asked() == 1
    p.js("window.__tab.hide()")
    p.release()
    p.wait_rows(2)                                      # rows arrive while hidden, the end still in view
    assert p.rows_end_near()
    p.report(True)
    p.frames()                                          # (a browser runs no frames for a hidden tab; even so)
    assert p.asked() == 1                               # a hidden tab asks nothing
    p.js("window.__tab.show()")
    p.frames()
    assert p.asked() == 2                               # shown: asks once
    p.report(True)
    p.frames()
    assert p.asked() == 2


def test_retry_at_the_end(server, open_page):
    p = play(open_page, server.url, SHORT)
    p.wait_rows(1)
    p.frames()
    p.js("window.__posts.failing = true")
    p.to_bottom()
    p.report(True)
    p.frames()
    p.probe.page.wait_for_selector("#rs-retry")
    assert p.asked() == 1
    p.to_bottom()                                       # near, at the error row: it asks nothing by itself
    p.report(True)
    p.frames()
    assert p.asked() == 1
    p.js("window.__posts.failing = false")
    p.probe.page.click("#rs-retry")
    p.frames()
    assert p.asked() == 2                               # Retry asks once, and nothing else does
    p.release()
    p.wait_rows(2)
    p.frames()
    assert p.probe.page.query_selector("#rs-error") is None
    assert not p.near() and p.asked() == 2


def test_reload_at_the_end(server, open_page):
    p = play(open_page, server.url, TALL)
    p.wait_rows(1)                                      # the end in view: the table will ask at the next frame...
    assert p.near() and p.asked() == 0
    p.probe.page.click("#rs-reload")                    # ...but the reader reloads first
    p.frames()
    assert p.asked() == 0                               # no `next` while the reload is on its way (it would void it)
    assert p.release() == 1                             # the reload
    wait_until(lambda: events(p.probe, "reset"), message="the reload's reset")
    p.wait_rows(2)                                      # the first batch again, the end in view
    p.frames()
    assert p.asked() == 1
    assert p.js("window.__posts.calls")[-1] == p.next_url()


def test_a_panel_on_a_page_of_several_tables(server, open_page):
    p = play(open_page, server.url + "/pages/overview", {"width": 1280, "height": 800}, table="customers")
    others = [Play(p.probe, name) for name in ("customers-by-city", "customers-cards")]

    def settled():
        """Every table idle with nothing pending or held; each batch asked for is released."""
        p.frames()
        if p.release():
            return False
        snapshot = p.js("window.Rowstream.snapshot()")
        return all(s["phase"] == "idle" and not s["pending"] for s in snapshot.values())
    wait_until(settled, message="every table settled")
    assert not p.near()
    before, others_before = p.asked(), [o.asked() for o in others]
    p.to_bottom()
    p.report(True)
    p.frames()
    assert p.asked() == before + 1
    shown = p.rows()
    p.release()
    p.wait_rows(shown + 1)
    assert not p.near()
    p.to_bottom()                                       # the box scrolled in the frame the rows came
    p.frames()
    assert p.asked() == before + 2
    p.release()
    p.wait_rows(shown + 2)
    p.frames()
    assert not p.near() and p.asked() == before + 2
    p.scroll_to("top")
    p.frames()
    assert not p.near() and p.asked() == before + 2
    # The box grows (its page's layout changed; no scroll): the end comes into reach, unreported by the observer.
    p.js("""(id) => new Promise((done) => {
        const box = document.getElementById(id);
        new ResizeObserver((entries, observer) => { observer.disconnect(); done(); }).observe(box);
        box.style.maxHeight = box.scrollHeight + 200 + 'px';
      })""", p.scroller)
    assert p.near()
    p.frames()
    assert p.asked() == before + 3
    assert [o.asked() for o in others] == others_before     # that table only


def test_a_restart_asked_while_the_tab_is_released_waits_for_the_tab_to_be_shown(server, open_page):
    """Reload in a hidden tab whose stream was let go (a table's own page starts over on a new stream): no stream
    opens while hidden (it would hold a connection the release gave back); shown again, the page starts over, on
    one new stream."""
    probe = open_page(server.url, viewport=SHORT, init_config="{hiddenGrace: 0, postAttempts: 1}",
                      init_scripts=[FAKES])
    p = Play(probe)
    p.js("window.__posts.holding = false")
    p.wait_rows(1)
    sources = len(probe.rs()["sources"])
    p.js("window.__tab.hide()")
    wait_until(lambda: p.js("window.__rsOpenSources()") == 0, message="the hidden tab's stream let go")
    p.js("window.Rowstream.reload()")
    assert p.js("window.__rsOpenSources()") == 0 and len(probe.rs()["sources"]) == sources, "nothing opened while hidden"
    p.js("window.__tab.show()")
    wait_until(lambda: p.rows() == 2, message="the first batch again, on a new stream")
    assert len(probe.rs()["sources"]) == sources + 1
    assert events(probe, "reset"), "started over"
