# Shared by the benchmark scripts (sourced): the release build, a scratch folder, demo
# tournaments and a server on them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release -q
# JASSTURNIER_BIN: another build to compare with (e.g. one of an earlier commit).
bin=${JASSTURNIER_BIN:-$PWD/target/release/jassturnier}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# demo TEAMS: a demo tournament of TEAMS teams × 8 Passen (results of Passen 1–7) in
# $work/tTEAMS.sqlite3.
demo() { "$bin" --database-url "$work/t$1.sqlite3" demo --teams "$1" --passen 8 --spiele 12 >/dev/null; }

# serve TEAMS: the server on that demo, logged in as the demo's Leitung; sets server (pid),
# jar (cookies), base (the tournament's URL) and csrf (a form token).
serve() {
  local port=$((18000 + RANDOM % 2000))
  "$bin" --database-url "$work/t$1.sqlite3" --bind "127.0.0.1:$port" --backup-minutes 0 >"$work/log$1" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
  jar=$work/jar$1
  curl -s -c "$jar" -o /dev/null -d "username=demo&password=demo-passwort" "http://127.0.0.1:$port/login"
  base=http://127.0.0.1:$port/tournaments/1
  csrf=$(curl -s -b "$jar" "$base/passen/8/entry" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"//')
}

stop() { kill "$server"; wait "$server" 2>/dev/null || true; }
