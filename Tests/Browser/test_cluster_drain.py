"""Two instances behind nginx with the config Scripts/cluster generates (docs/SCALING.md): the instance serving a
page drains on SIGTERM and the page carries on through nginx on the other, every row exactly once. Without a
sealing key shared by the instances the other one cannot read the page's resume token and starts it over
(`reset`: the page clears first); with one it resumes after the last batch. Either way nothing is doubled or lost."""
import os
import socket
import subprocess
import tempfile

import pytest

from support import ROOT, TIMEOUT, RowstreamServer, events, scroll_to_end, stop_process, wait_until

NGINX = "/usr/sbin/nginx"
OUT_OF_REACH = """() => document.getElementById('rs-table').dataset.state === 'idle'
  && document.getElementById('rs-sentinel').getBoundingClientRect().top
     > window.innerHeight + window.Rowstream.config.prefetchMargin"""

FLAGS = ("--demo-items", 95, "--batch-size", 10, "--demo-latency-ms", 100, "--drain-seconds", 2,
         "--max-connections-per-address", 0)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def accepts(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


class Nginx:
    """nginx in the foreground over the instances on `ports` (instance i runs with --instance-tag i), its config
    from Scripts/lib/nginx-cluster.sh; stopped by its PID. nginx cannot take port 0: a free port is picked, and
    the next one if another process takes it first (at most 5 tries)."""

    def __init__(self, ports, tls=(), round_robin=False):
        """`tls`: (certificate, key) PEM paths: https with HTTP/2 (Scripts/cluster --tls). `round_robin`: one plain
        round-robin upstream, no routing by session (Scripts/cluster --balance round-robin)."""
        self.folder = tempfile.TemporaryDirectory(prefix="rowstream-nginx-")
        os.makedirs(os.path.join(self.folder.name, "nginx-tmp"))
        self.process = None
        tls_args = (["--round-robin"] if round_robin else []) + (["--tls", *tls] if tls else [])
        for _ in range(5):
            self.port = free_port()
            config = subprocess.run(
                ["bash", "-c", 'source Scripts/lib/nginx-cluster.sh && nginx_cluster_conf "$@"', "conf",
                 *tls_args, self.folder.name, str(self.port), *map(str, ports)],
                cwd=ROOT, check=True, capture_output=True, text=True, timeout=TIMEOUT).stdout
            path = os.path.join(self.folder.name, "nginx.conf")
            with open(path, "w") as file:
                file.write(config)
            self.process = subprocess.Popen([NGINX, "-c", path, "-e", os.path.join(self.folder.name, "error.log")],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_until(lambda: self.process.poll() is not None or accepts(self.port), message="nginx to listen")
            except AssertionError:
                self.stop()
                raise
            if self.process.poll() is None:
                self.url = "%s://127.0.0.1:%d" % ("https" if tls else "http", self.port)
                return
        self.stop()
        raise RuntimeError("nginx did not start")

    def stop(self):
        """SIGTERM by PID (the master stops its workers), SIGKILL past 10 s; removes its folder."""
        if self.process is not None:
            stop_process(self.process)
        self.folder.cleanup()


@pytest.fixture
def cluster():
    if not os.access(NGINX, os.X_OK):
        pytest.fail("nginx is not installed (Scripts/cluster and Scripts/test install it)")
    instances = []
    nginx = None
    try:
        for tag in range(2):
            instances.append(RowstreamServer(*FLAGS, "--instance-tag", tag))
        nginx = Nginx([instance.port for instance in instances])
        yield nginx, instances
    finally:
        if nginx is not None:
            nginx.stop()
        for instance in instances:
            instance.stop()


def test_drained_instance_hands_its_viewer_to_the_other(cluster, open_page):
    nginx, instances = cluster
    probe = open_page(nginx.url)
    # Idle with its end out of reach: the page asks for nothing more until scrolled, so no demand POST is on its
    # way to the instance that drains (one would meet nginx's 502 while the instance closes).
    wait_until(lambda: len(events(probe, "rows")) >= 2 and probe.page.evaluate(OUT_OF_REACH),
               message="two batches or more, idle, the end out of reach")
    wait_until(lambda: sum(instance.metric("rowstream_streams_open") for instance in instances) == 1,
               message="the page's one stream")
    holder = next(instance for instance in instances if instance.metric("rowstream_streams_open") == 1)
    other = next(instance for instance in instances if instance is not holder)

    holder.stop()                                     # SIGTERM: the drain; stop() waits for the exit (exit 0)
    assert holder.process.returncode == 0
    wait_until(lambda: len(events(probe, "session")) >= 2, message="the page's reconnection")
    wait_until(lambda: other.metric("rowstream_streams_open") == 1, message="the stream on the other instance")
    scroll_to_end(probe)                              # its demand POSTs reach the other instance through nginx
    assert probe.keys() == other.upstream_keys()      # every row exactly once, in order
    assert "Reconnecting" not in probe.page.text_content("#rs-status")
