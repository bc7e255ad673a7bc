#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the sharing tests, on a free loopback port, in a folder of
# its own. initdb refuses to run as root, so as root the cluster runs as the `postgres` user that
# Debian's postgresql-15 package creates.
#
#   pg-cluster.sh start DIR [PID]  prints the port; with PID, the cluster is stopped and DIR
#                               removed once that process has ended, however it ended; roles: tripadmin (owner of database `trips`,
#                               password admin-pw) and ana, ben, carla, dave (password NAME-pw)
#   pg-cluster.sh stop DIR      stops the server and removes DIR
#   pg-cluster.sh restart DIR   stops and starts it again on the same port (fault tests)
#   pg-cluster.sh halt DIR      stops it, keeping DIR (fault tests: server down)
set -euo pipefail
cmd=${1:?start|stop|restart|halt}
dir=${2:?folder}
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || bin=$(dirname "$(command -v initdb)")
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
start_server() {
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $(cat "$dir/port") -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100" start >/dev/null
}
case "$cmd" in
start)
  mkdir -p "$dir"
  chmod 0755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' > "$dir/port"
  printf 'admin-pw\n' > "$dir/pw"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir/pw" "$dir/port"
  as_pg "$bin/initdb" -D "$dir/data" -U tripadmin --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$dir/pw" -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  start_server
  as_pg "$bin/psql" -h "$dir" -p "$(cat "$dir/port")" -U tripadmin -d postgres -v ON_ERROR_STOP=1 -q \
    -c "CREATE DATABASE trips" \
    -c "CREATE ROLE ana LOGIN PASSWORD 'ana-pw'" -c "CREATE ROLE ben LOGIN PASSWORD 'ben-pw'" \
    -c "CREATE ROLE carla LOGIN PASSWORD 'carla-pw'" -c "CREATE ROLE dave LOGIN PASSWORD 'dave-pw'" >/dev/null
  if [ -n "${3:-}" ]; then
    # A watchdog, detached from this script: the test process may end by a signal, with no
    # chance to stop what it started. It carries everything it needs to stop the server and
    # names no file of the checkout, which may be deleted before the test process ends.
    watch="cd /; while kill -0 $3 2>/dev/null; do sleep 1; done; $(declare -f as_pg);
      as_pg '$bin/pg_ctl' -D '$dir/data' -m immediate -w stop; rm -rf '$dir'"
    nohup setsid bash -c "$watch" >/dev/null 2>&1 &
  fi
  cat "$dir/port"
  ;;
stop)
  [ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
restart)
  as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  start_server
  ;;
halt)
  as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
*) echo "usage: $0 start|stop|restart|halt DIR" >&2; exit 64 ;;
esac
