FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games ./games
COPY storage ./storage
COPY bot ./bot
RUN pip install --no-cache-dir .
# The database lives in /data (mount a volume there); the token comes from the environment.
ENV DATABASE_URL=sqlite:////data/tricktable.db
VOLUME ["/data"]
CMD ["tricktable", "run"]
