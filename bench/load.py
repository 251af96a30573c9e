"""Load for bench/hardening.sh: the Büro's latency alone and beside a load, and many clerks
saving at once. Standard library only (threads, http.client).

Usage:
  python3 load.py office PORT LOAD CLIENTS FIRST_TABLE
      LOAD: login-flood (anonymous logins, each from an address of its own, so that no
      throttle stops them and every one costs a password check), ranking-json (anonymous
      GET /tournaments/1/ranking.json) or none. Samples of the Büro alternate between idle
      and loaded; prints the medians of its entry page and of its saves (Passe 8, tables
      from FIRST_TABLE on) and their ratios.
  python3 load.py clerks PORT CLIENTS SAVES FIRST_TABLE
      CLIENTS clerks (each logged in, own connection) save SAVES results each at once, on
      tables of their own; prints p50, p99 and max of the saves.
"""

import http.client
import re
import statistics
import sys
import threading
import time
import urllib.parse

HOST = "127.0.0.1"


class Session:
    """A logged-in Büro browser: one kept-alive connection, its cookie and form token."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)
        body = urllib.parse.urlencode({"username": "demo", "password": "demo-passwort"})
        self.conn.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
        r = self.conn.getresponse()
        r.read()
        cookie = r.getheader("Set-Cookie") or ""
        self.cookie = cookie.split(";")[0]
        page = self.get("/tournaments/1/passen/8/entry")[1]
        self.csrf = re.search(r'name="_csrf" value="([^"]*)"', page).group(1)

    def get(self, path):
        start = time.perf_counter()
        self.conn.request("GET", path, headers={"Cookie": self.cookie})
        r = self.conn.getresponse()
        body = r.read().decode("utf-8", "replace")
        return time.perf_counter() - start, body, r.status

    def save(self, table):
        body = urllib.parse.urlencode({"_csrf": self.csrf, "table": table, "points_a": 600 + table % 300})
        start = time.perf_counter()
        self.conn.request("POST", "/tournaments/1/passen/8/entry", body, {
            "Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"})
        r = self.conn.getresponse()
        r.read()
        return time.perf_counter() - start, r.status


DONE = [0]


def login_flood(port, index, stop):
    """Anonymous logins with an invalid name, each from a new loopback address."""
    n = 0
    while not stop.is_set():
        n += 1
        DONE[0] += 1
        source = f"127.{10 + index}.{(n // 250) % 250}.{1 + n % 250}"
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=60, source_address=(source, 0))
            body = urllib.parse.urlencode({"username": "in valid", "password": "x"})
            c.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
            c.getresponse().read()
            c.close()
        except OSError:
            time.sleep(0.01)


def ranking_json(port, index, stop):
    c = http.client.HTTPConnection(HOST, port, timeout=60)
    while not stop.is_set():
        DONE[0] += 1
        try:
            c.request("GET", "/tournaments/1/ranking.json")
            c.getresponse().read()
        except (OSError, http.client.HTTPException):
            c = http.client.HTTPConnection(HOST, port, timeout=60)


LOADS = {"login-flood": login_flood, "ranking-json": ranking_json}


def ms(seconds):
    return seconds * 1000


def office(port, load, clients, first_table):
    s = Session(port)
    table = first_table
    loaded_seconds = 0.0
    samples = {("idle", "page"): [], ("loaded", "page"): [], ("idle", "save"): [], ("loaded", "save"): []}
    for _round in range(4):
        for state in ("idle", "loaded"):
            stop = threading.Event()
            threads = []
            if state == "loaded" and load != "none":
                threads = [threading.Thread(target=LOADS[load], args=(port, i, stop), daemon=True)
                           for i in range(clients)]
                for t in threads:
                    t.start()
                time.sleep(1.0)
            began = time.perf_counter()
            for _ in range(5):
                took, _, status = s.get("/tournaments/1/passen/8/entry")
                samples[(state, "page")].append(ms(took))
                took, status = s.save(table)
                table += 1
                if status == 303:
                    samples[(state, "save")].append(ms(took))
            if threads:
                loaded_seconds += time.perf_counter() - began + 1.0
            stop.set()
            for t in threads:
                t.join()
            time.sleep(0.3)
    for what in ("page", "save"):
        idle = statistics.median(samples[("idle", what)])
        loaded = statistics.median(samples[("loaded", what)])
        print(f"{what}: idle {idle:.1f} ms, under {clients} × {load} {loaded:.1f} ms, ratio {loaded / idle:.2f}×")
    if loaded_seconds:
        print(f"load: {DONE[0]} requests, {DONE[0] / loaded_seconds:.0f}/s while loaded")


def clerks(port, clients, saves, first_table):
    sessions = [Session(port) for _ in range(clients)]
    times, statuses = [], []
    lock = threading.Lock()
    go = threading.Barrier(clients)

    def clerk(i):
        go.wait()
        for k in range(saves):
            took, status = sessions[i].save(first_table + i * saves + k)
            with lock:
                statuses.append(status)
                if status == 303:
                    times.append(ms(took))

    threads = [threading.Thread(target=clerk, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    others = len([s for s in statuses if s != 303])
    print(f"{clients} clerks × {saves} saves: {len(times)} saved ({others} refused), "
          f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms")


if __name__ == "__main__":
    kind, port = sys.argv[1], int(sys.argv[2])
    if kind == "office":
        office(port, sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif kind == "clerks":
        clerks(port, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(__doc__)
