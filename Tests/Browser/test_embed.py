"""docs/EMBED.md: `<rowstream-table>` in a page of another origin (a host site on its own port, under a strict CSP:
scripts, styles and connections from the Rowstream server only, no 'unsafe-inline'), loaded by one module script
from the server: skeletons first, rows, scrolling inside the element's own box loads the next batch, a live change
shows, a cut stream resumes, an upstream error shows Retry and Retry works, the host hears the `rowstream:*` events (bubbling, composed,
from the element), `::part` and the `--rs-*` properties style it; no CSP violation anywhere."""
import http.server
import os
import re
import threading
import urllib.parse

import pytest
from playwright.sync_api import Error as PlaywrightError

from support import (LIVE_DEMO, ROOT, TIMEOUT, TIMEOUT_MS, CutProxy, RowstreamServer, after_frames, events,
                     refresh_until_changed, wait_until)

HOST_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>A host site</title>
<link rel="stylesheet" href="/host.css">
<script type="module" src="RS/embed.js"></script>
</head>
<body>
<h1>Orders, embedded</h1>
<rowstream-table src="RS/tables/customers"CREDENTIALS></rowstream-table>
<p>After the table.</p>
</body>
</html>"""

HOST_CSS = b"""
rowstream-table { --rs-surface: rgb(4, 5, 6); --rs-embed-height: 420px; }
rowstream-table::part(header) { background-color: rgb(1, 2, 3); }
rowstream-table::part(table) { outline: 3px solid rgb(7, 8, 9); }
"""

# What the host hears: every rowstream:* event bubbling to its document, with its target and detail.
HOST_EVENTS = """
window.__host = [];
window.__csp = [];
for (const type of ['rows', 'complete', 'error', 'live']) {
  document.addEventListener('rowstream:' + type, (e) => window.__host.push({ type, target: e.target.tagName,
    bubbles: e.bubbles, composed: e.composed, detail: e.detail }));
}
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
window.__scriptErrors = [];
window.addEventListener('error', (e) => {
  if (e.target instanceof HTMLScriptElement) window.__scriptErrors.push(e.target.src);
}, true);
"""

# The page-wide listeners (on window and document) the page holds now, as "target:type" (the host's own included):
# every addEventListener and removeEventListener on them counted from before any script ran.
PAGE_LISTENERS = """
window.__pageListeners = (() => {
  const held = [];
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  const where = (target) => target === window ? 'window' : target === document ? 'document' : null;
  const capture = (options) => typeof options === 'boolean' ? options : Boolean(options && options.capture);
  const find = (target, type, listener, options) => held.findIndex((h) => h.target === where(target)
    && h.type === type && h.listener === listener && h.capture === capture(options));
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (where(this) && listener && find(this, type, listener, options) < 0) {
      held.push({ target: where(this), type, listener, capture: capture(options) });
    }
    return add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    const index = where(this) ? find(this, type, listener, options) : -1;
    if (index >= 0) held.splice(index, 1);
    return remove.call(this, type, listener, options);
  };
  return () => held.map((h) => h.target + ':' + h.type).sort();
})();
"""

# How far the table's header is below the top of the element's scroll box (0: pinned there), and the box's scrollTop.
HEADER_OFFSET = """() => {
  const root = document.querySelector('rowstream-table').shadowRoot;
  const box = root.querySelector('.rs-embed-scroll');
  return { offset: root.querySelector('#rs-table thead').getBoundingClientRect().top - box.getBoundingClientRect().top,
           scrollTop: box.scrollTop };
}"""

# Text and background colours of elements of the embedded table: the background is the first opaque one of the
# element or its ancestors (across the shadow root to the host element).
COLOURS = """(selectors) => {
  const root = document.querySelector('rowstream-table').shadowRoot;
  const opaque = (colour) => { const v = colour.match(/[\\d.]+/g).map(Number); return v.length < 4 || v[3] > 0; };
  return selectors.map((selector) => {
    const element = root.querySelector(selector);
    let node = element, background = 'rgb(255, 255, 255)';
    while (node) {
      if (node instanceof Element && opaque(getComputedStyle(node).backgroundColor)) {
        background = getComputedStyle(node).backgroundColor;
        break;
      }
      node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
    }
    return { selector, colour: getComputedStyle(element).color, background };
  });
}"""

# Scrolls the element's own box to its end (once the element is defined and its table mounted).
SCROLL_BOX = """() => {
  const box = document.querySelector('rowstream-table').shadowRoot?.querySelector('.rs-embed-scroll');
  if (box) box.scrollTop = box.scrollHeight;
  return true;
}"""


class HostSite:
    """Another site: a local HTTP server on its own port (stopped by `close()`), serving the host page for the
    Rowstream server named in its `?rs=` query, under a strict CSP that allows that server only."""

    def __init__(self):
        site = self
        self.css = HOST_CSS                    # the host's stylesheet (a test may serve another)

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                if url.path == "/host.css":
                    return self.answer(site.css, "text/css", "")
                query = urllib.parse.parse_qs(url.query)
                rs = query["rs"][0]
                credentials = " credentials" if "credentials" in query else ""
                policy = ("default-src 'none'; script-src %s; style-src 'self' %s; connect-src %s; img-src %s; "
                          "base-uri 'none'; object-src 'none'" % (rs, rs, rs, rs))
                page = HOST_PAGE.replace("RS", rs).replace("CREDENTIALS", credentials)
                page = page.replace("/tables/customers", "/tables/" + query.get("table", ["customers"])[0])
                if "signed" in query:       # mode users: the module itself is only for a signed-in viewer
                    page = page.replace('<script type="module"', '<script type="module" crossorigin="use-credentials"')
                self.answer(page.encode(), "text/html; charset=utf-8", policy)

            def answer(self, body, content_type, policy):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if policy:
                    self.send_header("Content-Security-Policy", policy)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def page(self, rs, credentials=False, table="customers"):
        return self.origin + "/?rs=" + urllib.parse.quote(rs, safe="") + ("&credentials=1" if credentials else "") \
            + ("&table=" + table + "&signed=1" if table != "customers" else "")

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def host():
    site = HostSite()
    try:
        yield site
    finally:
        site.close()


def embedding_server(*flags):
    """A module fixture: a rowstream server that allows the host site's origin."""
    @pytest.fixture(scope="module")
    def fixture(host):
        server = RowstreamServer(*flags, "--allowed-origins", host.origin)
        try:
            yield server
        finally:
            server.stop()
    return fixture


