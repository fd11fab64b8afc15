"""Any number of tabs (issue 25, part 2). Served as Scripts/run serves it (plain HTTP/1.1, the server itself), one
Chromium profile holds at most 6 connections per host: with every tab holding its EventSource, a 7th tab's
document never loaded. A hidden tab now lets its stream go after `hiddenGrace` and resumes when shown
(Public/visibility.js), so 12 tabs of tables and pages opened one after another each load, show their rows when
brought to the front, load more when scrolled and get live changes; a live table hidden meanwhile shows the
current rows when shown again, each once; 3 windows side by side stay live at once. Tabs are hidden for real: the
profile is chromium's own (conftest.ChromiumProfile), where a tab behind another reports `hidden`."""
import json
import os
import re
import subprocess
import tempfile
import urllib.error
import urllib.request

from conftest import INSTRUMENT, PageProbe
from support import LIVE_DEMO, TIMEOUT, RowstreamServer, read_sse, scroll_until, server_fixture, wait_until
from test_cluster_drain import Nginx

live = server_fixture(*LIVE_DEMO, "--max-connections-per-address", 0)

CONFIG = "{hiddenGrace: 300}"            # let go quickly: the test opens tabs one after another
PATHS = ["/tables/customers", "/pages/overview"]

KEYS = """(selector) => Array.from(document.querySelectorAll(selector + ' tr[data-key]:not(.rs-skeleton)'))
  .map((r) => r.dataset.key)"""
# Live changes applied to the customers table from now on (an insert of a key the tab already shows, when its
# first batch was newer than the server's head as last sent, is applied as an update: either counts).
WATCH_LIVE = """() => { window.__changes = 0; document.addEventListener('rowstream:live', (e) => {
  if (e.detail.table === 'customers' && e.detail.count > 0) window.__changes += 1; }); }"""


def refresh_until_inserted(server):
    """POSTs the customers' refresh until it inserts a row (the demo adds one a second; 429s are asked again)."""
    def inserted():
        request = urllib.request.Request(server.url + "/tables/customers/refresh", method="POST")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return json.load(response)["inserted"] > 0
        except urllib.error.HTTPError as error:
            if error.code == 429:
                return False
            raise
    wait_until(inserted, interval=0.3, message="a live insert")


def first_batch(server):
    """The keys of the first batch a new viewer of the customers table gets now."""
    events = read_sse(server.url + "/tables/customers/stream", lambda event: event.event == "rows")
    return re.findall(r'data-key="([^"]*)"', events[-1].data)


def rows_of(path):
    """The rows selector and the scroller of the customers table on `path`."""
    if path.startswith("/pages/"):
        return "#rs-rows--customers", "document.getElementById('rs-scroll--customers')"
    return "#rs-rows", "document.scrollingElement"


def shown_keys(probe, path):
    return probe.page.evaluate(KEYS, rows_of(path)[0])


def visibility(probes):
    return [probe.page.evaluate("document.visibilityState") for probe in probes]


def scroll_for_more(probe, path):
    selector, scroller = rows_of(path)
    before = len(shown_keys(probe, path))
    scroll_until(probe, lambda: len(shown_keys(probe, path)) > before,
                 scroll="(%s).scrollTop = 1e9" % scroller, message="more rows on " + path)


def test_twelve_tabs_over_http1_each_live_when_in_front(live, profile):
    tabs = []
    for i in range(12):                                      # one after another, each to the front as it opens
        path = PATHS[i % 2]
        probe = profile.tab(live.url + path, config=CONFIG)
        wait_until(lambda: len(shown_keys(probe, path)) > 0, message="rows in tab %d" % (i + 1))
        tabs.append((probe, path))
    assert visibility([probe for probe, _ in tabs]) == ["hidden"] * 11 + ["visible"]

    for i, (probe, path) in enumerate(tabs):
        probe.page.bring_to_front()
        assert visibility([p for p, _ in tabs]) == ["hidden"] * i + ["visible"] + ["hidden"] * (11 - i)
        wait_until(lambda: probe.page.evaluate("window.__rsOpenSources()") == 1, message="tab %d's stream" % (i + 1))
        wait_until(lambda: len(shown_keys(probe, path)) > 0, message="rows in tab %d" % (i + 1))
        scroll_for_more(probe, path)
        probe.page.evaluate(WATCH_LIVE)
        refresh_until_inserted(live)                          # a live change, sent while only this tab listens
        wait_until(lambda: probe.page.evaluate("window.__changes") > 0, message="a live change in tab %d" % (i + 1))
        keys = shown_keys(probe, path)
        assert len(keys) == len(set(keys)), "a row twice in tab %d" % (i + 1)

    # Hidden tabs hold no stream: the one in front is the server's only one (besides none).
    wait_until(lambda: live.metric("rowstream_streams_open") == 1, message="one stream: the tab in front")
    # A live tab hidden while changes came: shown again, it starts over on a fresh stream (its changes carry no
    # position to resume from) and shows the rows a new viewer gets now, each once.
    refresh_until_inserted(live)
    first, path = tabs[0]
    opened = len(first.rs()["sources"])
    before = first_batch(live)
    first.page.bring_to_front()
    wait_until(lambda: len(first.rs()["sources"]) > opened and len(shown_keys(first, path)) >= len(before),
               message="the first tab's fresh stream and rows")
    after = first_batch(live)
    assert "lastEventId" not in first.rs()["sources"][-1]["url"]
    keys = shown_keys(first, path)
    assert keys[:len(before)] in (before, after)      # the first batch as the server serves it now (its cache)
    assert len(keys) == len(set(keys))
    wait_until(lambda: all(p.page.evaluate("window.__rsOpenSources()") == 0 for p, _ in tabs[1:]),
               message="every hidden tab's stream let go")


