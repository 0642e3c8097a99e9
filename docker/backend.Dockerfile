# backend: REST API + SQLite store (a volume at /data) + gRPC client of agentctl.
# Built by scripts/build-images.mjs from a pruned production bundle (`pnpm deploy --prod`) staged in
# .bundle/backend; better-sqlite3's native binary in it is compiled on the host (Debian bookworm, like
# the base image) for the base image's Node release, which the script asks the image for.
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS bundle
COPY .bundle/backend /opt/kandev/backend
# Only what runs: no type declarations, source maps, build info, or better-sqlite3's compiler leftovers.
RUN find /opt/kandev/backend \( -name '*.d.ts' -o -name '*.map' -o -name '*.tsbuildinfo' \) -type f -delete \
 && find /opt/kandev/backend -path '*/better-sqlite3/build/*' \( -name 'obj*' -o -name '*.mk' -o -name 'Makefile' -o -name '*.a' -o -name 'test_extension.node' \) -prune -exec rm -rf {} + \
 && node -e "require('/opt/kandev/backend/node_modules/better-sqlite3')(':memory:').close()"

FROM ${BASE_IMAGE}
# A fixed uid/gid (999): deploy/kubernetes runs the pods as it.
RUN groupadd --system --gid 999 kandev \
 && useradd --system --uid 999 --gid kandev --create-home --home-dir /home/kandev --shell /usr/sbin/nologin kandev \
 && mkdir -p /data && chown kandev:kandev /data
COPY --from=bundle /opt/kandev/backend /opt/kandev/backend
ENV NODE_ENV=production \
    KANDEV_HTTP_HOST=0.0.0.0 \
    KANDEV_HTTP_PORT=7420 \
    KANDEV_DATA_DIR=/data
EXPOSE 7420
VOLUME ["/data"]
# Numeric: Kubernetes (runAsNonRoot) can check a uid, not a name.
USER 999:999
WORKDIR /home/kandev
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.KANDEV_HTTP_PORT||7420)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/opt/kandev/backend/dist/main.js"]