live = embedding_server(LIVE_DEMO[0], 100, *LIVE_DEMO[2:])   # 100 items in batches of 30, live, refreshed by tests
credentialed = embedding_server("--demo-items", 40, "--batch-size", 20, "--allow-credentials", "on")
failing = embedding_server("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 50, "--demo-fail-every", 3)


def heard(probe, type):
    return [event for event in probe.page.evaluate("window.__host") if event["type"] == type]


def shown(probe):
    return len(probe.keys())


def test_embedded_table_streams_scrolls_in_its_box_goes_live_and_is_styled(live, host, open_page):
    with CutProxy(live.port) as proxy:
        proxy.pause()                                                      # the first batch waits for the test
        probe = open_page(host.page(proxy.url), wait_for_rows=False, init_scripts=[PAGE_LISTENERS, HOST_EVENTS])
        # Skeletons first: the table's page is in the element, its stream held back.
        probe.page.wait_for_selector("rowstream-table #rs-pending tr.rs-skeleton", timeout=TIMEOUT_MS)
        wait_until(lambda: proxy.paused_count() > 0, message="the element's stream request")
        assert shown(probe) == 0 and probe.table("data-state") == "loading"
        proxy.resume()
        wait_until(lambda: shown(probe) == 30, message="the first batch")

        rows = heard(probe, "rows")
        assert rows and rows[0]["target"] == "ROWSTREAM-TABLE" and rows[0]["bubbles"] and rows[0]["composed"]
        assert rows[0]["detail"] == {"table": "customers", "count": 30, "total": 30}

        # Scrolling inside the element's box (not the document) loads the next batch.
        assert probe.page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        wait_until(lambda: probe.page.evaluate(SCROLL_BOX) and shown(probe) > 30,
                   message="scrolling the element's box loads more")
        assert probe.page.evaluate("window.scrollY") == 0

        # The header stays pinned at the top of the element's box while the box scrolls (stickyhead.js).
        probe.page.evaluate("document.querySelector('rowstream-table').shadowRoot.querySelector('.rs-embed-scroll')"
                            ".scrollTop = 600")
        pinned = wait_until(lambda: (lambda h: abs(h["offset"]) <= 1 and h)(probe.page.evaluate(HEADER_OFFSET)),
                            message="the header pinned at the top of the element's box")
        assert pinned["scrollTop"] == 600

        # The stream cut: the element reconnects (a cross-origin EventSource); live, it starts over, every row once.
        # Nothing in flight: idle, or complete already (the polls above scroll the box to its end each time, so on a
        # slow machine the table may have loaded to its end before this looks; waiting for idle then never ended).
        wait_until(lambda: probe.table("data-state") in ("idle", "complete"), message="idle or complete")
        assert proxy.cut("/stream") == 1
        wait_until(lambda: len(events(probe, "session")) >= 2, message="a reconnection")

        # To the end: the host hears `complete` with the total.
        wait_until(lambda: probe.page.evaluate(SCROLL_BOX) and probe.table("data-state") == "complete",
                   message="the list to complete")
        assert shown(probe) >= 100
        assert probe.indexes() == list(range(len(probe.indexes()))), "every row exactly once, in order"
        assert events(probe, "reset"), "a live table starts over: its changes carry no position to resume after"
        assert heard(probe, "complete")[-1]["detail"] == {"table": "customers", "total": int(probe.table("data-count"))}

        # A live change reaches the embedded table.
        refresh_until_changed(live)
        wait_until(lambda: any(e["detail"]["count"] > 0 for e in heard(probe, "live")), message="a live change shown")

        # Themed by the host: ::part and the --rs-* custom properties.
        styles = probe.page.evaluate("""() => {
          const root = document.querySelector('rowstream-table').shadowRoot;
          const css = (selector) => getComputedStyle(root.querySelector(selector));
          return { header: css('header').backgroundColor, table: css('#rs-table').backgroundColor,
                   outline: css('#rs-table').outlineColor, height: document.querySelector('rowstream-table')
                     .getBoundingClientRect().height };
        }""")
        assert styles == {"header": "rgb(1, 2, 3)", "table": "rgb(4, 5, 6)", "outline": "rgb(7, 8, 9)", "height": 420}
        assert probe.page.evaluate("window.__csp") == []
        assert all(url.startswith(proxy.url) for _, url in probe.requests if not url.startswith(host.origin))

        # Another element added, shown, and taken out again: its page-wide listeners go with it (health.js's
        # `online` and `visibilitychange`).
        before = probe.page.evaluate("window.__pageListeners()")
        probe.page.evaluate("""(src) => { const element = document.createElement('rowstream-table');
            element.id = 'second'; element.setAttribute('src', src); document.body.append(element); }""",
                            proxy.url + "/tables/customers")
        wait_until(lambda: probe.page.evaluate(
            "!!document.querySelector('#second').shadowRoot.querySelector('#rs-rows tr[data-index]')"),
            message="the second element's rows")
        assert len(probe.page.evaluate("window.__pageListeners()")) > len(before), "it listens page-wide while shown"
        # Taken out while its Reload is on its way: the answer (204, its session ended with its stream) opens
        # no stream again (stop() drops the element's session, and a stopped stream never connects).
        held = []
        probe.page.route("**/reload", lambda route: held.append(route))
        ended = []                                        # answered (204: its session ended) or aborted by stop()
        probe.page.on("requestfinished", lambda request: ended.append(request) if request.url.endswith("/reload") else None)
        probe.page.on("requestfailed", lambda request: ended.append(request) if request.url.endswith("/reload") else None)
        probe.page.evaluate("document.querySelector('#second').shadowRoot.querySelector('#rs-reload').click()")
        wait_until(lambda: probe.page.evaluate("1") and held, message="the second element's reload POST")
        sources = len(probe.rs()["sources"])
        probe.page.evaluate("document.querySelector('#second').remove()")
        assert probe.page.evaluate("window.__pageListeners()") == before, "none left after its stop()"
        wait_until(lambda: live.metric("rowstream_sessions_open") == 1, message="the second element's session ended")
        try:
            held[0].continue_()
        except PlaywrightError:                           # stop() aborted it already
            pass
        wait_until(lambda: probe.page.evaluate("1") and ended, message="the reload POST answered or aborted")
        after_frames(probe.page)
        assert len(probe.rs()["sources"]) == sources, "no new EventSource for the element taken out"
        assert probe.page.evaluate("window.__rsOpenSources()") == 1


def test_embedded_table_shows_retry_after_an_upstream_error_and_retry_works(failing, host, open_page):
    probe = open_page(host.page(failing.url), wait_for_rows=False, init_scripts=[HOST_EVENTS])
    retried = []

    def complete_or_retried():
        if probe.table("data-state") == "error":
            assert probe.page.is_visible("rowstream-table #rs-retry")
            probe.page.click("rowstream-table #rs-retry")
            retried.append(True)
            wait_until(lambda: probe.page.query_selector("rowstream-table #rs-error") is None, message="error row to go")
        probe.page.evaluate(SCROLL_BOX)
        return probe.table("data-state") == "complete"
    wait_until(complete_or_retried, timeout=2 * TIMEOUT, message="the list to complete, with Retry after every error")
    assert retried
    assert len(probe.keys()) == 60
    errors = heard(probe, "error")
    assert errors and errors[0]["target"] == "ROWSTREAM-TABLE"
    assert errors[0]["detail"]["retryable"] is True and errors[0]["detail"]["table"] == "customers"
    assert probe.page.evaluate("window.__csp") == []


def test_an_origin_not_allowed_is_told_so_in_the_element(failing, open_page):
    """The same host page served from an origin the server does not list: the module runs (the static files are
    public), the table's page is refused (no CORS header), and the element says why in its own box (text, no inline
    style: the host's strict CSP stays unviolated), with Retry; the host hears `rowstream:error` with that reason."""
    other = HostSite()
    try:
        probe = open_page(other.page(failing.url), wait_for_rows=False, init_scripts=[HOST_EVENTS],
                          allowed_console=["CORS", "Failed to fetch", "Failed to load"])
        probe.page.wait_for_selector("rowstream-table .rs-embed-error", timeout=TIMEOUT_MS)
        text = probe.page.text_content("rowstream-table .rs-embed-error .rs-error-text")
        assert other.origin in text and "allowedOrigins" in text and failing.url in text, text
        assert probe.page.is_visible("rowstream-table .rs-embed-retry")
        assert probe.page.query_selector("rowstream-table #rs-table") is None
        error = wait_until(lambda: heard(probe, "error"), message="the host hears the error")[0]
        assert error["detail"]["message"] in text and error["detail"]["table"] == ""
        assert probe.page.evaluate("document.querySelector('rowstream-table').shadowRoot"
                                   ".querySelectorAll('[style]').length") == 0
        assert probe.page.evaluate("window.__csp") == []
        assert probe.page.evaluate("window.__scriptErrors") == []
    finally:
        other.close()


def docs_theme():
    """The host stylesheet of docs/EMBED.md's "Styling" example, as written there."""
    text = open(os.path.join(ROOT, "docs", "EMBED.md")).read()
    return re.search(r"## Styling.*?```css\n(.*?)```", text, re.S).group(1)


def luminance(colour):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(float(v)) for v in re.findall(r"[\d.]+", colour)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one, other):
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_docs_theming_example_reads_well_in_light_and_dark(credentialed, host, open_page):
    """docs/EMBED.md's styling example, as the host's stylesheet: title, header cells and rows keep a WCAG AA
    contrast (4.5:1) in the light and in the dark colour scheme."""
    host.css = docs_theme().encode()
    try:
        for scheme in ("light", "dark"):
            probe = open_page(host.page(credentialed.url), wait_for_rows=False, color_scheme=scheme)
            wait_until(lambda: shown(probe) > 0, message="rows")
            for seen in probe.page.evaluate(COLOURS, [".rs-title", "#rs-table thead th:nth-child(2)",
                                                       "#rs-rows tr[data-index] td:nth-child(2)"]):
                assert contrast(seen["colour"], seen["background"]) >= 4.5, (scheme, seen)
    finally:
        host.css = HOST_CSS


