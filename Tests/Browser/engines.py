"""Three browser engines behind the same few verbs, so one check runs in each (docs/BROWSER.md "Engines").

- `chromium`: Playwright's (conftest.py's session `browser`: Debian's /usr/bin/chromium).
- `webkit`: WebKitGTK's MiniBrowser (`--automation`; `--headless` hangs) driven by Debian's WebKitWebDriver through
  selenium, on an Xvfb display of its own (`-displayfd`: Xvfb picks a free display), both stopped by PID.
- `firefox`: Firefox ESR (`--marionette --headless --no-remote`, a temporary profile whose Marionette port is 0: the
  browser picks a free one and writes it to the profile's MarionetteActivePort) driven by marionette-driver; the
  browser is started and stopped by its PID.

An engine is made once per test session (`engine_fixture`); `engine.open(url)` gives a `Tab`, a fresh tab whose
cookies are cleared. Every verb is the same in each engine:

    tab.js(body, *args)   runs a function body (`return ...`; its arguments in `arguments`) in the page and returns
                          its JSON-able value; a returned Promise is awaited (WebDriver's rule, and Playwright's)
    tab.wait(body, ...)   polls tab.js(body) until truthy (bounded: support.TIMEOUT) and returns the value
    tab.frames(n)         returns once the page rendered n more frames and ran a task after them
    tab.scroll_to(x, y) / tab.scroll_by(px) / tab.scroll_box(selector, top)   scroll the window / a scroll box
    tab.run_js(expression)  the value of one expression (`return` added)
    tab.click(selector) / tab.fill(selector, text)         real input through the engine (not a script's click())
    tab.errors()          what went wrong in the page: errors and unhandled rejections and CSP violations the page
                          saw since `watch()` (installed by `open`), plus the engine's own console errors where it
                          has them (Chromium, Firefox; WebKitWebDriver has no log)
    tab.back()            the browser's Back (returns once the page is shown again; the watch installed again)
    tab.cookies(), tab.url(), tab.close()

WebDriver has no script that runs before the page's own, so `watch()` is installed by the test right after a page
has loaded (again after every navigation): it records `rowstream:*` events, errors and violations from then on."""
import os
import select
import shutil
import socket
import subprocess
import tempfile
import time
import warnings

import pytest

from support import TIMEOUT, stop_process, wait_until

