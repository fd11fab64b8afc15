"""Fixtures for the browser suite: one chromium for the session (Debian's, not a download), a fresh context
per test that fails the test on console errors or page errors, and figures printed at the end."""
import os
import subprocess
import tempfile

import pytest
from playwright.sync_api import sync_playwright

from engines import chromium_engine, firefox_engine, tabs, webkit_engine  # noqa: F401 (the engines' fixtures)
from support import TIMEOUT_MS, stop_process, wait_until

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

    def __init__(self, context, allowed_console=(), page=None):
        self.context = context
        self.page = page if page is not None else context.new_page()
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

    def table_state(self):
        """`data-state` and `aria-busy` read in one step: two reads can straddle the page starting the next batch."""
        return self.page.eval_on_selector(
            "#rs-table", "t => ({state: t.dataset.state, busy: t.getAttribute('aria-busy')})")

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


class ChromiumProfile:
    """Debian's chromium started by the suite itself (headless, by PID, with a throwaway profile folder) and driven
    over CDP with Playwright's `no_defaults`: the browser's own default context, one profile as people use it. Unlike
    Playwright's launch (which emulates focus on every page, keeping each one `visible`, and turns the back/forward
    cache off), a tab behind another reports `document.visibilityState === 'hidden'`, and Back may restore a page
    from the back/forward cache. Every page is watched as `PageProbe` watches one (console errors fail the test)."""

    def __init__(self, browser_type, instrument):
        self.folder = tempfile.TemporaryDirectory(prefix="rowstream-profile-")
        self.process = subprocess.Popen(
            [os.environ.get("ROWSTREAM_CHROMIUM", "/usr/bin/chromium"), "--headless", "--no-sandbox",
             "--remote-debugging-port=0", "--user-data-dir=" + self.folder.name, "--no-first-run",
             "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
             "--window-size=1280,800", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.browser = None
        try:
            port_file = os.path.join(self.folder.name, "DevToolsActivePort")
            wait_until(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1,
                       message="chromium's DevTools port")
            port = open(port_file).read().split("\n")[0]
            self.browser = browser_type.connect_over_cdp("http://127.0.0.1:" + port, no_defaults=True)
            self.context = self.browser.contexts[0]
            self.context.set_default_timeout(TIMEOUT_MS)
            self.context.add_init_script(instrument)
            self.cdp = self.browser.new_browser_cdp_session()
        except Exception:
            self.stop()
            raise
        self.probes = []

    def watch(self, page, allowed_console=()):
        """A PageProbe for a page of this profile (made by `tab()` or `window()`)."""
        probe = PageProbe(self.context, allowed_console, page=page)
        self.probes.append(probe)
        return probe

    def tab(self, url, config=None, init_scripts=()):
        """Opens `url` in a new tab of the profile's window (it comes to the front; the others are hidden)."""
        page = self.context.new_page()
        probe = self.watch(page)
        if config:
            page.add_init_script("window.RowstreamConfig = %s;" % config)
        for script in init_scripts:
            page.add_init_script(script)
        page.goto(url, wait_until="domcontentloaded")
        return probe

    def window(self, url):
        """Opens `url` in a new window of the profile (visible beside the others)."""
        with self.context.expect_page() as info:
            self.cdp.send("Target.createTarget", {"url": url, "newWindow": True})
        probe = self.watch(info.value)
        probe.page.wait_for_load_state("domcontentloaded")
        return probe

    def stop(self):
        try:
            if self.browser is not None:
                self.browser.close()
        finally:
            stop_process(self.process)
            wait_until(self._remove_folder, timeout=10, interval=0.1, message="the profile's folder removed")

    def _remove_folder(self):
        """Removes the profile's folder; false while a child of the stopped chromium (a renderer, the crash
        handler) still writes into it as it exits."""
        try:
            self.folder.cleanup()
            return True
        except OSError:
            return False


@pytest.fixture
def profile(browser):
    """A ChromiumProfile for one test; at the end, no console or page errors on any of its pages."""
    chromium = ChromiumProfile(browser.browser_type, INSTRUMENT)
    try:
        yield chromium
        for probe in chromium.probes:
            assert probe.errors == [], "console or page errors on %s: %r" % (probe.page.url, probe.errors)
    finally:
        chromium.stop()
