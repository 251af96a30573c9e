#!/usr/bin/env bash
# Renews the Handbuch's pictures (docs/handbuch/bilder/*.png) from a demo tournament: the app
# on a temporary database, Debian's headless Chromium driven through chromedriver (WebDriver
# over HTTP, from Python's standard library). Run after a change of the pages it shows:
#   bash scripts/handbuch-bilder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$tool" ] || { echo "$tool fehlt (apt-get install chromium chromium-driver)"; exit 1; }
done
cargo build --release --locked
bin=${CARGO_TARGET_DIR:-target}/release/jassturnier
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/demo.sqlite3"
"$bin" --database-url "$db" demo --teams 16 --passen 4 >/dev/null
"$bin" --database-url "$db" --bind 127.0.0.1:18099 --backup-minutes 0 >/dev/null 2>&1 &
chromedriver --port=18098 >/dev/null 2>&1 &
sleep 2
python3 - docs/handbuch/bilder <<'PY'
import base64, json, sys, time, urllib.request
out = sys.argv[1]
app, driver = "http://127.0.0.1:18099", "http://127.0.0.1:18098"

def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(driver + path, data, {"Content-Type": "application/json"}, method=method)
    return json.load(urllib.request.urlopen(req, timeout=60))["value"]

caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
    "binary": "/usr/bin/chromium",
    "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--lang=de-CH"]}}}}
session = call("POST", "/session", caps)["sessionId"]
s = f"/session/{session}"

def size(width, height):
    call("POST", s + "/window/rect", {"width": width, "height": height})

def go(path, wait=1.0):
    call("POST", s + "/url", {"url": app + path})
    time.sleep(wait)

def js(script):
    return call("POST", s + "/execute/sync", {"script": script, "args": []})

def shot(name):
    png = base64.b64decode(call("GET", s + "/screenshot"))
    with open(f"{out}/{name}.png", "wb") as f:
        f.write(png)
    print(f"{out}/{name}.png")

size(1280, 800)
go("/login")
js("document.getElementById('username').value='demo';"
   "document.getElementById('password').value='demo-passwort';"
   "document.querySelector('form').submit();")
time.sleep(1)
go("/tournaments/1/passen/4/entry")
js("document.getElementById('table').value='3';")
shot("erfassen")
go("/tournaments/1/passen/3")
shot("passe")
size(1920, 1080)
go("/tournaments/1/live", 2)
shot("beamer")
size(390, 844)
go("/tournaments/1/team/5", 2)
shot("teamseite")
call("DELETE", s)
PY
