#!/usr/bin/env bash
# Stop the local cluster started by up.sh: no process and no port left behind.
# Logs stay in $CORE_AGENT_CLUSTER_DIR/logs for inspection; --purge removes the
# whole state directory. Never touches a cluster that up.sh did not start.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

purge=0
[[ "${1:-}" == "--purge" ]] && purge=1

[[ -d "$CLUSTER_DIR" ]] || { log "no cluster state at $CLUSTER_DIR; nothing to stop"; exit 0; }
if [[ "${CORE_AGENT_CLUSTER_LOCKED:-0}" != 1 ]]; then
  exec 8>"$CLUSTER_DIR.lock"
  flock -w 120 8 || die "another up.sh/down.sh holds $CLUSTER_DIR.lock"
fi

# Our processes: those in the pidfiles, plus any process still running one of
# the cached binaries with this state directory on its command line (in case
# a pidfile was lost).
ours() {
  local c pid exe
  for c in "${CLUSTER_COMPONENTS[@]}"; do pid_of "$c" || true; done
  for exe in /proc/[0-9]*/exe; do
    pid="${exe#/proc/}"; pid="${pid%/exe}"
    [[ "$(readlink "$exe" 2>/dev/null)" == "$K8S_BIN/"* ]] || continue
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$CLUSTER_DIR" && echo "$pid"
  done
  return 0
}

mapfile -t pids < <(ours | sort -un)
if (( ${#pids[@]} )); then
  # Stop in reverse start order: kwok, scheduler, controller-manager, apiserver, etcd.
  for (( i=${#CLUSTER_COMPONENTS[@]}-1; i>=0; i-- )); do
    c="${CLUSTER_COMPONENTS[$i]}"
    if pid="$(pid_of "$c")"; then
      log "stopping $c (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      [[ "$c" == etcd ]] && sleep 0.2
    fi
  done
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  deadline=$((SECONDS + 20))
  while (( SECONDS < deadline )); do
    alive=0
    for pid in "${pids[@]}"; do [[ -d /proc/$pid ]] && alive=1; done
    (( alive )) || break
    sleep 0.2
  done
  for pid in "${pids[@]}"; do
    if [[ -d /proc/$pid ]]; then
      log "pid $pid did not stop on SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  sleep 0.2
fi
rm -f "$CLUSTER_DIR"/run/*.pid "$CLUSTER_DIR/env"

# Check that no port of ours is still listening.
if (( ${#pids[@]} )) && [[ -f "$CLUSTER_DIR/run/ports" ]]; then
  while IFS='=' read -r name port; do
    for _ in $(seq 50); do
      ss -Htln "sport = :$port" | grep -q . || continue 2
      sleep 0.2
    done
    die "port $port ($name) is still listening"
  done <"$CLUSTER_DIR/run/ports"
fi
left="$(ours | sort -un | tr '\n' ' ')"
[[ -z "$left" ]] || die "processes still running: $left"

if (( purge )); then
  rm -rf "$CLUSTER_DIR"
  log "stopped; removed $CLUSTER_DIR"
else
  log "stopped ${#pids[@]} process(es); logs kept in $CLUSTER_DIR/logs"
fi
