#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh machine (idempotent, quiet).
# Rust targets for the no_std builds (the Cortex-M cores of scripts/mcu-libs.sh) and for the
# hosted and RISC-V workloads (aarch64 Linux, WebAssembly, riscv32imafc); Debian's ARM cross compiler, newlib and QEMU for the
# firmware tests; valgrind for the memory check of a C example; a font for mbs-view's PNGs;
# Chromium for the page test.
set -euo pipefail
targets=(thumbv7em-none-eabihf thumbv6m-none-eabi thumbv7em-none-eabi thumbv7m-none-eabi thumbv8m.main-none-eabihf
  aarch64-unknown-linux-musl wasm32-wasip1 riscv32imafc-unknown-none-elf)
rustup target add "${targets[@]}" >/dev/null 2>&1 || rustup target add "${targets[@]}"
need=()
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi libnewlib-arm-none-eabi)
command -v qemu-system-arm >/dev/null 2>&1 || need+=(qemu-system-arm)
# QEMU's user mode for the aarch64 Linux build of the workloads (tests/firmware_qemu.rs).
command -v qemu-aarch64 >/dev/null 2>&1 || need+=(qemu-user)
# QEMU's RISC-V machines for the riscv32imafc build of the workloads.
command -v qemu-system-riscv32 >/dev/null 2>&1 || need+=(qemu-system-misc)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
# The install check: a CMake project and pkg-config against the installed library.
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# A font for the text in mbs-view's PNGs (without one the shapes are drawn, the text is not).
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# Headless Chromium for the test of mbs-view's page (scripts/page-test.sh).
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
