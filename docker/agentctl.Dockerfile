# agentctl: gRPC control server + per-session MCP over Streamable HTTP + the agents it runs.
# Built by scripts/build-images.mjs from a pruned production bundle (`pnpm deploy --prod`) staged in
# .bundle/agentctl: the base image needs no package manager and the build needs no registry.
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS bundle
COPY .bundle/agentctl /opt/kandev/agentctl
# Only what runs: no type declarations, source maps or build info; fail the build if the entry cannot load.
RUN find /opt/kandev/agentctl \( -name '*.d.ts' -o -name '*.map' -o -name '*.tsbuildinfo' \) -type f -delete \
 && node -e "require.resolve('/opt/kandev/agentctl/dist/main.js')"

FROM ${BASE_IMAGE}
# A fixed uid/gid (999): deploy/kubernetes runs the pods as it.
RUN groupadd --system --gid 999 kandev \
 && useradd --system --uid 999 --gid kandev --create-home --home-dir /home/kandev --shell /usr/sbin/nologin kandev
COPY --from=bundle /opt/kandev/agentctl /opt/kandev/agentctl
ENV NODE_ENV=production \
    KANDEV_AGENTCTL_HOST=0.0.0.0 \
    KANDEV_AGENTCTL_GRPC_PORT=7421 \
    KANDEV_AGENTCTL_MCP_PORT=7422
EXPOSE 7421 7422
# Numeric: Kubernetes (runAsNonRoot) can check a uid, not a name.
USER 999:999
WORKDIR /home/kandev
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.KANDEV_AGENTCTL_MCP_PORT||7422)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/opt/kandev/agentctl/dist/main.js"]
