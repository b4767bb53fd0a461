#!/usr/bin/env bash
# Build etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl,
# kwok and helm from Go modules into a cache outside the repo, keyed by the
# versions in versions.env. Does nothing when that cache entry is complete.
#
#   test/cluster/build.sh            # build if missing, print the bin dir
#   test/cluster/build.sh --force    # rebuild even if present
#
# Env: CORE_AGENT_K8S_CACHE (cache root, default ${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/k8s)
#      CORE_AGENT_K8S_KEEP_GO_CACHE=1 keeps the private Go module/build caches
#      (<root>/.go) after a successful build; by default they are removed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

force=0
[[ "${1:-}" == "--force" ]] && force=1

if cache_complete && [[ $force == 0 ]]; then
  log "cache present: $K8S_CACHE_DIR"
  printf '%s\n' "$K8S_BIN"
  exit 0
fi

command -v go >/dev/null 2>&1 || { [[ -x /usr/local/go/bin/go ]] && PATH="/usr/local/go/bin:$PATH"; }
command -v go >/dev/null 2>&1 || die "go not found (need Go >= 1.26 for Kubernetes ${K8S_VERSION})"

mkdir -p "$K8S_CACHE_ROOT"
exec 9>"$K8S_CACHE_ROOT/.build.lock"
log "waiting for build lock $K8S_CACHE_ROOT/.build.lock"
flock 9
if cache_complete && [[ $force == 0 ]]; then # another process built it meanwhile
  printf '%s\n' "$K8S_BIN"
  exit 0
fi

# A private, self-contained Go environment: no container, no release downloads,
# only the Go module proxy.
export GOTOOLCHAIN=local CGO_ENABLED=0 GOWORK=off GOFLAGS=-buildvcs=false GO111MODULE=on
export GOMODCACHE="$K8S_CACHE_ROOT/.go/mod" GOCACHE="$K8S_CACHE_ROOT/.go/build"
export GOPATH="$K8S_CACHE_ROOT/.go/path"
gover="$(go env GOVERSION)"
if ! [[ "$gover" =~ ^go1\.([0-9]+) ]] || (( BASH_REMATCH[1] < 26 )); then
  die "Kubernetes ${K8S_VERSION} needs Go >= 1.26.0, found $gover (GOTOOLCHAIN=local)"
fi

work="$K8S_CACHE_ROOT/.work-$$"
out="$K8S_CACHE_DIR.tmp-$$"
cleanup() { rm -rf "$work" "$out"; }
trap cleanup EXIT
rm -rf "$work" "$out"
mkdir -p "$work" "$out/bin" "$out/kwok-stages"

start=$SECONDS
build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
log "building $K8S_CACHE_KEY with $gover into $K8S_CACHE_DIR"

# go mod download -json MOD@VER | field -> value of one JSON string field
modfield() { go mod download -json "$1" | sed -n "s/^[[:space:]]*\"$2\": \"\(.*\)\",\{0,1\}$/\1/p"; }

