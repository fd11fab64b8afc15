"""docs/DIALECTS.md: the table stream in htmx's, Turbo's and Datastar's wire formats (`?dialect=`), driven by the
REAL client libraries at pinned versions, installed by Scripts/test-browser from PyPI (never copied into the
repository) and served to the host page from the installed packages: htmx 2.0.10 core and its SSE extension
(django-htmx 1.29.0: `htmx-2.js`, `ext/hx-sse-2.js`), Turbo 7.1.0 (turbo-django 0.4.4: `turbo.min.js`,
`Turbo.connectStreamSource`), Datastar 1.0.1 (StarHTML's build, `starhtml/static/js/datastar-core.js`, read from the
pinned starhtml 0.7.0 wheel that Scripts/test-browser downloads into Scripts/.venv/wheels: StarHTML wants Python
3.13, so it is not installed). The host page is another app's page: served by the test's own HTTP server, which also
passes `/tables/...` through to the Rowstream server as a same-origin reverse proxy would (streams unbuffered).
Batches append as the sentinel is revealed, rows arrive exactly once in order, a live change prepends and replaces
by row id, a cut stream resumes (`Last-Event-ID`) exactly once, a failed batch shows Retry and Retry loads it."""
import http.client
import http.server
import importlib.metadata
import os
import socket
import threading
import urllib.parse
import zipfile

import pytest

from support import LIVE_DEMO, TIMEOUT, RowstreamServer, refresh_until_changed, wait_until

# Where each client's files are in its installed package (the pins are in Scripts/test-browser).
LIBRARIES = {
    "/lib/htmx.js": ("django-htmx", "django_htmx/static/django_htmx/htmx-2.js"),
    "/lib/htmx-sse.js": ("django-htmx", "django_htmx/static/django_htmx/ext/hx-sse-2.js"),
    "/lib/turbo.js": ("turbo-django", "turbo/static/turbo/js/turbo.min.js"),
    "/lib/datastar.js": ("starhtml", "starhtml/static/js/datastar-core.js"),
}
# The starhtml wheel (a zip, downloaded by Scripts/test-browser, never installed): Datastar's bundle is read from it.
DATASTAR_WHEEL = os.environ.get("ROWSTREAM_DATASTAR_WHEEL", os.path.join(
    os.path.dirname(__file__), "..", "..", "Scripts", ".venv", "wheels", "starhtml-0.7.0-py3-none-any.whl"))

