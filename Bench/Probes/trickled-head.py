#!/usr/bin/env python3
# Usage: Bench/Probes/trickled-head.py PORT SERVER_PID ROUNDS [PAUSE_US]   (see docs/HARDENING.md, issue 13)
# PAUSE_US (default 0): a pause after each send(), so that each byte arrives in a read of its own.
# Issue 13 item 3 probe: a 24 KB request head sent one byte per send(), N times; prints the server's CPU time per head.
import socket, sys, time, os
port, pid, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
pause = int(sys.argv[4]) / 1e6 if len(sys.argv) > 4 else 0
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick   # utime + stime
head = "GET /" + "a" * 8000 + " HTTP/1.1\r\nHost: h\r\n"
head += "".join(f"X-Field-{i}: {'v' * 163}\r\n" for i in range(90)) + "\r\n"
data = head.encode()
start = cpu()
for _ in range(rounds):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for i in range(len(data)):
        s.send(data[i:i + 1])
        if pause: time.sleep(pause)
    s.settimeout(10)
    reply = s.recv(100)
    s.close()
used = cpu() - start
print(f"{len(data)} byte head x {rounds}, one byte per send() (pause {pause * 1e6:.0f} us): server CPU {used * 1000 / rounds:.0f} ms per head; reply {reply[:12]!r}")
