#!/usr/bin/env bash
# scripts/bump-base-images.sh [--check] [DOCKERFILE] — move the Dockerfile's base images to
# the digests their tags name today. Every base is an `ARG *_IMAGE=NAME:TAG@sha256:DIGEST`
# line (test/image/dockerfile.test.ts holds every FROM to those ARGs); this resolves each
# NAME:TAG with crane, else `docker buildx imagetools inspect` (both read the registry; no
# daemon needed) and rewrites the digest. The digest of a tag is the multi-platform index,
# so one pin covers linux/amd64 and linux/arm64. Review the diff, rebuild, run the tests
# (node:24's Debian may move: re-run scripts/node-libs.sh), commit.
#
#   --check   change nothing; exit 1 when a pin is behind its tag (for a scheduled CI job)
set -euo pipefail

die() {
  echo "bump-base-images.sh: $*" >&2
  exit 2
}
check=false
[[ ${1:-} == --check ]] && { check=true; shift; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dockerfile="${1:-$root/Dockerfile}"
[[ -f $dockerfile ]] || die "no $dockerfile"

digest_of() { # NAME:TAG
  if command -v crane >/dev/null 2>&1; then
    crane digest "$1"
  elif docker buildx version >/dev/null 2>&1; then
    docker buildx imagetools inspect --format '{{ .Manifest.Digest }}' "$1"
  else
    die "neither crane (go install github.com/google/go-containerregistry/cmd/crane@latest) nor docker buildx is installed"
  fi
}

pins="$(grep -E '^ARG [A-Z_]+_IMAGE=' "$dockerfile" || true)"
[[ -n $pins ]] || die "$dockerfile has no ARG *_IMAGE= line"
behind=0
while IFS= read -r line; do
  arg="${line#ARG }" && arg="${arg%%=*}"
  ref="${line#*=}"
  [[ $ref =~ ^([^@]+:[^@:/]+)@(sha256:[0-9a-f]{64})$ ]] || die "$arg=$ref is not NAME:TAG@sha256:<64 hex>"
  image="${BASH_REMATCH[1]}" old="${BASH_REMATCH[2]}"
  new="$(digest_of "$image")" || die "cannot resolve $image"
  [[ $new =~ ^sha256:[0-9a-f]{64}$ ]] || die "$image resolved to '$new', not a sha256 digest"
  if [[ $new == "$old" ]]; then
    echo "$arg: $image is current ($old)"
    continue
  fi
  behind=$((behind + 1))
  echo "$arg: $image $old -> $new"
  $check || sed -i "s|^ARG $arg=$image@$old\$|ARG $arg=$image@$new|" "$dockerfile"
done <<<"$pins"
if $check && ((behind > 0)); then exit 1; fi
exit 0
