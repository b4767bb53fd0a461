#!/usr/bin/env bash
# Lint (defaults, every test values file, every chart example) and package the Helm
# chart: dist/core-agent-<version>.tgz, ready for
#   helm push dist/core-agent-<version>.tgz oci://ghcr.io/core-agent/charts
# helm is $HELM, else the one test/cluster/build.sh built, else helm on PATH. It runs
# with private cache/config/data dirs, so nothing global is touched and nothing is
# fetched (the chart has no dependencies).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=test/cluster/lib.sh
source "$root/test/cluster/lib.sh"

helm="${HELM:-}"
if [[ -z "$helm" ]]; then
  if [[ -x "$K8S_BIN/helm" ]]; then helm="$K8S_BIN/helm"; else helm="$(command -v helm || true)"; fi
fi
[[ -n "$helm" && -x "$helm" ]] || die "no helm: run bash test/cluster/build.sh, or set HELM"

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export HELM_CACHE_HOME="$home/cache" HELM_CONFIG_HOME="$home/config" HELM_DATA_HOME="$home/data"

chart="$root/helm/core-agent"
"$helm" lint "$chart" --strict
for values in "$root"/test/helm/values/*.yaml "$chart"/examples/*.yaml; do
  "$helm" lint "$chart" --strict -f "$values" >/dev/null || die "helm lint fails with $values"
done
mkdir -p "$root/dist"
"$helm" package "$chart" -d "$root/dist"
