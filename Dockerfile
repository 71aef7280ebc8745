# pawl — merge gate for agent-written pull requests.
# The gate runs as root only so it can drop the repository's tests to the
# unprivileged "pawl" uid; everything it judges is read from git objects.
FROM denoland/deno:debian-2.9.6

RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      git ca-certificates tar util-linux bubblewrap \
      python3 python3-pytest python3-hypothesis \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 64123 pawl \
 && useradd --system --uid 64123 --gid 64123 --home-dir /nonexistent \
      --no-create-home --shell /usr/sbin/nologin pawl

WORKDIR /app
ENV DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1 NO_COLOR=1

# Dependencies first, from the lockfile, so source edits keep this layer.
COPY deno.json deno.lock ./
RUN deno install --frozen

COPY main.ts ./
COPY src ./src
RUN deno cache --frozen main.ts

# --allow-all: the sandbox scans /proc to kill every process of the test uid,
# which Deno grants only with all permissions; and running the tests through
# setpriv/prlimit already amounts to running any command.
ENTRYPOINT ["deno", "run", "--cached-only", "--frozen", "--allow-all", \
  "/app/main.ts"]
CMD ["--help"]
