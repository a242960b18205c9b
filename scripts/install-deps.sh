#!/usr/bin/env bash
# Installs the system packages shiftrender builds and tests against, if any are
# missing (Debian/Ubuntu). Idempotent: a machine that has them all returns at once.
# chromium and chromium-driver: the studio's browser tests drive headless Chromium.
set -euo pipefail
packages=(pkg-config libpng-dev libdeflate-dev libjpeg62-turbo-dev libavcodec-dev libavformat-dev libavfilter-dev libavutil-dev libswscale-dev ffmpeg parallel
          libfreetype-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev libunibreak-dev fonts-inter fonts-noto-core
          chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "installing: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
