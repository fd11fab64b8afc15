"""Test support: the real rowstream server (by PID), a TCP proxy that can cut or freeze live connections,
and small helpers to read /metrics and the demo upstream. Every wait is bounded; every thread is stopped."""
import json
import os
import re
import select
import signal
import socket
import subprocess
import threading
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("ROWSTREAM_BINARY", os.path.join(ROOT, ".build", "release", "rowstream"))
BANNER = re.compile(r"serving http://127\.0\.0\.1:(\d+)/ \(demo upstream on 127\.0\.0\.1:(\d+)\)")


class RowstreamServer:
    """One `rowstream` process on 127.0.0.1 port 0, started with the given flags, stopped by its PID."""

    def __init__(self, *flags):
        self.process = subprocess.Popen(
            [BINARY, "--port", "0", "--public", os.path.join(ROOT, "Public"), *map(str, flags)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        line = self._read_banner(timeout=15)
        match = BANNER.search(line)
        if not match:
            self.stop()
            raise RuntimeError("rowstream did not start: %r" % line)
        self.port, self.demo_port = int(match.group(1)), int(match.group(2))
        self.url = "http://127.0.0.1:%d" % self.port

    def _read_banner(self, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        return self.process.stdout.readline().decode() if ready else ""

    def stop(self):
        """SIGTERM by PID, then SIGKILL if it has not exited within 10 s."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()

    def get(self, path, timeout=10):
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

    def upstream_keys(self):
        """Every record id of the demo upstream, fetched directly from it, page by page."""
        keys, cursor = [], ""
        for _ in range(10_000):
            url = "http://127.0.0.1:%d/v1/customers?limit=500&cursor=%s" % (self.demo_port, cursor)
            with urllib.request.urlopen(url, timeout=30) as response:
                page = json.load(response)
            keys += [str(item["id"]) for item in page["data"]]
            if not page["has_more"]:
                return keys
            cursor = page["next_cursor"]
        raise AssertionError("the upstream never ended")


class CutProxy:
    """A TCP proxy in front of the server. `cut()` closes live connections whose request line matches;
    `freeze()` stops forwarding server bytes on them while keeping them open (a silent, half-dead stream);
    `hold()` swallows new stream requests (never answered) until `release()`. Threads stop on `close()`."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.lock = threading.Lock()
        self.links = []            # [client, upstream, first_line, frozen_flag_list]
        self.holding = False
        self.held = []
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
                ready, _, _ = select.select([client, upstream], [], [], 0.2)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        if data.split(b" ", 1)[0] in (b"GET", b"POST", b"HEAD"):
                            link["line"] = data.split(b"\r\n", 1)[0]   # the latest request (keep-alive)
                            if self.holding and b"/stream" in link["line"] and not link["frozen"]:
                                link["frozen"] = link["held"] = True       # swallowed: never answered
                                with self.lock:
                                    self.held.append(link)
                        if not link.get("held"):
                            upstream.sendall(data)
                    elif not link["frozen"]:
                        client.sendall(data)
        except OSError:
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

    def hold(self):
        """From now on, stream requests (on new or kept-alive connections) go into a black hole: never
        forwarded, never answered, and they stay that way after `release()`."""
        self.holding = True

    def release(self):
        self.holding = False

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


def wait_until(predicate, timeout=15, interval=0.05, message="condition"):
    """Polls `predicate` until it is truthy (returns its value) or fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting for " + message)