def test_credentials_only_where_the_server_allows_them_and_a_page_fetch_error_shows_retry(credentialed, failing, host,
                                                                                          open_page):
    """With the `credentials` attribute the element's requests carry credentials: they work against a server that
    allows them; against one that does not, the browser refuses the table's page, and the element shows its error
    with Retry (part `retry`) and tells the host, again on every Retry."""
    allowed = open_page(host.page(credentialed.url, credentials=True), wait_for_rows=False, init_scripts=[HOST_EVENTS])
    # (>=: the sentinel may be near after the first batch, and the second follow before a look.)
    wait_until(lambda: shown(allowed) >= 20, message="the first batch, with credentials")
    # Another src: the element starts over with that table (and its own stream).
    allowed.page.evaluate("document.querySelector('rowstream-table').setAttribute('src', %r)"
                          % (credentialed.url + "/tables/customers-by-city"))
    allowed.page.wait_for_selector('rowstream-table #rs-table[data-table="customers-by-city"] tr[data-index]',
                                   timeout=TIMEOUT_MS)
    assert allowed.page.evaluate("window.__rsOpenSources()") == 1
    assert allowed.page.evaluate("window.__csp") == []

    refused = open_page(host.page(failing.url, credentials=True), wait_for_rows=False, init_scripts=[HOST_EVENTS],
                        allowed_console=["CORS", "Failed to"])
    refused.page.wait_for_selector("rowstream-table .rs-embed-error", timeout=TIMEOUT_MS)
    assert "does not allow credentials" in refused.page.text_content("rowstream-table .rs-embed-error")
    first = wait_until(lambda: heard(refused, "error"), message="the host hears the error")
    assert first[0]["target"] == "ROWSTREAM-TABLE" and first[0]["detail"]["table"] == ""
    assert first[0]["detail"]["retryable"] is True and first[0]["detail"]["connection"] is True
    assert refused.page.query_selector("rowstream-table #rs-table") is None
    refused.page.click("rowstream-table .rs-embed-retry")
    wait_until(lambda: len(heard(refused, "error")) == 2, message="Retry fetches again (and fails again)")


