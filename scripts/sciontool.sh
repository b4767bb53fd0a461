#!/usr/bin/env bash
# A sciontool built from Scion's public source at one pinned commit, for the tests that
# check core-agent's Scion harness against the real thing (test/scion/real-sciontool.test.ts).
# Cached outside the repo, keyed by the commit; prints the binary's path.
#
#   scripts/sciontool.sh                 find it, or build it through the Go module proxy
#   scripts/sciontool.sh --source DIR    ... or from a Scion checkout at that commit
#   scripts/sciontool.sh --find          only find it (what the test runs): never builds
#
# Exit 0: the path on stdout. Exit 3: there is none, and why, on stderr (the test then says
# it was skipped and why). Scion publishes no releases, so the pin is a commit; the module
# proxy answers 403 for github.com/GoogleCloudPlatform/scion as of 2026-12-07, so on a
# machine without a checkout there is none: `--source` builds from one (git clone
# https://github.com/GoogleCloudPlatform/scion && git -C scion checkout $SCION_COMMIT).
#
# Env: CORE_AGENT_SCIONTOOL  a sciontool to use as it is (not built, not checked)
#      CORE_AGENT_SCIONTOOL_CACHE  cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/sciontool)
set -euo pipefail

SCION_MODULE=github.com/GoogleCloudPlatform/scion
SCION_COMMIT=770980cb0a48a876b36a14b9d29ec8ef3f39bf0b
# The module's pseudo-version for that commit (committed 2026-04-26 19:57:44 UTC).
SCION_VERSION=v0.0.0-20260426195744-770980cb0a48

find_only=0
source_dir=${SCION_SRC:-}
while (($#)); do
  case $1 in
    --find) find_only=1 ;;
    --source) source_dir=${2:?--source needs a directory}; shift ;;
    *) echo "sciontool.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

unavailable() { echo "sciontool.sh: $*" >&2; exit 3; }

if [[ -n ${CORE_AGENT_SCIONTOOL:-} ]]; then
  [[ -x $CORE_AGENT_SCIONTOOL ]] || unavailable "CORE_AGENT_SCIONTOOL=$CORE_AGENT_SCIONTOOL is not an executable file"
  printf '%s\n' "$CORE_AGENT_SCIONTOOL"
  exit 0
fi

cache_root=${CORE_AGENT_SCIONTOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/sciontool}
dir="$cache_root/${SCION_COMMIT:0:12}"
bin="$dir/sciontool"
if [[ -x $bin ]]; then
  printf '%s\n' "$bin"
  exit 0
fi
((find_only)) && unavailable "no sciontool built from Scion ${SCION_COMMIT:0:12} in $dir: run scripts/sciontool.sh (with --source DIR where the Go module proxy does not serve Scion), or set CORE_AGENT_SCIONTOOL"

command -v go >/dev/null 2>&1 || { [[ -x /usr/local/go/bin/go ]] && PATH="/usr/local/go/bin:$PATH"; }
command -v go >/dev/null 2>&1 || unavailable "go not found: Scion ${SCION_COMMIT:0:12} needs Go >= 1.25"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOWORK=off GOFLAGS=-buildvcs=false GO111MODULE=on
# `sciontool version` says which commit it is.
ldflags="-X $SCION_MODULE/cmd/sciontool/commands.Commit=$SCION_COMMIT"

mkdir -p "$cache_root"
exec 9>"$cache_root/.build.lock"
flock 9
[[ -x $bin ]] && { printf '%s\n' "$bin"; exit 0; } # another process built it meanwhile
tmp="$dir.tmp-$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

if proxy_error=$(GOBIN="$tmp" go install -ldflags="$ldflags" "$SCION_MODULE/cmd/sciontool@$SCION_VERSION" 2>&1); then
  echo "sciontool.sh: built $SCION_MODULE/cmd/sciontool@$SCION_VERSION through the Go module proxy" >&2
elif [[ -n $source_dir ]]; then
  [[ -f $source_dir/go.mod ]] && grep -q "^module $SCION_MODULE\$" "$source_dir/go.mod" ||
    unavailable "$source_dir is not a checkout of $SCION_MODULE (its go.mod)"
  if head=$(git -C "$source_dir" rev-parse HEAD 2>/dev/null); then
    [[ $head == "$SCION_COMMIT" ]] || unavailable "$source_dir is at $head, not $SCION_COMMIT: git -C $source_dir checkout $SCION_COMMIT"
  else
    echo "sciontool.sh: $source_dir is not a git checkout: its commit cannot be checked; building it as ${SCION_COMMIT:0:12}" >&2
  fi
  (cd "$source_dir" && go build -ldflags="$ldflags" -o "$tmp/sciontool" ./cmd/sciontool)
  echo "sciontool.sh: built $source_dir/cmd/sciontool" >&2
else
  unavailable "the Go module proxy does not serve $SCION_MODULE@$SCION_VERSION ($(printf '%s' "$proxy_error" | grep -m1 -o '[0-9][0-9][0-9] [A-Za-z ]*' || printf 'go install failed')), and no Scion checkout was given (--source DIR)"
fi
rm -rf "$dir"
mv "$tmp" "$dir"
printf '%s\n' "$bin"
