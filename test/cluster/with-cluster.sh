#!/usr/bin/env bash
# Run a command with KUBECONFIG pointing at a reachable Kubernetes API: the cluster
# $KUBECONFIG already reaches, the local control plane if it is already up, or the
# local control plane started (built first on a cold machine) for this command and
# stopped afterwards. Used by `make test` and `.ci/run`.
#
#   bash test/cluster/with-cluster.sh npm run test:all
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

was_up=0
bash "$here/status.sh" >/dev/null 2>&1 && was_up=1

# Assign first, then export: `export X="$(…)"` would hide a failing up.sh.
kc="$(bash "$here/up.sh")"
export KUBECONFIG="$kc"

# Stop only what this script started; a cluster the user brought up stays up.
if (( ! was_up )) && bash "$here/status.sh" >/dev/null 2>&1; then
  trap 'bash "$here/down.sh" >&2' EXIT
fi
"$@"
