#!/usr/bin/env bash
# Load benchmark of the live Rangliste (not a test; run by hand: `bash bench/live.sh`).
# Serves a generated tournament with 1000 teams × 8 Passen and measures, in one run:
#   1. requests/s of the live page vs. a static file of the same size from the same server,
#   2. result-entry latency without and with the live page under load, two ways:
#      "save"  = POST of one table's result (answered with 303),
#      "clerk" = the same POST plus the entry form it redirects to, ready for the next table.
#      Idle and loaded samples alternate in ROUNDS rounds, so drift hits both alike. Each
#      round's entries go over one kept-alive connection, as from the Büro's browser.
# Needs wrk (installed from Debian's packages if missing) and curl.
# wrk runs on the same CPUs at normal priority (LOAD_NICE=0): its own CPU use competes with
# the server, which is harsher than phones on their own devices. `LOAD_NICE=19` measures
# with wrk yielding the CPU, closer to the hall.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18190}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-4}
PER_ROUND=${PER_ROUND:-20}
LOAD_NICE=${LOAD_NICE:-0}
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

next_table=1
# Appends one sample per entry to $1.save and $1.clerk (milliseconds): PER_ROUND entries on
# one kept-alive connection, opened beforehand, as the Büro's browser has it.
# Odd tables: the save alone; even tables: the save and the form it leads back to.
# Tables where the Pauschale applies (the demo disqualifies a team) answer 422 and are skipped.
entries() {
  local args=(-s -o /dev/null "$base/healthz") table
  for table in $(seq "$next_table" $((next_table + PER_ROUND - 1))); do
    args+=(--next -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf"
      -d "table=$table&points_a=$((600 + table))")
    if ((table % 2)); then
      args+=(-w 'save %{http_code} %{num_connects} %{time_total}\n')
    else
      args+=(-L -w 'clerk %{http_code} %{num_connects} %{time_total}\n')
    fi
    args+=("$base/tournaments/1/passen/8/entry")
  done
  next_table=$((next_table + PER_ROUND))
  curl "${args[@]}" | awk -v out="$1" '
    $3 != 0 { print "a new connection was opened: " $0 > "/dev/stderr"; exit 1 }
    ($1 == "save" && $2 == 303) || ($1 == "clerk" && $2 == 200) { print $4 * 1000 >> (out "." $1); next }
    $2 == 422 { next }
    { print "unexpected answer: " $0 > "/dev/stderr"; exit 1 }'
}

load() { nice -n "$LOAD_NICE" wrk -t2 -c"$CONNECTIONS" -d"$1s" "$2"; }
rate() { load "$DURATION" "$1" | awk '/Requests\/sec/ { print $2 }'; }

live_rate=$(rate "$live")
static_rate=$(rate "$base/static/bench-live-copy.html")
for _ in $(seq "$ROUNDS"); do
  entries "$work/idle"
  # nice execs wrk: $! is wrk itself, stopped (with its summary) by SIGINT.
  nice -n "$LOAD_NICE" wrk -t2 -c"$CONNECTIONS" -d60s "$live" >/dev/null &
  wrk_pid=$!
  sleep 2
  entries "$work/loaded"
  kill -INT "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" || true
done

# Median and 90th percentile of a sample file.
stats() { sort -n "$1" | awk '{ a[NR] = $1 } END { printf "%.1f %.1f", a[int((NR + 1) / 2)], a[int(NR * 0.9 + 0.5)] }'; }
read -r save_idle save_idle90 <<<"$(stats "$work/idle.save")"
read -r save_load save_load90 <<<"$(stats "$work/loaded.save")"
read -r clerk_idle clerk_idle90 <<<"$(stats "$work/idle.clerk")"
read -r clerk_load clerk_load90 <<<"$(stats "$work/loaded.clerk")"

awk -v l="$live_rate" -v s="$static_rate" -v n="$LOAD_NICE" -v c="$CONNECTIONS" \
  -v si="$save_idle" -v sl="$save_load" -v si9="$save_idle90" -v sl9="$save_load90" \
  -v ci="$clerk_idle" -v cl="$clerk_load" -v ci9="$clerk_idle90" -v cl9="$clerk_load90" \
  -v k="$(wc -l <"$work/idle.save")" 'BEGIN {
  printf "load: wrk, %d connections, nice %d\n", c, n
  printf "live page:        %8.0f req/s\n", l
  printf "static file:      %8.0f req/s\n", s
  printf "ratio live/static: %7.2f (target >= 0.5)\n", l / s
  printf "entry latency, median (p90) of %d samples each, idle -> live page under load:\n", k
  printf "  save:  %5.1f (%.1f) ms -> %5.1f (%.1f) ms  ratio %.2f (target <= 2)\n", si, si9, sl, sl9, sl / si
  printf "  clerk: %5.1f (%.1f) ms -> %5.1f (%.1f) ms  ratio %.2f (target <= 2)\n", ci, ci9, cl, cl9, cl / ci
}'
