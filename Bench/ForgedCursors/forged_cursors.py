#!/usr/bin/env python3
"""Forged sealed cursors against a running rowstream (issue 13 item 4; docs/HARDENING.md, "Sealed cursors").

Usage: forged_cursors.py PORT PID [--length N] [--requests N] [--connections N] [--seconds N] [--plain]
                          [--route PATH]

1. CPU per request: --requests requests, one after another on one keep-alive connection, each
   `GET /api/tables/customers/pages?cursor=FORGED` with a forged cursor of --length characters
   (base64url, with a '.' so the old `ciphertext.tag` format parses it; --plain: without, as the new format
   reads it). Server CPU from /proc/PID/stat. --route: another path for the same query (a control, e.g. /healthz).
2. /healthz under attack: --connections threads send forged cursors as fast as they can for --seconds while
   one more connection times GET /healthz (one at a time); p50 and p99 of those, and of /healthz alone first.
Loopback only; every wait bounded; it stops nothing it did not start.
"""
import os, random, socket, string, sys, threading, time

def argument(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default

port, pid = int(sys.argv[1]), int(sys.argv[2])
length = argument("--length", 8000)
requests = argument("--requests", 2000)
connections = argument("--connections", 16)
seconds = argument("--seconds", 10)
alphabet = string.ascii_letters + string.digits + "-_"
rng = random.Random(42)
half = length // 2
dot = "-" if "--plain" in sys.argv else "."
forged = "".join(rng.choice(alphabet) for _ in range(half)) + dot + "".join(rng.choice(alphabet) for _ in range(length - half - 1))
route = sys.argv[sys.argv.index("--route") + 1] if "--route" in sys.argv else "/api/tables/customers/pages"
forged_request = f"GET {route}?cursor={forged} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
health_request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

def cpu_seconds():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s

def exchange(s, request):
    """Sends one request, reads one response (Content-Length bodies only); returns the status."""
    s.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk: raise ConnectionError("closed")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    size = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length": size = int(value)
    while len(body) < size:
        chunk = s.recv(65536)
        if not chunk: raise ConnectionError("closed")
        body += chunk
    return int(head.split(b" ")[1])

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000

s = connect()
statuses = {}
before, started = cpu_seconds(), time.monotonic()
for _ in range(requests):
    status = exchange(s, forged_request)
    statuses[status] = statuses.get(status, 0) + 1
used, wall = cpu_seconds() - before, time.monotonic() - started
s.close()
print(f"forged cursor of {length} chars: {requests} requests, statuses {statuses}, "
      f"server CPU {used * 1e6 / requests:.1f} us/request, wall {wall * 1e3 / requests:.2f} ms/request")

def time_health(duration):
    s, times, end = connect(), [], time.monotonic() + duration
    while time.monotonic() < end:
        t = time.monotonic()
        exchange(s, health_request)
        times.append(time.monotonic() - t)
        time.sleep(0.01)
    s.close()
    return times

idle = time_health(3)
print(f"/healthz alone: p50 {percentile(idle, 0.5):.2f} ms, p99 {percentile(idle, 0.99):.2f} ms ({len(idle)} requests)")
stop, sent = threading.Event(), [0] * connections
def attack(index):
    s = connect()
    while not stop.is_set():
        exchange(s, forged_request)
        sent[index] += 1
    s.close()
threads = [threading.Thread(target=attack, args=(i,), daemon=True) for i in range(connections)]
for t in threads: t.start()
time.sleep(1)
before = cpu_seconds()
loaded = time_health(seconds)
used = cpu_seconds() - before
stop.set()
for t in threads: t.join(timeout=60)
print(f"/healthz with {connections} connections sending forged cursors: p50 {percentile(loaded, 0.5):.2f} ms, "
      f"p99 {percentile(loaded, 0.99):.2f} ms ({len(loaded)} requests); forged requests answered: {sum(sent)}, "
      f"server CPU {used / seconds * 100:.0f}% of one core")
