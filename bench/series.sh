#!/usr/bin/env bash
# Jass-Cup benchmark (issue #80, "Scale"): a national series of 50 and 100 tournaments, each
# 100 teams (200 players) × 4 Passen, release build, one run, figures side by side:
# - the standings page cold (the first request after the server's start) and warm (median
#   of 5), and the standings JSON; the growth from 50 to 100 tournaments;
# - a sealed report of 200 teams (400 players) taken into a series on another database.
# Usage: bash bench/series.sh [sizes…]   (default: 50 100)
source "$(dirname "$0")/lib.sh"
sizes=("${@:-50 100}")
read -r -a sizes <<< "${sizes[*]}"
ms() { curl -s -o /dev/null -b "$1" -w '%{http_code} %{time_total}\n' "$2" | awk '$1 == 200 {printf "%.1f\n", $2*1000}'; }

# start DB: the server on that database, logged in as the demo's Leitung; sets server, port,
# jar and csrf.
start() {
  port=$((18000 + RANDOM % 2000))
  "$bin" --database-url "$1" --bind "127.0.0.1:$port" --backup-minutes 0 >"$1.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
  jar=$1.jar
  curl -s -c "$jar" -o /dev/null -d "username=demo&password=demo-passwort" "http://127.0.0.1:$port/login"
  csrf=$(curl -s -b "$jar" "http://127.0.0.1:$port/serien" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"//')
}

declare -A result
for n in "${sizes[@]}"; do
  db=$work/series$n.sqlite3
  t0=$(date +%s.%N)
  for _ in $(seq "$n"); do "$bin" --database-url "$db" demo --teams 100 --passen 4 --spiele 12 >/dev/null; done
  result[setup,$n]=$(echo "$(date +%s.%N) - $t0" | bc | awk '{printf "%.0f s", $1}')
  start "$db"
  curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "name=Cup&season=2026&preset=cup" "http://127.0.0.1:$port/serien"
  form="_csrf=$csrf"
  for t in $(seq "$n"); do form="$form&t_$t=1"; done
  curl -s -o /dev/null -b "$jar" -d "$form" "http://127.0.0.1:$port/serien/1/turniere"
  stop
  # Cold: the first request after a fresh start (nothing cached anywhere in the process).
  start "$db"
  result[cold,$n]="$(ms "$jar" "http://127.0.0.1:$port/serien/1") ms"
  result[warm,$n]="$(for _ in 1 2 3 4 5; do ms "$jar" "http://127.0.0.1:$port/serien/1"; done | median) ms"
  result[json,$n]="$(for _ in 1 2 3; do ms "$jar" "http://127.0.0.1:$port/serien/1/gesamtwertung.json"; done | median) ms"
  rows=$(curl -s -b "$jar" "http://127.0.0.1:$port/serien/1/gesamtwertung.json" | grep -c '"names"' || true)
  result[rows,$n]=$rows
  stop
done

# A report of 400 players taken into a series elsewhere.
hall=$work/hall.sqlite3
"$bin" --database-url "$hall" demo --teams 200 --passen 4 --spiele 12 >/dev/null
start "$hall"
curl -s -b "$jar" -o "$work/bericht.json" "http://127.0.0.1:$port/tournaments/1/bericht"
stop
key=$(grep -o '"public_key": *"[0-9a-f]*"' "$work/bericht.json" | head -1 | sed 's/.*"\([0-9a-f]*\)"$/\1/')
cup=$work/cup.sqlite3
"$bin" --database-url "$cup" demo --teams 4 --passen 2 >/dev/null
start "$cup"
curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "name=Cup&season=2026&preset=cup" "http://127.0.0.1:$port/serien"
curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "hall_name=Halle&public_key=$key" "http://127.0.0.1:$port/serien/1/hallen"
import=$(curl -s -o /dev/null -b "$jar" -F "_csrf=$csrf" -F "file=@$work/bericht.json" -w '%{http_code} %{time_total}' "http://127.0.0.1:$port/serien/1/berichte")
stop

printf '%-34s' "tournaments (100 teams × 4 Passen)"; for n in "${sizes[@]}"; do printf '%14s' "$n"; done; echo
for row in setup rows cold warm json; do
  printf '%-34s' "$row"; for n in "${sizes[@]}"; do printf '%14s' "${result[$row,$n]}"; done; echo
done
first=${sizes[0]}; last=${sizes[-1]}
ratio() { echo "${result[$1,$last]% ms} / ${result[$1,$first]% ms}" | bc -l | awk '{printf "%.2f", $1}'; }
echo "growth $first → $last tournaments: cold ×$(ratio cold), warm ×$(ratio warm)"
echo "report of 400 players taken into a series: HTTP ${import% *}, $(echo "${import#* }" | awk '{printf "%.0f ms", $1*1000}') ($(du -h "$work/bericht.json" | cut -f1))"
