#!/bin/sh
# Prove a built pawl image judges pull requests: enter its file system
# read-only (podman image mount + chroot, in a private mount namespace, as
# root, like `docker run --read-only --tmpfs /tmp`) and run `pawl demo`, a
# `pawl check` that accepts and one that rejects, `pawl diff`, and
# `pawl verify` of a verdict signed inside the image.
#
# Usage: sh tools/image_smoke.sh [IMAGE]   (default localhost/pawl:ci)
set -eu
cd "$(dirname "$0")/.."

image=${1:-localhost/pawl:ci}
now=2026-11-30T12:00:00Z
work=$(mktemp -d /tmp/pawl-image-smoke-XXXXXX)
mnt=""
cleanup() {
  [ -n "$mnt" ] && podman image unmount "$image" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The repository under test, made on the host from the demo's sample; the
# image sees it read-only at /mnt.
mkdir "$work/repo" "$work/tmp" 
chmod 1777 "$work/tmp"
deno run --allow-all tools/make_sample_repo.ts "$work/repo/sample" >/dev/null

mnt=$(podman image mount "$image")

# run EXPECTED-EXIT LABEL ARGS...: one pawl command inside the image
# (tools/enter_image.sh), with the sample at /mnt and $work/tmp as /tmp.
run() {
  expected=$1 label=$2
  shift 2
  start=$(date +%s%N)
  got=0
  unshare --mount sh tools/enter_image.sh "$mnt" "$work/tmp" "$work/repo" \
    PAWL_SANDBOX_UIDS=64330-64337 ${PAWL_SMOKE_INPUTS-} \
    "/usr/local/bin/${PAWL_SMOKE_PROGRAM:-pawl}" "$@" \
    >"$work/out" 2>"$work/err" || got=$?
  end=$(date +%s%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  if [ "$got" != "$expected" ]; then
    echo "image smoke: $label: exit $got, expected $expected" >&2
    sed 's/^/  stdout: /' "$work/out" >&2
    sed 's/^/  stderr: /' "$work/err" >&2
    exit 1
  fi
  echo "image smoke: $label: exit $got as expected (${secs}s)"
}

# Cold start: first run with the page cache dropped (where the kernel
# allows it), then a warm one.
sync
if echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then cold="cold, page cache dropped"; else cold="first run"; fi
run 0 "pawl version ($cold)" version
run 0 "pawl version (warm)" version
# The root file system is read-only, so the launcher started Deno on its own
# writable copy of the code cache in /tmp, made private to root.
[ "$(stat -c %a:%u "$work/tmp/pawl-deno-dir-0" 2>/dev/null)" = "700:0" ] || {
  echo "image smoke: the launcher made no private code cache in /tmp" >&2
  exit 1
}
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "image smoke: image size $((size / 1000000)) MB"
# The tests' interpreter finds its own modules compiled: every run sees the
# image read-only, so a module without bytecode is compiled at each start.
uncompiled=$(chroot "$mnt" env -i PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -I -c '
import os, sys, _pytest.main, hypothesis.core
print(" ".join(m.__name__ for m in list(sys.modules.values())
    if getattr(m, "__cached__", None)
    and not os.path.exists(m.__cached__)))') || {
  echo "image smoke: the image's python3 cannot import pytest and Hypothesis" >&2
  exit 1
}
if [ -n "$uncompiled" ]; then
  echo "image smoke: the image's python3 modules have no bytecode: $uncompiled" >&2
  exit 1
fi
echo "image smoke: the interpreter's modules are compiled"
run 0 "pawl demo" demo --quiet
grep -q "agent/honest-fix" "$work/out"
run 0 "pawl check (honest fix: accept)" check --repo /mnt/sample --base main \
  --head agent/honest-fix --now "$now" --out /tmp/accept.json \
  --sarif /tmp/accept.sarif
grep -q '"decision": "accept"' "$work/tmp/accept.json"
tier=$(sed -n 's/.*"tier": "\([a-z]*\)".*/\1/p' "$work/tmp/accept.json" | head -n 1)
echo "image smoke: isolation tier inside the image: $tier"
run 1 "pawl check (deleted property: reject)" check --repo /mnt/sample \
  --base main --head agent/delete-property --now "$now" --out /tmp/reject.json
grep -q '"decision": "reject"' "$work/tmp/reject.json"
run 1 "pawl diff (deleted property: reject)" diff --repo /mnt/sample \
  --base main --head agent/delete-property --now "$now"
run 0 "pawl keygen" keygen --out /tmp/pawl.key
run 0 "pawl check --out-signed" check --repo /mnt/sample --base main \
  --head agent/honest-fix --now "$now" --key /tmp/pawl.key \
  --out-signed /tmp/verdict.dsse.json
head=$(git -C "$work/repo/sample" rev-parse agent/honest-fix)
run 0 "pawl verify" verify --key /tmp/pawl.key.pub \
  --envelope /tmp/verdict.dsse.json --head "$head"
run 1 "pawl verify (wrong head)" verify --key /tmp/pawl.key.pub \
  --envelope /tmp/verdict.dsse.json --head "$(git -C "$work/repo/sample" rev-parse main)"
# The GitHub Action's entry script is in the image and maps its inputs.
PAWL_SMOKE_PROGRAM=pawl-action PAWL_SMOKE_INPUTS="INPUT_COMMAND=merge GITHUB_OUTPUT=/tmp/github_output" \
  run 2 "pawl-action (bad input: undecided)"
grep -qx "decision=undecided" "$work/tmp/github_output"
echo "image smoke: $image passed"
