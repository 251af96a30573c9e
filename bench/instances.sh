#!/usr/bin/env bash
# Two instances on one PostgreSQL database (issue "PostgreSQL"): 1000 live pages spread over
# both, 2 results per second for SECONDS_RUN (default 120), saved alternately on either instance.
# Run twice: with notifications (LISTEN/NOTIFY) and with the listener off (poll only).
# Prints write-to-event latency (p50/p99 over every page and result; pages on the saving
# instance and on the other one), the save's p50/p99, events missing and duplicated (must
# be 0), and duplicate results in the database (must be 0).
# Needs a PostgreSQL server: POSTGRES (default postgres://root@127.0.0.1:5432/test); works
# in a schema of its own, dropped at the end.
# Usage: bash bench/instances.sh
PAGES=${PAGES:-1000}
SECONDS_RUN=${SECONDS_RUN:-120}
RATE=${RATE:-2}
POSTGRES=${POSTGRES:-postgres://root@127.0.0.1:5432/test}
ulimit -n 8192
source "$(dirname "$0")/lib.sh"
schema=bench_$RANDOM$RANDOM
psql "$POSTGRES" -qc "CREATE SCHEMA $schema"
trap 'kill $(jobs -p) 2>/dev/null || true; psql "$POSTGRES" -qc "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1; rm -rf "$work"' EXIT
url="$POSTGRES?options=-csearch_path%3D$schema"
"$bin" --database-url "$url" demo --teams 1000 --passen 8 --spiele 12 >/dev/null

start_instance() { # PORT [extra flags]: one server on the shared database
  "$bin" --database-url "$url" --bind "127.0.0.1:$1" --backup-minutes 0 "${@:2}" >"$work/log$1" 2>&1 &
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/healthz" && break; sleep 0.2; done
}

table=1
for mode in notify poll; do
  flags=()
  [ "$mode" = poll ] && flags=(--no-pg-listen)
  a=$((18000 + RANDOM % 1000)); b=$((a + 1000))
  start_instance "$a" "${flags[@]}"; pid_a=$!
  start_instance "$b" "${flags[@]}"; pid_b=$!
  jar=$work/jar
  curl -s -c "$jar" -o /dev/null -d "username=demo&password=demo-passwort" "http://127.0.0.1:$a/login"
  cookie=$(awk '$6 == "jassturnier_session" {print $6 "=" $7}' "$jar")
  base=http://127.0.0.1:$a/tournaments/1
  csrf=$(curl -s -b "$jar" "$base/passen/8/entry" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"//')
  # The first result of Passe 8 adds its column (a reset): before the pages open.
  curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "table=$table&points_a=700" "$base/passen/8/entry"
  table=$((table + 1))
  sleep 2
  version=$(curl -s "$base/live" | grep -o 'data-version="[0-9]*"' | grep -o '[0-9]*')
  line=$(python3 bench/instances.py "$a" "$b" 1 "$version" "$PAGES" "$RATE" "$SECONDS_RUN" "$cookie" "$csrf" "$table")
  table=$((table + ${RATE%.*} * SECONDS_RUN))
  dupes=$(psql "$url" -qAt -c "SELECT COUNT(*) - COUNT(DISTINCT (passe, table_no)) FROM results WHERE tournament_id = 1")
  echo "$mode: $line db_duplicates=$dupes"
  kill "$pid_a" "$pid_b"; wait "$pid_a" "$pid_b" 2>/dev/null || true
done
