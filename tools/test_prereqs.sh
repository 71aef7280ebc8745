#!/bin/sh
# Make sure the machine has what pawl's own test suite runs for real:
# git, bubblewrap (the strongest sandbox tier) and a python3 with pytest and
# Hypothesis that an unprivileged uid can use (Debian's packages, not a
# pyenv under a private home), PostgreSQL for the serve queue's tests, and
# the pinned SARIF Multitool from npm. Installs only what is missing; system
# packages only as root and only through the system package manager.
set -eu

missing=""
command -v git >/dev/null 2>&1 || missing="$missing git"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
if ! PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import pytest, hypothesis' >/dev/null 2>&1; then
  missing="$missing python3 python3-pytest python3-hypothesis"
fi
# The src-layout project of tests/src_layout_project_test.ts needs a test
# dependency Debian's python3 lacks (toolz) and an installed module that its
# own package shares a name with (more_itertools).
if ! PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import toolz, more_itertools' >/dev/null 2>&1; then
  missing="$missing python3-toolz python3-more-itertools"
fi
# The serve tests start a PostgreSQL server of their own.
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing="$missing postgresql"
# The setup-step tests make a virtualenv and pip-install local sources offline.
if ! PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import setuptools, venv, pip' >/dev/null 2>&1; then
  missing="$missing python3-pip python3-setuptools python3-venv"
fi
# Microsoft's SARIF Multitool (pinned by tools/sarif-multitool/package-lock.json)
# validates pawl's SARIF; it is a test tool only, so it is not in deno.json.
multitool_dir="$(dirname "$0")/sarif-multitool"
if [ ! -x "$multitool_dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
  echo "test prerequisites: installing the SARIF Multitool (npm ci)" >&2
  npm ci --prefix "$multitool_dir" --no-audit --no-fund --silent >/dev/null
fi

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
