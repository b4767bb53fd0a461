#!/usr/bin/env bash
# What the test suite needs from the machine beyond npm and Go: strace, for the
# distroless root-filesystem audit (test/cluster/rootfs.test.ts). Installed from
# Debian's packages when missing (root only; otherwise it says what to install).
# Also iproute2, where it can be had, for the say-so matrix's network namespace.
# Also, where it can be had, qemu-user-static: the same suite runs the arm64 tree under it
# (without it that one test is skipped, saying so).
set -euo pipefail
if [[ ! -x /usr/bin/qemu-aarch64-static && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "test-prereqs: installing qemu-user-static from Debian's packages (the arm64 image tree)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends qemu-user-static >/dev/null 2>&1 ||
    echo "test-prereqs: qemu-user-static could not be installed; the arm64 tree will not be run" >&2
fi
# The arm64 tree's inputs (platform packages, Debian's arm64 libraries) are fetched here, at
# set-up, into the image cache; the test builds the tree offline and skips, saying so, without them.
if [[ $(id -u) -eq 0 ]] && ! bash "$(dirname "${BASH_SOURCE[0]}")/fetch-arch-inputs.sh" --check arm64 2>/dev/null; then
  bash "$(dirname "${BASH_SOURCE[0]}")/fetch-arch-inputs.sh" arm64 ||
    echo "test-prereqs: the arm64 inputs could not be fetched; the arm64 tree will not be built" >&2
fi
# A real sciontool for test/scion/real-sciontool.test.ts, built from Scion's source at a pinned
# commit where the Go module proxy serves it (it does not as of 2026-12-07: the test then says
# it was skipped and why). Never fatal.
bash "$(dirname "${BASH_SOURCE[0]}")/sciontool.sh" >/dev/null ||
  echo "test-prereqs: no real sciontool; the Scion harness tests against it will be skipped" >&2
# iproute2, for the say-so matrix's private network namespace (test/net/say-so.test.ts adds
# addresses to the namespace's loopback with `ip`); without it that run is skipped, saying so.
if ! command -v ip >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "test-prereqs: installing iproute2 from Debian's packages (the say-so network namespace)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends iproute2 >/dev/null 2>&1 ||
    echo "test-prereqs: iproute2 could not be installed; the say-so matrix will not run in a network namespace" >&2
fi
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