# The snapshot of the element `#id`, once two more animation frames have run (demand.js decides at the next frame
# after the table became idle: a table that would ask has asked by then).
SNAPSHOT_AFTER_FRAMES = """(id) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(
  () => resolve(document.getElementById(id).snapshot()))))"""


def test_a_table_in_a_hidden_container_asks_nothing_until_shown(credentialed, host, open_page):
    """An element in a display:none container (an inactive tab panel, a closed <details>): every box measures
    zero, so its end looked near forever and it loaded its whole list. It now gets its first batch (the server
    sends that by itself) and asks for nothing more; shown, it loads on demand to the end."""
    probe = open_page(host.page(credentialed.url), wait_for_rows=False)
    probe.page.evaluate("""(src) => { const box = document.createElement('div'); box.id = 'box'; box.hidden = true;
        const element = document.createElement('rowstream-table'); element.id = 'hidden'; element.setAttribute('src', src);
        box.append(element); document.body.append(box); }""", credentialed.url + "/tables/customers")
    wait_until(lambda: (probe.page.evaluate("document.getElementById('hidden').snapshot()") or {}).get("phase")
               in ("idle", "complete"), message="the hidden table's first batch")
    seen = probe.page.evaluate(SNAPSHOT_AFTER_FRAMES, "hidden")
    assert seen["phase"] == "idle" and seen["shown"] == 20 and not seen["pending"], seen
    probe.page.evaluate("document.getElementById('box').hidden = false")
    wait_until(lambda: probe.page.evaluate("document.getElementById('hidden').snapshot().phase") == "complete",
               message="shown, the table loads on demand to its end")
    assert probe.page.evaluate("document.getElementById('hidden').snapshot().shown") == 40


