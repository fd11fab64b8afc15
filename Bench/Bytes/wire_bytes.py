#!/usr/bin/env python3
"""Bytes on the wire per row of a table's event stream, as a viewer gets them (Scripts/bench bytes).

Usage: wire_bytes.py PORT TABLE BATCHES [ACCEPT_ENCODING]
Opens /tables/TABLE/stream (with `Accept-Encoding: ACCEPT_ENCODING` when given), asks for BATCHES batches in all
(POST the session's `next` after each `rows` event), and prints one JSON line: the body bytes received on the socket
(after the response head; the coded bytes when coded), the rows received, the decoded bytes, bytes per row, and
the Content-Encoding answered. Every wait is bounded (30 s per read)."""
import json
import re
import socket
import sys
import zlib


def main():
    port, table, batches = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    coding = sys.argv[4] if len(sys.argv) > 4 else None
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = "GET /tables/%s/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n" % table
    if coding:
        request += "Accept-Encoding: %s\r\n" % coding
    sock.sendall((request + "\r\n").encode())
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("closed before the head")
        raw += chunk
    head, body = raw.split(b"\r\n\r\n", 1)
    encoding = re.search(rb"(?im)^content-encoding:\s*(\S+)", head)
    encoding = encoding.group(1).decode() if encoding else "identity"
    inflater = zlib.decompressobj(31) if encoding == "gzip" else None
    wire, text, rows, seen = 0, "", 0, 0
    pending = body
    while seen < batches:
        if not pending:
            pending = sock.recv(65536)
            if not pending:
                break
        wire += len(pending)
        text += (inflater.decompress(pending) if inflater else pending).decode("utf-8", "replace")
        pending = b""
        while "\n\n" in text:
            event, text = text.split("\n\n", 1)
            name = re.search(r"(?m)^event: (\S+)", event)
            name = name.group(1) if name else "message"
            data = "\n".join(line[6:] for line in event.split("\n") if line.startswith("data: "))
            if name == "session":
                next_url = json.loads(data)["next"]
            elif name == "rows":
                rows += data.count("<tr ")
                seen += 1
                if seen < batches:
                    post(port, next_url)
            elif name == "complete":
                seen = batches
    decoded = wire if not inflater else None
    print(json.dumps({"wire_bytes": wire, "rows": rows, "bytes_per_row": round(wire / max(rows, 1), 1),
                      "encoding": encoding, "identity_bytes": decoded}))


def post(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                      % path).encode())
        while sock.recv(65536):
            pass


if __name__ == "__main__":
    main()
