#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Mosaic; idempotent and fast when already done.
#   system libraries (apt) → pnpm → workspace dependencies → every package built → the faiss-node
#   addon built against Debian's libfaiss and the embedded word-vector ONNX model, by the same
#   code a user runs as `npx mosaic-offline-setup` (packages/offline-setup).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*"; }
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# chromium: the explorer's real-browser test (playwright-core drives Debian's build; no browser download)
apt_packages=(libfaiss-dev libopenblas-dev liblapack-dev libomp-dev g++ make python3 chromium fonts-liberation)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm 10 (corepack's signature check fails offline, so through npm)"
  npm install -g pnpm@10.34.9 >/dev/null
fi

log "installing workspace dependencies"
pnpm install --frozen-lockfile --reporter=append-only | grep -vE '^(Progress|Packages:|\+)' || true
test -d node_modules/.pnpm || { echo "[setup] pnpm install failed" >&2; exit 1; }

log "building packages"
pnpm build --output-logs=errors-only

log "building the faiss-node addon against libfaiss-dev and the embedded encoder model (mosaic-offline-setup)"
node packages/offline-setup/bin/mosaic-offline-setup.mjs --faiss-from packages/vector-index
log "done"
