#!/usr/bin/env bash
# Start a local Kubernetes control plane on 127.0.0.1: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler and KWOK (fake nodes and pods).
# Idempotent: if the cluster is already up, it only prints the kubeconfig.
# If $KUBECONFIG points at a reachable cluster, that cluster is used and
# nothing is built or started.
#
# stdout: the kubeconfig path, as the last (only) line. Progress goes to stderr.
#
# Env: CORE_AGENT_CLUSTER_DIR   runtime state (default ~/.cache/core-agent/cluster)
#      CORE_AGENT_CLUSTER_NODES number of fake nodes (default 2)
#      CORE_AGENT_CLUSTER_IGNORE_KUBECONFIG=1  start the local cluster even if
#                                $KUBECONFIG reaches a cluster
#      CORE_AGENT_K8S_CACHE     binary cache root (see build.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NODES="${CORE_AGENT_CLUSTER_NODES:-2}"
PKI="$CLUSTER_DIR/pki"
LOGS="$CLUSTER_DIR/logs"
RUN="$CLUSTER_DIR/run"
KCFG="$CLUSTER_DIR/kubeconfig"

# ------------------------------------------------- an existing cluster wins
if [[ -n "${KUBECONFIG:-}" && "${CORE_AGENT_CLUSTER_IGNORE_KUBECONFIG:-0}" != 1 \
      && "$KUBECONFIG" != "$KCFG" ]]; then
  if kc="$(any_kubectl)" && "$kc" version --request-timeout=5s >/dev/null 2>&1; then
    log "KUBECONFIG=$KUBECONFIG reaches a cluster; using it, nothing built or started"
    printf '%s\n' "$KUBECONFIG"
    exit 0
  fi
  log "KUBECONFIG=$KUBECONFIG does not reach a cluster; starting the local one"
fi

mkdir -p "$CLUSTER_DIR"
exec 8>"$CLUSTER_DIR.lock"
flock -w 600 8 || die "another up.sh/down.sh holds $CLUSTER_DIR.lock"

cluster_healthy() {
  local c
  for c in "${CLUSTER_COMPONENTS[@]}"; do pid_of "$c" >/dev/null || return 1; done
  [[ -f "$KCFG" && -x "$K8S_BIN/kubectl" ]] || return 1
  [[ "$(local_kubectl get --raw=/readyz --request-timeout=5s 2>/dev/null)" == ok ]] || return 1
  local_kubectl get nodes -l type=kwok --request-timeout=5s \
    -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' \
    2>/dev/null | grep -qx True
}

if cluster_healthy; then
  log "cluster already up ($CLUSTER_DIR)"
  printf '%s\n' "$KCFG"
  exit 0
fi

# ------------------------------------------------ clean start, build if needed
CORE_AGENT_CLUSTER_LOCKED=1 bash "$CLUSTER_SCRIPT_DIR/down.sh" >&2
rm -rf "$CLUSTER_DIR"/{pki,logs,run,etcd-data,env,kubeconfig,kcm-certs,scheduler-certs}
mkdir -p "$PKI" "$LOGS" "$RUN"
t0=$SECONDS
if ! cache_complete; then
  log "binaries not in cache; building (a cold build takes long, see test/cluster/README.md)"
  nice -n 19 bash "$CLUSTER_SCRIPT_DIR/build.sh" >&2
fi

# ------------------------------------------------------------------ ports
# Pick free ports below the ephemeral range so outgoing connections cannot
# take them between picking and binding.
declare -A used=()
while read -r p; do used[$p]=1; done < <(ss -Htan | awk '{n=split($4,a,":"); print a[n]}')
# `pick_port NAME` sets NAME, in this shell: a `$(pick_port)` would run in a subshell, whose
# `used[$p]=1` never reaches the next pick, so two components could get one port.
pick_port() {
  local p
  for _ in $(seq 200); do
    p=$(( 20000 + RANDOM % 12000 ))
    [[ -z "${used[$p]:-}" ]] && { used[$p]=1; printf -v "$1" '%s' "$p"; return 0; }
  done
  die "no free port found"
}
for name in ETCD_PORT ETCD_PEER_PORT API_PORT KCM_PORT SCHED_PORT KWOK_PORT; do pick_port "$name"; done
printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPI_PORT=%s\nKCM_PORT=%s\nSCHED_PORT=%s\nKWOK_PORT=%s\n' \
  "$ETCD_PORT" "$ETCD_PEER_PORT" "$API_PORT" "$KCM_PORT" "$SCHED_PORT" "$KWOK_PORT" >"$RUN/ports"

