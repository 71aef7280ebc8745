#!/bin/sh
# The CLI release tarball: pawl's sources at the checked-out commit (git
# archive) with the npm packages deno.lock pins already installed, so
# `tools/install.sh` needs Deno on the machine and no network.
#
#   sh tools/make_release_tarball.sh VERSION OUT_DIR
#
# Writes OUT_DIR/pawl-VERSION.tar.gz and OUT_DIR/pawl-VERSION.tar.gz.sha256
# (in `sha256sum` format), and prints the tarball's path.
set -eu
cd "$(dirname "$0")/.."

[ $# -eq 2 ] || { echo "usage: sh tools/make_release_tarball.sh VERSION OUT_DIR" >&2; exit 2; }
version=$1
out=$2
case $version in
*[!0-9A-Za-z.+-]* | "") echo "make release tarball: bad version \"$version\"" >&2; exit 2 ;;
esac
declared=$(sed -n 's/^export const VERSION = "\(.*\)";$/\1/p' src/version.ts)
if [ "$declared" != "$version" ]; then
  echo "make release tarball: version \"$version\" is not src/version.ts's \"$declared\"" >&2
  exit 2
fi

name=pawl-$version
work=$(mktemp -d /tmp/pawl-release-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

# Only what the CLI runs, from the commit (not the work tree).
git archive --format=tar --prefix="$name/" HEAD \
  main.ts deno.json deno.lock bin src tools/install.sh README.md |
  tar -x -C "$work"
(cd "$work/$name" && deno install --quiet --frozen --entrypoint main.ts >/dev/null)
# Proof that it runs from the tarball's files alone.
"$work/$name/bin/pawl" version >/dev/null

mkdir -p "$out"
tarball=$(CDPATH= cd -- "$out" && pwd)/$name.tar.gz
# Reproducible: sorted names, no owners, the commit's time on every file.
mtime=$(git log -1 --format=%cI HEAD)
tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner \
  --mtime="$mtime" -cf - "$name" | gzip -n -9 >"$tarball"
(cd "$(dirname "$tarball")" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$tarball"
