# The service image, built from the package tarball. The steps call the Makefile and scripts/install-from-tarball.sh,
# the same ones the package test runs, so the test proves what the image does.
#
#   docker build --build-context shared=../shared -t oscal-validator .
#   docker run -p 8080:8080 -e PUBLIC_BASE_URL=https://oscal.example.org -e REDIS_URL=redis://redis:6379 oscal-validator
#
# PUBLIC_BASE_URL is the address clients use, which the service's links carry; unset, they name
# http://localhost:<PORT> (the start-up log line's baseUrl says which). The image runs the node:http transport, which
# answers any client directly; compose.yaml and deploy/kubernetes.yaml run TRANSPORT=uws behind nginx instead.
#
# Build: ../shared (the NIST schemas and metaschema) is a build context of its own, placed beside the sources where
# the compiler looks for it by default. It is needed to build, never to run.
FROM node:20-bookworm AS build
WORKDIR /build/src
COPY package.json package-lock.json Makefile ./
RUN make install
COPY . .
COPY --from=shared . /build/shared
# npm pack runs make build first (generate the validators, compile) through the prepack script.
RUN npm pack --pack-destination /build \
 && scripts/install-from-tarball.sh /build/oscal-validator-*.tgz /opt/oscal-validator

# Run time: Node and the installed package, nothing else. The bins are on PATH (oscal-keys for key management).
FROM node:20-bookworm-slim
COPY --from=build /opt/oscal-validator /opt/oscal-validator
ENV NODE_ENV=production \
    PATH=/opt/oscal-validator/node_modules/.bin:$PATH \
    PORT=8080 \
    TRANSPORT=node \
    KEYS_FILE=/var/lib/oscal-validator/keys.json
RUN mkdir -p /var/lib/oscal-validator && chown node:node /var/lib/oscal-validator
USER node
WORKDIR /var/lib/oscal-validator
EXPOSE 8080
# Settings (PORT, REDIS_URL, WORKERS, ...) come from the environment, as the README's "Settings" lists them.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["oscal-validator-server"]
