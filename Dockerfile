# syntax=docker/dockerfile:1
#
# One image for every deployable (the gateway and the six services). The Kubernetes chart
# (charts/vulnscan) picks the process per Deployment:
#   node --import tsx services/<name>/src/main.ts    (gateway: gateway/src/main.ts)
#
# Services run their TypeScript through tsx, exactly as `npm start` does, so there is no
# compile step and `npm ci --omit=dev` cannot be used (tsx is a devDependency): the build
# stage installs the whole lockfile and the runtime stage copies node_modules over.
#
# Build:  docker build -t vulnscan:0.1.0 .
# Run:    docker run --rm -p 8080:8080 -e HOST=0.0.0.0 vulnscan:0.1.0
#         docker run --rm -e HOST=0.0.0.0 vulnscan:0.1.0 node --import tsx services/auth/src/main.ts

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

# --- build: every dependency from the lockfile, then the sources.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /src/ ./
# --ignore-scripts: no dependency needs an install script at run time (esbuild finds its
# platform package without one), and skipping them keeps third-party code out of the build.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund
# The code generators (buf's Go binary, protoplugin with its own TypeScript) are a third
# of node_modules and never run in a pod: generated code is committed under proto/gen.
RUN rm -rf node_modules/@bufbuild/buf node_modules/@bufbuild/buf-* \
      node_modules/@bufbuild/protoplugin node_modules/@bufbuild/protoc-gen-es \
      node_modules/.bin/buf node_modules/.bin/protoc-gen-*
COPY tsconfig.json ./
COPY proto/ proto/
COPY services/ services/
COPY gateway/ gateway/
# The web console the gateway serves at / (gateway/src/routes/console): only web/dist ships;
# the bundler (web/node_modules) and the sources are build-time only.
COPY web/ web/
RUN npm run build --workspace web && rm -rf web/node_modules web/src

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="vulnscan" \
      org.opencontainers.image.description="vulnscan gateway and services (one image, command per deployable)" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    SERVICE_VERSION=${VERSION}
# A fixed numeric uid/gid so Kubernetes' runAsNonRoot can verify it and the chart's
# securityContext (runAsUser 10001) matches the image.
RUN groupadd --system --gid 10001 vulnscan \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin vulnscan
WORKDIR /app
# Code stays owned by root: the process can read it but never rewrite it. The only
# writable path it needs is /tmp (tsx's transform cache); the chart mounts an emptyDir there
# and keeps the root filesystem read-only.
COPY --from=build --chown=root:root /app ./
USER 10001:10001
EXPOSE 8080 9460
CMD ["node", "--import", "tsx", "gateway/src/main.ts"]
