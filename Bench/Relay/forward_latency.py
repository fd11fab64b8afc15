#!/usr/bin/env python3
"""The added latency of a forwarded demand (docs/SCALING.md, "Any instance answers any request"): two rowstream
instances with one key file share a redis-server on a unix socket; one viewer's stream is on instance A. `POST next`
of its session goes alternately to A (direct) and to B (forwarded to A through Redis), each on a keep-alive
connection of its own, and each answer's time is taken. Prints p50/p90/p99 of both and their difference as JSON.
Every process it starts is stopped by PID. Loopback only.
Usage: forward_latency.py [--binary .build/release/rowstream] [--requests 2000]"""
import argparse
import base64
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import tempfile
import threading
import time

BANNER = re.compile(r"Rowstream serving http://127\.0\.0\.1:(\d+)/")


def start(binary, flags):
    process = subprocess.Popen([binary, "--port", "0", *flags], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ready, _, _ = select.select([process.stdout], [], [], 30)
    line = process.stdout.readline().decode() if ready else ""
    match = BANNER.search(line)
    if not match:
        stop(process)
        raise RuntimeError("rowstream did not start: %r" % line)
    return process, int(match.group(1))


def stop(process):
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/rowstream")
    parser.add_argument("--requests", type=int, default=2000)
    arguments = parser.parse_args()
    processes = []
    with tempfile.TemporaryDirectory(prefix="rowstream-relay-bench-") as folder:
        try:
            sock = os.path.join(folder, "redis.sock")
            redis = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", sock, "--save", "",
                                      "--appendonly", "no", "--dir", folder],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(redis)
            for _ in range(300):
                if os.path.exists(sock):
                    break
                time.sleep(0.01)
            key = os.path.join(folder, "secret")
            with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
                file.write(base64.b64encode(os.urandom(32)).decode() + "\n")
            flags = ["--public", "Public", "--redis", "unix://" + sock, "--secret-file", key, "--demo-items", "100000",
                     "--demo-latency-ms", "0", "--batch-size", "10", "--max-connections-per-address", "0"]
            a, port_a = start(arguments.binary, flags)
            processes.append(a)
            b, port_b = start(arguments.binary, flags)
            processes.append(b)

            stream = socket.create_connection(("127.0.0.1", port_a))
            stream.sendall(b"GET /tables/customers/stream HTTP/1.1\r\nHost: a\r\n\r\n")
            seen = b""
            while b'"next":"' not in seen:
                seen += stream.recv(65536)
            next_path = re.search(rb'"next":"([^"]+)"', seen).group(1).decode()
            threading.Thread(target=lambda: [None for _ in iter(lambda: stream.recv(1 << 20), b"")],
                             daemon=True).start()   # keeps reading the stream

            direct = http.client.HTTPConnection("127.0.0.1", port_a)
            forwarded = http.client.HTTPConnection("127.0.0.1", port_b)
            times = {"direct": [], "forwarded": []}
            for _ in range(50):   # warm: both relays subscribed, connections open
                for connection in (direct, forwarded):
                    connection.request("POST", next_path)
                    connection.getresponse().read()
            for index in range(arguments.requests):
                for name, connection in (("direct", direct), ("forwarded", forwarded))[::1 if index % 2 else -1]:
                    began = time.perf_counter()
                    connection.request("POST", next_path)
                    response = connection.getresponse()
                    response.read()
                    times[name].append((time.perf_counter() - began) * 1e6)
                    assert response.status == 202, response.status
            result = {}
            for name, values in times.items():
                for label, fraction in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
                    result["relay_%s_next_%s_us" % (name, label)] = round(percentile(values, fraction), 1)
            result["relay_added_p50_us"] = round(result["relay_forwarded_next_p50_us"] - result["relay_direct_next_p50_us"], 1)
            result["relay_requests_each"] = arguments.requests
            print(json.dumps(result, indent=1))
        finally:
            for process in reversed(processes):
                stop(process)


if __name__ == "__main__":
    main()
