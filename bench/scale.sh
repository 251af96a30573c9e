#!/usr/bin/env bash
# Scale benchmark (issue "Scale"): 1000, 2000 and 5000 teams × 8 Passen, release build, one
# run, figures side by side with their growth from 1000 to 5000 teams.
# Measured: the demo (create + draw + results of Passen 1–7), the median of 5 requests of
# the live page (first request after the start: a cold render), the tournament overview, a
# Passe page, a Standblatt and the entry form, and the results CSV import of Passe 8 (every
# table of the active teams, one request).
# Usage: bash bench/scale.sh [sizes…]   (default: 1000 2000 5000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
bin=$PWD/target/release/jassturnier
sizes=("${@:-1000 2000 5000}")
read -r -a sizes <<< "${sizes[*]}"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { curl -s -o /dev/null -b "$1" -w '%{time_total}\n' "$2" | awk '{printf "%.1f\n", $1*1000}'; }

declare -A result
for teams in "${sizes[@]}"; do
  db=$work/t$teams.sqlite3
  start=$(date +%s.%N)
  "$bin" --database-url "$db" demo --teams "$teams" --passen 8 --spiele 12 >/dev/null
  result[demo,$teams]=$(echo "$(date +%s.%N) - $start" | bc | awk '{printf "%.1f s", $1}')
  port=$((18000 + RANDOM % 2000))
  "$bin" --database-url "$db" --bind "127.0.0.1:$port" --backup-minutes 0 >"$work/log$teams" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
  jar=$work/jar$teams
  curl -s -c "$jar" -o /dev/null -d "username=demo&password=demo-passwort" "http://127.0.0.1:$port/login"
  base=http://127.0.0.1:$port/tournaments/1
  result[live_cold,$teams]="$(ms "$jar" "$base/live") ms"
  for page in live "" passen/4 teams/5 passen/8/entry; do
    url=$base${page:+/$page}
    status=$(curl -s -o /dev/null -b "$jar" -w '%{http_code}' "$url")
    [ "$status" = 200 ] || { echo "GET $url: $status" >&2; exit 1; }
    result[$page,$teams]="$(for _ in 1 2 3 4 5; do ms "$jar" "$url"; done | median) ms"
  done
  # Passe 8 as a results file: team A (lower Startnummer) 1000, team B 884.
  csv=$work/passe8_$teams.csv
  { echo "passe;startnummer;punkte"
    sqlite3 -separator ';' "$db" "SELECT 8, t.startnummer, CASE WHEN t.startnummer < o.startnummer THEN 1000 ELSE 884 END
      FROM seats s JOIN teams t ON t.id = s.team_id JOIN teams o ON o.id = s.opponent_id
      WHERE s.tournament_id = 1 AND s.passe = 8 AND t.status = 'aktiv' AND o.status = 'aktiv'
      ORDER BY t.startnummer"; } > "$csv"
  token=$(curl -s -b "$jar" "$base/results/import" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
  out=$(curl -s -o /dev/null -b "$jar" -w '%{http_code} %{time_total}' -F "_csrf=$token" -F "file=@$csv" "$base/results/import")
  [ "${out%% *}" = 303 ] || { echo "results import: ${out%% *}" >&2; exit 1; }
  result[import,$teams]=$(echo "${out#* }" | awk '{printf "%.2f s", $1}')
  # The longest write transaction the server logged (it logs those of 20 ms and more).
  held=$(sed 's/\x1b\[[0-9;]*m//g' "$work/log$teams" | grep -o 'held_ms=[0-9]*' | cut -d= -f2 | sort -n | tail -1 || true)
  result[lock,$teams]="${held:-<20} ms"
  kill "$server"; wait "$server" 2>/dev/null || true
done

printf '%-34s' "what"; for t in "${sizes[@]}"; do printf '%14s' "$t teams"; done; printf '%12s\n' "growth"
row() {
  printf '%-34s' "$1"
  for t in "${sizes[@]}"; do printf '%14s' "${result[$2,$t]}"; done
  first=${result[$2,${sizes[0]}]%% *}; last=${result[$2,${sizes[-1]}]%% *}
  echo "$first $last" | awk '{ if ($1 > 0) printf "%11.1f×\n", $2/$1; else print "" }'
}
row "demo (create, draw, 7 Passen)" demo
row "live page, first request (cold)" live_cold
row "live page (median of 5)" live
row "tournament overview" ""
row "Passe page" passen/4
row "Standblatt" teams/5
row "entry form" passen/8/entry
row "results CSV import, Passe 8" import
row "longest write lock (server run)" lock
