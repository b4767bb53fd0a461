#!/usr/bin/env bash
# A tour of the tool catalog on a scratch copy of examples/workspace, every call made
# through `core-agent tools call` — the same path (gate, path scope, caps) a model's
# call takes. Run by `make demo`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/dist/core-agent.mjs"
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
cp -R "$root/examples/workspace/." "$ws/"
ln -s /etc/hostname "$ws/innocent-link"
cd "$ws"

step() { printf '\n\033[1m== %s\033[0m\n$ core-agent %s\n' "$1" "${*:2}"; }
call() { local title=$1; shift; step "$title" "$@"; node "$bin" "$@" || printf '(exit status %s)\n' "$?"; }

# The main job: the agent loop, with the replay model standing in for a model service.
# The script (examples/replay/fix-greeting.jsonl) makes the model's decisions; every
# tool call runs for real, through the gate, and the session lands in an event log.
agent_ws=$(mktemp -d)
trap 'rm -rf "$ws" "$agent_ws"' EXIT
cp -R "$root/examples/workspace/." "$agent_ws/"
step "The agent loop (replay model): fix the placeholder greeting" run --model "replay:examples/replay/fix-greeting.jsonl" --mode accept-edits "Fix the placeholder greeting"
(cd "$agent_ws" && node "$bin" run --model "replay:$root/examples/replay/fix-greeting.jsonl" --workspace "$agent_ws" \
  --mode accept-edits --session-db "$agent_ws/.sessions.db" "Fix the placeholder greeting")
# `sessions list` lists the sessions of the workspace it runs in: the agent's.
session=$(cd "$agent_ws" && node "$bin" sessions list --json --session-db "$agent_ws/.sessions.db" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].id))')
call "…and the session it left in the event log" sessions show "$session" --session-db "$agent_ws/.sessions.db"

call "The catalog, as the model sees it" tools list
call "Find files by name" tools call glob '{"pattern": "*.{ts,json}"}'
call "Search contents (ripgrep, RE2 syntax)" tools call grep '{"pattern": "TODO|PLACEHOLDER", "include": "*.ts"}'
call "Read a window of a file" tools call read_file '{"path": "src/handler.ts", "offset": 4, "limit": 3}'
call "Query JSON with jq" tools call json_query '{"expression": ".pods[] | select(.phase != \"Running\") | {name, restarts}", "path": "config/service.json"}'
call "Edit headless in ask mode: refused, naming the rule" tools call edit_file '{"path": "src/handler.ts", "old_string": "PLACEHOLDER", "new_string": "$&"}'
call "The same edit with accept-edits: \$& lands literally" tools call edit_file '{"path": "src/handler.ts", "old_string": "PLACEHOLDER", "new_string": "$& $1 $$"}' --mode accept-edits
call "…and the file now says" tools call grep '{"pattern": "Hello", "path": "src/handler.ts"}'
call "A symlink out of the workspace: refused by path_scope" tools call read_file '{"path": "innocent-link"}' --yolo
call "A read-only recipe" recipe validate "$root/examples/recipes/read-only.yaml"
printf 'tools:\n  disable: [write_file]\ntool_outptu:\n  max_bytes: 1000\n' > typo.yaml
call "A recipe with a typo: file:line:col and a suggestion" recipe validate typo.yaml