WEBKIT_DRIVER = os.environ.get("ROWSTREAM_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("ROWSTREAM_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
FIREFOX = os.environ.get("ROWSTREAM_FIREFOX", "/usr/bin/firefox-esr")
WIDTH, HEIGHT = 1024, 768         # the window asked for (the viewport is what is left of it): a common laptop's,
                                  # where the table's box scrolls sideways (and WebKit's stall shows, lanes.py)

# Installed in each page after it loaded: the page's rowstream:* events with the state at that moment, page errors,
# unhandled rejections and CSP violations. Idempotent.
WATCH = """
if (window.__lane) return true;
const log = window.__lane = { events: [], errors: [] };
const table = () => document.querySelector('#rs-table') ||
  document.querySelector('rowstream-table')?.shadowRoot?.querySelector('#rs-table') || null;
for (const name of ['session', 'loading', 'rows', 'complete', 'error', 'reset', 'live']) {
  document.addEventListener('rowstream:' + name, (event) => {
    const t = table();
    log.events.push(Object.assign({ type: name, t: performance.now(),
      state: t ? t.dataset.state : null, busy: t ? t.getAttribute('aria-busy') : null }, event.detail));
  }, true);
}
window.addEventListener('error', (e) => log.errors.push('error: ' + e.message + ' ' + (e.filename || '') + ':' + e.lineno));
window.addEventListener('unhandledrejection', (e) => log.errors.push('unhandledrejection: ' + String(e.reason)));
document.addEventListener('securitypolicyviolation', (e) => log.errors.push(
  'csp: ' + e.violatedDirective + ' ' + e.blockedURI));
return true;
"""

FRAMES = """
const n = arguments[0];
return new Promise((done) => {
  const step = (k) => (k > 0 ? requestAnimationFrame(() => step(k - 1)) : setTimeout(() => done(true), 0));
  step(n);
});
"""


class Tab:
    """One tab of an engine. Subclasses implement `_run`, `_click`, `_fill`, `_navigate`, `_back`, `cookies`, `url`,
    `_engine_errors` and `_close`."""

    def __init__(self, engine):
        self.engine = engine
        self.allowed = ()           # substrings of errors this test expects (a refused login's 401)

    def js(self, body, *args):
        return self._run(body, list(args))

    def wait(self, body, *args, timeout=TIMEOUT, message=None):
        return wait_until(lambda: self.js(body, *args), timeout=timeout, message=message or body.strip()[:120])

    def frames(self, n=3):
        self.js(FRAMES, n)

    def watch(self):
        self.js(WATCH)

    def open(self, url):
        """Navigates this tab to `url` (returns once it has loaded) and installs the watch."""
        self._navigate(url)
        self.watch()
        return self

    def back(self):
        """The browser's Back; returns once the page is shown (from the back/forward cache or loaded again), its
        watch installed (the restored page keeps the one it had)."""
        self._back()
        self.wait("return document.readyState === 'complete'", message="the page after Back")
        self.watch()
        return self

    def events(self, kind=None):
        events = self.js("return window.__lane ? window.__lane.events : []")
        return [e for e in events if kind is None or e["type"] == kind]

    def run_js(self, expression):
        """The JSON value of one expression."""
        return self.js("return " + expression)

    def scroll_by(self, px):
        self.js("window.scrollBy(0, arguments[0]); return true", px)

    def scroll_to(self, x, y):
        self.js("window.scrollTo(arguments[0], arguments[1]); return true", x, y)

    def scroll_box(self, selector, top=1e9):
        """Scrolls the box `selector` (in the document, or in the open shadow root of a `<rowstream-table>`)."""
        return self.js("""
          const box = document.querySelector(arguments[0]) ||
            document.querySelector('rowstream-table')?.shadowRoot?.querySelector(arguments[0]);
          if (!box) return false;
          box.scrollTop = arguments[1];
          return true;""", selector, top)

    def click(self, selector):
        self._click(selector)

    def fill(self, selector, text):
        self._fill(selector, text)

    def press(self, selector, key):
        """A real key press (`Enter` or `Escape`) sent to the element `selector` (focused first)."""
        self._press(selector, key)

    def errors(self):
        seen = self.js("return window.__lane ? window.__lane.errors : []") + self._engine_errors()
        return [e for e in seen if not any(allowed in e for allowed in self.allowed)]

    def close(self):
        self._close()


# ---- Chromium (Playwright) -------------------------------------------------------------------------------

class ChromiumTab(Tab):
    def __init__(self, engine):
        super().__init__(engine)
        self.context = engine.browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        self.context.set_default_timeout(TIMEOUT * 1000)
        self.page = self.context.new_page()
        self.console = []
        self.page.on("console", lambda m: m.type == "error" and self.console.append("console: " + m.text))
        self.page.on("pageerror", lambda error: self.console.append("pageerror: %s" % error))

    def _run(self, body, args):
        return self.page.evaluate("(args) => (function () {\n%s\n}).apply(null, args)" % body, args)

    def _navigate(self, url):
        self.page.goto(url, wait_until="load")

    def _back(self):
        self.page.go_back(wait_until="load")

    def _click(self, selector):
        self.page.click(selector)

    def _fill(self, selector, text):
        self.page.fill(selector, text)

    def _press(self, selector, key):
        self.page.press(selector, key)

    def cookies(self):
        return [{"name": c["name"], "httpOnly": c["httpOnly"], "sameSite": c["sameSite"]} for c in self.context.cookies()]

    def url(self):
        return self.page.url

    def _engine_errors(self):
        return list(self.console)

    def _close(self):
        self.context.close()


class Chromium:
    name = "chromium"

    def __init__(self, browser):
        self.browser = browser

    def open(self, url):
        return ChromiumTab(self).open(url)

    def stop(self):
        pass                     # conftest's session fixture closes the browser


# ---- WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver and selenium) -------------------------------

def start_xvfb():
    """An Xvfb server on a display it picks itself (`-displayfd`): (process, ':N')."""
    read, write = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
                               pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    text, deadline = b"", time.monotonic() + TIMEOUT
    try:   # the whole line: closing the pipe before Xvfb wrote its newline kills it (SIGPIPE)
        while not text.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read], [], [], 1)
            chunk = os.read(read, 64) if ready else b""
            if ready and not chunk:
                break
            text += chunk
    finally:
        os.close(read)
    number = text.decode().strip()
    if not number.isdigit():
        stop_process(process)
        raise RuntimeError("Xvfb did not start")
    return process, ":" + number


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class WebDriverTab(Tab):
    """A tab of a WebDriver client (selenium's WebKitGTK driver, or Marionette: the same verbs, other names)."""

    def __init__(self, engine, handle):
        super().__init__(engine)
        self.handle = handle

    def _engine_errors(self):
        return []

    # WebDriver's key codes (the same in selenium and Marionette).
    KEYS = {"Enter": "\ue007", "Escape": "\ue00c"}


