#!/usr/bin/env bash
# Every command README.md shows, run on this checkout as a new user would run them, in one
# shell: its code blocks (```sh), its Make-target table and its CLI synopsis. Run by .ci/run
# after lint, so a README command that breaks (make demo-operator once ended in a stack trace)
# fails CI. test/docs/readme-commands.test.ts parses the README and fails when a command there
# has no line here.
#
# Each README command is one line below:
#   readme 'TEXT' [COMMAND]   run COMMAND (default: TEXT itself) in this shell, timed
#   covered 'TEXT' 'WHERE'    run as part of another command here (the test checks WHERE)
#   synopsis 'TEXT' HELP...   a line of the CLI synopsis: `core-agent HELP... --help` must answer
# `core-agent` is `node dist/core-agent.mjs`, as the README says. The first run with a real model
# runs against test/helpers/readme-model.ts, a stand-in for Gemini on 127.0.0.1 (the same
# google provider, its real wire format), with its sessions in a temporary database.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
model_pid=
cleanup() {
  [[ -z $model_pid ]] || kill "$model_pid" 2>/dev/null || true
  rm -rf "$tmp" /tmp/ws
  rm -f "$root"/core-agent-*.tgz
}
trap cleanup EXIT
core-agent() { node "$root/dist/core-agent.mjs" "$@"; }

timings=()
readme() {
  local text=$1 cmd=${2:-$1} start=$SECONDS
  printf '\n\033[1m.ci/readme-commands: $ %s\033[0m\n' "$text" >&2
  eval "$cmd" || {
    echo ".ci/readme-commands: the README command \`$text\` failed (exit $?)" >&2
    exit 1
  }
  timings+=("$((SECONDS - start)) s  $text")
}
covered() { timings+=("(in $2)  $1"); }
synopsis() {
  local text=$1
  shift
  core-agent "$@" --help >/dev/null || {
    echo ".ci/readme-commands: the synopsis line \`$text\`: core-agent $* --help failed" >&2
    exit 1
  }
}

# ---- Install ------------------------------------------------------------------------------
readme 'make bundle'
readme 'export PATH=$PWD/node_modules/.bin:$PATH'
readme 'node dist/core-agent.mjs --version'
# Into a temporary prefix; then the installed command runs with the machine's own node first on PATH.
npm_pack_install() {
  (export npm_config_prefix="$tmp/npm-prefix" && npm pack && npm i -g ./core-agent-*.tgz)
  PATH=/usr/local/bin:/usr/bin:/bin "$tmp/npm-prefix/bin/core-agent" --version
  (cd "$tmp" && PATH=/usr/local/bin:/usr/bin:/bin "$tmp/npm-prefix/bin/core-agent" tools list >/dev/null)
}
readme 'npm pack && npm i -g ./core-agent-0.1.0.tgz' npm_pack_install

# ---- The two commands (make test with CI=true, from .ci/run) -------------------------------
readme 'make demo'
readme 'make test'
covered 'make test-unit' 'make test'

# ---- Other targets --------------------------------------------------------------------------
readme 'make cluster-build'
readme 'make cluster-up'
readme 'make cluster-status'
readme 'make demo-operator'
readme 'make cluster-down'
readme 'make chart'
# Where no container engine answers, make image says so and exits 1; that answer is checked.
make_image() {
  local out
  if out=$(make image 2>&1); then return 0; fi
  echo "$out" >&2
  grep -qE 'neither docker nor podman is installed|no container engine answers' <<<"$out"
  echo ".ci/readme-commands: no container engine here: make image refused as documented; make rootfs builds the same tree below" >&2
}
readme 'make image' make_image
readme 'make rootfs' 'make rootfs ROOTFS=$tmp/rootfs'
# One run per measurement (BENCH_RUNS=1): CI checks that the benchmark runs to its end, not its figures.
readme 'make bench' 'BENCH_RUNS=1 make bench'
covered 'npm run lint' '.ci/run'
# After lint passed, format must change nothing.
readme 'npm run format' 'npm run format && git diff --exit-code'

# ---- A first run with a real model (the stand-in) -------------------------------------------
export CORE_AGENT_SESSION_DB=$tmp/sessions.db
node test/helpers/readme-model.ts >"$tmp/model-url" &
model_pid=$!
for _ in $(seq 1 100); do [[ -s $tmp/model-url ]] && break; sleep 0.1; done
export GOOGLE_GEMINI_BASE_URL=$(head -1 "$tmp/model-url")
rm -rf /tmp/ws
readme 'cp -R examples/workspace /tmp/ws'
readme 'export GOOGLE_API_KEY=…' 'export GOOGLE_API_KEY=readme-stand-in'
readme 'export CORE_AGENT_MODEL=google:gemini-2.5-flash'
readme 'core-agent run -w /tmp/ws --mode accept-edits "Fix the placeholder greeting in src/handler.ts"'
grep -q 'Hello, ${name}!' /tmp/ws/src/handler.ts
readme 'core-agent sessions list -w /tmp/ws'
id=$(core-agent sessions list -w /tmp/ws --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].id))')
readme 'core-agent sessions show ID' 'core-agent sessions show "$id"'
readme 'core-agent run -w /tmp/ws --resume ID "Now read the timeout from config/service.json"' 'core-agent run -w /tmp/ws --resume "$id" "Now read the timeout from config/service.json"'
readme 'core-agent repl -w /tmp/ws' 'echo "What does src/handler.ts export?" | core-agent repl -w /tmp/ws'
readme 'core-agent recipe validate examples/recipes/read-only.yaml'
readme 'core-agent run -c examples/recipes/read-only.yaml -w /tmp/ws "What is left to do in this service?"'
readme 'core-agent tools list'

# ---- The CLI at a glance: each form answers --help ------------------------------------------
synopsis 'core-agent --version'
synopsis 'core-agent --help                 (and --help on every command)'
synopsis 'core-agent run "PROMPT" --model PROVIDER:MODEL [--output text|json] [--resume ID]' run
synopsis 'core-agent repl --model PROVIDER:MODEL      (or just core-agent, on a terminal)' repl
synopsis 'core-agent sessions list [--json] | sessions show ID [--json]' sessions list
synopsis 'core-agent tools list [--json]' tools list
synopsis 'core-agent tools call NAME [JSON|-] [--mode MODE | --yolo] [--session-db PATH]' tools call
synopsis 'core-agent recipe validate FILE' recipe validate
synopsis 'core-agent recipe schema' recipe schema
synopsis 'core-agent mcp serve [--http HOST:PORT [--token-env NAME]] [--mode MODE | --yolo] [--session-db PATH]' mcp serve
synopsis 'core-agent watch -c RECIPE [--model M] [--listen HOST:PORT] [--session-db PATH] [--shutdown-grace S]' watch

printf '\n.ci/readme-commands: every README command ran (seconds each):\n' >&2
printf '  %s\n' "${timings[@]}" >&2
