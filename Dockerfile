# syntax=docker/dockerfile:1
#
# One image for every deployable (the gateway and the six services). The Kubernetes chart
# (charts/vulnscan) picks the process per Deployment:
#   node --enable-source-maps dist/<name>/main.js
#
# The services run compiled: the build stage bundles each one's code and its npm dependencies
# (npm run build, scripts/lib/build.ts) into dist/<name>/main.js with a source map of our own
# sources; the runtime stage holds that, the data files the code reads beside itself and a
# node_modules with only the packages the bundles leave external (native addons, packages that
# read files beside themselves, the PDF writer) and their dependencies, copied from the build's
# install at the lockfile's versions (scripts/lib/image-modules.ts): no TypeScript, tsx, esbuild
# or test tooling, and none of the packages the bundles already hold.
#
# Build:  docker build -t vulnscan:0.1.0 .
# Run:    docker run --rm -p 8080:8080 -e HOST=0.0.0.0 vulnscan:0.1.0
#         docker run --rm -e HOST=0.0.0.0 vulnscan:0.1.0 node --enable-source-maps dist/auth/main.js

# Current Node LTS. Both stages use the same base so the platform binaries npm installs
# (esbuild, used by tsx) match the runtime.
ARG NODE_IMAGE=node:22-bookworm-slim

# --- manifests: only package.json files and the lockfile, so the npm ci layer below is
# rebuilt when dependencies change and not on every source edit. Deriving the list with
# find (rather than one COPY per workspace) means a new workspace needs no Dockerfile edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -type d -empty -delete

# --- build: every dependency from the lockfile, then the sources, then the bundles.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /src/ ./
# --ignore-scripts: no dependency needs an install script (esbuild finds its platform package
# without one), and skipping them keeps third-party code out of the build.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.ts scripts/build.ts
COPY scripts/lib/build.ts scripts/lib/image-modules.ts scripts/lib/root.ts scripts/lib/source-map-filter.ts scripts/lib/
COPY proto/ proto/
COPY services/ services/
COPY gateway/ gateway/
COPY web/ web/
# The web console the gateway serves at / (web/dist), then every deployable into dist/, then
# the packages those bundles load at run time into /app/runtime/node_modules.
RUN npm run build --workspace web && npx tsx scripts/build.ts --image --modules /app/runtime

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="vulnscan" \
      org.opencontainers.image.description="vulnscan gateway and services (one image, command per deployable)" \
      org.opencontainers.image.version="${VERSION}"
# MALLOC_ARENA_MAX: two glibc malloc arenas instead of eight per core; MALLOC_MMAP_THRESHOLD_:
# blocks of 128 KiB and more stay mapped and are given back when freed (glibc would otherwise
# raise the threshold and leave holes in its heap); MIMALLOC_PURGE_DELAY: the argon2 addon's
# allocator gives each password hash's 19 MiB back at once instead of keeping it
# (scripts/system.ts DEPLOYABLE_ENV; fewer MiB held per process).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MIMALLOC_PURGE_DELAY=0 \
    HOST=0.0.0.0 \
    SERVICE_VERSION=${VERSION}
# A fixed numeric uid/gid so Kubernetes' runAsNonRoot can verify it and the chart's
# securityContext (runAsUser 10001) matches the image.
RUN groupadd --system --gid 10001 vulnscan \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin vulnscan
WORKDIR /app
# Code stays owned by root: the process can read it but never rewrite it, and nothing is written
# beside it, so the root filesystem can be read-only (the chart mounts an emptyDir at /tmp).
COPY --from=build --chown=root:root /app/runtime/node_modules node_modules/
COPY --from=build --chown=root:root /app/dist dist/
# Files the code reads beside itself, at the paths the bundles name (relative to dist/<name>/).
COPY --from=build --chown=root:root /app/services/scanner/data services/scanner/data/
COPY --from=build --chown=root:root /app/services/scanner/checks services/scanner/checks/
COPY --from=build --chown=root:root /app/services/scanner/templates services/scanner/templates/
COPY --from=build --chown=root:root /app/services/compliance-catalogue/data services/compliance-catalogue/data/
COPY --from=build --chown=root:root /app/services/findings/data services/findings/data/
COPY --from=build --chown=root:root /app/gateway/src/routes/events/asyncapi.json gateway/src/routes/events/
COPY --from=build --chown=root:root /app/web/dist web/dist/
USER 10001:10001
EXPOSE 8080 9460
# No HEALTHCHECK: Kubernetes probes the admin port (/livez, /readyz) and the gRPC health service.
CMD ["node", "--enable-source-maps", "dist/gateway/main.js"]
