"""docs/SECURITY.md: the pages run under a strict Content-Security-Policy without a single violation (the table
page, a dashboard page and the no-script page, while rows stream, scrolling loads more, Reload and Retry work),
and a page of another site cannot make the browser change anything: its fetch and form POSTs are refused (403)
and start no upstream fetch."""
import http.server
import json
import threading
import urllib.request

from support import (TIMEOUT, TIMEOUT_MS, TO_THE_BOTTOM, scroll_to_end, scroll_until, server_fixture, wait_until)

server = server_fixture("--demo-items", 200, "--batch-size", 20, "--demo-latency-ms", 50, "--demo-controls", "on")
failing = server_fixture("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 50, "--demo-fail-every", 3)
live = server_fixture("--demo-items", 100, "--batch-size", 20, "--demo-latency-ms", 20, "--demo-live-seconds", 3600,
                      "--demo-refresh-seconds", 0)   # refreshed only by POST

# Every violation the page meets, as the browser reports it to the page.
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(
  e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + e.lineNumber));
"""


def open_watched(open_page, url, **options):
    return open_page(url, init_scripts=[WATCH_CSP], **options)


def violations(probe):
    return probe.page.evaluate("window.__csp")


def test_the_pages_send_the_policy(server):
    for path in ["/", "/pages/overview", "/tables/customers/html", "/app.css", "/api/tables"]:
        with urllib.request.urlopen(server.url + path, timeout=TIMEOUT) as response:
            policy = response.headers["Content-Security-Policy"]
            response.read()
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_table_page_streams_scrolls_and_reloads_without_a_violation(server, open_page):
    probe = open_watched(open_page, server.url)
    scroll_to_end(probe)
    assert len(probe.keys()) == 200
    widths = probe.page.eval_on_selector_all("#rs-table col", "cols => cols.map(c => getComputedStyle(c).width)")
    assert widths                                                          # /tables.css applied (no inline style)
    probe.page.click("#rs-reload")
    wait_until(lambda: probe.table("data-state") in ("idle", "complete") and len(probe.keys()) > 0,
               message="rows again after Reload")
    probe.page.select_option("#rs-controls select >> nth=0", index=1)
    wait_until(lambda: len(probe.keys()) > 0, message="rows after a control change")
    assert violations(probe) == []


def test_retry_after_an_upstream_error_without_a_violation(failing, open_page):
    probe = open_watched(open_page, failing.url)
    retried = []

    def complete_or_retried():
        if probe.table("data-state") == "error":
            probe.page.click("#rs-retry")
            retried.append(True)
            wait_until(lambda: probe.page.query_selector("#rs-error") is None, message="error row to go")
        return probe.table("data-state") == "complete"
    scroll_until(probe, complete_or_retried, message="the list to complete, with Retry after every error")
    assert retried
    assert violations(probe) == []


def test_dashboard_page_with_cards_and_sections_without_a_violation(server, open_page):
    probe = open_watched(open_page, server.url + "/pages/overview", wait_for_rows=False)
    probe.page.wait_for_selector("#rs-rows--customers-cards tr.rs-card", timeout=TIMEOUT_MS)
    probe.page.wait_for_selector("#rs-table--customers-by-city tr[data-index]", timeout=TIMEOUT_MS)
    fields = probe.page.eval_on_selector(
        "#rs-table--customers-cards", "t => getComputedStyle(t).getPropertyValue('--rs-card-fields').trim()")
    assert fields != ""                                                    # the card size from /tables.css
    probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop = 1e9")
    wait_until(lambda: len(probe.page.query_selector_all("#rs-rows--customers tr[data-key]")) > 20,
               message="scrolling a panel loads more")
    assert violations(probe) == []


def test_no_script_page_without_a_violation(server, open_page):
    probe = open_watched(open_page, server.url + "/tables/customers/html", wait_for_rows=False,
                         java_script_enabled=False)
    probe.page.wait_for_selector("#rs-next, #rs-end", state="attached", timeout=TIMEOUT_MS)
    assert not probe.page.is_visible("tr.rs-skeleton")                    # hidden by app.css, not inline style
    probe.page.click("#rs-next")
    probe.page.wait_for_url("**/html?after=*", timeout=TIMEOUT_MS)
    probe.page.wait_for_selector("#rs-next, #rs-end", state="attached", timeout=TIMEOUT_MS)
    # Scripts are off here, so the page cannot hear its own violations; Chromium logs each one as a console
    # error, which open_page fails the test on.


class Attacker:
    """Another site: a local HTTP server on its own port, started and stopped by the test, serving one page that
    POSTs to the rowstream server with fetch and with a form."""

    def __init__(self, target):
        page = ATTACK_PAGE.replace("TARGET", target).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=TIMEOUT)


ATTACK_PAGE = """<!doctype html>
<title>another site</title>
<form id="form" method="post" action="TARGET/tables/customers/refresh"></form>
<script>
window.attack = async () => {
  for (const path of ['/tables/customers/refresh', '/tables/customers/sessions/00112233445566778899aabbccddeeff/next',
                      '/tables/customers/sessions/00112233445566778899aabbccddeeff/reload']) {
    try { await fetch('TARGET' + path, { method: 'POST', mode: 'no-cors', credentials: 'include' }); } catch (e) {}
  }
};
</script>"""


def test_another_site_cannot_post(live, browser):
    live.quiet_upstream_requests()
    before = live.upstream_requests()
    for host in ("localhost", "127.0.0.1"):                               # cross-site, and same-site on another port
        attacker = Attacker(live.url)
        context = browser.new_context()
        try:
            page = context.new_page()
            statuses = []
            page.on("response", lambda r: r.url.startswith(live.url) and statuses.append((r.request.method, r.status)))
            page.goto("http://%s:%d/" % (host, attacker.port), wait_until="load", timeout=TIMEOUT_MS)
            page.evaluate("window.attack()")
            wait_until(lambda: len(statuses) >= 3, message="the fetches answered")
            with page.expect_navigation(timeout=TIMEOUT_MS):
                page.evaluate("document.getElementById('form').submit()")
            wait_until(lambda: len(statuses) >= 4, message="the form POST answered")
            assert statuses == [("POST", 403)] * 4, (host, statuses)
            assert "refused" in page.text_content("body")
        finally:
            context.close()
            attacker.close()
    assert live.upstream_requests() == before                            # no refused POST fetched anything
    # The same refresh from a script (no browser headers) goes through and fetches: the count above could move.
    request = urllib.request.Request(live.url + "/tables/customers/refresh", method="POST")
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        assert response.status == 200 and "inserted" in json.load(response)
    assert live.upstream_requests() > before
