#!/usr/bin/env bash
# Live updates at scale (issue "Scale"): what one entered result costs when 1000 live pages
# are open, at 1000 and 5000 teams × 8 Passen (release build, one run).
# 1000 event streams are opened as the pages' browsers open them (bench/sse_pages.py), then
# RESULTS results of Passe 8 are saved one after another; measured: bytes the server sent to
# all pages per result (HTTP framing included), events per result (delta / reset; a reset
# would make each page fetch the page), and the save's latency with the 1000 pages open
# beside the same saves before they were opened.
# Usage: bash bench/sse.sh [sizes…]   (default: 1000 5000)
PAGES=${PAGES:-1000}
RESULTS=${RESULTS:-10}
ulimit -n 8192
source "$(dirname "$0")/lib.sh"
sizes=("${@:-1000 5000}")
read -r -a sizes <<< "${sizes[*]}"

printf '%-8s %12s %10s %8s %8s %14s %14s\n' teams "bytes/result" "per page" deltas resets "save idle ms" "save 1000 ms"
for teams in "${sizes[@]}"; do
  demo "$teams"
  serve "$teams"
  port=${base#http://127.0.0.1:}; port=${port%%/*}
  # Saves of tables $1..$2 of Passe 8, one after another; prints each 303's time in ms.
  # (A table with a disqualified team has its Pauschale and answers 422: skipped.)
  saves() {
    for table in $(seq "$1" "$2"); do
      curl -s -o /dev/null -b "$jar" --data-urlencode "_csrf=$csrf" -d "table=$table&points_a=$((700 + table))" \
        -w '%{http_code} %{time_total}\n' "$base/passen/8/entry"
      sleep 0.3
    done | awk '$1 == 303 { printf "%.1f\n", $2 * 1000 }'
  }
  # The first result of Passe 8 adds its column (a reset for open pages): before they open.
  idle=$(saves 101 $((100 + RESULTS)))
  version=$(curl -s "$base/live" | grep -o 'data-version="[0-9]*"' | grep -o '[0-9]*')
  rm -f "$work/ready" "$work/stop"
  python3 bench/sse_pages.py "$port" 1 "$version" "$PAGES" "$work/ready" "$work/stop" >"$work/pages$teams" &
  pages=$!
  for _ in $(seq 600); do [ -e "$work/ready" ] && break; sleep 0.1; done
  loaded=$(saves 1 "$RESULTS")
  sleep 3
  touch "$work/stop"; wait "$pages"
  read -r bytes events deltas resets <"$work/pages$teams"
  n=$(echo "$loaded" | grep -c .)
  printf '%-8s %12s %10s %8s %8s %14s %14s\n' "$teams" \
    "$(awk -v b="$bytes" -v n="$n" 'BEGIN {printf "%.0f", b / n}')" \
    "$(awk -v b="$bytes" -v n="$n" -v p="$PAGES" 'BEGIN {printf "%.0f B", b / n / p}')" \
    "$deltas" "$resets" "$(echo "$idle" | median)" "$(echo "$loaded" | median)"
  stop
done
echo "($RESULTS results each; deltas and resets summed over $PAGES pages; 0 resets = 0 page fetches)"
