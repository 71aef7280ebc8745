#!/bin/sh
# Make local stand-ins for the two base images the Dockerfile names, for
# machines that cannot pull from Docker Hub:
#   localhost/pawl-standin/debian:bookworm-slim   (RUNTIME_IMAGE)
#   localhost/pawl-standin/deno:debian-2.9.6      (DENO_IMAGE)
# The first is a minimal Debian bookworm made by mmdebstrap from this
# machine's own apt sources; the second adds the pinned Deno binary from the
# npm package @deno/linux-<arch>-glibc (what `npm install deno` installs),
# where the real denoland/deno:debian image also keeps it (/usr/bin/deno).
# Images that already exist are kept, so CI pays for this once per machine;
# --force rebuilds them.
#
# Usage: sh tools/build_standin_base.sh [--force]
set -eu

DENO_VERSION=2.9.6
SUITE=bookworm
DEBIAN_TAG=localhost/pawl-standin/debian:bookworm-slim
DENO_TAG=localhost/pawl-standin/deno:debian-$DENO_VERSION

force=no
[ "${1-}" = "--force" ] && force=yes

if [ "$force" = no ] && podman image exists "$DEBIAN_TAG" &&
  podman image exists "$DENO_TAG"; then
  echo "stand-in bases: $DEBIAN_TAG and $DENO_TAG already exist" >&2
  exit 0
fi

case "$(uname -m)" in
  x86_64) npm_arch=x64 ;;
  aarch64) npm_arch=arm64 ;;
  *) echo "stand-in bases: no Deno build for $(uname -m)" >&2; exit 1 ;;
esac

# Use the apt sources this machine already uses (a mirror, a snapshot, a
# proxy), not a hard-coded one; only its Debian entries.
sources=/etc/apt/sources.list.d/debian.sources
if [ ! -f "$sources" ]; then
  echo "stand-in bases: $sources not found; pass a Debian mirror by editing SOURCES" >&2
  exit 1
fi

work=$(mktemp -d /tmp/pawl-standin-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

echo "stand-in bases: debootstrapping Debian $SUITE (minbase)" >&2
# The slim image's trims: no documentation, manuals or locales.
mmdebstrap --quiet --mode=root --variant=minbase --format=tar \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --aptopt='Acquire::Languages "none"' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
  "$SUITE" "$work/rootfs.tar" "$sources"

podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["bash"]' \
  "$work/rootfs.tar" "$DEBIAN_TAG" >/dev/null

echo "stand-in bases: fetching Deno $DENO_VERSION from npm (@deno/linux-$npm_arch-glibc)" >&2
# npm checks the tarball against the registry's integrity hash.
(cd "$work" && npm pack --silent "@deno/linux-$npm_arch-glibc@$DENO_VERSION" >/dev/null)
mkdir "$work/deno"
tar -xzf "$work"/deno-linux-*.tgz -C "$work/deno"
got=$("$work/deno/package/deno" --version | head -n 1 | cut -d' ' -f2)
if [ "$got" != "$DENO_VERSION" ]; then
  echo "stand-in bases: npm gave Deno $got, expected $DENO_VERSION" >&2
  exit 1
fi

# Same layout as the real image: the rootfs plus /usr/bin/deno.
mkdir -p "$work/deno-root/usr/bin"
install -m 0755 "$work/deno/package/deno" "$work/deno-root/usr/bin/deno"
cp "$work/rootfs.tar" "$work/deno-rootfs.tar"
tar -rf "$work/deno-rootfs.tar" -C "$work/deno-root" --owner=0 --group=0 ./usr/bin/deno
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV DENO_DIR=/deno-dir' \
  --change "ENV DENO_VERSION=$DENO_VERSION" \
  --change 'CMD ["deno", "repl"]' \
  "$work/deno-rootfs.tar" "$DENO_TAG" >/dev/null

echo "stand-in bases: made $DEBIAN_TAG and $DENO_TAG" >&2