class WebKitTab(WebDriverTab):
    def _driver(self):
        self.engine.driver.switch_to.window(self.handle)
        return self.engine.driver

    def _run(self, body, args):
        return self._driver().execute_script(body, *args)

    def _navigate(self, url):
        self._driver().get(url)

    def _back(self):
        self._driver().back()

    def _click(self, selector):
        from selenium.webdriver.common.by import By
        self._driver().find_element(By.CSS_SELECTOR, selector).click()

    def _fill(self, selector, text):
        from selenium.webdriver.common.by import By
        field = self._driver().find_element(By.CSS_SELECTOR, selector)
        field.clear()
        field.send_keys(text)

    def _press(self, selector, key):
        from selenium.webdriver.common.by import By
        self._driver().find_element(By.CSS_SELECTOR, selector).send_keys(self.KEYS[key])

    def cookies(self):
        return [{"name": c["name"], "httpOnly": c.get("httpOnly"), "sameSite": c.get("sameSite")}
                for c in self._driver().get_cookies()]

    def url(self):
        return self._driver().current_url

    def _close(self):
        self.engine.close_tab(self.handle)


class WebKit:
    name = "webkit"

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
        self.xvfb, display = start_xvfb()
        try:
            options = Options()                     # capabilities: webkitgtk:browserOptions {binary, args}
            options.binary_location = MINIBROWSER
            options.add_argument("--automation")
            service = Service(executable_path=WEBKIT_DRIVER, port=free_port(), env=dict(os.environ, DISPLAY=display))
            with warnings.catch_warnings():                  # selenium's own use of its deprecated remote_server_addr
                warnings.simplefilter("ignore", DeprecationWarning)
                self.driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            stop_process(self.xvfb)
            raise
        self.driver.set_script_timeout(TIMEOUT)
        self.driver.set_page_load_timeout(TIMEOUT)
        self.driver.set_window_rect(0, 0, WIDTH, HEIGHT)
        self.home = self.driver.current_window_handle   # kept open: the session lives while one window does

    def open(self, url):
        self.driver.switch_to.window(self.home)
        self.driver.switch_to.new_window("window")   # a tab would stay hidden: no frames
        self.driver.set_window_rect(0, 0, WIDTH, HEIGHT)
        self.driver.delete_all_cookies()
        return WebKitTab(self, self.driver.current_window_handle).open(url)

    def close_tab(self, handle):
        self.driver.switch_to.window(handle)
        self.driver.close()
        self.driver.switch_to.window(self.home)

    def stop(self):
        try:
            self.driver.quit()                      # ends the session (MiniBrowser) and stops WebKitWebDriver
        finally:
            stop_process(self.xvfb)


# ---- Firefox (Firefox ESR through Marionette) ------------------------------------------------------------

PREFS = {
    "marionette.port": 0,                           # a free port, written to MarionetteActivePort
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.download.folderList": 2,               # downloads go to the profile's folder, never ask
    "browser.download.useDownloadDir": True,
    "browser.download.always_ask_before_handling_new_types": False,
    "browser.download.alwaysOpenPanel": False,
    "network.proxy.type": 0,
    "dom.disable_open_during_load": False,
}

# The console errors of the content (page scripts, CSP, network), read in Firefox's chrome context.
CONSOLE = """
const since = arguments[0];
return Services.console.getMessageArray().slice(since).filter((m) => m instanceof Ci.nsIScriptError &&
    !(m.flags & (Ci.nsIScriptError.warningFlag | Ci.nsIScriptError.infoFlag)) &&
    /^https?:\\/\\/127\\.0\\.0\\.1/.test(m.sourceName || '')).map((m) => 'console: ' + m.errorMessage + ' ' + m.sourceName);
"""


class FirefoxTab(WebDriverTab):
    def __init__(self, engine, handle):
        super().__init__(engine, handle)
        self.console_start = engine.console_length()

    def _client(self):
        self.engine.client.switch_to_window(self.handle)
        return self.engine.client

    def _run(self, body, args):
        return self._client().execute_script(body, script_args=args, sandbox=None)

    def _navigate(self, url):
        self._client().navigate(url)

    def _back(self):
        self._client().go_back()

    def _click(self, selector):
        self._client().find_element("css selector", selector).click()

    def _fill(self, selector, text):
        field = self._client().find_element("css selector", selector)
        field.clear()
        field.send_keys(text)

    def _press(self, selector, key):
        self._client().find_element("css selector", selector).send_keys(self.KEYS[key])

    def cookies(self):
        return [{"name": c["name"], "httpOnly": c.get("httpOnly"), "sameSite": c.get("sameSite")}
                for c in self._client().get_cookies()]

    def url(self):
        return self._client().get_url()

    def _engine_errors(self):
        return self.engine.console_errors(self.console_start)

    def _close(self):
        self.engine.close_tab(self.handle)


