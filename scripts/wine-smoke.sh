#!/usr/bin/env bash
# Smoke test of the Windows exe under Wine: it starts from an empty folder, answers /healthz,
# keeps its data in Dokumente\Jassturnier, writes a demo, takes a result typed over HTTP and
# stops on Ctrl+C with the result stored. Prints "Wine-Test NOT RUN: …" (and passes) where
# the Windows target, MinGW or Wine is missing; that is no pass of the exe.
#
#   bash scripts/wine-smoke.sh                  builds the exe (release) and tests it
#   JASSTURNIER_EXE=path/jassturnier.exe bash scripts/wine-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
not_run() { echo "Wine-Test NOT RUN: $*"; exit 0; }

exe=${JASSTURNIER_EXE:-}
if [ -z "$exe" ]; then
  rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu \
    || not_run "Rust-Target x86_64-pc-windows-gnu fehlt (rustup target add x86_64-pc-windows-gnu)"
  command -v x86_64-w64-mingw32-gcc >/dev/null \
    || not_run "MinGW fehlt (apt-get install gcc-mingw-w64-x86-64)"
fi
command -v wine >/dev/null || not_run "Wine fehlt (apt-get install wine64)"
command -v x86_64-w64-mingw32-gcc >/dev/null \
  || not_run "MinGW fehlt (für die Hilfs-DLL unter Wine: apt-get install gcc-mingw-w64-x86-64)"
if [ -z "$exe" ]; then
  # The same build option as scripts/release.sh (libpq's localtime_r under MinGW).
  CFLAGS_x86_64_pc_windows_gnu=-D_POSIX_THREAD_SAFE_FUNCTIONS \
    cargo build --release --locked --target x86_64-pc-windows-gnu
  exe=${CARGO_TARGET_DIR:-target}/x86_64-pc-windows-gnu/release/jassturnier.exe
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
  WINEPREFIX="$work/prefix" wineserver -k 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# A home of its own: Wine links "Documents" into $HOME, and the test must start empty.
export HOME="$work/home" WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$work/app" "$HOME"
cp "$exe" "$work/app/jassturnier.exe"
# Rust's standard library takes its random numbers from bcryptprimitives.dll (Windows 10 and
# later have it; Wine before 9.0 does not). For the test only, a DLL with that one function
# goes beside the exe; it is not part of the download.
if ! wine --version | grep -qE 'wine-(9|[1-9][0-9])\.'; then
  printf '#include <windows.h>\n#define SystemFunction036 NTAPI SystemFunction036\n#include <ntsecapi.h>\n#undef SystemFunction036\nBOOL WINAPI ProcessPrng(PBYTE d, SIZE_T n) { return RtlGenRandom(d, (ULONG)n); }\n' > "$work/shim.c"
  printf 'LIBRARY bcryptprimitives\nEXPORTS\n    ProcessPrng\n' > "$work/shim.def"
  x86_64-w64-mingw32-gcc -O2 -shared -o "$work/app/bcryptprimitives.dll" "$work/shim.c" "$work/shim.def" -ladvapi32
fi
wineboot -i >/dev/null 2>&1 || true

cd "$work/app"
port=18$((RANDOM % 900 + 100))
wine jassturnier.exe --version | tee "$work/version.txt"
grep -q "gebaut am" "$work/version.txt"

# An argument keeps the browser closed (a double-click opens it); data: the default.
wine jassturnier.exe --bind "127.0.0.1:$port" > "$work/console.txt" 2>&1 &
server_pid=$!
python3 - "$port" "$work/console.txt" <<'PY'
import sys, time, urllib.request
port, console = sys.argv[1], sys.argv[2]
for _ in range(240):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read() == b"ok":
            break
    except OSError:
        time.sleep(0.5)
else:
    sys.exit("kein /healthz: " + open(console, errors="replace").read())
PY
grep -q "Daten: .*Jassturnier.jassturnier.sqlite3" "$work/console.txt" \
  || { cat "$work/console.txt"; echo "die Konsole nennt die Daten nicht"; exit 1; }
grep -q "Beenden: Ctrl+C" "$work/console.txt"
grep -q "Ersteinrichtung" "$work/console.txt" || { cat "$work/console.txt"; echo "die Datenbank war nicht leer"; exit 1; }
echo "Konsole:"; sed -n '1,6p' "$work/console.txt"

wine jassturnier.exe demo --teams 8 --passen 3

python3 - "$port" <<'PY'
import http.cookiejar, re, sys, urllib.parse, urllib.request
port = sys.argv[1]
base = f"http://127.0.0.1:{port}"
jar = http.cookiejar.CookieJar()
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
web = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
def call(path, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    try:
        r = web.open(base + path, data, timeout=30)
        return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
status, _ = call("/login", {"username": "demo", "password": "demo-passwort"})
assert status == 303, f"Anmeldung: {status}"
status, page = call("/tournaments/1/passen/3/entry")
assert status == 200, f"Erfassung: {status}"
csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
# The first table that takes a result (one may be a Pauschale table of the demo's
# disqualified team).
for table in range(1, 5):
    status, page = call("/tournaments/1/passen/3/entry", {"_csrf": csrf, "table": str(table), "points_a": "1017"})
    if status == 303:
        break
else:
    sys.exit(f"kein Tisch nahm ein Resultat: {status} {page[:500]}")
status, page = call("/tournaments/1/passen/3")
assert re.search(r"1(&#x27;|&#39;|')017", page), "Resultat nicht auf der Seite der Passe"
print(f"Resultat Passe 3, Tisch {table}: 1'017 gespeichert")
PY

# Ctrl+C: Wine hands SIGINT to the console program as CTRL_C_EVENT.
pkill -INT -f 'jassturnier.exe --bind' || true
for _ in $(seq 60); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$server_pid" 2>/dev/null; then
  cat "$work/console.txt"; echo "der Server hat nach Ctrl+C nicht aufgehört"; exit 1
fi
# actix says so when it stops on a signal rather than being killed.
grep -qiE "SIGINT|Ctrl-C|ctrl_c|shutting down|stopping" "$work/console.txt" \
  || { tail -5 "$work/console.txt"; echo "kein sauberes Ende nach Ctrl+C"; exit 1; }
echo "Ende:"; tail -n 2 "$work/console.txt"
server_pid=
db=$(find -L "$WINEPREFIX/drive_c/users" -path '*Jassturnier/jassturnier.sqlite3' 2>/dev/null | head -n1)
[ -n "$db" ] || { echo "keine Datenbank in Dokumente\\Jassturnier"; exit 1; }
python3 - "$db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
n = db.execute("SELECT count(*) FROM results WHERE passe = 3 AND points_a = 1017").fetchone()[0]
assert n == 1, f"{n} Resultate"
print("nach dem Beenden: Datenbank in Ordnung, das Resultat ist da")
PY
echo "Wine-Test bestanden: $(cat "$work/version.txt")"
