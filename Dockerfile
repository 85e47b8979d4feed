# One image for every landscreen process; the command picks the piece:
#   landscreen serve                      embedded default (everything, one process)
#   landscreen serve --service <name>     one Connect service (distributed mode)
#   landscreen serve --gateway            the REST gateway (distributed mode)
#   landscreen serve --worker             the diligence worker (distributed mode)
#   landscreen serve --runs-worker        a runs worker (distributed mode)
# The image runs compiled JavaScript (docs/building.md): the build stage installs everything and
# compiles every workspace to its dist/ (`tsc -b`); the image keeps the sources' tree with those
# dist/ folders and installs only the production dependencies.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY tsconfig.base.json tsconfig.workspace.json tsconfig.build.json tsconfig.json ./
COPY scripts ./scripts
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY workers ./workers
COPY test/package.json ./test/package.json
COPY proto ./proto
# Install scripts are skipped: compiling needs only TypeScript (the image writes the PGlite template).
RUN npm ci --ignore-scripts --no-audit --no-fund \
  && npm run build \
  && node scripts/check-build.mjs \
  && rm -rf node_modules packages/*/node_modules services/*/node_modules gateway/node_modules workers/*/node_modules test/node_modules

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /app ./
# No install scripts: the build is done, and no production dependency needs one. Then the migrated
# PGlite template a new data directory (an empty /data) is copied from, instead of running initdb,
# owned by the user the processes run as (PostgreSQL keeps some of its files private to the owner).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
  && node scripts/pglite-template.mjs && chown -R node:node node_modules/.cache/landscreen
ARG BUILD_ID=docker
ENV BUILD_ID=${BUILD_ID} DATA_DIR=/data
# The embedded default's database and the local mailbox live here (mount a volume to keep them).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
ENTRYPOINT ["node", "--max-semi-space-size=64", "packages/cli/bin/landscreen.js"]
CMD ["serve"]
