"""Fixtures for the browser suite: one chromium for the session (Debian's, not a download), a fresh context
per test that fails the test on console errors or page errors, and figures printed at the end."""
import os

import pytest
from playwright.sync_api import sync_playwright

from engines import chromium_engine, firefox_engine, tabs, webkit_engine  # noqa: F401 (the engines' fixtures)
from support import TIMEOUT_MS

HERE = os.path.dirname(__file__)
INSTRUMENT = open(os.path.join(HERE, "instrument.js")).read()
FIGURES = []


def figure(name, value, unit):
    """Records a web-vitals style figure; printed at the end of the run, never asserted."""
    FIGURES.append((name, value, unit))


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    terminalreporter.section("rowstream browser figures (reported, not asserted)")
    for name, value, unit in FIGURES:
        terminalreporter.write_line("%-58s %10.3f %s" % (name, value, unit))


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("ROWSTREAM_CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox"])
        yield browser
        browser.close()


class PageProbe:
    """A page plus what the test watched on it: console errors, page errors, requests."""

    def __init__(self, context, allowed_console=()):
        self.context = context
        self.page = context.new_page()
        self.errors = []
        self.requests = []
        self.allowed_console = allowed_console
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append("pageerror: %s" % error))
        self.page.on("dialog", lambda dialog: (self.errors.append("dialog: " + dialog.message), dialog.dismiss()))
        self.page.on("request", lambda request: self.requests.append((request.method, request.url)))
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append("HTTP %d %s %s" % (
            r.status, r.request.method, r.url)))

    def _console(self, message):
        if message.type == "error" and not any(allowed in message.text for allowed in self.allowed_console):
            self.errors.append("console: " + message.text)

    def posts(self, action="/next"):
        return [url for method, url in self.requests if method == "POST" and url.endswith(action)]

    def streams(self):
        return [url for method, url in self.requests if "/stream" in url]

    def rs(self, expression="window.__rs"):
        return self.page.evaluate(expression)

    def table(self, attribute):
        return self.page.get_attribute("#rs-table", attribute)

    def keys(self):
        return self.page.eval_on_selector_all("#rs-rows tr[data-key]", "rows => rows.map(r => r.dataset.key)")

    def indexes(self):
        return self.page.eval_on_selector_all(
            "#rs-rows tr[data-index]", "rows => rows.map(r => Number(r.dataset.index))")


@pytest.fixture
def open_page(browser):
    """open_page(url, **context options) -> PageProbe (`init_scripts`: more scripts run before the page's). At the
    end: no console errors, no page errors."""
    probes = []

    def make(url, allowed_console=(), wait_for_rows=True, init_config=None, init_scripts=(), **options):
        options.setdefault("viewport", {"width": 1280, "height": 800})
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)          # Playwright's own waits: the suite's one bound
        context.add_init_script(INSTRUMENT)
        if init_config:
            context.add_init_script("window.RowstreamConfig = %s;" % init_config)
        for script in init_scripts:
            context.add_init_script(script)
        probe = PageProbe(context, allowed_console)
        probes.append(probe)
        probe.page.goto(url, wait_until="domcontentloaded")
        if wait_for_rows:
            probe.page.wait_for_selector("#rs-rows tr", timeout=TIMEOUT_MS)
        return probe

    yield make
    try:
        for probe in probes:
            assert probe.errors == [], "console or page errors: %r\nevents: %r" % (
                probe.errors, [(e["type"], e.get("offset"), e.get("total"), round(e["t"])) for e in
                               probe.page.evaluate("window.__rs.events")])
    finally:
        for probe in probes:
            probe.context.close()