# The host tab hidden and shown on demand (as fakeframes.js does it), and visibility.js's grace run at once.
FAKE_VISIBILITY = """
(() => {
  let hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  const set = (value) => { hidden = value; document.dispatchEvent(new Event('visibilitychange')); };
  window.__tab = { hide: () => set(true), show: () => set(false) };
  const originalSetTimeout = window.setTimeout;
  window.setTimeout = function (callback, delay, ...rest) {
    if (String(new Error().stack).includes('/visibility.js')) delay = 0;
    return originalSetTimeout.call(window, callback, delay, ...rest);
  };
})();
"""


def test_a_hidden_host_tab_lets_the_embedded_stream_go_and_resumes_when_shown(live, host, open_page):
    """visibility.js for `<rowstream-table>` too: a host tab hidden past the grace closes the element's EventSource
    (a hidden host no longer holds a connection to the Rowstream server); shown, it opens a new one (a live table:
    from the rows as they are now, each once) and loads more when its box is scrolled."""
    probe = open_page(host.page(live.url), wait_for_rows=False, init_scripts=[FAKE_VISIBILITY])
    wait_until(lambda: shown(probe) > 0 and probe.table("data-state") == "idle", message="rows")
    assert probe.page.evaluate("window.__rsOpenSources()") == 1
    opened = len(probe.rs()["sources"])
    probe.page.evaluate("window.__tab.hide()")
    wait_until(lambda: probe.page.evaluate("window.__rsOpenSources()") == 0, message="the stream let go")
    probe.page.evaluate("window.__tab.show()")
    wait_until(lambda: probe.page.evaluate("window.__rsOpenSources()") == 1 and len(probe.rs()["sources"]) > opened,
               message="a stream again")
    wait_until(lambda: shown(probe) > 0 and probe.table("data-state") == "idle", message="rows again")
    before = shown(probe)
    wait_until(lambda: probe.page.evaluate(SCROLL_BOX) and shown(probe) > before, message="more, once shown")
    keys = probe.keys()
    assert len(keys) == len(set(keys))


