#!/bin/sh
# Build examples/derived-image on a built pawl image and prove that the
# recipe of docs/derived-images.md works: inside the derived image (entered
# read-only as tools/image_smoke.sh does), a src-layout project whose
# pawl.toml names the image's virtualenv as [environment] python is judged
# with its Debian test dependency: the honest fix accepted, the bug
# rejected.
#
# Usage: sh tools/derived_image_smoke.sh [PAWL-IMAGE]   (default localhost/pawl:ci)
set -eu
cd "$(dirname "$0")/.."

base=${1:-localhost/pawl:ci}
case "${base##*/}" in
*:*) image=${base%:*}-derived:${base##*:} ;;
*) image=$base-derived ;;
esac
now=2026-11-30T12:00:00Z
work=$(mktemp -d /tmp/pawl-derived-smoke-XXXXXX)
mnt=""
cleanup() {
  [ -n "$mnt" ] && podman image unmount "$image" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

start=$(date +%s)
if ! podman build --quiet --isolation=chroot --build-arg "PAWL_IMAGE=$base" \
  --tag "$image" examples/derived-image >"$work/build.log" 2>&1; then
  sed 's/^/  build: /' "$work/build.log" >&2
  exit 1
fi
echo "derived image smoke: built $image on $base in $(($(date +%s) - start))s"
python=$(sed -n 's/^python = "\(.*\)"$/\1/p' examples/derived-image/pawl.toml)
mkdir "$work/repo" "$work/tmp"
chmod 1777 "$work/tmp"
repo=$(deno run --allow-all tools/make_src_layout_repo.ts "$work/repo" --python "$python")
inside=/mnt${repo#"$work/repo"}

mnt=$(podman image mount "$image")

# run EXPECTED-EXIT LABEL ARGS...: one pawl command inside the image
# (tools/enter_image.sh), with the project under /mnt and $work/tmp as /tmp.
run() {
  expected=$1 label=$2
  shift 2
  got=0
  unshare --mount sh tools/enter_image.sh "$mnt" "$work/tmp" "$work/repo" \
    PAWL_SANDBOX_UIDS=64400-64403 /usr/local/bin/pawl "$@" \
    >"$work/out" 2>"$work/err" || got=$?
  if [ "$got" != "$expected" ]; then
    echo "derived image smoke: $label: exit $got, expected $expected" >&2
    sed 's/^/  stdout: /' "$work/out" >&2
    sed 's/^/  stderr: /' "$work/err" >&2
    exit 1
  fi
  echo "derived image smoke: $label: exit $got as expected"
}

run 0 "pawl check (honest fix: accept)" check --repo "$inside" --base main \
  --head fix/stream --now "$now" --quiet --out /tmp/accept.json
grep -q '"decision": "accept"' "$work/tmp/accept.json"
run 1 "pawl check (lost tail: reject)" check --repo "$inside" --base main \
  --head bug/loses-tail --now "$now" --quiet --out /tmp/reject.json
grep -q '"rule": "property.not_passed"' "$work/tmp/reject.json"
echo "derived image smoke: $image passed"
