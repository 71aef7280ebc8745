#!/bin/sh
# Enter a pawl image's files the way `docker run --read-only --tmpfs /tmp`
# runs them: read-only, with /proc, /dev and a /tmp of their own, as root, in
# a private mount namespace (podman image mount + chroot; no container
# runtime needed).
#
#   unshare --mount sh tools/enter_image.sh ROOT TMP REPO [VAR=value...] COMMAND [ARGS...]
#
# ROOT is where `podman image mount` put the image's files; TMP a directory
# to see at /tmp ("" for a fresh, empty tmpfs); REPO a directory to see
# read-only at /mnt ("" for none). COMMAND runs with the image's environment
# (PATH, HOME, DENO_DIR) plus the VAR=value pairs given, and its exit status
# is this script's; 125 means the file system could not be set up.
root=$1 tmp=$2 repo=$3
shift 3
{
  mount --make-rprivate / \
    && mount -t proc proc "$root/proc" \
    && mount --rbind /dev "$root/dev" \
    && if [ -n "$tmp" ]; then
      mount --bind "$tmp" "$root/tmp"
    else
      mount -t tmpfs -o size=64m,mode=1777 tmpfs "$root/tmp"
    fi \
    && if [ -n "$repo" ]; then
      mount --bind -o ro "$repo" "$root/mnt" && mount -o remount,bind,ro "$root/mnt"
    fi
} || {
  echo "enter_image: cannot set up the image's file system at $root" >&2
  exit 125
}
exec chroot "$root" /usr/bin/env -i \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 "$@"
