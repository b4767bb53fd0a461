#!/usr/bin/env bash
# What the test suite needs from the machine beyond npm and Go: strace, for the
# distroless root-filesystem audit (test/cluster/rootfs.test.ts). Installed from
# Debian's packages when missing (root only; otherwise it says what to install).
set -euo pipefail
command -v strace >/dev/null 2>&1 && exit 0
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test-prereqs: strace is missing; install it (Debian: apt-get install strace)" >&2
  exit 1
fi
echo "test-prereqs: installing strace from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends strace >/dev/null 2>&1 ||
  { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends strace >/dev/null; }
command -v strace >/dev/null
