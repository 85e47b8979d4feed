# One image for every landscreen process; the command picks the piece:
#   landscreen serve                      embedded default (everything, one process)
#   landscreen serve --service <name>     one Connect service (distributed mode)
#   landscreen serve --gateway            the REST gateway (distributed mode)
#   landscreen serve --worker             the diligence worker (distributed mode)
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY workers ./workers
COPY test/package.json ./test/package.json
COPY proto ./proto
COPY tsconfig.base.json tsconfig.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
ARG BUILD_ID=docker
ENV BUILD_ID=${BUILD_ID} DATA_DIR=/data
# The embedded default's database and the local mailbox live here (mount a volume to keep them).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
ENTRYPOINT ["node", "--max-semi-space-size=64", "packages/cli/bin/landscreen.js"]
CMD ["serve"]
