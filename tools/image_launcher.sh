#!/bin/sh
# pawl's launcher inside its image: /usr/local/bin/pawl (the entrypoint) and,
# under that name, /usr/local/bin/pawl-action. It runs Deno on what the build
# cached (--cached-only) with node_modules as installed.
#
# On a read-only root file system (`docker run --read-only`, as the docs
# recommend) Deno cannot open its code cache in /deno-dir and would compile
# every module at each start, about 0.1 s. Then the launcher points DENO_DIR
# at a private copy of the cache databases in TMPDIR (a directory of mode
# 0700 that it created itself; anything else there is not used), whose other
# entries (the emitted modules, the npm cache) link back to /deno-dir,
# read-only.
set -u
entry=/app/main.ts
case ${0##*/} in pawl-action) entry=/app/tools/action_entrypoint.ts ;; esac
cache=${DENO_DIR:-/deno-dir}
# A directory of ours at $own that no one else may write, or nothing.
ours() {
  [ -d "$own" ] && [ ! -L "$own" ] && [ -O "$own" ] \
    && [ "$(stat -c %a "$own")" = 700 ] && echo "$own"
}
if [ ! -w "$cache" ] && [ -d "$cache" ]; then
  own="${TMPDIR:-/tmp}/pawl-deno-dir-$(id -u)"
  use=""
  if [ ! -e "$own" ] && [ ! -L "$own" ] \
    && mkdir -m 0700 "$own.$$" 2>/dev/null; then
    databases="" others=""
    for f in "$cache"/*; do
      case $f in
        *-wal | *-shm | *-journal) ;;
        *_v[0-9]*) databases="$databases $f" ;;
        *) others="$others $f" ;;
      esac
    done
    # The cache's own names, without spaces: split on purpose.
    { [ -z "$databases" ] || cp $databases "$own.$$/"; } \
      && { [ -z "$others" ] || ln -s $others "$own.$$/"; } \
      && mv -T "$own.$$" "$own" 2>/dev/null && use=$own
    [ -n "$use" ] || rm -rf "$own.$$"
  fi
  # Made by an earlier or a simultaneous start, or by someone else.
  [ -n "$use" ] || use=$(ours)
  if [ -n "$use" ]; then
    DENO_DIR=$use
    export DENO_DIR
  fi
fi
exec deno run --cached-only --frozen --node-modules-dir=manual --allow-all \
  "$entry" "$@"
