#!/usr/bin/env bash
# The service as self-hosters run it: builds the image from the project's Dockerfile with podman and checks it
# (scripts/container-checks.mjs): /readyz, a test-mode payment paid and read back, the same volume after a restart,
# a non-root process, the admin CLI inside it, SIGTERM during a webhook burst to a real receiver on this host, and two
# containers at once on this host's PostgreSQL. compose.yaml is validated with docker-compose config.
#
# This machine reaches no image registry, so local stand-ins of the official base images are built first
# (scripts/container-standin.sh) and cached per machine. Runs as root in CI (CI=true, no stdin); installs podman
# and friends from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

tools=(podman buildah runc podman-compose docker-compose debootstrap newuidmap slirp4netns fuse-overlayfs)
missing=()
for t in "${tools[@]}"; do command -v "$t" >/dev/null || missing+=("$t"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "container-test: missing ${missing[*]}; as root: apt-get install podman buildah runc podman-compose docker-compose debootstrap uidmap slirp4netns fuse-overlayfs" >&2
    exit 1
  fi
  echo "== installing podman and its tools (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc podman-compose docker-compose debootstrap \
    uidmap slirp4netns fuse-overlayfs >/dev/null
fi

# This kernel runs cgroups in hybrid mode: crun and podman's default ulimits fail there, runc and these work.
cache="${CONTAINER_TEST_CACHE:-/var/cache/crypto-payments-container-test}"
mkdir -p "$cache"
cat >"$cache/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$cache/containers.conf"

echo "== stand-in base images"
bash scripts/container-standin.sh

# Debian's podman-compose (1.0.3) has no `config`; Debian's docker-compose validates against the Compose schema and
# needs no daemon for it.
echo "== compose.yaml (docker-compose config)"
cfg="$(mktemp -d)"
trap 'rm -rf "$cfg"' EXIT
cp compose.yaml "$cfg/compose.yaml"
cp .env.example "$cfg/.env"
echo "POSTGRES_PASSWORD=container-test" >>"$cfg/.env"
echo "SECRETS_KEY=$(head -c 32 /dev/urandom | base64)" >>"$cfg/.env"
(cd "$cfg" && docker-compose -f compose.yaml config >"$cfg/out.yaml" 2>"$cfg/err.txt") ||
  { cat "$cfg/err.txt" >&2; exit 1; }
grep -q 'condition: service_healthy' "$cfg/out.yaml" || { echo "compose: the service must wait for PostgreSQL's health" >&2; exit 1; }

echo "== image build (podman, the project's Dockerfile)"
build_started=$(date +%s)
podman build --network host --format docker -q -t localhost/crypto-payments:test . >/dev/null
echo "image built in $(($(date +%s) - build_started)) s"

echo "== checks"
node scripts/container-checks.mjs localhost/crypto-payments:test
echo "container-test: done in $(($(date +%s) - started)) s"
