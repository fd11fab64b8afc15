#!/usr/bin/env python3
# Usage: Bench/Probes/pending-flood.py PORT SERVER_PID SLOW_PATH COUNT   (see docs/HARDENING.md, issue 13)
# Issue 13 item 1 probe: one GET to a slow route, then N x 1 MiB on the same socket; prints server RSS before/after.
import socket, subprocess, sys, time, select
port, pid, path, count = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rss = lambda: int(subprocess.check_output(["ps", "-o", "rss=", "-p", str(pid)]).strip())
before = rss()
s = socket.create_connection(("127.0.0.1", port))
s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
time.sleep(0.3)
s.setblocking(False)
blob = b"x" * (1 << 20)
sent, start = 0, time.time()
while sent < count << 20 and time.time() - start < 10:
    try:
        sent += s.send(blob)
    except BlockingIOError:
        if not select.select([], [s], [], 2.0)[1]:
            break
time.sleep(0.5)
print(f"sent {sent >> 20} MiB in {time.time() - start:.1f} s; server RSS {before // 1024} MB -> {rss() // 1024} MB")
