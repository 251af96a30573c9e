"""Two instances on one PostgreSQL database (bench/instances.sh): PAGES live pages' event
streams spread over both, results saved at RATE per second for SECONDS, alternately on
either instance. Measures, per result, the time from sending the save to each page's
event (pages on the saving instance and on the other one), the save's own time, and
duplicates (an event a page got twice).

Usage: python3 instances.py PORT_A PORT_B TOURNAMENT VERSION PAGES RATE SECONDS COOKIE CSRF FIRST_TABLE
Prints one line: key=value pairs."""
import asyncio
import sys
import time
import urllib.parse

port_a, port_b = int(sys.argv[1]), int(sys.argv[2])
tournament, version, pages = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rate, seconds = float(sys.argv[6]), float(sys.argv[7])
cookie, csrf, first_table = sys.argv[8], sys.argv[9], int(sys.argv[10])

arrivals = {}  # (page, event id) -> [times]
page_port = {}


async def page(i, port):
    page_port[i] = port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /tournaments/{tournament}/live/events?v={version} HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    buffer = ""
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        now = time.monotonic()
        buffer += chunk.decode("utf-8", "replace")
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            for line in block.splitlines():
                if line.startswith("id: "):
                    arrivals.setdefault((i, int(line[4:])), []).append(now)


async def save(port, table):
    body = urllib.parse.urlencode(
        {"_csrf": csrf, "table": table, "points_a": 700 + table % 300}
    ).encode()
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST /tournaments/{tournament}/passen/8/entry HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Cookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
    )
    await writer.drain()
    status = (await reader.readline()).split()[1]
    await reader.read()
    writer.close()
    return start, time.monotonic(), int(status)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


async def main():
    # Kept: a task nobody refers to may be collected while it waits.
    tasks = []
    for i in range(pages):
        tasks.append(asyncio.create_task(page(i, port_a if i % 2 == 0 else port_b)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2.0)
    saves = []
    count = int(rate * seconds)
    current = version
    for k in range(count):
        port = port_a if k % 2 == 0 else port_b
        start, end, status = await save(port, first_table + k)
        # Only a save that wrote makes a new version (a table with the Pauschale is refused).
        if status == 303:
            current += 1
        saves.append((current if status == 303 else None, port, start, end, status))
        await asyncio.sleep(max(0.0, 1.0 / rate - (end - start)))
    await asyncio.sleep(3.0)
    same, other, missing, duplicates = [], [], 0, 0
    for v, port, start, end, status in saves:
        if v is None:
            continue
        for i in range(pages):
            times = arrivals.get((i, v))
            if not times:
                missing += 1
                continue
            duplicates += len(times) - 1
            (same if page_port[i] == port else other).append(times[0] - start)
    entry = [end - start for _, _, start, end, _ in saves]
    ok = sum(1 for s in saves if s[4] == 303)
    print(
        f"saves={len(saves)} saved={ok} "
        f"event_p50_ms={pct(same + other, 0.5) * 1e3:.1f} event_p99_ms={pct(same + other, 0.99) * 1e3:.1f} "
        f"same_p99_ms={pct(same, 0.99) * 1e3:.1f} other_p99_ms={pct(other, 0.99) * 1e3:.1f} "
        f"entry_p50_ms={pct(entry, 0.5) * 1e3:.1f} entry_p99_ms={pct(entry, 0.99) * 1e3:.1f} "
        f"missing={missing} duplicates={duplicates}"
    )
    import os
    os._exit(0)


asyncio.run(main())