# ---------------------------------------------------------------- Kubernetes
# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them
# with ./staging/src/..., which the module zip lacks. Replace each with the
# published v0.X.Y instead, deriving the list from the release's own go.mod.
log "kubernetes ${K8S_VERSION}: resolving staging modules"
staging_ver="v0.${K8S_VERSION#v1.}"
k8s_gomod="$(modfield "k8s.io/kubernetes@${K8S_VERSION}" GoMod)"
[[ -f "$k8s_gomod" ]] || die "could not download k8s.io/kubernetes@${K8S_VERSION}"
mapfile -t staging < <(awk '
  /^require[[:space:]]*\(/ {inreq=1; next}
  inreq && /^\)/ {inreq=0}
  inreq && $2 == "v0.0.0" {req[$1]=1}
  /^replace[[:space:]]*\(/ {inrep=1; next}
  inrep && /^\)/ {inrep=0}
  inrep && $2 == "=>" && $3 ~ /^\.\/staging\// && ($1 in req) {print $1}
' "$k8s_gomod")
(( ${#staging[@]} > 10 )) || die "unexpected staging module list from $k8s_gomod: ${staging[*]:-none}"
log "replacing ${#staging[@]} staging modules with ${staging_ver}"

mkdir -p "$work/kube" && cd "$work/kube"
go mod init core-agent.local/k8s-build >/dev/null 2>&1
edits=(-require="k8s.io/kubernetes@${K8S_VERSION}")
for m in "${staging[@]}"; do edits+=(-replace="$m=$m@${staging_ver}"); done
go mod edit "${edits[@]}"
kube_cmds=(kube-apiserver kube-controller-manager kube-scheduler kubectl)
{
  echo '//go:build tools'
  echo 'package tools'
  echo 'import ('
  for c in "${kube_cmds[@]}"; do echo "	_ \"k8s.io/kubernetes/cmd/$c\""; done
  echo ')'
} >tools.go
go mod tidy
major="${K8S_VERSION#v}"; major="${major%%.*}"
minor="${K8S_VERSION#v*.}"; minor="${minor%%.*}"
kv=""
for p in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
  kv+=" -X $p.gitVersion=${K8S_VERSION} -X $p.gitMajor=${major} -X $p.gitMinor=${minor}"
  kv+=" -X $p.gitCommit=0000000000000000000000000000000000000000 -X $p.gitTreeState=clean"
  kv+=" -X $p.buildDate=${build_date}"
done
log "kubernetes ${K8S_VERSION}: compiling ${kube_cmds[*]}"
pkgs=(); for c in "${kube_cmds[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$c"); done
go build -trimpath -tags selinux,notest,grpcnotrace -ldflags "-s -w$kv" -o "$out/bin/" "${pkgs[@]}"

# ---------------------------------------------------------------------- etcd
# go.etcd.io/etcd/server/v3 replaces its sibling modules with ../api etc.;
# pin them to the same published tag instead. The module root is the etcd
# main package.
log "etcd ${ETCD_VERSION}: resolving"
etcd_gomod="$(modfield "go.etcd.io/etcd/server/v3@${ETCD_VERSION}" GoMod)"
[[ -f "$etcd_gomod" ]] || die "could not download go.etcd.io/etcd/server/v3@${ETCD_VERSION}"
mapfile -t etcd_mods < <(awk '
  /^replace[[:space:]]*\(/ {inrep=1; next}
  inrep && /^\)/ {inrep=0}
  inrep && $2 == "=>" && $3 ~ /^\.\./ && $1 ~ /^go\.etcd\.io\/etcd\// {print $1}
' "$etcd_gomod")
mkdir -p "$work/etcd" && cd "$work/etcd"
go mod init core-agent.local/etcd-build >/dev/null 2>&1
edits=(-require="go.etcd.io/etcd/server/v3@${ETCD_VERSION}")
for m in "${etcd_mods[@]}"; do edits+=(-replace="$m=$m@${ETCD_VERSION}"); done
go mod edit "${edits[@]}"
printf '//go:build tools\npackage tools\nimport _ "go.etcd.io/etcd/server/v3"\n' >tools.go
go mod tidy
log "etcd ${ETCD_VERSION}: compiling"
go build -trimpath -ldflags "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=${ETCD_VERSION}" \
  -o "$out/bin/etcd" go.etcd.io/etcd/server/v3

# ---------------------------------------------------------------------- KWOK
# No replace directives: go install works. v0.8.0 has no built-in stages, so
# keep the stage files that ship in the module next to the binary.
log "kwok ${KWOK_VERSION}: compiling"
cd "$work"
GOBIN="$out/bin" go install -trimpath \
  -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION} -X sigs.k8s.io/kwok/pkg/consts.KubeVersion=${K8S_VERSION}" \
  "sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}"
kwok_dir="$(modfield "sigs.k8s.io/kwok@${KWOK_VERSION}" Dir)"
for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
         pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
  [[ -f "$kwok_dir/kustomize/stage/$f" ]] || die "kwok stage file missing: kustomize/stage/$f"
  install -m 0644 "$kwok_dir/kustomize/stage/$f" "$out/kwok-stages/$(basename "$f")"
done

# ---------------------------------------------------------------------- helm
log "helm ${HELM_VERSION}: compiling"
helm_gomod="$(modfield "helm.sh/helm/v3@${HELM_VERSION}" GoMod)"
# helm's Makefile derives its default Kubernetes version from its client-go.
cg="$(awk '$1 == "k8s.io/client-go" {print $2; exit}' "$helm_gomod")"
cg_minor="${cg#v0.}"; cg_minor="${cg_minor%%.*}"
hl="-s -w -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}"
hl+=" -X helm.sh/helm/v3/internal/version.metadata= -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for p in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  hl+=" -X $p.k8sVersionMajor=1 -X $p.k8sVersionMinor=${cg_minor}"
done
GOBIN="$out/bin" go install -trimpath -ldflags "$hl" "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}"

# -------------------------------------------------------------------- verify
cd "$out"
for b in "${K8S_BINARIES[@]}"; do [[ -x "bin/$b" ]] || die "missing bin/$b"; done
{
  echo "key: $K8S_CACHE_KEY"
  echo "go: $gover"
  echo "built: $build_date in $((SECONDS - start))s"
  echo "etcd: $(bin/etcd --version | head -1)"
  echo "kube-apiserver: $(bin/kube-apiserver --version)"
  echo "kube-controller-manager: $(bin/kube-controller-manager --version)"
  echo "kube-scheduler: $(bin/kube-scheduler --version)"
  echo "kubectl: $(bin/kubectl version --client | head -1)"
  echo "kwok: $(bin/kwok --version)"
  echo "helm: $(bin/helm version --short)"
} >VERSIONS
cat VERSIONS >&2
grep -q "Kubernetes ${K8S_VERSION}\$" VERSIONS || die "kube-apiserver does not report ${K8S_VERSION}"
touch .complete

cd "$K8S_CACHE_ROOT"
rm -rf "$K8S_CACHE_DIR"
mv "$out" "$K8S_CACHE_DIR"
if [[ "${CORE_AGENT_K8S_KEEP_GO_CACHE:-0}" != 1 ]]; then
  chmod -R u+w "$K8S_CACHE_ROOT/.go" 2>/dev/null || true
  rm -rf "$K8S_CACHE_ROOT/.go"
fi
log "built $K8S_CACHE_KEY in $((SECONDS - start))s"
printf '%s\n' "$K8S_BIN"
