#!/usr/bin/env bash
# The operator's main job on the local control plane: `core-agent watch` with
# recipes/k8s-watch.yaml, the replay model (examples/replay/watch-incident.jsonl) making the
# model's decisions. A Deployment whose pods crash-loop (a KWOK stage) becomes ONE incident,
# one session triages it with real read-only tools, the outcome is recorded; then the
# health and metrics endpoints, the session, and a clean SIGTERM.
# Run by `make demo-operator` (inside test/cluster/with-cluster.sh, which sets KUBECONFIG).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/dist/core-agent.mjs"
# shellcheck source=test/cluster/lib.sh
source "$root/test/cluster/lib.sh"
kubectl() { "$(any_kubectl)" "$@"; }
ns=core-agent-demo
work=$(mktemp -d)
watch_pid=
cleanup() {
  [[ -z $watch_pid ]] || kill "$watch_pid" 2>/dev/null || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "A Deployment whose pods crash-loop, in namespace $ns"
kubectl delete namespace "$ns" --wait=true >/dev/null 2>&1 || true
kubectl create namespace "$ns"
kubectl -n "$ns" apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, core-agent.test/crash: "true"}}
    spec: {containers: [{name: web, image: registry.k8s.io/pause:3.10}]}
YAML

# The shipped recipe, its skills path made absolute, watching only the demo namespace.
sed "s#dirs: \[../skills\].*#dirs: [$root/skills]#" "$root/recipes/k8s-watch.yaml" >"$work/recipe.yaml"
printf '  namespaces: [%s]\n' "$ns" >>"$work/recipe.yaml"

say "core-agent watch -c recipes/k8s-watch.yaml --model replay:examples/replay/watch-incident.jsonl"
(cd "$work" && exec node "$bin" watch -c "$work/recipe.yaml" --model "replay:$root/examples/replay/watch-incident.jsonl" \
  --session-db "$work/sessions.db" --listen 127.0.0.1:0 --shutdown-grace 5 >"$work/out" 2>"$work/err") &
watch_pid=$!
for _ in $(seq 1 120); do
  grep -qE 'incident #1 (RESOLVED|UNRESOLVED)' "$work/out" 2>/dev/null && break
  kill -0 "$watch_pid" 2>/dev/null || { cat "$work/out" "$work/err"; exit 1; }
  sleep 0.5
done
cat "$work/out"
grep -qE 'incident #1 (RESOLVED|UNRESOLVED)' "$work/out" || { echo "no outcome within 60 s" >&2; tail -20 "$work/err" >&2; exit 1; }
url=$(sed -n 's#.*health and metrics on \(http://[^ ]*\).*#\1#p' "$work/out" | head -1)

say "GET $url/readyz and the incident metrics"
node -e 'fetch(process.argv[1]).then(r=>r.text()).then(t=>console.log(t))' "$url/readyz"
node -e 'fetch(process.argv[1]).then(r=>r.text()).then(t=>console.log(t.split("\n").filter(l=>/^core_agent_(incidents|session|sessions|watch_events_received)/.test(l)).join("\n")))' "$url/metrics"

say "The session the incident ran (core-agent sessions show)"
# `sessions list` lists the sessions of the workspace it runs in: the watcher's, $work.
session=$(cd "$work" && node "$bin" sessions list --json --session-db "$work/sessions.db" |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const l=JSON.parse(s);if(!l[0]){console.error("demo-operator: the watcher recorded no session");process.exit(1)}console.log(l[0].id)})')
node "$bin" sessions show "$session" --session-db "$work/sessions.db" | cut -c1-200

say "SIGTERM"
kill -TERM "$watch_pid"
wait "$watch_pid" && echo "exit status 0"
watch_pid=
tail -1 "$work/out"
