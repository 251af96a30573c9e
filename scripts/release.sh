#!/usr/bin/env bash
# Builds the downloads for clubs: dist/jassturnier-VERSION-linux-x86_64.zip and
# dist/jassturnier-VERSION-windows-x86_64.zip, each the one binary (templates, styles, fonts,
# migrations and the Handbuch are inside it) and a short German LIESMICH.txt.
#
#   bash scripts/release.sh            both
#   bash scripts/release.sh linux      only Linux
#   bash scripts/release.sh windows    only Windows (cross-compiled here)
#
# Windows needs the Rust target and Debian's MinGW linker; as root on Debian the script
# installs both (`rustup target add x86_64-pc-windows-gnu`, `apt-get install
# gcc-mingw-w64-x86-64`).
set -euo pipefail
cd "$(dirname "$0")/.."
which_ones=${1:-all}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
# One build date for both, shown in the footer and by --version.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
mkdir -p dist
target=${CARGO_TARGET_DIR:-target}

readme() { # $1: linux | windows
  local start data
  if [ "$1" = windows ]; then
    start='jassturnier.exe doppelklicken. Das Fenster zeigt, wo die Daten liegen
(Dokumente\Jassturnier), die Adresse für die Handys in der Halle und wie man beendet;
der Browser öffnet sich mit der Software. Beim ersten Start fragt die Windows-Firewall:
"Zugriff zulassen" (privates Netzwerk), damit Handys und Beamer den Server erreichen.'
    data='Die Daten liegen in Dokumente\Jassturnier (jassturnier.sqlite3, Sicherungen im
Unterordner backups).'
  else
    start='Im Terminal starten:   ./jassturnier
Dann im Browser http://127.0.0.1:8080 öffnen. Für die Handys in der Halle:
./jassturnier --bind 0.0.0.0:8080   (und Port 8080 in der Firewall öffnen).'
    data='Die Datenbank jassturnier.sqlite3 entsteht im Ordner, in dem gestartet wird;
Sicherungen im Unterordner backups.'
  fi
  local title="Jassturnier $version"
  cat <<TEXT
$title
$(echo "$title" | sed 's/./=/g')

Die Software für das Turnierbüro an Jassturnieren: Partnerschieber, Jassmarathon,
Einzelschieber. Nichts zu installieren.

Starten
-------
$start

Beim ersten Start fragt die Seite "Ersteinrichtung" nach dem Konto der Turnierleitung.

Beenden
-------
Im Fenster Ctrl+C drücken oder das Fenster schliessen. Gespeichertes bleibt gespeichert.

Daten
-----
$data

Ausprobieren
------------
jassturnier demo   erstellt ein Demo-Turnier (Anmeldung: demo / demo-passwort).

Handbuch
--------
In der Software oben rechts "Hilfe" (Adresse /hilfe): ein Kapitel zu jeder Aufgabe
am Turniertag.
TEXT
}

package() { # $1: platform name, $2: binary, $3: name in the zip
  local dir="dist/jassturnier-$version-$1"
  rm -rf "$dir" "$dir.zip"
  mkdir -p "$dir"
  cp "$2" "$dir/$3"
  readme "$1" | sed 's/$/\r/' > "$dir/LIESMICH.txt"   # CRLF: Notepad shows the lines
  (cd dist && zip -qr "jassturnier-$version-$1.zip" "jassturnier-$version-$1")
  echo "dist/jassturnier-$version-$1.zip ($(du -h "$dir/$3" | cut -f1) binary)"
}

if [ "$which_ones" = all ] || [ "$which_ones" = linux ]; then
  cargo build --release --locked
  strip -o "$target/release/jassturnier.stripped" "$target/release/jassturnier"
  package linux-x86_64 "$target/release/jassturnier.stripped" jassturnier
  # Self-contained: from an empty folder far from the sources it serves the app, its styles,
  # the Handbuch and its pictures.
  empty=$(mktemp -d)
  cp "$target/release/jassturnier.stripped" "$empty/jassturnier"
  (cd "$empty" && ./jassturnier --bind 127.0.0.1:18321 --backup-minutes 0 >console.txt 2>&1 &)
  python3 - <<'PY'
import time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen("http://127.0.0.1:18321/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
for path in ["/healthz", "/login", "/static/style.css", "/hilfe", "/hilfe/resultate", "/hilfe/bilder/erfassen.png"]:
    assert urllib.request.urlopen("http://127.0.0.1:18321" + path, timeout=5).status == 200, path
print("Linux binary from an empty folder: app, styles and Handbuch served")
PY
  pkill -INT -f "jassturnier --bind 127.0.0.1:18321" || true
  rm -rf "$empty"
fi

if [ "$which_ones" = all ] || [ "$which_ones" = windows ]; then
  if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    rustup target add x86_64-pc-windows-gnu
  fi
  if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
  fi
  # The bundled libpq (PostgreSQL client) calls localtime_r, which MinGW's time.h declares
  # only with _POSIX_THREAD_SAFE_FUNCTIONS: a compiler flag for the C code, nothing patched.
  CFLAGS_x86_64_pc_windows_gnu=-D_POSIX_THREAD_SAFE_FUNCTIONS \
    cargo build --release --locked --target x86_64-pc-windows-gnu
  exe=$target/x86_64-pc-windows-gnu/release/jassturnier.exe
  x86_64-w64-mingw32-strip -o "${exe%.exe}.stripped.exe" "$exe"
  package windows-x86_64 "${exe%.exe}.stripped.exe" jassturnier.exe
fi
