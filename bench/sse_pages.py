"""Opens N live pages' event streams (as the phones' browsers do: `?v=<version>`) and counts
what the server sends them until told to stop; used by bench/sse.sh.

Usage: python3 sse_pages.py PORT TOURNAMENT VERSION N READY_FILE STOP_FILE
Prints: bytes events deltas resets (received after all N were connected)."""
import asyncio
import os
import sys

port, tournament, version, count = (int(a) for a in sys.argv[1:5])
ready_file, stop_file = sys.argv[5], sys.argv[6]
totals = {"bytes": 0, "events": 0, "delta": 0, "reset": 0}
counting = False


async def page():
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /tournaments/{tournament}/live/events?v={version} HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")  # response head
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        if counting:
            totals["bytes"] += len(chunk)
            text = chunk.decode("utf-8", "replace")
            totals["events"] += text.count("event: ")
            totals["delta"] += text.count("event: delta")
            totals["reset"] += text.count("event: reset")


async def main():
    global counting
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(page()))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    counting = True
    open(ready_file, "w").close()
    while not os.path.exists(stop_file):
        await asyncio.sleep(0.1)
    print(totals["bytes"], totals["events"], totals["delta"], totals["reset"])
    os._exit(0)


asyncio.run(main())
