# tricktable: the Discord bot, built from the exact dependency versions of requirements.lock.
#   docker build -t tricktable .
#   docker run -e DISCORD_TOKEN=... -v tt:/data tricktable
# Several processes: see the README, "Several processes" (DATABASE_URL=postgresql://…,
# TRICKTABLE_SHARD_COUNT, TRICKTABLE_SHARD_IDS per container).

FROM python:3.11-slim AS build
WORKDIR /src
# Dependencies first (a layer that changes only with the lock), every file hash-checked.
COPY requirements.lock ./
RUN python -m venv /opt/tricktable \
    && /opt/tricktable/bin/pip install --no-cache-dir --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY games ./games
COPY storage ./storage
COPY bot ./bot
# The rule files: bot/words/rules links to docs/rules, so the package carries them.
COPY docs/rules ./docs/rules
RUN /opt/tricktable/bin/pip install --no-cache-dir --no-deps .

FROM python:3.11-slim
# tzdata: league kick-off times are local times of IANA zones (zoneinfo reads the
# system's database first).
RUN apt-get update \
    && apt-get install -y --no-install-recommends tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin \
        tricktable \
    && mkdir -p /data \
    && chown tricktable:tricktable /data
COPY --from=build /opt/tricktable /opt/tricktable
# The rule files, where the bot's messages point (docs/rules/<game>.md).
COPY docs/rules /app/docs/rules
ENV PATH=/opt/tricktable/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/tricktable.db
WORKDIR /app
USER tricktable
# The SQLite database lives in /data (mount a volume there); the token comes from the
# environment, never from the image.
VOLUME ["/data"]
CMD ["tricktable", "run"]
