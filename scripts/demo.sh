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
