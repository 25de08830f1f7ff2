# syntax=docker/dockerfile:1
# One image for the whole gateway. The command picks what runs:
#   docker run IMAGE                                  all four services in one process (embedded defaults)
#   docker run IMAGE start --service edge|chat|video|accounting   one service alone
#   docker run IMAGE keys list                        the CLI's other commands
# Build: docker build -t ai-gateway .

# The newest Node LTS line (the project supports the maintained ones, 22 and 24).
ARG NODE_IMAGE=node:24-bookworm-slim

# Only the workspaces' package.json files (and bin/, for npm to link the gateway command), so
# the dependency layers below are rebuilt only when a manifest or the lockfile changes, not on
# every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY packages/ packages/
COPY services/ services/
RUN find packages services -mindepth 2 -maxdepth 2 ! -name package.json ! -name bin -exec rm -rf {} +

# Build: every dependency, then the TypeScript project references (output in each dist/), TypeBox
# bundled into one module (packages/typebox/bundle.mjs) and the dashboard's page (Vite, into
# packages/dashboard/dist/ui; the edge serves it at /ui/). Vite, Rolldown and the page's
# libraries are dev dependencies: only the built files reach the image.
# packages/simulators (upstream simulators for tests and benchmarks) is kept out of the build
# context by .dockerignore, so the build starts from the CLI's project, whose references reach
# every production workspace, not from the root tsconfig.json, which also lists the simulators.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=manifests /app/ ./
# Install scripts stay off, as in the repository's own npm settings (allowScripts). SQLite is
# Node's own (node:sqlite, which the store uses on this Node line); libsql, its fallback on Node
# lines without it, comes as a prebuilt binary inside a registry package: nothing is compiled.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY proto/ proto/
COPY packages/ packages/
COPY services/ services/
RUN npx tsc -b packages/cli \
 && node packages/typebox/bundle.mjs \
 && npx vite build packages/dashboard --logLevel warn \
 && rm -rf packages/*/src packages/*/test packages/*/node_modules packages/*/tsconfig*.json \
           packages/dashboard/index.html packages/dashboard/vite.config.ts packages/typebox/bundle.mjs \
           services/*/src services/*/test services/*/node_modules services/*/tsconfig*.json \
 && find packages services -path '*/dist/*' \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '.tsbuildinfo' \) -delete

# Production dependencies only. @install-binary/ holds the kustomize binary the manifest tests
# use (an optional dependency so that npm ci works on every platform); it has no place here.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=manifests /app/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/@install-binary \
 && npm cache clean --force

# Runtime: production dependencies, each workspace's package.json and dist/, the protos and the
# example configuration. The files belong to root; the process runs as an unprivileged user and
# writes only to /data (GATEWAY_DATA_DIR: gateway.db, the embedded store and the bus's outbox) and /tmp.
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_: as the first line of packages/cli/bin/gateway.js sets them (see there).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=32768 \
    HOST=0.0.0.0 \
    PORT=4000 \
    GATEWAY_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/packages/ packages/
COPY --from=build /app/services/ services/
COPY --from=deps /app/ ./
COPY proto/ proto/
COPY gateway.example.yaml ./
COPY deploy/grpc-health.mjs deploy/grpc-health.mjs
RUN mkdir -p /data && chown 10001:10001 /data
USER 10001:10001
VOLUME ["/data"]
# 4000: the edge (HTTP); 50051-50053: accounting, chat, video (gRPC); 9464: every process's
# /metrics (METRICS_PORT), off the public port.
EXPOSE 4000 50051 50052 50053 9464
# The same Node flags as the first line of packages/cli/bin/gateway.js (see there).
ENTRYPOINT ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "packages/cli/bin/gateway.js"]
CMD ["start"]