def test_an_element_moved_in_the_page_keeps_one_column_sheet_and_reset_shows_every_column(credentialed, host,
                                                                                           open_page):
    """Taken out and put back (moved in the page): the table mounts again in the same shadow root. It takes its
    column sheet over (columnshape.js) instead of adopting one more, whose old rules would still hide a column
    after Reset columns ticked its box; the old mount's listener on the root goes with it (columns.js stop())."""
    probe = open_page(host.page(credentialed.url), wait_for_rows=False)
    page = probe.page
    wait_until(lambda: shown(probe) > 0 and probe.table("data-state") in ("idle", "complete"), message="rows")
    sheets = "document.querySelector('rowstream-table').shadowRoot.adoptedStyleSheets.length"
    assert page.evaluate(sheets) == 1
    page.click("#rs-columns-button")
    page.uncheck(".rs-columns-menu input[data-place='1']")
    second = "#rs-table thead th:nth-child(2)"
    assert page.eval_on_selector(second, "th => getComputedStyle(th).display") == "none"
    page.evaluate("(() => { const e = document.querySelector('rowstream-table'); e.remove(); document.body.append(e); })()")
    wait_until(lambda: shown(probe) > 0 and probe.table("data-state") in ("idle", "complete"), message="rows after the move")
    assert page.evaluate(sheets) == 1, "one sheet per table, reused"
    assert page.eval_on_selector(second, "th => getComputedStyle(th).display") == "none", "the stored shape"
    page.click("#rs-columns-button")
    page.click(".rs-columns-reset")
    assert page.is_checked(".rs-columns-menu input[data-place='1']")
    assert page.eval_on_selector(second, "th => getComputedStyle(th).display") != "none", "Reset shows the column"


def test_sign_out_in_an_embedded_table_signs_out_of_the_rowstream_server(host, open_page, tmp_path):
    """Mode users: the embedded header's Sign out is a form POSTing to `/logout`; resolved against the Rowstream
    server (not the host page), the server takes it from the allowed host origin and ends the session."""
    from test_login import users_server
    with users_server(tmp_path, allowedOrigins=[host.origin], allowCredentials=True) as server:
        probe = open_page(server.url + "/login?next=/tables/items", wait_for_rows=False)
        page = probe.page
        page.fill("input[name=user]", "alice")
        page.fill("input[name=password]", "wonderland")
        page.click("form[action='/login'] button")
        page.wait_for_url("**/tables/items", timeout=TIMEOUT_MS)
        page.goto(host.page(server.url, credentials=True, table="items"), wait_until="domcontentloaded")
        page.wait_for_selector("rowstream-table #rs-rows tr[data-key]", timeout=TIMEOUT_MS)
        assert page.get_attribute("rowstream-table form.rs-user", "action") == server.url + "/logout"
        page.click("rowstream-table form.rs-user button")
        page.wait_for_url(server.url + "/login", timeout=TIMEOUT_MS)
        assert not [c for c in probe.context.cookies() if c["name"] == "rowstream_session"]
