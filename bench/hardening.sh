#!/usr/bin/env bash
# Hardening round two (issue #76, points 2, 10–13), release build, one run each:
#   2  the Büro (entry page, saves) idle and under 16 anonymous clients flooding /login, each
#      login from an address of its own (no throttle stops them): goal ≤ 3× idle;
#   10 the Büro idle and under 32 anonymous clients polling /ranking.json: goal ≤ 3× idle;
#   12 32 clerks saving at once, 10 saves each (SQLite; PostgreSQL too if JASSTURNIER_BENCH_PG
#      names a server): goal p99 ≤ 150 ms on SQLite;
#   11 the demo (create, draw, 7 Passen) of 1000 and 5000 teams on SQLite and PostgreSQL
#      (with JASSTURNIER_BENCH_PG): goal 5000 on PostgreSQL ≤ 30 s and ≤ 3× SQLite;
#   13 the server's memory at 5000 teams: after a first round of pages, then after 60 saves
#      (each followed by the entry form): goal ≤ 1.5×. (Standblätter PDF time: bench/pdf.sh.)
# Usage: bash bench/hardening.sh   [JASSTURNIER_BENCH_PG=postgres://root@127.0.0.1:5432/postgres]
source "$(dirname "$0")/lib.sh"
mb() { awk -v k="$(grep "^$1:" "/proc/$2/status" | awk '{print $2}')" 'BEGIN {printf "%.0f", k / 1024}'; }
port_of() { echo "${base#http://127.0.0.1:}" | cut -d/ -f1; }

echo "== 2: login flood (1000 teams, SQLite)"
demo 1000; serve 1000
python3 bench/load.py office "$(port_of)" login-flood 16 1
stop

echo "== 10: public ranking.json (1000 teams, SQLite)"
rm -f "$work/t1000.sqlite3"*; demo 1000; serve 1000
python3 bench/load.py office "$(port_of)" ranking-json 32 1
stop

echo "== 12: 32 clerks at once (1000 teams)"
rm -f "$work/t1000.sqlite3"*; demo 1000; serve 1000
python3 bench/load.py clerks "$(port_of)" 32 10 1 | sed 's/^/SQLite: /'
grep -o 'waited_ms=[0-9]*' "$work/log1000" | cut -d= -f2 | sort -n | tail -1 | sed 's/^/  longest wait for the write turn (ms): /' || true
grep -o 'held_ms=[0-9]*' "$work/log1000" | cut -d= -f2 | sort -n | tail -1 | sed 's/^/  longest write held (ms): /' || true
stop

pg_db() { # a fresh PostgreSQL database named $1 on the server of JASSTURNIER_BENCH_PG
  psql "$JASSTURNIER_BENCH_PG" -qAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null
  echo "${JASSTURNIER_BENCH_PG%/*}/$1"
}

if [ -n "${JASSTURNIER_BENCH_PG:-}" ]; then
  url=$(pg_db bench_clerks)
  "$bin" --database-url "$url" demo --teams 1000 --passen 8 --spiele 12 >/dev/null
  port=$((18000 + RANDOM % 2000))
  "$bin" --database-url "$url" --bind "127.0.0.1:$port" --backup-minutes 0 >"$work/logpg" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
  python3 bench/load.py clerks "$port" 32 10 1 | sed 's/^/PostgreSQL: /'
  stop
fi

echo "== 11: demo (create, draw, 7 Passen)"
for teams in 1000 5000; do
  rm -f "$work/t$teams.sqlite3"*
  start=$(date +%s.%N); demo "$teams"; sqlite=$(echo "$(date +%s.%N) - $start" | bc)
  line=$(printf 'SQLite %5d teams: %6.1f s' "$teams" "$sqlite")
  if [ -n "${JASSTURNIER_BENCH_PG:-}" ]; then
    url=$(pg_db "bench_demo_$teams")
    start=$(date +%s.%N)
    "$bin" --database-url "$url" demo --teams "$teams" --passen 8 --spiele 12 >/dev/null
    pg=$(echo "$(date +%s.%N) - $start" | bc)
    line+=$(printf ' | PostgreSQL %6.1f s (%.1f× SQLite)' "$pg" "$(echo "$pg / $sqlite" | bc -l)")
  fi
  echo "$line"
done

echo "== 13: memory at 5000 teams (SQLite)"
serve 5000
round() { for page in live "" passen/4 teams/5 passen/8/entry ranking; do
  curl -s -o /dev/null -b "$jar" "$base${page:+/$page}"; done; }
round
first=$(mb VmRSS "$server")
for table in $(seq 1 60); do
  curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "table=$table&points_a=1000" -L "$base/passen/8/entry"
done
after=$(mb VmRSS "$server")
round
again=$(mb VmRSS "$server")
echo "RSS after the first round of pages ${first} MB, after 60 saves ${after} MB ($(awk -v a="$after" -v b="$first" 'BEGIN {printf "%.2f×", a/b}'); goal ≤ 1.5×), after another round ${again} MB"
stop