class Firefox:
    name = "firefox"

    def __init__(self):
        with warnings.catch_warnings():                  # mozinfo and mozrunner use deprecated modules
            warnings.simplefilter("ignore", DeprecationWarning)
            from marionette_driver.marionette import Marionette
        self.profile = tempfile.mkdtemp(prefix="rowstream-firefox-")
        self.downloads = os.path.join(self.profile, "downloads")
        os.mkdir(self.downloads)
        prefs = dict(PREFS, **{"browser.download.dir": self.downloads})
        with open(os.path.join(self.profile, "user.js"), "w") as file:
            for name, value in prefs.items():
                file.write("user_pref(%s, %s);\n" % (_js(name), _js(value)))
        env = dict(os.environ, MOZ_HEADLESS="1")
        self.process = subprocess.Popen([FIREFOX, "--marionette", "--headless", "--no-remote", "--profile", self.profile,
                                         "-remote-allow-system-access",    # the chrome context: console errors
                                         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        try:
            port = wait_until(self._port, message="Firefox's Marionette port")
            self.client = Marionette(host="127.0.0.1", port=port)
            self.client.start_session()
            self.client.timeout.script = TIMEOUT
            self.client.timeout.page_load = TIMEOUT
            self.client.set_window_rect(width=WIDTH, height=HEIGHT)
            self.home = self.client.current_window_handle
        except Exception:
            self._stop_process()
            raise

    def _port(self):
        path = os.path.join(self.profile, "MarionetteActivePort")
        if self.process.poll() is not None:
            raise RuntimeError("Firefox exited with %s" % self.process.returncode)
        try:
            with open(path) as file:
                text = file.read().strip()
        except FileNotFoundError:
            return None
        return int(text) if text.isdigit() else None

    def console_length(self):
        with self.client.using_context("chrome"):
            return self.client.execute_script("return Services.console.getMessageArray().length")

    def console_errors(self, since):
        with self.client.using_context("chrome"):
            return self.client.execute_script(CONSOLE, script_args=[since])

    def open(self, url):
        self.client.switch_to_window(self.home)
        handle = self.client.open(type="tab")["handle"]
        self.client.switch_to_window(handle)
        self.client.delete_all_cookies()
        return FirefoxTab(self, handle).open(url)

    def close_tab(self, handle):
        self.client.switch_to_window(handle)
        self.client.close()
        self.client.switch_to_window(self.home)

    def _stop_process(self):
        stop_process(self.process)
        shutil.rmtree(self.profile, ignore_errors=True)

    def stop(self):
        try:
            self.client.delete_session()
        finally:
            self._stop_process()


def _js(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"%s"' % str(value).replace("\\", "\\\\").replace('"', '\\"')


# ---- Fixtures --------------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def webkit_engine():
    engine = WebKit()
    yield engine
    engine.stop()


@pytest.fixture(scope="session")
def firefox_engine():
    engine = Firefox()
    yield engine
    engine.stop()


@pytest.fixture(scope="session")
def chromium_engine(browser):
    yield Chromium(browser)


def engine_fixture(*names):
    """A pytest fixture (named by the variable it is assigned to) parametrized over the engines `names`: each test
    runs once per engine (ids `[webkit]`, `[firefox]`, `[chromium]`, so `-k webkit` picks one lane); the engine is
    made once per session, when a test first needs it."""
    @pytest.fixture(params=names)
    def fixture(request):
        return request.getfixturevalue(request.param + "_engine")
    return fixture


@pytest.fixture
def tabs():
    """tabs(engine, url) -> Tab; at the end of the test: every tab closed, and none saw an error."""
    opened = []

    def make(engine, url, allowed=()):
        tab = engine.open(url)
        tab.allowed = tuple(allowed)
        opened.append(tab)
        return tab
    yield make
    try:
        for tab in opened:
            errors = tab.errors()
            assert errors == [], "%s: errors in the page: %r" % (tab.engine.name, errors)
    finally:
        for tab in opened:
            tab.close()


def busy_loops(count=2):
    """Starts `count` busy loops (`yes > /dev/null`), one per core; returns their processes (stop each by PID)."""
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]
