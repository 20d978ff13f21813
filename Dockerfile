# The bot as a container: `docker build -t boardgame-table .` then
#   docker run -d --name boardgame-table --env-file .env -v boardgame-data:/data boardgame-table
# See docs/deployment.md (single VPS, container platforms, several processes on PostgreSQL).

# Both stages on the same Python: the engine compiled in the first is loaded by the second's interpreter.
ARG PYTHON_IMAGE=python:3.11-slim

# Build stage: a C compiler and mypyc compile the hottest engine modules (games.build.COMPILED: about twice
# as fast), then a wheel is built that carries them (package data *.so). `python -m games.build` without
# --optional: the image fails to build rather than ship an interpreted engine.
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot bot
COPY games games
COPY storage storage
COPY table table
RUN pip install --no-cache-dir "mypy>=1.13" "setuptools>=77" \
    && python -m games.build \
    && pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# Runtime stage: slim, no compiler; the installed package with its compiled modules.
FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels \
    && python -m games.build --check \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin bot \
    && mkdir /data && chown bot:bot /data
USER bot
WORKDIR /home/bot
# SQLite lives on the volume (WAL files beside it); set DATABASE_URL to PostgreSQL to use that instead.
ENV DATABASE_URL=sqlite+aiosqlite:////data/bot.sqlite3 \
    METRICS_PORT=9100 \
    METRICS_HOST=127.0.0.1
VOLUME ["/data"]
# GET /healthz answers 200 once the gateway is connected and the database answers (bot/app/metrics.py).
# With METRICS_PORT emptied there is no endpoint, and so no check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["sh", "-c", "[ -z \"$METRICS_PORT\" ] || python -c \"import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['METRICS_PORT'] + '/healthz', timeout=4)\""]
CMD ["python", "-m", "bot"]
