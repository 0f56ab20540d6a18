# flower in a container: build `npm run build` first, then `docker build -t flower-box .`; run it through
# docker/flowerbox, which mounts the current folder at /project and passes only flower's known keys.
# Credentials come from the environment at run time only: .dockerignore keeps every .env out of the
# build context, and no ENV or ARG below carries a secret.
FROM node:20-slim

# git: worktrees for --isolate; ca-certificates: HTTPS gateways.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/*

# An npm mirror is opt-in (no mirror by default).
ARG FLOWER_NPM_REGISTRY=https://registry.npmjs.org/
COPY package.json package-lock.json /tmp/flower-source/
COPY dist /tmp/flower-source/dist
COPY plugin /tmp/flower-source/plugin
COPY docker/install.sh /tmp/flower-source/install.sh
RUN NPM_CONFIG_REGISTRY="$FLOWER_NPM_REGISTRY" sh /tmp/flower-source/install.sh /tmp/flower-source /opt/flower /usr/local/bin \
  && rm -rf /tmp/flower-source /root/.npm

# A non-root user owns the project mount; flowerbox runs as the host user on Linux (--user) instead.
RUN useradd --create-home --uid 10001 --user-group flower \
  && mkdir /project \
  && chown flower:flower /project
USER flower
# The container is thrown away after every run: updating inside it would only slow each start.
ENV FLOWER_NO_UPDATE=1
VOLUME /project
WORKDIR /project
ENTRYPOINT ["flower"]
CMD []
