#!/usr/bin/env bash
# A whole tournament day, simulated (#82): the driver tests/api/day.rs (release build) runs a
# Partnerschieber of DAY_TEAMS (200) teams × DAY_PASSEN (8) Passen à 12 Spiele: two Büro
# clerks typing blind twice, phones reporting half of the tables, a Kontrolleur, DAY_VIEWERS
# (500) live viewers, DAY_POLLERS (200) public team pages, Standblätter printed, automatic
# backups — compressed DAY_SPEED (50) times. Each run prints lost / duplicated (must be 0),
# p50/p99 per action, the live delay, RSS and CPU of the server(s), the backups.
#
# Runs, side by side:
#   idle       the Büro alone (no phones, viewers, pages): the office's p99 on an idle server
#   pg-idle    the same on PostgreSQL (one instance)
#   sqlite     the whole day on SQLite, no fault
#   kill       SQLite, SIGKILL of the server in Passe 4 and a restart
#   disk-full  SQLite on a 64 MB filesystem filled up in Passe 4 for 3 s, then freed
#              (needs root to mount a tmpfs; skipped otherwise)
#   pg-kill    PostgreSQL, SIGKILL and restart
#   pg-two     PostgreSQL, two instances, requests alternating; one killed in Passe 4
#   pg-drop    PostgreSQL, two instances; every connection of the database terminated
#              (pg_terminate_backend) in Passe 4 — no restart
#   pg-all     PostgreSQL, two instances: one killed, the other's connections terminated
#              while it is down, then the killed one started again
#   marathon   a Jassmarathon of DAY_TEAMS (100) teams × 4 Spielrunden, every Tafel (50) kept
#              on a phone line by line (24 Spiele in 90 minutes), 2 % of the answers lost on
#              the Wi-Fi (the line sent again), the opponents confirming at the gong; SQLite,
#              SIGKILL in Spielrunde 2. Compressed MARATHON_SPEED (50) times (a Spielrunde
#              is 90 minutes: at 50 the day takes about 8 minutes)
#   pg-marathon  the same on PostgreSQL, two instances, one killed in Spielrunde 2
# Usage: bash bench/day.sh [RUN ...]   (default: all). POSTGRES (default
# postgres://root@127.0.0.1:5432) names the server; each PostgreSQL run gets a database of its
# own, dropped at the end.
set -euo pipefail
ulimit -n 8192
cd "$(dirname "${BASH_SOURCE[0]}")/.."
POSTGRES=${POSTGRES:-postgres://root@127.0.0.1:5432}
export DAY_SPEED=${DAY_SPEED:-50}
runs=("$@")
MARATHON_SPEED=${MARATHON_SPEED:-50}
[ ${#runs[@]} -eq 0 ] && runs=(idle pg-idle sqlite kill disk-full pg-kill pg-two pg-drop pg-all marathon pg-marathon)
cargo test --release --test api --no-run -q 2>/dev/null
scratch=$(mktemp -d)
databases=()
cleanup() {
  mountpoint -q "$scratch/fs" 2>/dev/null && umount "$scratch/fs"
  for d in "${databases[@]}"; do psql "$POSTGRES/postgres" -qc "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1 || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT

day() { # NAME, then VAR=VALUE ...: one day with these settings
  local name=$1; shift
  echo "== $name"
  env "$@" cargo test --release -q --test api day::full_day -- --ignored --exact --nocapture 2>&1 \
    | grep -vE '^(running|test result|$)|full_day|^\s*$' || { echo "$name FAILED"; return 1; }
}

pg_database() { # a fresh database on the PostgreSQL server; prints its URL
  local name=day_$RANDOM$RANDOM
  psql "$POSTGRES/postgres" -qc "CREATE DATABASE $name" >/dev/null
  databases+=("$name")
  echo "$POSTGRES/$name"
}

for run in "${runs[@]}"; do
  case $run in
    idle) day idle DAY_DATABASE_URL="$scratch/idle.sqlite3" DAY_VIEWERS=0 DAY_POLLERS=0 DAY_PHONE_EVERY=0 DAY_FAULT=none ;;
    pg-idle) url=$(pg_database); day pg-idle DAY_DATABASE_URL="$url" DAY_VIEWERS=0 DAY_POLLERS=0 DAY_PHONE_EVERY=0 DAY_FAULT=none ;;
    sqlite) day sqlite DAY_DATABASE_URL="$scratch/sqlite.sqlite3" DAY_FAULT=none ;;
    kill) day kill DAY_DATABASE_URL="$scratch/kill.sqlite3" DAY_FAULT=kill ;;
    disk-full)
      mkdir -p "$scratch/fs"
      if mount -t tmpfs -o size=64m tmpfs "$scratch/fs" 2>/dev/null; then
        day disk-full DAY_DATABASE_URL="$scratch/fs/day.sqlite3" DAY_FAULT=disk-full DAY_DISK="$scratch/fs" DAY_BACKUP_DIR="$scratch/fs/backups"
        umount "$scratch/fs"
      else
        echo "== disk-full: NOT RUN (mounting a tmpfs needs root)"
      fi ;;
    pg-kill) url=$(pg_database); day pg-kill DAY_DATABASE_URL="$url" DAY_FAULT=kill ;;
    pg-two) url=$(pg_database); day pg-two DAY_DATABASE_URL="$url" DAY_INSTANCES=2 DAY_FAULT=kill-one ;;
    pg-drop) url=$(pg_database); day pg-drop DAY_DATABASE_URL="$url" DAY_INSTANCES=2 DAY_FAULT=drop-connections DAY_PG_ADMIN="$POSTGRES/postgres" ;;
    pg-all) url=$(pg_database); day pg-all DAY_DATABASE_URL="$url" DAY_INSTANCES=2 DAY_FAULT=all DAY_PG_ADMIN="$POSTGRES/postgres" ;;
    marathon) day marathon DAY_MODE=marathon DAY_SPEED="$MARATHON_SPEED" DAY_DATABASE_URL="$scratch/marathon.sqlite3" DAY_FAULT=kill DAY_FAULT_PASSE=2 ;;
    pg-marathon) url=$(pg_database); day pg-marathon DAY_MODE=marathon DAY_SPEED="$MARATHON_SPEED" DAY_DATABASE_URL="$url" DAY_INSTANCES=2 DAY_FAULT=kill-one DAY_FAULT_PASSE=2 ;;
    *) echo "unknown run $run" >&2; exit 2 ;;
  esac
done
