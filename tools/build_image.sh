#!/bin/sh
# Build pawl's image with podman, as CI does:
#   sh tools/build_image.sh [TAG]    (default localhost/pawl:ci)
# Uses the real denoland/deno base when it can be pulled, and otherwise the
# stand-in that tools/build_standin_base.sh makes (kept between runs). The
# machine's CA bundle is passed as the build secret `extra_ca`, so a network
# behind a TLS-intercepting proxy can still reach npm; it lands in no layer.
# `--isolation=chroot` builds without a container runtime.
set -eu
cd "$(dirname "$0")/.."

tag=${1:-localhost/pawl:ci}
real=docker.io/denoland/deno:debian-2.9.6
if podman image exists "$real" || podman pull --quiet "$real" >/dev/null 2>&1; then
  base=$real
else
  echo "build image: $real cannot be pulled; using the stand-in base" >&2
  sh tools/build_standin_base.sh
  base=localhost/pawl-standin/deno:debian-2.9.6
fi

set -- --isolation=chroot --build-arg "DENO_IMAGE=$base" --tag "$tag"
ca=/etc/ssl/certs/ca-certificates.crt
[ -s "$ca" ] && set -- "$@" --secret "id=extra_ca,src=$ca"
podman build --quiet "$@" . >/dev/null
echo "build image: built $tag on $base" >&2
