#!/usr/bin/env bash
# Load benchmark of the live Rangliste (not a test; run by hand: `bash bench/live.sh`).
# Serves a generated tournament with 1000 teams × 8 Passen and measures, in one run:
#   1. requests/s of the live page vs. a static file of the same size from the same server,
#   2. result-entry latency (POST, median of 20) without and with the live page under load.
# Needs wrk (installed from Debian's packages if missing) and curl.
# The load generator runs at the lowest CPU priority: in the hall the phones and screens are
# other devices, so wrk's own CPU use on this single machine would otherwise be counted
# against the server. `LOAD_NICE=0 bash bench/live.sh` measures with wrk competing for the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18190}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }

cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/jassturnier"
work=$(mktemp -d)
copy=static/bench-live-copy.html
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; rm -rf "$work" "$copy"; }
trap cleanup EXIT

export DATABASE_URL="$work/bench.sqlite3"
echo "Generating 1000 teams × 8 Passen (results for Passen 1–7)…"
/usr/bin/time -f "  generated in %es" "$bin" demo --teams 1000 --passen 8 --spiele 12 >/dev/null
"$bin" --bind "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

base="http://127.0.0.1:$PORT"
live="$base/tournaments/1/live"
curl -sf "$live" -o "$copy"
echo "Live page: $(wc -c <"$copy") bytes (static copy of the same size at /static/bench-live-copy.html)"

jar="$work/cookies"
curl -sf -c "$jar" -d 'username=demo&password=demo-passwort' "$base/login" -o /dev/null
csrf=$(curl -sf -b "$jar" "$base/tournaments/1/passen/8/entry" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"//')

# Median time of posting results for tables $1..$2 of Passe 8.
entries() {
  for table in $(seq "$1" "$2"); do
    curl -s -o /dev/null -w '%{time_total}\n' -b "$jar" \
      --data-urlencode "_csrf=$csrf" -d "table=$table&points_a=$((600 + table))" "$base/tournaments/1/passen/8/entry"
  done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] * 1000 }'
}

rate() { nice -n "${LOAD_NICE:-19}" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ { print $2 }'; }

idle=$(entries 1 20)
live_rate=$(rate "$live")
static_rate=$(rate "$base/static/bench-live-copy.html")
nice -n "${LOAD_NICE:-19}" wrk -t2 -c"$CONNECTIONS" -d"$((DURATION + 5))s" "$live" >/dev/null &
load=$!
sleep 2
loaded=$(entries 21 40)
wait "$load"

awk -v l="$live_rate" -v s="$static_rate" -v i="$idle" -v u="$loaded" 'BEGIN {
  printf "live page:        %8.0f req/s\n", l
  printf "static file:      %8.0f req/s\n", s
  printf "ratio live/static: %7.2f (target >= 0.5)\n", l / s
  printf "entry latency:    %8.1f ms idle, %.1f ms with the live page under load (ratio %.2f, target <= 2)\n", i, u, u / i
}'
