"""Test support: the real rowstream server (by PID) and `server_fixture` to start one per module or test, a TCP
proxy that can cut, freeze or pause live connections, one wait (`wait_until`), one SSE reader (`read_sse`), and
small helpers to read /metrics, the demo upstream and the page's instrumented log. Every wait is bounded (by
`TIMEOUT`, generous: a busy machine is slow, not wrong); every thread and process is stopped."""
import codecs
import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import threading
import zlib
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("ROWSTREAM_BINARY", os.path.join(ROOT, ".build", "release", "rowstream"))
BANNER = re.compile(r"serving http://127\.0\.0\.1:(\d+)/ \((?:demo upstream on 127\.0\.0\.1:(\d+)|\d+ table\(s\) from the config file)\)")
SHOTS = os.environ.get("ROWSTREAM_SCREENSHOTS", os.path.join(ROOT, ".artifacts", "screenshots"))  # screenshots' folder
TIMEOUT = 30                      # seconds: the bound of every wait for something that must happen
TIMEOUT_MS = TIMEOUT * 1000       # the same, for Playwright's waits


def stop_process(process):
    """Stops a process the suite started: SIGTERM by its PID, then SIGKILL if it has not exited within 10 s."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


class RowstreamServer:
    """One `rowstream` process on 127.0.0.1 port 0, started with the given flags, stopped by its PID."""

    def __init__(self, *flags):
        self.process = subprocess.Popen(
            [BINARY, "--port", "0", "--public", os.path.join(ROOT, "Public"), *map(str, flags)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        line = self._read_banner(timeout=TIMEOUT)
        match = BANNER.search(line)
        if not match:
            self.stop()
            raise RuntimeError("rowstream did not start: %r" % line)
        self.port = int(match.group(1))
        self.demo_port = int(match.group(2)) if match.group(2) else None   # None: serving a config's tables
        self.url = "http://127.0.0.1:%d" % self.port

    def _read_banner(self, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        return self.process.stdout.readline().decode() if ready else ""

    def stop(self):
        """SIGTERM by PID, then SIGKILL if it has not exited within 10 s."""
        stop_process(self.process)
        self.process.stdout.close()
        self.process.stderr.close()

    def get(self, path, timeout=TIMEOUT):
        with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
            return response.status, response.read().decode()

    def upstream_requests(self):
        """Upstream page requests the server has made, of every outcome (from /metrics)."""
        _, text = self.get("/metrics")
        return sum(int(float(m)) for m in re.findall(r"^rowstream_upstream_requests_total\{[^}]*\} (\S+)$", text, re.M))

    def quiet_upstream_requests(self, settle=1.0):
        """The upstream request count once no stream is open and the count has stopped moving (bounded)."""
        wait_until(lambda: self.metric("rowstream_streams_open") == 0, message="streams to close")
        last = self.upstream_requests()
        for _ in range(20):
            time.sleep(settle)
            now = self.upstream_requests()
            if now == last:
                return now
            last = now
        raise AssertionError("upstream requests never settled")

    def metric(self, name):
        _, text = self.get("/metrics")
        match = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
        return int(float(match.group(1))) if match else None

    def upstream_keys(self, search=None):
        """Every record id of the demo upstream (those matching `search`, if given), fetched directly from it, page
        by page."""
        keys, cursor = [], ""
        for _ in range(10_000):
            query = {"limit": 500, "cursor": cursor}
            if search is not None:
                query["q"] = search
            url = "http://127.0.0.1:%d/v1/customers?%s" % (self.demo_port, urllib.parse.urlencode(query))
            with urllib.request.urlopen(url, timeout=30) as response:
                page = json.load(response)
            keys += [str(item["id"]) for item in page["data"]]
            if not page["has_more"]:
                return keys
            cursor = page["next_cursor"]
        raise AssertionError("the upstream never ended")


def server_fixture(*flags, scope="module"):
    """A pytest fixture (named by the variable it is assigned to) that starts `RowstreamServer(*flags)` once per
    `scope` and stops it by PID afterwards: `grid = server_fixture("--demo-layout", "grid")`."""
    @pytest.fixture(scope=scope)
    def fixture():
        server = RowstreamServer(*flags)
        try:
            yield server
        finally:
            server.stop()
    return fixture


def proxy_fixture(server="server"):
    """A pytest fixture: a `CutProxy` per test in front of the server fixture named `server`."""
    @pytest.fixture
    def fixture(request):
        with CutProxy(request.getfixturevalue(server).port) as proxy:
            yield proxy
    return fixture


class CutProxy:
    """A TCP proxy in front of the server. `cut()` closes live connections whose request line matches;
    `freeze()` stops forwarding server bytes on them while keeping them open (a silent, half-dead stream);
    `sever()` closes their server side only (the server sees its client leave; the browser's side stays open and
    silent);
    `hold()` swallows new stream requests (never answered) until `release()`; `pause()` keeps new stream
    requests waiting, unforwarded, until `resume()` sends them on (a first batch that cannot come before the
    test lets it); `delay(needle)` keeps the server's bytes on connections whose request line contains `needle`
    (late answers) until `undelay()` sends them on (to a browser that may have closed them meanwhile; an answer the
    server ended meanwhile goes on whole, then the close). Threads stop on
    `close()`; usable as a context manager."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.lock = threading.Lock()
        self.links = []            # [client, upstream, first_line, frozen_flag_list]
        self.request_lines = []    # every request line that went through, in order (b"POST /tables/... HTTP/1.1")
        self.holding = False
        self.held = []
        self.pausing = False
        self.paused = []
        self.delaying = None       # bytes: a request-line needle whose answers wait for undelay()
        self.delayed = []          # every chunk delay() kept, in order (kept after undelay(), for the test to read)
        self.stopping = False
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(client,), daemon=True)
            with self.lock:
                self.threads.append(thread)
            thread.start()

    def _serve(self, client):
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
        except OSError:
            client.close()
            return
        link = {"client": client, "upstream": upstream, "line": b"", "frozen": False}
        with self.lock:
            self.links.append(link)
        self._pump(link)

    def _pump(self, link):
        client, upstream = link["client"], link["upstream"]
        try:
            while not self.stopping:
                if link.get("late") and not (self.delaying and self.delaying in link["line"]):
                    client.sendall(b"".join(link.pop("late")))                 # undelayed: send the answer on
                    if link.get("ended"):
                        return                                                 # and then the server's close
                if link.get("waiting") is not None and not self.pausing:   # resumed: send the request on
                    upstream.sendall(b"".join(link["waiting"]))
                    link["waiting"] = None
                watched = [client] if link.get("severed") or link.get("ended") else [client, upstream]
                ready, _, _ = select.select(watched, [], [], 0.05)
                for sock in ready:
                    if sock is upstream and link.get("severed"):
                        continue
                    data = sock.recv(65536)
                    if not data:
                        if sock is upstream and link.get("late"):
                            link["ended"] = True   # a delayed answer the server has ended: whole at undelay()
                            continue
                        return
                    if sock is client:
                        if data.split(b" ", 1)[0] in (b"GET", b"POST", b"HEAD"):
                            link["line"] = data.split(b"\r\n", 1)[0]   # the latest request (keep-alive)
                            with self.lock:
                                self.request_lines.append(link["line"])
                            if self.holding and b"/stream" in link["line"] and not link["frozen"]:
                                link["frozen"] = link["held"] = True       # swallowed: never answered
                                with self.lock:
                                    self.held.append(link)
                            elif self.pausing and b"/stream" in link["line"] and link.get("waiting") is None:
                                link["waiting"] = []                       # forwarded on resume()
                                with self.lock:
                                    self.paused.append(link)
                        if link.get("waiting") is not None:
                            link["waiting"].append(data)
                        elif not link.get("held"):
                            upstream.sendall(data)
                    elif self.delaying and self.delaying in link["line"]:
                        link.setdefault("late", []).append(data)
                        with self.lock:
                            self.delayed.append(data)
                    elif not link["frozen"]:
                        client.sendall(data)
        except (OSError, ValueError):   # ValueError: select() on a socket that cut() closed meanwhile
            return
        finally:
            self._close(link)

    def _close(self, link):
        for sock in (link["client"], link["upstream"]):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        with self.lock:
            if link in self.links:
                self.links.remove(link)

    def _matching(self, needle):
        with self.lock:
            return [link for link in self.links if needle.encode() in link["line"]]

    def cut(self, needle="/stream"):
        """Closes every live connection whose request line contains `needle`; returns how many."""
        links = self._matching(needle)
        for link in links:
            self._close(link)
        return len(links)

    def freeze(self, needle="/stream"):
        links = self._matching(needle)
        for link in links:
            link["frozen"] = True
        return len(links)

    def sever(self, needle="/stream"):
        """Closes the server's side of every live connection whose request line contains `needle`, keeping the
        browser's side open and silent (a connection a middlebox dropped on one side); returns how many."""
        links = self._matching(needle)
        for link in links:
            link["frozen"] = link["severed"] = True
            try:
                link["upstream"].shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(links)

    def hold(self):
        """From now on, stream requests (on new or kept-alive connections) go into a black hole: never
        forwarded, never answered, and they stay that way after `release()`."""
        self.holding = True

    def release(self):
        self.holding = False

    def pause(self):
        """From now on, new stream requests wait in the proxy, unanswered, until `resume()` forwards them."""
        self.pausing = True

    def resume(self):
        self.pausing = False

    def delay(self, needle):
        """From now on, the server's bytes on connections whose request line contains `needle` wait in the proxy."""
        self.delaying = needle.encode()

    def undelay(self):
        self.delaying = None

    def delayed_text(self):
        """What delay() has kept so far (one answer), decoded; a gzip body (the server's streams) decompressed."""
        with self.lock:
            raw = b"".join(self.delayed)
        head, gap, body = raw.partition(b"\r\n\r\n")
        if gap and b"content-encoding: gzip" in head.lower():
            try:
                body = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body)
            except zlib.error:
                body = b""
        return (head + gap + body).decode("utf-8", "replace")

    def paused_count(self):
        """Stream requests that waited (or wait) for `resume()`."""
        with self.lock:
            return len(self.paused)

    def held_count(self):
        with self.lock:
            return len(self.held)

    def count(self, needle="/stream"):
        return len(self._matching(needle))

    def close(self):
        self.stopping = True
        self.listener.close()
        with self.lock:
            links, threads = list(self.links), list(self.threads)
        for link in links:
            self._close(link)
        for thread in threads:
            thread.join(timeout=5)

    def requests(self, method, path_end):
        """How many `method` requests whose path ends with `path_end` went through (e.g. "POST", "/next")."""
        with self.lock:
            lines = list(self.request_lines)
        wanted = (method.encode(), path_end.encode())
        return sum(1 for line in lines if line.split(b" ")[0] == wanted[0]
                   and line.split(b" ")[1].split(b"?")[0].endswith(wanted[1]))

    def targets(self, method, path_end):
        """The request targets (path and query) of the `method` requests whose path ends with `path_end`."""
        with self.lock:
            lines = list(self.request_lines)
        return [line.split(b" ")[1].decode() for line in lines if line.split(b" ")[0] == method.encode()
                and line.split(b" ")[1].split(b"?")[0].endswith(path_end.encode())]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def json_upstream(answer):
    """A quiet request handler class that answers every GET with `answer(handler)` (a JSON value) as JSON."""
    class Upstream(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps(answer(self)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    return Upstream


@contextlib.contextmanager
def config_server(folder, handler, config, release=None):
    """A small upstream (`handler`, a request handler class) on 127.0.0.1, port 0, in a thread of its own, and a
    rowstream server of the config `config(upstream)` (a dict; `upstream` is the upstream's "http://127.0.0.1:PORT"),
    written to `folder`/config.json. On exit `release()` (if given: lets go of requests the handler holds), then the
    server and the upstream are stopped."""
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    upstream.daemon_threads = True
    thread = threading.Thread(target=upstream.serve_forever, daemon=True)
    thread.start()
    try:
        path = folder / "config.json"
        path.write_text(json.dumps(config("http://127.0.0.1:%d" % upstream.server_address[1])))
        rowstream = RowstreamServer("--config", str(path))
        try:
            yield rowstream
        finally:
            if release:
                release()
            rowstream.stop()
    finally:
        if release:
            release()
        upstream.shutdown()
        upstream.server_close()
        thread.join(timeout=10)


def wait_until(predicate, timeout=TIMEOUT, interval=0.05, message="condition"):
    """Polls `predicate` until it is truthy (returns its value) or fails after `timeout` seconds. The only wait
    of the suite: wait for an outcome, never for a time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting for " + message)


# ---- The event stream, read as a browser's EventSource reads it ------------------------------------------

class SSEEvent:
    """One dispatched event: its type (`message` when it names none), its data (lines joined by "\\n"), its id."""

    def __init__(self, event, data, id):
        self.event, self.data, self.id = event, data, id

    def json(self):
        return json.loads(self.data)

    def __repr__(self):
        return "SSEEvent(%r, %r, id=%r)" % (self.event, self.data[:80], self.id)


LINE_END = re.compile(r"\r\n|\r|\n")


def parse_sse(chunks):
    """Yields the events in an iterable of byte chunks as the HTML spec's EventSource parser does: lines end in
    CRLF, LF or CR (anywhere across chunk boundaries); comment lines (`: ping` heartbeats) may appear anywhere,
    between events or inside one, and are skipped; `data` lines join with "\\n"; a blank line dispatches; one
    space after the colon is dropped; unknown fields are ignored; an event without data is not dispatched."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    buffer, event, data, last_id, after_cr = "", "", [], None, False
    for chunk in chunks:
        buffer += decoder.decode(chunk)
        while True:
            if after_cr and buffer:                                       # a CR that ended the last chunk:
                buffer, after_cr = (buffer[1:] if buffer[0] == "\n" else buffer), False   # drop its LF
            match = LINE_END.search(buffer)
            if not match:
                break
            line, buffer = buffer[:match.start()], buffer[match.end():]
            after_cr = match.group() == "\r" and not buffer
            if line == "":
                if data:
                    yield SSEEvent(event or "message", "\n".join(data), last_id)
                event, data = "", []
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "id" and "\0" not in value:
                last_id = value


def read_sse(url, until, timeout=TIMEOUT, headers=None):
    """Opens the event stream at `url` and returns its events (comments skipped) up to and including the first
    for which `until(event)` is true; fails when the stream ends first or after `timeout` seconds."""
    request = urllib.request.Request(url, headers=dict({"Accept": "text/event-stream"}, **(headers or {})))
    deadline = time.monotonic() + timeout
    seen = []
    with urllib.request.urlopen(request, timeout=timeout) as response:
        def chunks():
            while time.monotonic() < deadline:
                chunk = response.read1(65536)
                if not chunk:
                    return
                yield chunk
        for event in parse_sse(chunks()):
            seen.append(event)
            if until(event):
                return seen
    raise AssertionError("the stream ended or timed out before the expected event; events: %r" % seen)


# ---- The page: its instrumented log (instrument.js), frames, scrolling -----------------------------------

def events(probe, kind):
    """The page's `rowstream:KIND` events so far, as instrument.js logged them."""
    return [event for event in probe.rs()["events"] if event["type"] == kind]


FRAMES = """(n) => new Promise((done) => {
  const step = (k) => (k > 0 ? requestAnimationFrame(() => step(k - 1)) : setTimeout(done, 0));
  step(n);
})"""


def after_frames(page, frames=3):
    """Returns once the page has rendered `frames` more frames and run a task after them: by then every scroll
    event, IntersectionObserver callback and animation event that an earlier action caused has been dispatched.
    What a "nothing happened" assertion waits for, instead of a sleep."""
    page.evaluate(FRAMES, frames)


def wait_settled(probe, message="idle after the batches that fill the viewport"):
    """Waits until the table has filled the viewport and stays idle, its end out of reach: idle with the same rows
    a few frames on. An `idle` alone can be the moment between two batches of the fill, with the next asked at once."""
    def settled():
        shown = len(events(probe, "rows"))
        if not shown or probe.table("data-state") != "idle":
            return False
        after_frames(probe.page)
        return probe.table("data-state") == "idle" and len(events(probe, "rows")) == shown
    wait_until(settled, message=message)
    return probe


def assert_stable_layout(probe):
    """The page's cumulative layout shift (instrument.js) is below 0.01, the suite's bound, since its first paint."""
    cls = probe.rs("window.__rs.cls")
    assert cls < 0.01, "cumulative layout shift %.4f: %r" % (cls, probe.rs("window.__rs.shifts"))


def open_paused(proxy, open_page, path="", **options):
    """Opens `path` through `proxy` with the page's event stream paused there (`CutProxy.pause()`): the first
    paint, for as long as the test needs it; `proxy.resume()` lets the stream (and its first batch) through."""
    proxy.pause()
    paused = proxy.paused_count()
    probe = open_page(proxy.url + path, wait_for_rows=False, **options)
    wait_until(lambda: proxy.paused_count() > paused, message="the page's stream request, paused")
    return probe


TO_THE_BOTTOM = "window.scrollTo(0, document.documentElement.scrollHeight)"


def scroll_until(probe, done, scroll=TO_THE_BOTTOM, timeout=2 * TIMEOUT, message="scrolling"):
    """Runs the `scroll` script until `done()` is truthy (bounded: `timeout` seconds)."""
    def step():
        if done():
            return True
        probe.page.evaluate(scroll)
        return False
    wait_until(step, timeout=timeout, message=message)


def scroll_to_end(probe, timeout=2 * TIMEOUT):
    """Scrolls to the bottom until the list is complete (bounded)."""
    scroll_until(probe, lambda: probe.table("data-state") == "complete", timeout=timeout,
                 message="the list to complete while scrolling")


# ---- Live changes (the demo's live mode) -----------------------------------------------------------------

LIVE_DEMO = ("--demo-items", 300, "--batch-size", 30, "--demo-latency-ms", 20, "--demo-live-seconds", 1,
             "--demo-refresh-seconds", 0)   # refreshed by the tests only

WATCH_LIVE = """() => {
  window.__live = { flashes: 0, events: [] };
  document.addEventListener('animationstart', (e) => { if (e.animationName === 'rs-flash') window.__live.flashes += 1; });
  document.addEventListener('rowstream:live', (e) => window.__live.events.push(e.detail));
}"""

# The `insert` events WATCH_LIVE saw (the page's `rowstream:live` of kind insert).
INSERTS = "window.__live.events.filter((e) => e.kind === 'insert').length"


def refresh(server, table="customers"):
    """One POST of the table's refresh: its summary, or None when the table's refresh rate limit refused it (429)."""
    request = urllib.request.Request(server.url + "/tables/%s/refresh" % table, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        if error.code == 429:
            return None
        raise


def refresh_until_changed(server, table="customers"):
    """POSTs the table's refresh until the demo's live mode has moved on (a generation per second; bounded);
    returns the refresh's summary."""
    def changed():
        summary = refresh(server, table)     # None (429): the next poll asks again
        return summary if summary and summary["inserted"] > 0 and summary["updated"] > 0 else None
    return wait_until(changed, interval=0.3, message="a live change")


def refresh_until_new_on_top(server, inserts, first, table="customers"):
    """Refreshes the table until one of its inserts is new to the tab, and returns (the tab's first row, that
    refresh's summary). The demo's list moves each second whether refreshed or not, so a tab that loaded late may
    hold the row the next refresh inserts already (the page then updates it in place: no new row on top).

    `inserts()` counts the `insert` events the tab applied to this table, `first()` reads the tab's top row as
    [key, has data-live] in one step. Each refresh that inserted sent exactly one `insert` event to the tab (the
    server broadcasts before it answers; nothing else refreshes a LIVE_DEMO table), so the tab has applied every
    one of them once it counts start + their number: its top row is then read after the last, never before."""
    start = inserts()
    sent = []

    def step():
        summary = refresh(server, table)
        if not summary or summary["inserted"] == 0:
            return None                      # refused, or the same second: nothing inserted
        sent.append(summary)
        wait_until(lambda: inserts() >= start + len(sent), message="the refresh's insert applied")
        top = first()
        return top if top[1] else None
    top = wait_until(step, interval=0.3, message="an insert new to the tab, on top")
    return top, sent[-1]
