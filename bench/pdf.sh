#!/usr/bin/env bash
# Memory of the Standblätter PDF (issue "Scale"), release build, one run:
#   1000 teams × 8 Passen: after 24 Rangliste pages, 12 requests one after another, then
#   12 more; the server's resident memory before and after them, and its peak (VmHWM);
#   5000 teams × 8 Passen: the 5 parts of 1000 Standblätter each, one after another.
# If pdftoppm and zbarimg are installed, the QR code of the first page is scanned.
# Usage: bash bench/pdf.sh
source "$(dirname "$0")/lib.sh"
mb() { awk -v k="$(grep "^$1:" "/proc/$2/status" | awk '{print $2}')" 'BEGIN {printf "%.0f", k / 1024}'; }

fetch() { # url file → prints seconds; fails on another status than 200
  local out; out=$(curl -s -o "$2" -b "$jar" -w '%{http_code} %{time_total}' "$1")
  [ "${out%% *}" = 200 ] || { echo "GET $1: ${out%% *}" >&2; exit 1; }
  echo "${out#* }"
}

demo 1000; serve 1000
fresh=$(mb VmRSS "$server")
# A server that has served the tournament for a while (24 Rangliste pages: SQLite's page
# caches of the pooled connections hold it), then the Standblätter.
for _ in $(seq 24); do fetch "$base/ranking" "$work/ranking.html" >/dev/null; done
before=$(mb VmRSS "$server")
times=()
for _ in $(seq 12); do times+=("$(fetch "$base/standblaetter.pdf" "$work/sb.pdf")"); done
after=$(mb VmRSS "$server"); peak=$(mb VmHWM "$server")
for _ in $(seq 12); do fetch "$base/standblaetter.pdf" "$work/sb.pdf" >/dev/null; done
again=$(mb VmRSS "$server"); peak2=$(mb VmHWM "$server")
echo "1000 teams, Standblätter ($(stat -c %s "$work/sb.pdf" | awk '{printf "%.1f MB", $1/1e6}'), median $(printf '%s\n' "${times[@]}" | sort -n | sed -n 6p | awk '{printf "%.2f s", $1}')):"
echo "  RSS fresh ${fresh} MB, after 24 Rangliste pages ${before} MB"
echo "  12 requests one after another: ${before} → ${after} MB ($(awk -v a="$after" -v b="$before" 'BEGIN {printf "%.2f×", a/b}'); target ≤ 1.2×), 12 more: ${again} MB"
echo "  peak ${peak} MB after 12 requests, ${peak2} MB after 24 (target ≤ 150 MB)"
if command -v pdftoppm >/dev/null && command -v zbarimg >/dev/null; then
  pdftoppm -r 150 -f 1 -l 1 -png "$work/sb.pdf" "$work/page"
  echo "  QR code on page 1 scans as: $(zbarimg -q --raw "$work"/page*.png 2>/dev/null || echo 'NOTHING')"
fi
stop

demo 5000; serve 5000
before=$(mb VmRSS "$server")
status=$(curl -s -o /dev/null -b "$jar" -w '%{http_code}' "$base/standblaetter.pdf")
for part in 1 2 3 4 5; do
  t=$(fetch "$base/standblaetter.pdf?teil=$part" "$work/part$part.pdf")
  printf '  part %d: %.2f s, %s\n' "$part" "$t" "$(stat -c %s "$work/part$part.pdf" | awk '{printf "%.1f MB", $1/1e6}')"
done | sed '1i 5000 teams, Standblätter in 5 parts:'
after=$(mb VmRSS "$server"); peak=$(mb VmHWM "$server")
echo "  without a part: HTTP $status (the office page links the 5 parts)"
echo "  RSS before ${before} MB, after ${after} MB, peak ${peak} MB"
