# Multi-stage: compile native modules and build once, ship only what runs.
# Node 24 in every stage (issue 44): the addons are compiled against the Node that runs them.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
# apt's lists and downloaded packages are removed here, whatever the base's apt settings say.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && apt-get clean && rm -rf /var/lib/apt/lists/*
# argon2 and better-sqlite3 are compiled here, against the headers the base image ships in
# /usr/local/include/node (node-gyp would otherwise download them).
ENV npm_config_build_from_source=true npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
# npm ci applies patches/ (patch-package, postinstall): React Router's route matching skips
# branches by their literal segments (ADR 13, ADR 27), and its Node adapter no longer keeps
# every chunk a live stream has sent (ADR 10 addendum).
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The build bundles every package the server uses but the runtime ones; /runtime/node_modules gets
# those and what they need, without the addons' sources and object files (issue 34), the packages
# only their install runs, unused prebuilt binaries, declarations and source maps (issue 43).
RUN npm run build && node scripts/runtime-modules.mjs /runtime

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATABASE_PATH=/data/storymap.db
# glibc's allocator, as `npm start` sets it (ADR 23): two arenas, and blocks from 32 KB up (an argon2
# hash's 19 MB, compression buffers, a map's JSON) go back to the system when freed instead of
# staying in the process between smaller ones (issue 49).
ENV GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768
WORKDIR /app
# tini is PID 1: it passes signals on to the server and reaps orphaned processes (a health probe
# killed at its timeout leaves its children behind), which the server as PID 1 would not.
# /data is the one folder the service writes, and its alone (0700; the server makes its files 0600).
RUN apt-get update && apt-get install -y --no-install-recommends tini \
  && apt-get clean && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home /app storymap && mkdir -p /data && chown storymap /data && chmod 700 /data
# The app's files stay root's, read-only to the service: a compromised process cannot rewrite the
# code it runs (issue 43).
COPY --from=build /app/package.json ./
COPY --from=build /runtime/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/scripts/backup.mjs ./scripts/backup.mjs
USER storymap
VOLUME ["/data"]
EXPOSE 3000
# Exec form (no shell between Docker and the probe). Starting Node takes seconds on a busy host
# while /healthz itself answers in milliseconds: hence the generous timeout and start period.
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz',{signal:AbortSignal.timeout(12000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "docker-entrypoint.sh"]
# The JS heap is capped (live data is ~40 MB on a 4,000-card map); without a cap V8 grows it
# under load and the process holds 250+ MB (docs/benchmarks.md). One V8 helper thread, not four:
# its collectors for the page threads' renders then leave the cores to the event loop (ADR 29).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=4", "--v8-pool-size=1", "build/server.js"]