PAGES = {
    "/htmx": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>htmx host</title>
<script src="/lib/htmx.js"></script>
<script src="/lib/htmx-sse.js"></script>
<style>td { height: 40px; }</style>
</head><body>
<h1>Customers, with htmx</h1>
<div hx-ext="sse" sse-connect="/tables/customers/stream?dialect=htmx">
  <div sse-swap="session,retry,insert,update,remove,reset" hx-swap="none" hidden></div>
  <table>
    <tbody id="rs-customers-body" sse-swap="rows" hx-swap="beforeend"></tbody>
    <tbody><tr id="rs-customers-more"></tr></tbody>
  </table>
</div>
</body></html>""",
    "/turbo": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Turbo host</title>
<script src="/lib/turbo.js"></script>
<style>td { height: 40px; } #rs-customers-more turbo-frame { display: block; height: 1px; }</style>
</head><body>
<h1>Customers, with Turbo</h1>
<table>
  <tbody id="rs-customers-body"></tbody>
  <tbody><tr id="rs-customers-more"></tr></tbody>
</table>
<!-- After the table, so its first rows find their target. Turbo 7.1 has no <turbo-stream-source> element (7.2 and
     later do): the page connects the source itself. -->
<script>Turbo.connectStreamSource(new EventSource('/tables/customers/stream?dialect=turbo'));</script>
</body></html>""",
    # docs/DIALECTS.md's page. `retry: 'always'`: Datastar reconnects (with Last-Event-ID) after a stream that ended
    # as well as after one that failed, and stops at the 204 of a finished list.
    "/datastar": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Datastar host</title>
<script type="module" src="/lib/datastar.js"></script>
<style>td { height: 40px; }</style>
</head><body>
<h1>Customers, with Datastar</h1>
<div data-init="@get('/tables/customers/stream?dialect=datastar', {retry: 'always'})"></div>
<table>
  <tbody id="rs-customers-body"></tbody>
  <tbody><tr id="rs-customers-more"></tr></tbody>
</table>
</body></html>""",
}


def library(path):
    package, file = LIBRARIES[path]
    if package == "starhtml":
        if not os.path.exists(DATASTAR_WHEEL):
            raise FileNotFoundError("no %s: Scripts/test-browser downloads the pinned starhtml wheel" % DATASTAR_WHEEL)
        with zipfile.ZipFile(DATASTAR_WHEEL) as wheel:
            return wheel.read(file)
    return open(importlib.metadata.distribution(package).locate_file(file), "rb").read()


class AppSite:
    """Another app on its own port (stopped by `close()`): its pages and the pinned client libraries, and
    `/tables/...` passed through to the Rowstream server at `upstream_port` with the request's own headers (its
    `Host` kept, as a reverse proxy configured for it does), the answer streamed as it comes. `cut()` ends every
    stream passed through so far (the browser reconnects)."""

    def __init__(self, upstream_port):
        site = self
        self.streams = []
        self.lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                path = urllib.parse.urlparse(self.path).path
                if path in PAGES:
                    return self.answer(PAGES[path].encode(), "text/html; charset=utf-8")
                if path in LIBRARIES:
                    return self.answer(library(path), "text/javascript")
                if path == "/favicon.ico":
                    return self.answer(b"", "image/x-icon")
                self.pass_through()

            def do_POST(self):
                self.pass_through()

            def answer(self, body, content_type):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def pass_through(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "accept-encoding")}
                upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=TIMEOUT * 4)
                upstream.request(self.command, self.path, body=body, headers=headers)
                sock = upstream.sock          # the response may take it over (and the connection forget it)
                response = upstream.getresponse()
                streaming = response.getheader("Content-Type", "").startswith("text/event-stream")
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                        self.send_header(name, value)
                if streaming:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                    self.end_headers()
                    with site.lock:
                        site.streams.append(sock)
                    try:
                        while chunk := response.read1(65536):
                            self.wfile.write(chunk)
                            self.wfile.flush()
                    except (OSError, ValueError):
                        pass
                    return
                data = response.read()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def cut(self):
        """Ends the streams passed through so far; returns how many."""
        with self.lock:
            streams, self.streams = self.streams, []
        for sock in streams:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(streams)

    def close(self):
        self.cut()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=TIMEOUT)


@pytest.fixture
def live():
    """100 demo customers in batches of 30, live, refreshed by the test (its own: a refresh adds a customer)."""
    server = RowstreamServer(LIVE_DEMO[0], 100, *LIVE_DEMO[2:])
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def long_live():
    """330 demo customers in batches of 30, live, refreshed by the test: eleven batches to scroll through."""
    server = RowstreamServer(LIVE_DEMO[0], 330, *LIVE_DEMO[2:])
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def failing():
    """60 demo customers in batches of 10; every third upstream request fails (retryable)."""
    server = RowstreamServer("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 20, "--demo-fail-every", 3)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def app(request):
    server = request.getfixturevalue(request.param if hasattr(request, "param") else "live")
    site = AppSite(server.port)
    try:
        yield site
    finally:
        site.close()


def keys(probe):
    return probe.page.eval_on_selector_all("#rs-customers-body tr[data-key]", "rows => rows.map(r => r.dataset.key)")


def indexes(probe):
    return probe.page.eval_on_selector_all(
        "#rs-customers-body tr[data-index]", "rows => rows.map(r => Number(r.dataset.index))")


def scroll_down(probe):
    probe.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    return True


def first_shown_row(probe):
    return probe.page.evaluate("""() => { const r = document.querySelector('#rs-customers-body tr');
        return r && { id: r.id, key: r.dataset.key, html: r.innerHTML }; }""")


def read_to_end_and_go_live(live, app, probe, total=100):
    """The shared proof: first batch, demand by scrolling, a cut stream resumed, every row once in order to the
    end (`total` rows), then a live change (a new row on top, a changed row replaced by its id)."""
    wait_until(lambda: len(keys(probe)) >= 30, message="the first batch")
    assert len(keys(probe)) == 30, "a first batch taller than the window: the sentinel is not revealed yet"
    wait_until(lambda: scroll_down(probe) and len(keys(probe)) >= 60, message="the revealed sentinel loads more")
    assert app.cut() >= 1
    wait_until(lambda: scroll_down(probe) and len(keys(probe)) >= total, timeout=2 * TIMEOUT,
               message="resumed after the cut, to the end")
    shown = indexes(probe)                                   # the live demo may have grown by a row or two
    assert shown == list(range(len(shown))), "every row exactly once, in order"
    assert len(set(keys(probe))) == len(shown)
    ids = probe.page.eval_on_selector_all("#rs-customers-body tr", "rows => rows.map(r => r.id)")
    assert all(id.startswith("rs-customers-k-") for id in ids)
    top = first_shown_row(probe)
    summary = refresh_until_changed(live)
    streams = [url for method, url in probe.requests if "/stream" in url]
    wait_until(lambda: first_shown_row(probe)["key"] != top["key"],
               message="a live insert on top (refresh %r; streams %d)" % (summary, len(streams)))
    shown = keys(probe)
    assert len(shown) == len(set(shown)), "an update replaces its row, never adds one"
    assert probe.page.eval_on_selector_all("#rs-customers-body tr:not([data-index])", "rows => rows.length") >= 1


def test_htmx_sse_extension_appends_demands_resumes_and_goes_live(live, app, open_page):
    # htmx's SSE extension logs the cut connection's `error` event itself (console.error(event)).
    probe = open_page(app.url + "/htmx", wait_for_rows=False, allowed_console=["[object Event]"])
    read_to_end_and_go_live(live, app, probe)
    posts = [url for method, url in probe.requests if method == "POST"]
    assert posts and all(url.startswith(app.url + "/tables/customers/sessions/") and url.endswith("/next")
                         for url in posts)
    assert probe.page.evaluate("htmx.version") == "2.0.10"


def test_turbo_stream_source_appends_demands_by_lazy_frame_resumes_and_goes_live(live, app, open_page):
    probe = open_page(app.url + "/turbo", wait_for_rows=False)
    read_to_end_and_go_live(live, app, probe)
    frames = [url for method, url in probe.requests if method == "GET" and url.endswith("/next")]
    assert frames and all(url.startswith(app.url + "/tables/customers/sessions/") for url in frames)
    assert not [url for method, url in probe.requests if method == "POST"]


@pytest.mark.parametrize("app", ["long_live"], indirect=True)
def test_datastar_appends_demands_batch_after_batch_resumes_once_and_goes_live(long_live, app, open_page):
    """Datastar 1.0.1 (its real client): every batch's sentinel is a new element (`mode replace`), so its once-only
    `data-on-intersect` asks again; with the `outer` morph it asked once and the table stopped at 60 rows."""
    probe = open_page(app.url + "/datastar", wait_for_rows=False)
    read_to_end_and_go_live(long_live, app, probe, total=330)
    streams = [url for method, url in probe.requests if method == "GET" and "/stream?dialect=datastar" in url]
    assert len(streams) == 2, "the first stream and exactly one resumed after the cut: %r" % streams
    posts = [url for method, url in probe.requests if method == "POST"]
    assert len(posts) >= 10 and all(url.startswith(app.url + "/tables/customers/sessions/")
                                    and url.endswith("/next") for url in posts)
    assert probe.page.evaluate("document.querySelectorAll('#rs-customers-more').length") == 1


@pytest.mark.parametrize("app", ["failing"], indirect=True)
@pytest.mark.parametrize("page", ["/htmx", "/turbo", "/datastar"])
def test_a_failed_batch_shows_in_the_sentinels_place_and_retry_loads_it(app, page, open_page):
    probe = open_page(app.url + page, wait_for_rows=False, allowed_console=["502", "Failed to load resource"])
    retried = []

    def complete_or_retried():
        alert = probe.page.query_selector("#rs-customers-more [role=alert]")
        if alert:
            assert "Retry" in alert.inner_text()
            probe.page.click("#rs-customers-more [role=alert] " + ("a" if page == "/turbo" else "button"))
            retried.append(True)
            wait_until(lambda: probe.page.query_selector("#rs-customers-more [role=alert]") is None,
                       message="the failure row to go")
        scroll_down(probe)
        return len(keys(probe)) >= 60
    wait_until(complete_or_retried, timeout=2 * TIMEOUT, message="every row, with Retry after each failure")
    assert retried, "the demo upstream failed at least once"
    assert indexes(probe) == list(range(60)), "every row exactly once, in order"
