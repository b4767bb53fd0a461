# Sourced by scripts/rootfs.sh and scripts/node-libs.sh (needs $root, the checkout, and die):
# where the image's per-architecture inputs come from, in one place.
#
#   pinned NAME          the version package.json's (or image/package.json's) optionalDependencies pin
#   package_dir NAME     that package's directory: node_modules when it holds the pinned
#                        version (npm installs only the host's platform), else the npm
#                        registry's tarball (npm pack) unpacked into the cache
#   debian_sysroot ARCH  Debian's libc6, libstdc++6 and libgcc-s1 for ARCH, at the versions
#                        this (Debian) machine has, unpacked into the cache
# The cache: ${CORE_AGENT_ROOTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/rootfs}.
# CORE_AGENT_ROOTFS_OFFLINE=1: never fetch; what the cache lacks is an error naming the command
# that fills it (the test suite runs so: tests reach nothing beyond loopback, and the set-up step,
# scripts/test-prereqs.sh, fetches ahead with scripts/fetch-arch-inputs.sh).

image_cache="${CORE_AGENT_ROOTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/core-agent/rootfs}"

pinned() {
  # package.json's platform packages, or image/package.json's (the image's kubernetes-mcp-server).
  node -e 'const [a, b, n] = process.argv.slice(1); process.stdout.write(require(a).optionalDependencies?.[n] ?? require(b).optionalDependencies?.[n] ?? "")' \
    "$root/package.json" "$root/image/package.json" "$1"
}

offline_refusal() {
  [[ ${CORE_AGENT_ROOTFS_OFFLINE:-} != 1 ]] ||
    die "$1 is not in $image_cache and CORE_AGENT_ROOTFS_OFFLINE=1 forbids fetching it: run scripts/fetch-arch-inputs.sh ARCH first"
}

package_dir() {
  local name="$1" version have dest tmp
  version="$(pinned "$name")"
  [[ -n $version ]] || die "neither package.json nor image/package.json pins a version of $name in optionalDependencies"
  have="$(node -p 'require(process.argv[1]).version' "$root/node_modules/$name/package.json" 2>/dev/null || true)"
  if [[ $have == "$version" ]]; then
    echo "$root/node_modules/$name"
    return
  fi
  dest="$image_cache/npm/${name//\//+}@$version"
  if [[ ! -f $dest/package.json ]]; then
    offline_refusal "$name@$version"
    echo "fetching $name@$version from the npm registry into $dest" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$name@$version" >/dev/null) || die "npm pack $name@$version failed"
    rm -rf "$dest.part" && mkdir -p "$dest.part"
    tar -xzf "$tmp"/*.tgz -C "$dest.part" --strip-components=1 --no-same-owner
    rm -rf "$tmp" "$dest" && mv "$dest.part" "$dest"
  fi
  echo "$dest"
}

debian_sysroot() {
  local arch="$1" dest="$image_cache/debian-$1" pkg name source version url
  if [[ ! -f $dest/.complete ]]; then
    offline_refusal "Debian's $arch libraries"
    rm -rf "$dest" && mkdir -p "$dest"
    for pkg in libc6:glibc libstdc++6:gcc-12 libgcc-s1:gcc-12; do
      name="${pkg%%:*}" source="${pkg#*:}"
      version="$(dpkg-query -W -f '${Version}' "$name" 2>/dev/null)" ||
        die "dpkg-query $name failed: assembling a foreign architecture needs a Debian 12 machine"
      url="http://deb.debian.org/debian/pool/main/${source:0:1}/$source/${name}_${version#*:}_$arch.deb"
      echo "fetching $url" >&2
      curl -fsSL -o "$dest/$name.deb" "$url" || die "cannot fetch $url"
      dpkg-deb -x "$dest/$name.deb" "$dest" && rm -f "$dest/$name.deb"
    done
    # Merged /usr, as Debian 12 installs it (and as the build stage's ldd sees it): /lib is usr/lib.
    if [[ -d $dest/lib && ! -L $dest/lib ]]; then
      mkdir -p "$dest/usr/lib" && cp -a "$dest/lib/." "$dest/usr/lib/" && rm -rf "$dest/lib"
    fi
    ln -sfn usr/lib "$dest/lib"
    ! find "$dest" -type l -lname '/*' | grep -q . || die "$dest has absolute symlinks; they would lead out of it"
    touch "$dest/.complete"
  fi
  echo "$dest"
}

# qemu-user's name for ARCH's CPU.
qemu_cpu() {
  case "$1" in amd64) echo x86_64 ;; arm64) echo aarch64 ;; esac
}
