# syntax=docker/dockerfile:1
# pawl — merge gate for agent-written pull requests.
#
#   docker build -t pawl .
#   podman build --isolation=chroot -t pawl .
#
# Build arguments:
#   DENO_IMAGE   the Deno base (default denoland/deno:debian-2.9.6); where
#                Docker Hub is out of reach, tools/build_standin_base.sh makes
#                localhost/pawl-standin/deno:debian-2.9.6 from Debian packages
#                and the Deno binary on npm.
# Build secret (optional):
#   extra_ca     a PEM bundle to trust while fetching npm packages, for a
#                network behind a TLS-intercepting proxy:
#                  --secret id=extra_ca,src=/etc/ssl/certs/ca-certificates.crt
#                It is mounted for that one step and is in no layer.
ARG DENO_IMAGE=denoland/deno:debian-2.9.6

# --- Stage 1: the npm packages main.ts imports, exactly as deno.lock pins them.
FROM ${DENO_IMAGE} AS deps
WORKDIR /app
ENV DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1
COPY deno.json deno.lock ./
COPY main.ts ./
COPY src ./src
RUN --mount=type=secret,id=extra_ca \
    if [ -s /run/secrets/extra_ca ]; then export DENO_CERT=/run/secrets/extra_ca; fi \
 && deno install --frozen --entrypoint main.ts \
 && rm -rf src main.ts

# --- Stage 2: what runs. No npm cache, no network step after the packages.
FROM ${DENO_IMAGE}
# git reads the repository; bubblewrap, util-linux (setpriv, prlimit,
# unshare) and procps (kill) run the tests as an unprivileged uid; python3
# with pytest and Hypothesis runs them; ca-certificates for the GitHub API.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      git ca-certificates util-linux procps bubblewrap \
      python3 python3-pytest python3-hypothesis \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
 && find /usr/lib/python3* -name __pycache__ -prune -exec rm -rf {} + \
 && groupadd --system --gid 64123 pawl \
 && useradd --system --uid 64123 --gid 64123 --home-dir /nonexistent \
      --no-create-home --shell /usr/sbin/nologin pawl

WORKDIR /app
ENV DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
COPY --from=deps /app ./
COPY main.ts ./
COPY src ./src
COPY tools/action_entrypoint.ts ./tools/
# Run once at build time so the V8 code cache in DENO_DIR is warm: a cold
# `pawl version` then skips compiling every module again. --cached-only
# proves that nothing is fetched after stage 1; --node-modules-dir=manual
# uses stage 1's node_modules as it is instead of checking it against
# deno.lock at every start (most of a cold start's own cost).
RUN deno run --cached-only --frozen --node-modules-dir=manual --allow-all /app/main.ts version \
 && printf '#!/bin/sh\nexec deno run --cached-only --frozen --node-modules-dir=manual --allow-all /app/main.ts "$@"\n' \
      >/usr/local/bin/pawl \
 && printf '#!/bin/sh\nexec deno run --cached-only --frozen --node-modules-dir=manual --allow-all /app/tools/action_entrypoint.ts "$@"\n' \
      >/usr/local/bin/pawl-action \
 && chmod 0755 /usr/local/bin/pawl /usr/local/bin/pawl-action

# --allow-all: the sandbox scans /proc to kill every process of the test uid,
# which Deno grants only with all permissions; and running the tests through
# setpriv/prlimit already amounts to running any command.
ENTRYPOINT ["deno", "run", "--cached-only", "--frozen", \
  "--node-modules-dir=manual", "--allow-all", "/app/main.ts"]
CMD ["--help"]
