# The payments service as an image: `docker build -t crypto-payments .` (or `docker compose build`).
# Build stage: dependencies (better-sqlite3 compiles here when no prebuilt binary can be fetched), the drop-in and
# dashboard (Vite), the server and admin CLI bundles (esbuild), then the dev dependencies are pruned.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# node-gyp finds Node's headers in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm run build:server \
 && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: only what runs (the bundles, the built static files, production dependencies), as a non-root user.
# No secrets key is baked in: run it with SECRETS_KEY or SECRETS_KEY_FILE (README: Secrets at rest). Without one the
# service makes /data/service.sqlite.key on the volume beside the SQLite store: fine for trying, not for production.
FROM node:20-bookworm-slim
# DEMO_MERCHANT=false: a production store starts empty (no demo merchant, no demo@example.com owner).
ENV NODE_ENV=production \
    DEMO_MERCHANT=false \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATABASE_URL=sqlite:/data/service.sqlite \
    REQUIRE_VOLUME=/data
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/public ./public
# `docker compose exec service admin merchant list`: the admin CLI as plain JavaScript.
# /data belongs to the runtime user so a new named volume mounted there does too. There is deliberately no VOLUME
# line: an anonymous volume would hide a forgotten `-v`; with SQLite on /data the service refuses to start unless
# /data is a mounted volume (REQUIRE_VOLUME).
RUN printf '#!/bin/sh\nexec node /app/dist/admin.mjs "$@"\n' > /usr/local/bin/admin \
 && chmod 755 /usr/local/bin/admin \
 && mkdir /data \
 && chown node:node /data
USER node
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/main.mjs"]
