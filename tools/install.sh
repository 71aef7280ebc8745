#!/bin/sh
# Install the pawl CLI from a release tarball (tools/make_release_tarball.sh;
# the release attaches it, its .sha256 and this script):
#
#   sh install.sh [--prefix DIR] [--sha256 HEX] SOURCE
#
# SOURCE is pawl-VERSION.tar.gz as a local path or an https:// (or file://)
# URL, fetched with curl (never over plain http). Its sha256 must match: --sha256 HEX, or else the
# SOURCE.sha256 file beside it (fetched the same way). The tarball is
# unpacked into DIR/lib/pawl/pawl-VERSION and DIR/bin/pawl links to its
# launcher; DIR defaults to ~/.local. Installing another version switches
# the link; the old one stays until removed. pawl runs on Deno (2.9 or
# later on PATH); the npm packages are in the tarball, so nothing else is
# fetched.
set -eu

prefix=${HOME:-}/.local
sum=""
source=""
while [ $# -gt 0 ]; do
  case $1 in
  --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
  --prefix=*) prefix=${1#--prefix=}; shift ;;
  --sha256) sum=${2:?--sha256 needs a hex digest}; shift 2 ;;
  --sha256=*) sum=${1#--sha256=}; shift ;;
  -h | --help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) echo "install pawl: unknown option \"$1\"" >&2; exit 2 ;;
  *) [ -z "$source" ] || { echo "install pawl: one SOURCE only" >&2; exit 2; }; source=$1; shift ;;
  esac
done
[ -n "$source" ] || { echo "usage: sh install.sh [--prefix DIR] [--sha256 HEX] SOURCE" >&2; exit 2; }

file=${source##*/}
case $file in
pawl-*.tar.gz) version=${file#pawl-}; version=${version%.tar.gz} ;;
*) echo "install pawl: \"$file\" is not a pawl-VERSION.tar.gz" >&2; exit 2 ;;
esac
case $version in
*[!0-9A-Za-z.+-]* | "") echo "install pawl: bad version \"$version\"" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/pawl-install-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# fetch SOURCE DEST: a URL through curl, a path by copying.
fetch() {
  case $1 in
  https://* | file://*) curl -fsSL --proto '=https,file' -o "$2" "$1" ;;
  *) cp "$1" "$2" ;;
  esac
}
fetch "$source" "$work/$file"
if [ -z "$sum" ]; then
  fetch "$source.sha256" "$work/$file.sha256" 2>/dev/null || {
    echo "install pawl: no checksum: pass --sha256 HEX or put $file.sha256 beside it" >&2
    exit 2
  }
  sum=$(cut -d' ' -f1 <"$work/$file.sha256")
fi
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$work/$file" | cut -d' ' -f1)
else
  actual=$(shasum -a 256 "$work/$file" | cut -d' ' -f1)
fi
if [ "$actual" != "$sum" ]; then
  echo "install pawl: sha256 of \"$file\" is $actual, expected $sum: not installed" >&2
  exit 1
fi

# Every entry inside pawl-VERSION/, none climbing out of it.
if tar -tzf "$work/$file" | grep -v "^pawl-$version/" | grep -q . ||
  tar -tzf "$work/$file" | grep -q '\(^\|/\)\.\.\(/\|$\)'; then
  echo "install pawl: \"$file\" holds files outside pawl-$version/: not installed" >&2
  exit 1
fi

mkdir -p "$prefix/lib/pawl" "$prefix/bin"
lib=$(CDPATH= cd -- "$prefix/lib/pawl" && pwd)
bin=$(CDPATH= cd -- "$prefix/bin" && pwd)
staging=$(mktemp -d "$lib/.pawl-$version-XXXXXX")
tar -xzf "$work/$file" -C "$staging" --no-same-owner
rm -rf "$lib/pawl-$version"
mv "$staging/pawl-$version" "$lib/pawl-$version"
rmdir "$staging"
ln -sfn "$lib/pawl-$version/bin/pawl" "$bin/pawl.new"
mv -f "$bin/pawl.new" "$bin/pawl"

echo "pawl $version installed: $bin/pawl"
command -v deno >/dev/null 2>&1 ||
  echo "install pawl: pawl runs on Deno 2.9 or later, which is not on PATH" >&2
case ":${PATH:-}:" in
*":$bin:"*) ;;
*) echo "install pawl: add $bin to PATH" >&2 ;;
esac