def test_three_windows_side_by_side_stay_live(live, profile):
    windows = [profile.window(live.url + path) for path in ("/tables/customers", "/pages/overview",
                                                            "/tables/customers")]
    paths = ["/tables/customers", "/pages/overview", "/tables/customers"]
    for probe, path in zip(windows, paths):
        wait_until(lambda: len(shown_keys(probe, path)) > 0, message="rows in every window")
        probe.page.evaluate(WATCH_LIVE)
    assert visibility(windows) == ["visible"] * 3
    wait_until(lambda: live.metric("rowstream_streams_open") == 3, message="a stream per window")
    refresh_until_inserted(live)
    for probe, path in zip(windows, paths):
        wait_until(lambda: probe.page.evaluate("window.__changes") > 0, message="the live change in every window")
        keys = shown_keys(probe, path)
        assert len(keys) == len(set(keys))



def test_tabs_opened_in_the_background_let_go(live, profile):
    """Tabs that LOAD hidden (a middle-click, "open in new tab"): they get no `visibilitychange` until first shown,
    yet each lets its stream go after the grace, so 8 of them behind one in front all load (over HTTP/1.1 the 6th
    would have waited for a connection for good) and the server holds only the front tab's stream."""
    front = profile.tab(live.url + PATHS[0], config=CONFIG)
    wait_until(lambda: len(shown_keys(front, PATHS[0])) > 0, message="rows in the front tab")
    profile.context.add_init_script("window.RowstreamConfig = %s;" % CONFIG)
    behind = []
    for i in range(8):
        with profile.context.expect_page() as info:
            profile.cdp.send("Target.createTarget", {"url": live.url + PATHS[i % 2], "background": True})
        behind.append(profile.watch(info.value))
    for i, probe in enumerate(behind):
        probe.page.wait_for_load_state("domcontentloaded")
        wait_until(lambda: probe.page.evaluate("typeof window.Rowstream") == "object",
                   message="the page script in background tab %d" % (i + 1))
    assert visibility([front] + behind) == ["visible"] + ["hidden"] * 8
    wait_until(lambda: all(p.page.evaluate("window.__rsOpenSources()") == 0 for p in behind),
               message="every background tab's stream let go")
    wait_until(lambda: live.metric("rowstream_streams_open") == 1, message="one stream: the tab in front")
    last = behind[-1]
    last.page.bring_to_front()
    wait_until(lambda: last.page.evaluate("window.__rsOpenSources()") == 1, message="the shown tab's stream")
    wait_until(lambda: len(shown_keys(last, PATHS[1])) > 0, message="rows in the tab shown")

# ---- The operators' answer: HTTP/2 in front (Scripts/cluster --tls) -------------------------------------------

def self_signed(folder):
    """A certificate for 127.0.0.1 and its key, made as Scripts/cluster --tls makes them (openssl, no network)."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                   check=True, capture_output=True, timeout=TIMEOUT)
    return cert, key


def test_twelve_visible_tabs_over_http2_through_nginx(browser):
    """nginx with `ssl http2` (the config of Scripts/cluster --tls) over two instances: 12 tabs of one context, all
    visible at once (Playwright's own launch keeps every page visible, so none lets its stream go), each its rows
    over one HTTP/2 connection; demand POSTs reach the instance holding each session through it."""
    instances, nginx, context = [], None, None
    with tempfile.TemporaryDirectory(prefix="rowstream-tls-") as folder:
        try:
            for tag in range(2):
                instances.append(RowstreamServer("--demo-items", 200, "--batch-size", 20, "--demo-latency-ms", 20,
                                                 "--max-connections-per-address", 0, "--instance-tag", tag))
            nginx = Nginx([instance.port for instance in instances], tls=self_signed(folder))
            context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 800})
            context.set_default_timeout(TIMEOUT * 1000)
            context.add_init_script(INSTRUMENT)
            probes = [PageProbe(context) for _ in range(12)]
            for i, probe in enumerate(probes):
                probe.page.goto(nginx.url + PATHS[i % 2], wait_until="domcontentloaded")
            for i, probe in enumerate(probes):
                wait_until(lambda: len(shown_keys(probe, PATHS[i % 2])) > 0, message="rows in tab %d" % (i + 1))
                assert probe.page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
            assert visibility(probes) == ["visible"] * 12
            wait_until(lambda: sum(instance.metric("rowstream_streams_open") for instance in instances) == 12,
                       message="12 streams open at once")
            for i, probe in enumerate(probes):
                scroll_for_more(probe, PATHS[i % 2])
                keys = shown_keys(probe, PATHS[i % 2])
                assert len(keys) == len(set(keys))
            for probe in probes:
                assert probe.errors == [], probe.errors
        finally:
            if context is not None:
                context.close()
            if nginx is not None:
                nginx.stop()
            for instance in instances:
                instance.stop()