# -------------------------------------------------------------------- PKI
log "generating PKI in $PKI"
ossl() { openssl "$@" 2>>"$LOGS/openssl.log"; }
cat >"$PKI/openssl.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, IP:127.0.0.1, IP:10.0.0.1
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
EOF
ossl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 3650 \
  -config "$PKI/openssl.cnf" -extensions ca -subj "/CN=core-agent-local-ca" \
  -keyout "$PKI/ca.key" -out "$PKI/ca.crt"
# cert NAME SUBJECT EXTENSION
cert() {
  ossl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -config "$PKI/openssl.cnf" -subj "$2" -keyout "$PKI/$1.key" -out "$PKI/$1.csr"
  ossl x509 -req -in "$PKI/$1.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial \
    -days 3650 -extfile "$PKI/openssl.cnf" -extensions "$3" -out "$PKI/$1.crt"
  rm -f "$PKI/$1.csr"
}
cert apiserver "/CN=kube-apiserver" server
cert admin "/O=system:masters/CN=core-agent-admin" client
cert kube-controller-manager "/CN=system:kube-controller-manager" client
cert kube-scheduler "/CN=system:kube-scheduler" client
cert kwok "/O=system:masters/CN=kwok-controller" client
# Front-proxy (request header) CA, so controller-manager, scheduler and any
# aggregated API server can verify proxied requests like in a kubeadm cluster.
ossl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 3650 \
  -config "$PKI/openssl.cnf" -extensions ca -subj "/CN=core-agent-front-proxy-ca" \
  -keyout "$PKI/front-proxy-ca.key" -out "$PKI/front-proxy-ca.crt"
ossl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
  -config "$PKI/openssl.cnf" -subj "/CN=front-proxy-client" \
  -keyout "$PKI/front-proxy-client.key" -out "$PKI/front-proxy-client.csr"
ossl x509 -req -in "$PKI/front-proxy-client.csr" -CA "$PKI/front-proxy-ca.crt" \
  -CAkey "$PKI/front-proxy-ca.key" -CAcreateserial -days 3650 \
  -extfile "$PKI/openssl.cnf" -extensions client -out "$PKI/front-proxy-client.crt"
