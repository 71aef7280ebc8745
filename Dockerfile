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
# The interpreter's modules keep the bytecode their packages compiled on
# install (18 MB): the image's file system is read-only to every run, so
# without it each pytest process would compile the standard library, pytest
# and Hypothesis again (about 0.7 s a start; a judgement starts several).
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      git ca-certificates util-linux procps bubblewrap \
      python3 python3-pytest python3-hypothesis \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
 && groupadd --system --gid 64123 pawl \
 && useradd --system --uid 64123 --gid 64123 --home-dir /nonexistent \
      --no-create-home --shell /usr/sbin/nologin pawl

WORKDIR /app
ENV DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
COPY --from=deps /app ./
COPY main.ts ./
COPY src ./src
COPY tools/action_entrypoint.ts tools/image_launcher.sh tools/seal_deno_cache.ts ./tools/
# Warm Deno's caches at build time, so that a start reads them and compiles
# nothing: `deno cache` emits every module of pawl (workers included), and
# each command runs its `--help` three times, which fills the V8 code cache.
# --cached-only then proves that nothing is fetched after stage 1;
# --node-modules-dir=manual uses stage 1's node_modules as it is instead of
# checking it against deno.lock at every start (most of a cold start's own
# cost). The databases are sealed into single files last, so the launcher
# can copy them when the root file system is read-only.
RUN deno cache --frozen --node-modules-dir=manual \
      $(find main.ts src tools -name '*.ts' ! -name '*_test.ts') \
 && install -m 0755 tools/image_launcher.sh /usr/local/bin/pawl \
 && ln -s pawl /usr/local/bin/pawl-action \
 && for round in 1 2 3; do \
      for command in version --help check diff audit demo propose keygen verify serve; do \
        case $command in version | --help) pawl $command ;; *) pawl $command --help ;; esac \
          >/dev/null || exit 1; \
      done; \
    done \
 && DENO_DIR=/tmp/seal deno run --allow-read --allow-write tools/seal_deno_cache.ts /deno-dir \
 && rm -rf /tmp/seal

# The launcher runs Deno with --allow-all: the sandbox scans /proc to kill
# every process of the test uid, which Deno grants only with all permissions;
# and running the tests through setpriv/prlimit already amounts to running
# any command.
ENTRYPOINT ["/usr/local/bin/pawl"]
CMD ["--help"]
