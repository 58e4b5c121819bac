# Tablestakes: the app alone. docker-compose.yml runs it with PostgreSQL and Redis.
# BASE_IMAGE: any image with Python 3.11+ and its venv module. Where no registry is reachable, build one from Debian's
# packages with deploy/debian-base-image.sh and pass --build-arg BASE_IMAGE=localhost/tablestakes-base:bookworm.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 tablestakes \
    && mkdir -p /app/data \
    && chown -R tablestakes:tablestakes /app

WORKDIR /app
COPY --chown=tablestakes:tablestakes . .
USER tablestakes

# The README's own install step.
RUN python3 -m venv .venv && .venv/bin/pip install -e .

ENV PATH=/app/.venv/bin:$PATH \
    DATA_DIR=/app/data \
    HOST=0.0.0.0 \
    PORT=8000

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", \
         "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# `serve` applies migrations, then serves (one process per node: scale with more containers, not workers).
CMD ["tablestakes", "serve"]
