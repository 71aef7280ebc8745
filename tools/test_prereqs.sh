#!/bin/sh
# Make sure the machine has what pawl's own test suite runs for real:
# git, bubblewrap (the strongest sandbox tier) and a python3 with pytest and
# Hypothesis that an unprivileged uid can use, and PostgreSQL for the serve
# queue's tests (Debian's packages, not a
# pyenv under a private home). Installs only what is missing, only as root,
# and only through the system package manager.
set -eu

missing=""
command -v git >/dev/null 2>&1 || missing="$missing git"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
if ! PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import pytest, hypothesis' >/dev/null 2>&1; then
  missing="$missing python3 python3-pytest python3-hypothesis"
fi
# The serve tests start a PostgreSQL server of their own.
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing="$missing postgresql"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "test prerequisites: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
  exit 0
fi
echo "pawl's tests need:$missing" >&2
echo "  install them (Debian/Ubuntu: apt-get install$missing) or run the tests in the container" >&2
exit 1
