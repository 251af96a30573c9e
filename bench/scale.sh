#!/usr/bin/env bash
# Scale benchmark (issue "Scale"): 1000, 2000 and 5000 teams × 8 Passen, release build, one
# run, figures side by side with their growth from 1000 to 5000 teams.
# Measured: the demo (create + draw + results of Passen 1–7), the median of 5 requests of
# the live page (first request after the start: a cold render), the tournament overview, a
# Passe page, a Standblatt and the entry form, the save of a result (tables 1–5 of Passe 8),
# and the results CSV import of the rest of Passe 8 (every other table, one request).
# Usage: bash bench/scale.sh [sizes…]   (default: 1000 2000 5000)
source "$(dirname "$0")/lib.sh"
sizes=("${@:-1000 2000 5000}")
read -r -a sizes <<< "${sizes[*]}"
ms() { curl -s -o /dev/null -b "$1" -w '%{time_total}\n' "$2" | awk '{printf "%.1f\n", $1*1000}'; }

declare -A result
for teams in "${sizes[@]}"; do
  db=$work/t$teams.sqlite3
  start=$(date +%s.%N)
  demo "$teams"
  result[demo,$teams]=$(echo "$(date +%s.%N) - $start" | bc | awk '{printf "%.1f s", $1}')
  serve "$teams"
  result[live_cold,$teams]="$(ms "$jar" "$base/live") ms"
  for page in live "" passen/4 teams/5 passen/8/entry; do
    url=$base${page:+/$page}
    status=$(curl -s -o /dev/null -b "$jar" -w '%{http_code}' "$url")
    [ "$status" = 200 ] || { echo "GET $url: $status" >&2; exit 1; }
    result[$page,$teams]="$(for _ in 1 2 3 4 5; do ms "$jar" "$url"; done | median) ms"
  done
  # Result entry: the save of tables 1–5 of Passe 8 (POST answered with 303; a table with
  # a Pauschale answers 422 and is not counted).
  result[save,$teams]="$(for table in 1 2 3 4 5; do
      curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "table=$table&points_a=1000" \
        -w '%{http_code} %{time_total}\n' "$base/passen/8/entry"
    done | awk '$1 == 303 { printf "%.1f\n", $2 * 1000 }' | median) ms"
  # The rest of Passe 8 as a results file: team A (lower Startnummer) 1000, team B 884.
  csv=$work/passe8_$teams.csv
  { echo "passe;startnummer;punkte"
    sqlite3 -separator ';' "$db" "SELECT 8, t.startnummer, CASE WHEN t.startnummer < o.startnummer THEN 1000 ELSE 884 END
      FROM seats s JOIN teams t ON t.id = s.team_id JOIN teams o ON o.id = s.opponent_id
      WHERE s.tournament_id = 1 AND s.passe = 8 AND s.table_no > 5 AND t.status = 'aktiv' AND o.status = 'aktiv'
      ORDER BY t.startnummer"; } > "$csv"
  token=$(curl -s -b "$jar" "$base/results/import" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
  out=$(curl -s -o /dev/null -b "$jar" -w '%{http_code} %{time_total}' -F "_csrf=$token" -F "file=@$csv" "$base/results/import")
  [ "${out%% *}" = 303 ] || { echo "results import: ${out%% *}" >&2; exit 1; }
  result[import,$teams]=$(echo "${out#* }" | awk '{printf "%.2f s", $1}')
  # The longest write transaction the server logged (it logs those of 20 ms and more).
  held=$(sed 's/\x1b\[[0-9;]*m//g' "$work/log$teams" | grep -o 'held_ms=[0-9]*' | cut -d= -f2 | sort -n | tail -1 || true)
  result[lock,$teams]="${held:-<20} ms"
  stop
done

printf '%-34s' "what"; for t in "${sizes[@]}"; do printf '%14s' "$t teams"; done; printf '%12s\n' "growth"
row() {
  printf '%-34s' "$1"
  for t in "${sizes[@]}"; do printf '%14s' "${result[$2,$t]}"; done
  first=${result[$2,${sizes[0]}]%% *}; last=${result[$2,${sizes[-1]}]%% *}
  echo "$first $last" | awk '{ if ($1 + 0 > 0) printf "%11.1f×\n", $2 / $1; else print "" }'
}
row "demo (create, draw, 7 Passen)" demo
row "live page, first request (cold)" live_cold
row "live page (median of 5)" live
row "tournament overview" ""
row "Passe page" passen/4
row "Standblatt" teams/5
row "entry form" passen/8/entry
row "result entry, save (median of 5)" save
row "results CSV import, Passe 8" import
row "longest write lock (server run)" lock
