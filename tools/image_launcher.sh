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
if [ ! -w "$cache" ] && [ -d "$cache" ]; then
  own="${TMPDIR:-/tmp}/pawl-deno-dir-$(id -u)"
  if [ ! -e "$own" ] && [ ! -L "$own" ] \
    && fresh=$(mktemp -d "$own.XXXXXX" 2>/dev/null); then
    for f in "$cache"/*; do
      case $f in
        *-wal | *-shm | *-journal) ;;
        *_v[0-9]*) cp "$f" "$fresh/" ;;
        *) ln -s "$f" "$fresh/" ;;
      esac
    done
    mv -T "$fresh" "$own" 2>/dev/null || rm -rf "$fresh"
  fi
  if [ -d "$own" ] && [ ! -L "$own" ] && [ -O "$own" ] \
    && [ "$(stat -c %a "$own")" = 700 ]; then
    DENO_DIR=$own
    export DENO_DIR
  fi
fi
exec deno run --cached-only --frozen --node-modules-dir=manual --allow-all \
  "$entry" "$@"
