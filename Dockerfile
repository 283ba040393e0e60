# domino-bot: hosts partnership dominoes tables on Telegram and Discord.
#   docker build -t domino-bot .
#   docker run -d --name domino -v domino-data:/data --env-file .env domino-bot
# CI cannot run Docker; it copies exactly the files the COPY lines name into a fresh
# folder and runs the same install in a fresh virtual environment (.ci/run).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DOMINO_DB=/data/domino.db

WORKDIR /app

# The project from its own files: metadata first, then the packages.
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY render ./render
COPY storage ./storage
COPY bot ./bot
RUN pip install .

# A non-root user owns the database volume.
RUN useradd --create-home --uid 10001 domino \
    && mkdir -p /data \
    && chown domino:domino /data
USER domino
VOLUME ["/data"]
# Run from the volume: the heartbeat of a bot on PostgreSQL (domino.heartbeat in the
# working directory) is written there too.
WORKDIR /data

# Healthy while the bot's heartbeat (written every 30 s beside the database) is fresh
# and the database opens.
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s --retries=3 \
    CMD ["domino", "doctor", "--health"]

CMD ["domino", "run"]
