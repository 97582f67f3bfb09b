# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, run with production ones only,
# as a non-root user, with the database on a mounted volume.

# Node.js 24 LTS (docs/decisions/1070-node-24-and-react-router-8.md). Nothing
# compiles: better-sqlite3 13 loads the Node-API binary its npm package ships
# (prebuilds/linux-x64.node), so no compiler or Python in any stage.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci

FROM deps AS build
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev

FROM node:24-bookworm-slim AS runtime
# The V8 heap is held to 192 MB (docs/decisions/archive/0803-bounded-memory.md): on a large machine V8
# lets it grow to gigabytes before collecting, on the 512 MB VM it must not.
# Its young generation to two 8 MB semi-spaces, not 16 (docs/decisions/archive/0843-young-generation-8-mb.md):
# about 20 MB less resident, for no measurable CPU.
# One glibc malloc arena (docs/decisions/archive/0804-one-malloc-arena.md): with one per thread, each
# libvips/libuv thread that decoded an avatar kept its own high-water mark.
ENV NODE_ENV=production \
    PORT=8080 \
    DATABASE_PATH=/data/fairshake.db \
    NODE_OPTIONS="--max-old-space-size=192 --max-semi-space-size=8" \
    MALLOC_ARENA_MAX=1
WORKDIR /app
RUN groupadd --system fairshake && useradd --system --gid fairshake --home /app fairshake \
  && mkdir -p /data && chown fairshake:fairshake /data
COPY --from=prod-deps --chown=fairshake:fairshake /app/node_modules ./node_modules
COPY --from=build --chown=fairshake:fairshake /app/build ./build
COPY --chown=fairshake:fairshake package.json ./
COPY --chown=fairshake:fairshake drizzle ./drizzle
# npm run db:copy, for moving a SQLite volume to PostgreSQL from `fly ssh console`.
COPY --chown=fairshake:fairshake scripts/db/copy.mjs ./scripts/db/copy.mjs
USER fairshake
EXPOSE 8080
# DEMO_MODE is never set here; SESSION_SECRET must come from `fly secrets set`.
# build/server.js is the launcher: with LITESTREAM_REPLICA_URL set it restores
# a missing database from the replica, then runs the server under
# `litestream replicate -exec` (the Litestream binary comes from the npm
# package @flydotio/litestream-linux-x64 in node_modules: nothing downloads);
# with WEB_CONCURRENCY > 1 it forks that many workers. The server applies
# migrations (after a VACUUM INTO snapshot) before it listens, and stops
# gracefully on SIGTERM. Metrics: METRICS_PORT (9091), not published.
CMD ["node", "build/server.js"]