rm -f "$PKI/front-proxy-client.csr"
ossl genrsa -out "$PKI/sa.key" 2048
ossl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub"
chmod 600 "$PKI"/*.key

# kubeconfig FILE CERTNAME
kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: core-agent-local
  cluster:
    server: https://127.0.0.1:${API_PORT}
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 "$PKI/$2.crt")
    client-key-data: $(base64 -w0 "$PKI/$2.key")
contexts:
- name: core-agent-local
  context:
    cluster: core-agent-local
    user: $2
    namespace: default
current-context: core-agent-local
EOF
  chmod 600 "$1"
}
kubeconfig "$PKI/kube-controller-manager.kubeconfig" kube-controller-manager
kubeconfig "$PKI/kube-scheduler.kubeconfig" kube-scheduler
kubeconfig "$PKI/kwok.kubeconfig" kwok
kubeconfig "$KCFG.tmp" admin

# ------------------------------------------------------------- processes
fail() {
  log "ERROR: $*"
  local c
  for c in "${CLUSTER_COMPONENTS[@]}"; do
    [[ -s "$LOGS/$c.log" ]] || continue
    log "---- last lines of $LOGS/$c.log"
    tail -n 15 "$LOGS/$c.log" >&2
  done
  CORE_AGENT_CLUSTER_LOCKED=1 bash "$CLUSTER_SCRIPT_DIR/down.sh" >&2 || true
  exit 1
}

# start NAME ARGS... (in its own session, so a terminal's Ctrl-C or the end
# of the calling shell does not take it down; down.sh stops it)
start() {
  local name="$1"; shift
  # 8>&-: the daemons must not inherit (and so hold) the up/down lock.
  setsid "$K8S_BIN/$name" "$@" >"$LOGS/$name.log" 2>&1 </dev/null 8>&- &
  printf '%s\n' "$!" >"$RUN/$name.pid"
  log "started $name (pid $!)"
}

# wait_for WHAT TIMEOUT_S COMPONENT CMD... : poll CMD until it succeeds
wait_for() {
  local what="$1" timeout="$2" comp="$3"; shift 3
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    starting "$comp" || fail "$comp exited while waiting for $what"
    (( SECONDS < deadline )) || fail "timed out after ${timeout}s waiting for $what"
    sleep 0.3
  done
}

start etcd --name core-agent --data-dir "$CLUSTER_DIR/etcd-data" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "core-agent=http://127.0.0.1:$ETCD_PEER_PORT" \
  --unsafe-no-fsync --log-level warn
wait_for "etcd health" 30 etcd curl -fsS "http://127.0.0.1:$ETCD_PORT/health"

start kube-apiserver \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --bind-address 127.0.0.1 --secure-port "$API_PORT" \
  --advertise-address 127.0.0.1 --endpoint-reconciler-type none \
  --cert-dir "$PKI" --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
  --client-ca-file "$PKI/ca.crt" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
  --service-cluster-ip-range 10.0.0.0/24 \
  --requestheader-client-ca-file "$PKI/front-proxy-ca.crt" \
  --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
  --requestheader-extra-headers-prefix X-Remote-Extra- \
  --proxy-client-cert-file "$PKI/front-proxy-client.crt" --proxy-client-key-file "$PKI/front-proxy-client.key" \
  --authorization-mode Node,RBAC --allow-privileged=true --profiling=false
api_ready() {
  [[ "$(curl -fsS --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
        "https://127.0.0.1:$API_PORT/readyz")" == ok ]]
}
wait_for "kube-apiserver /readyz" 90 kube-apiserver api_ready

start kube-controller-manager \
  --kubeconfig "$PKI/kube-controller-manager.kubeconfig" \
  --authentication-kubeconfig "$PKI/kube-controller-manager.kubeconfig" \
  --authorization-kubeconfig "$PKI/kube-controller-manager.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$KCM_PORT" --cert-dir "$CLUSTER_DIR/kcm-certs" \
  --leader-elect=false --use-service-account-credentials=true \
  --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
  --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
  --service-cluster-ip-range 10.0.0.0/24 --profiling=false
start kube-scheduler \
  --kubeconfig "$PKI/kube-scheduler.kubeconfig" \
  --authentication-kubeconfig "$PKI/kube-scheduler.kubeconfig" \
  --authorization-kubeconfig "$PKI/kube-scheduler.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$SCHED_PORT" --cert-dir "$CLUSTER_DIR/scheduler-certs" \
  --leader-elect=false --profiling=false
wait_for "kube-controller-manager /healthz" 60 kube-controller-manager \
  curl -fsSk "https://127.0.0.1:$KCM_PORT/healthz"
wait_for "kube-scheduler /healthz" 60 kube-scheduler \
  curl -fsSk "https://127.0.0.1:$SCHED_PORT/healthz"

# ------------------------------------------------------------ fake nodes
log "creating $NODES fake node(s)"
{
  for i in $(seq 0 $((NODES - 1))); do
    cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-$i
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    type: kwok
    kubernetes.io/arch: amd64
    kubernetes.io/os: linux
    kubernetes.io/hostname: kwok-node-$i
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}
  capacity: {cpu: "32", memory: 256Gi, pods: "110"}
EOF
  done
} | "$K8S_BIN/kubectl" --kubeconfig "$KCFG.tmp" apply -f - >&2 || fail "could not create nodes"

# KWOK's kubelet API serves `kubectl logs` (and k8s_logs): every container of a
# fake pod "printed" the lines of this file (in the CRI log format the kubelet reads).
cat >"$RUN/pod.log" <<'EOF'
2026-11-30T00:00:00.000000000Z stdout F starting web server on :8080
2026-11-30T00:00:01.000000000Z stdout F connected to database at db:5432
2026-11-30T00:00:02.000000000Z stderr F warning: cache size is 0
EOF
for i in $(seq 1 60); do printf '2026-11-30T00:01:%02d.000000000Z stdout F GET /healthz 200 in 3ms (request %d)\n' $((i % 60)) "$i"; done >>"$RUN/pod.log"
echo '2026-11-30T00:02:00.000000000Z stdout F ready' >>"$RUN/pod.log"
# A container named `checkout` is the crashing one (test/cluster/incident-delegation.test.ts):
# its previous run printed 1,500 lines of start-up noise, then the failure; its current
# run has only started. A named container's entry wins over the default one.
{
  for i in $(seq 1 1500); do
    printf '2026-11-30T00:03:%02d.%06d000Z stdout F INFO warming price cache: shard %d of 1500 loaded\n' $((i % 60)) "$i" "$i"
  done
  echo '2026-11-30T00:04:00.000000000Z stderr F ERROR checkout: dial tcp 10.0.0.53:5432: connect: connection refused (PAYMENTS_DB_HOST=payments-db.shop.svc)'
  echo '2026-11-30T00:04:00.100000000Z stderr F FATAL checkout: cannot reach the payments database after 5 attempts; exiting with code 1'
} >"$RUN/checkout-previous.log"
echo '2026-11-30T00:05:00.000000000Z stdout F INFO checkout starting (attempt 5)' >"$RUN/checkout.log"
cat >"$RUN/kwok-logs.yaml" <<EOF
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata:
  name: every-pod
spec:
  logs:
  - containers: []
    logsFile: $RUN/pod.log
    follow: false
  - containers: [checkout]
    logsFile: $RUN/checkout.log
    previousLogsFile: $RUN/checkout-previous.log
    follow: false
EOF
# The stock stages, with pod-ready kept away from pods labelled core-agent.test/crash=true,
# which test/cluster/stages/pod-crashloop.yaml makes crash-loop instead.
mkdir -p "$RUN/stages"
for f in "$K8S_STAGES"/*.yaml; do cp "$f" "$RUN/stages/"; done
awk '{ print } /^  selector:$/ && !done { getline; print; print "    - key: '"'"'.metadata.labels[\"core-agent.test/crash\"]'"'"'"; print "      operator: '"'"'NotIn'"'"'"; print "      values: ['"'"'true'"'"']"; done = 1 }' \
  "$K8S_STAGES/pod-ready.yaml" >"$RUN/stages/pod-ready.yaml"
cp "$CLUSTER_SCRIPT_DIR/stages/"*.yaml "$RUN/stages/"
stages=("$RUN/stages"/*.yaml "$RUN/kwok-logs.yaml")
start kwok --kubeconfig "$PKI/kwok.kubeconfig" \
  --config "$(IFS=,; echo "${stages[*]}")" \
  --server-address "127.0.0.1:$KWOK_PORT" --node-port "$KWOK_PORT" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
  --node-lease-duration-seconds 40 --cidr 10.244.0.1/16 --node-ip 127.0.0.1
nodes_ready() {
  "$K8S_BIN/kubectl" --kubeconfig "$KCFG.tmp" wait --for=condition=Ready node -l type=kwok --timeout=2s
}
wait_for "fake nodes Ready" 60 kwok nodes_ready
sa_ready() { "$K8S_BIN/kubectl" --kubeconfig "$KCFG.tmp" -n default get serviceaccount default; }
wait_for "the default ServiceAccount" 60 kube-controller-manager sa_ready

mv "$KCFG.tmp" "$KCFG"
cat >"$CLUSTER_DIR/env" <<EOF
export KUBECONFIG='$KCFG'
export KUBECTL='$K8S_BIN/kubectl'
export HELM='$K8S_BIN/helm'
EOF
log "cluster up in $((SECONDS - t0))s: apiserver https://127.0.0.1:$API_PORT, logs in $LOGS"
log "use it: source $CLUSTER_DIR/env  (KUBECONFIG, KUBECTL, HELM)"
printf '%s\n' "$KCFG"
