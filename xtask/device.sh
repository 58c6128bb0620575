#!/usr/bin/env bash
# The real-GPU measurements of the render work (issue 40's targets), prepared here and run
# there in one call of the `device` tool, so that its few minutes go to measuring.
#
# Here, in the repository's root:
#   xtask/device.sh bundle
# builds the release game and xtask, strips them into .device/ (ignored through
# .git/info/exclude) and downloads the Vulkan loader's packages into .device/gl (the device
# machine has the NVIDIA driver but no loader). Then, with the device tool:
#   run  carry [".device"]  command "bash xtask/device.sh measure"  timeout_s 540
# which unpacks the loader and writes, under $OUT, the GPU's name, the default town, the
# windmill rows against the floor, the city bench with and without mesh LOD, and the city
# in the game, each at 1920x1080 and not paced (`--fixed-dt`: a paced GPU clocks down).
# Read the ratios to the floor: these cards have few graphics units.
set -euo pipefail

bundle() {
    cargo build --release -p game -p xtask
    rm -rf .device
    mkdir -p .device/gl .git/info /tmp/amd64/partial
    cp target/release/game target/release/xtask .device/
    strip .device/game .device/xtask
    # The benches find the assets where they were built (`env!("CARGO_MANIFEST_DIR")`).
    pwd >.device/root
    grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >>.git/info/exclude
    local apt=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
    apt-get "${apt[@]}" update -qq
    (cd .device/gl && apt-get "${apt[@]}" download libvulkan1)
    du -sh .device
}

measure() {
    local out=${OUT:?"the device tool's output folder"}
    if ! ldconfig -p | grep -q libvulkan.so.1; then
        for deb in .device/gl/*.deb; do dpkg -x "$deb" /; done
        ldconfig
    fi
    # The benches' assets are where the binaries were built: that path leads here.
    local root
    root=$(cat .device/root)
    if [ ! -e "$root" ]; then
        mkdir -p "$(dirname "$root")"
        ln -s "$PWD" "$root"
    fi
    local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; fi
    nvidia-smi --query-gpu=name,driver_version,clocks.max.graphics --format=csv >"$out/gpu.txt" 2>&1 || true
    local size=(--width 1920 --height 1080)
    # Each step bounded, so that one hang leaves the others' results.
    timeout 60 .device/game --headless --size 1920x1080 --frames 300 --fixed-dt 0.0166 >"$out/town.txt" 2>&1 || true
    timeout 150 .device/xtask bench render --counts 10000,100000 "${size[@]}" --frames 10 \
        --morph-targets --shading-counts --light-counts --light-instances >"$out/windmills.txt" 2>&1 || true
    timeout 150 .device/xtask bench render --workload city "${size[@]}" --frames 10 >"$out/city.txt" 2>&1 || true
    timeout 90 .device/game --headless --windmills 100000 --cars 10000 --foxes 10000 --size 1920x1080 \
        --frames 120 --fixed-dt 0.0166 >"$out/city-game.txt" 2>&1 || true
    tail -n 3 "$out"/*.txt
}

case "${1:-}" in
    bundle) bundle ;;
    measure) measure ;;
    *)
        echo "usage: xtask/device.sh bundle | measure" >&2
        exit 2
        ;;
esac
