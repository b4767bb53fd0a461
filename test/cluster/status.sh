#!/usr/bin/env bash
# Report the state of the binary cache and of the local cluster.
# Exit status: 0 when every component runs and the API is ready, 1 otherwise.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

echo "cache:      $K8S_CACHE_DIR"
if cache_complete; then
  echo "            complete ($(du -sh "$K8S_CACHE_DIR" 2>/dev/null | cut -f1))"
  sed 's/^/            /' "$K8S_CACHE_DIR/VERSIONS"
  echo "KUBECTL=$K8S_BIN/kubectl"
  echo "HELM=$K8S_BIN/helm"
else
  echo "            not built (test/cluster/build.sh)"
fi

echo "state dir:  $CLUSTER_DIR"
ok=1
for c in "${CLUSTER_COMPONENTS[@]}"; do
  if pid="$(pid_of "$c")"; then
    printf '  %-24s running, pid %s\n' "$c" "$pid"
  else
    printf '  %-24s stopped\n' "$c"
    ok=0
  fi
done
if [[ -f "$CLUSTER_DIR/run/ports" ]]; then
  echo "  ports: $(tr '\n' ' ' <"$CLUSTER_DIR/run/ports")"
fi
if (( ok )) && [[ -f "$CLUSTER_DIR/kubeconfig" ]]; then
  ready="$(local_kubectl get --raw=/readyz --request-timeout=5s 2>&1 || true)"
  echo "  apiserver /readyz: $ready"
  [[ "$ready" == ok ]] || ok=0
  local_kubectl get nodes -o wide --request-timeout=5s 2>&1 | sed 's/^/  /' || ok=0
  echo "KUBECONFIG=$CLUSTER_DIR/kubeconfig"
fi
echo "logs:       $CLUSTER_DIR/logs"
if (( ok )); then echo "state: up"; else echo "state: down"; exit 1; fi
