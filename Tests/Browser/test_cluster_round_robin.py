"""Two instances sharing Redis and one sealing key behind nginx with a plain round-robin upstream: no routing by
session (docs/SCALING.md, "Any instance answers any request"). Most of the page's demand POSTs reach the instance
that does not hold its stream, which hands them on through Redis. One page proves scroll (every row once, in order),
Retry (after an upstream error, the retried batch loads) and live (a refresh POSTed through nginx reaches the page)."""
import base64
import json
import os
import re
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest

from support import TIMEOUT, RowstreamServer, scroll_until, stop_process, wait_until
from test_cluster_drain import NGINX, Nginx

REDIS = "/usr/bin/redis-server"
FORWARDED = re.compile(r'^rowstream_demands_forwarded_total\{outcome="accepted"\} (\S+)$', re.M)


class Redis:
    """redis-server on a unix socket in a temporary folder (no TCP port, nothing on disk), stopped by its PID."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory(prefix="rowstream-redis-")
        self.socket = os.path.join(self.folder.name, "redis.sock")
        self.process = subprocess.Popen(
            [REDIS, "--port", "0", "--unixsocket", self.socket, "--unixsocketperm", "700", "--save", "",
             "--appendonly", "no", "--dir", self.folder.name],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: self.process.poll() is not None or os.path.exists(self.socket), message="redis-server")
        if self.process.poll() is not None:
            raise RuntimeError("redis-server did not start")

    def stop(self):
        stop_process(self.process)
        self.folder.cleanup()


@pytest.fixture
def round_robin():
    for program in (NGINX, REDIS):
        if not os.access(program, os.X_OK):
            pytest.fail("%s is not installed (Scripts/cluster and Scripts/test install it)" % program)
    redis, nginx, instances = None, None, []
    with tempfile.TemporaryDirectory(prefix="rowstream-key-") as folder:
        key = os.path.join(folder, "secret")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
            file.write(base64.b64encode(os.urandom(32)).decode() + "\n")
        try:
            redis = Redis()
            flags = ("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 20, "--demo-fail-every", 3,
                     "--demo-live-seconds", 1, "--demo-refresh-seconds", 0, "--max-connections-per-address", 0,
                     "--redis", "unix://" + redis.socket, "--secret-file", key)
            for tag in range(2):
                instances.append(RowstreamServer(*flags, "--instance-tag", tag))
            nginx = Nginx([instance.port for instance in instances], round_robin=True)
            yield nginx, instances
        finally:
            if nginx is not None:
                nginx.stop()
            for instance in instances:
                instance.stop()
            if redis is not None:
                redis.stop()


def forwarded(instances):
    """Demands the instances handed to the other one and had done there."""
    return sum(int(float(m)) for instance in instances for m in FORWARDED.findall(instance.get("/metrics")[1]))


def refreshed(url):
    """POSTs the table's refresh through nginx; its summary once it brought a new customer, else None (the demo
    moved on no further yet, the rate limit, or an upstream error of --demo-fail-every)."""
    request = urllib.request.Request(url + "/tables/customers/refresh", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            summary = json.load(response)
    except urllib.error.HTTPError as error:
        if error.code in (429, 502):
            return None
        raise
    return summary if summary["inserted"] > 0 else None


def test_scroll_retry_and_live_through_a_round_robin_balancer(round_robin, open_page):
    nginx, instances = round_robin
    probe = open_page(nginx.url)
    retries = []

    def complete_or_retried():
        """Complete; or after an error row, Retry clicked (its POST may reach either instance) and that row gone.
        The retried batch may fail too (--demo-fail-every): a new error row then takes the clicked one's place, maybe
        before this looks again, and the next poll clicks its Retry. Waiting for no error row at all missed that and
        waited out its timeout (seen once in CI)."""
        state = probe.table("data-state")
        if state == "error":
            row = probe.page.query_selector("#rs-error")
            probe.page.click("#rs-retry")
            retries.append(state)
            wait_until(lambda: row is None or row.evaluate("row => !row.isConnected"),
                       message="the clicked error row to go")
        return state == "complete"
    scroll_until(probe, complete_or_retried, message="the list to complete, with Retry after every error")
    assert len(retries) >= 1
    # Every row exactly once (the demo's live mode puts a new customer on top every second, so the offsets the walk
    # reads shift: rows seen again are dropped by key, and new customers may show on top).
    keys = probe.keys()
    assert len(keys) == len(set(keys)) and set(map(str, range(1, 61))) <= set(keys)
    assert forwarded(instances) >= 1, "demands reached the instance without the stream and were handed on"

    wait_until(lambda: refreshed(nginx.url), interval=0.3, message="a live change, refreshed through nginx")
    wait_until(lambda: probe.page.query_selector("#rs-rows tr[data-live]") is not None, message="the change shown")
    keys = probe.keys()
    assert len(keys) == len(set(keys)) > 60
