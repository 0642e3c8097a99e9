# agentctl plus git and the ACP agent adapters pinned in docs/agent-profiles (Claude Code, Codex, Gemini
# CLI, or the ones chosen with --agents): `node scripts/build-images.mjs --agents all`. The adapters are
# installed on the host (exact versions, `npm install`) into node_modules/.cache/agent-adapters-image,
# which is this build's context, so the base image needs no npm; git comes from Debian at build time (the one step that needs a Debian mirror). The host
# must have the image's architecture: the adapters' native binaries (Codex, Claude Code) are the host's.
ARG AGENTCTL_IMAGE=kandev/agentctl:dev

FROM ${AGENTCTL_IMAGE}
USER root
# ca-certificates: for git over https (an agent's clone or push); --no-install-recommends would drop it.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY . /opt/kandev/agent-adapters
# Profiles in this image run the adapters by their bin name (claude-agent-acp, codex-acp, gemini --acp):
# agentctl passes PATH on to agents. Fail the build if git or an adapter's entry point is missing.
ENV PATH=/opt/kandev/agent-adapters/node_modules/.bin:${PATH}
RUN git --version \
 && for bin in /opt/kandev/agent-adapters/node_modules/.bin/*; do test -e "$bin" || { echo "broken: $bin"; exit 1; }; done
# Numeric: Kubernetes (runAsNonRoot) can check a uid, not a name.
USER 999:999
