#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Mosaic; idempotent and fast when already done.
#   system libraries (apt) → pnpm → workspace dependencies → every package built → the faiss-node
#   addon built against Debian's libfaiss and the embedded word-vector ONNX model, by the same
#   code a user runs as `npx mosaic-offline-setup` (packages/offline-setup).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

started=$SECONDS
elapsed() { printf '%d:%02d' $(( (SECONDS - started) / 60 )) $(( (SECONDS - started) % 60 )); }
log() { printf '[setup %s] %s\n' "$(elapsed)" "$*"; }
# step NAME COMMAND…: names the step, runs it, says every 10 s that it is still running, and how long it took.
step() {
  local name=$1; shift
  local step_start=$SECONDS
  log "$name …"
  ( while sleep 10; do log "  … still $name ($(( SECONDS - step_start )) s)"; done ) &
  local ticker=$!
  local status=0
  "$@" || status=$?
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then log "$name failed (exit $status)"; return "$status"; fi
  log "$name: done in $(( SECONDS - step_start )) s"
}
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# chromium: the explorer's real-browser test (playwright-core drives Debian's build; no browser download)
apt_packages=(libfaiss-dev libopenblas-dev liblapack-dev libomp-dev g++ make python3 chromium fonts-liberation)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  step "updating Debian's package lists" $SUDO apt-get update -qq
  step "installing system packages (${missing[*]})" env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v pnpm >/dev/null 2>&1; then
  step "installing pnpm 10 through npm (corepack's signature check fails offline)" npm install -g pnpm@10.34.9 >/dev/null
fi

install_workspace() { pnpm install --frozen-lockfile --reporter=append-only | grep -vE '^(Progress|Packages:|\+)' || true; }
step "installing workspace dependencies (pnpm)" install_workspace
test -d node_modules/.pnpm || { log "pnpm install failed" >&2; exit 1; }

# hash-only: one line per package as turbo starts (or restores from cache) its build
step "building every package (turbo; about 3 minutes on a first run, seconds when cached)" pnpm build --output-logs=hash-only
# pnpm links a workspace bin only when its file exists: link `mosaic` (apps/demo → dist/cli.js) now that it is built
link_bins() { pnpm install --frozen-lockfile --offline --reporter=silent; }
[ -x node_modules/.bin/mosaic ] || step "linking the mosaic command" link_bins

step "building the faiss-node addon against libfaiss-dev and the embedded encoder model (mosaic-offline-setup)" \
  node packages/offline-setup/bin/mosaic-offline-setup.mjs --faiss-from packages/vector-index
log "done"

