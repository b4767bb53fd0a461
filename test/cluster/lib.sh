# shellcheck shell=bash disable=SC2034  # variables are used by the scripts that source this
# Shared settings for test/cluster/*.sh. Sourced, not executed.

CLUSTER_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# versions.env holds plain KEY=VALUE lines with trailing comments.
while IFS= read -r _line; do
  _line="${_line%%#*}"
  _line="${_line//[[:space:]]/}"
  [[ -z "$_line" ]] && continue
  declare -g "$_line"
done <"$CLUSTER_SCRIPT_DIR/versions.env"
unset _line

# Cache of built binaries, outside the repo, keyed by versions.
K8S_CACHE_ROOT="${CORE_AGENT_K8S_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/k8s}"
K8S_CACHE_KEY="k8s-${K8S_VERSION}_etcd-${ETCD_VERSION}_kwok-${KWOK_VERSION}_helm-${HELM_VERSION}_r${BUILD_RECIPE}"
K8S_CACHE_DIR="$K8S_CACHE_ROOT/$K8S_CACHE_KEY"
K8S_BIN="$K8S_CACHE_DIR/bin"
K8S_STAGES="$K8S_CACHE_DIR/kwok-stages"
K8S_BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok helm)

# Runtime state of the local cluster: PKI, kubeconfigs, etcd data, logs, pids.
CLUSTER_DIR="${CORE_AGENT_CLUSTER_DIR:-$HOME/.cache/core-agent/cluster}"
# Processes in start order; down.sh stops them in reverse.
CLUSTER_COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

log() { printf '[cluster %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

cache_complete() { [[ -f "$K8S_CACHE_DIR/.complete" ]]; }

# pid_of COMPONENT -> prints the pid if its pidfile names a live process
# running the expected binary (guards against pid reuse).
pid_of() {
  local name="$1" pidfile="$CLUSTER_DIR/run/$1.pid" pid exe
  [[ -f "$pidfile" ]] || return 1
  pid="$(<"$pidfile")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -d "/proc/$pid" ]] || return 1
  exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
  exe="${exe% (deleted)}"
  [[ "$(basename "$exe")" == "$name" ]] || return 1
  printf '%s\n' "$pid"
}

# starting NAME: the process start() launched is still there — running NAME, or
# a moment before it execs NAME: still the forked shell, or setsid (a loaded
# machine shows that window, and pid_of alone then reads it as an exit).
starting() {
  local name="$1" pidfile="$CLUSTER_DIR/run/$1.pid" pid exe
  pid_of "$name" >/dev/null && return 0
  [[ -f "$pidfile" ]] || return 1
  pid="$(<"$pidfile")"
  exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
  case "$(basename "${exe% (deleted)}")" in bash | setsid) return 0 ;; *) return 1 ;; esac
}

# kubectl for the local cluster, as the admin identity.
local_kubectl() {
  "$K8S_BIN/kubectl" --kubeconfig "$CLUSTER_DIR/kubeconfig" "$@"
}

# A kubectl to talk to a user-provided cluster: the cached one if built,
# otherwise whatever is on PATH.
any_kubectl() {
  if [[ -x "$K8S_BIN/kubectl" ]]; then
    printf '%s\n' "$K8S_BIN/kubectl"
  elif command -v kubectl >/dev/null 2>&1; then
    command -v kubectl
  else
    return 1
  fi
}
