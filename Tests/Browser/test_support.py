"""The suite's own reader of event streams (support.parse_sse / read_sse) reads them as a browser does: comments
(`: ping` heartbeats) anywhere, any line ending, any split into chunks. No browser, no rowstream server."""
import socket
import threading

from support import parse_sse, read_sse

# Two events with a comment before, between and inside them, each line ending in a different way; an `id` that
# the next event keeps; a field without a colon; a lone `data` line (empty data, still an event); a comment-only
# block that dispatches nothing.
STREAM = (b": ping\n\nevent: session\r\nid: 7\r\n: ping\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n"
          b": ping\n\n: ping\r: ping\r\n\rretry\ndata\n\nevent: rows\rdata:  two spaces\r: ping\rdata: \xc3\xbc\r\r")
EXPECTED = [("session", '{"a":\n1}', "7"), ("message", "", "7"), ("rows", " two spaces\nü", "7")]


def parsed(chunks):
    return [(e.event, e.data, e.id) for e in parse_sse(chunks)]


def test_comments_anywhere_and_every_line_ending():
    assert parsed([STREAM]) == EXPECTED


def test_every_split_into_two_chunks_reads_the_same():
    for cut in range(len(STREAM) + 1):              # across CRLF, inside a UTF-8 sequence, inside a comment
        assert parsed([STREAM[:cut], STREAM[cut:]]) == EXPECTED, "split at %d" % cut


def test_one_byte_at_a_time_reads_the_same():
    assert parsed(STREAM[i:i + 1] for i in range(len(STREAM))) == EXPECTED


def test_read_sse_stops_at_the_event_asked_for_over_http():
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve():
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
            for i in range(0, len(STREAM), 5):       # small writes: the reader sees the stream in pieces
                connection.sendall(STREAM[i:i + 5])
            connection.recv(1)                        # held open until the client closes
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        seen = read_sse("http://127.0.0.1:%d/stream" % port, until=lambda e: e.event == "rows", timeout=10)
        assert [(e.event, e.data, e.id) for e in seen] == EXPECTED
    finally:
        thread.join(timeout=10)
        listener.close()
