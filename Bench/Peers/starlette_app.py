"""The sse-starlette peer of Scripts/bench --peers (sse-starlette 3.7.0 on uvicorn 0.54.0, pinned by the script).

GET /stream       an SSE stream that stays open (ping every 15 s), the common way sse-starlette is used: one
                  queue and one generator per viewer; each event is encoded by sse-starlette for each viewer.
POST /publish     broadcasts the body (one line, `ts=<us> seq=<n> ` and padding) as a `message` event to every
                  open stream. A viewer whose queue holds 64 undelivered messages misses the message (the load
                  client counts it lost), so a slow viewer never grows the server's memory without bound.
Run: uvicorn starlette_app:app --app-dir Bench/Peers --host 127.0.0.1 --port P --no-access-log
"""
import asyncio

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

subscribers: set[asyncio.Queue] = set()


async def stream(request):
    queue: asyncio.Queue = asyncio.Queue(maxsize=64)
    subscribers.add(queue)

    async def events():
        try:
            while True:
                yield {"data": await queue.get()}
        finally:
            subscribers.discard(queue)

    return EventSourceResponse(events(), ping=15)


async def publish(request):
    body = (await request.body()).decode()
    for queue in list(subscribers):
        try:
            queue.put_nowait(body)
        except asyncio.QueueFull:
            pass
    return Response(status_code=202)


app = Starlette(routes=[Route("/stream", stream), Route("/publish", publish, methods=["POST"])])
