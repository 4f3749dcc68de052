#!/usr/bin/env bash
# Installs mbs into a temporary prefix and builds a program outside the tree against it: with
# pkg-config (static: mbs; shared: mbs-shared) and with CMake's find_package (static and
# shared); each must run and print the right result; libmbs.so must carry its SONAME. Then the
# Cortex-M4F package: the C firmware cross-built by CMake with a toolchain file against it
# must pass its checks under QEMU.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$root/scripts/install.sh" "$tmp/prefix" >/dev/null
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)
minor=$(echo "$version" | cut -d. -f2)
readelf -d "$tmp/prefix/lib/libmbs.so.$version" | grep -c "SONAME.*\[libmbs.so.0.$minor\]" >/dev/null ||
  { echo "no SONAME libmbs.so.0.$minor"; readelf -d "$tmp/prefix/lib/libmbs.so.$version"; exit 1; }
cp "$root/scripts/install_check/app.c" "$root/scripts/install_check/CMakeLists.txt" "$tmp/"
cd "$tmp"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -O2 app.c $(pkg-config --cflags --libs --static mbs) -o app-static
# shellcheck disable=SC2046
cc -std=c11 -O2 app.c $(pkg-config --cflags --libs mbs-shared) -lm -o app-shared
./app-static
./app-shared
# ldd's output read whole (grep -q on a pipe may close it early: with pipefail, ldd's SIGPIPE
# would fail the check at random).
if ldd ./app-static | grep -c libmbs >/dev/null; then echo "app-static links libmbs.so"; exit 1; fi
ldd ./app-shared | grep -c "libmbs.so.0.$minor" >/dev/null || { echo "app-shared does not link libmbs.so"; exit 1; }
for shared in OFF ON; do
  cmake -S . -B "build-$shared" -DCMAKE_PREFIX_PATH="$tmp/prefix" -Dmbs_USE_SHARED=$shared >/dev/null
  cmake --build "build-$shared" >/dev/null
  "./build-$shared/app"
done
ldd ./build-ON/app | grep -c "libmbs.so.0.$minor" >/dev/null || { echo "the CMake shared build does not link libmbs.so"; exit 1; }
# A version the package does not meet is refused.
sed -i 's/find_package(mbs 0.1 REQUIRED)/find_package(mbs 0.2 REQUIRED)/' CMakeLists.txt
if cmake -S . -B build-wrong -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null 2>&1; then
  echo "find_package(mbs 0.2) accepted $version"; exit 1
fi
# The Cortex-M4F package and a firmware cross-built against it by CMake.
bash "$root/scripts/install.sh" "$tmp/m4f" thumbv7em-none-eabihf >/dev/null
cmake -S "$root/c_examples/firmware" -B "$tmp/fw" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi-cortex-m4f.cmake" \
  -DCMAKE_PREFIX_PATH="$tmp/m4f" >/dev/null
cmake --build "$tmp/fw" >/dev/null
timeout 120 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -nographic \
  -semihosting-config enable=on,target=native -kernel "$tmp/fw/fw.elf" >"$tmp/fw.log" 2>&1 ||
  { echo "the CMake-built firmware failed under QEMU:"; cat "$tmp/fw.log"; exit 1; }
grep -q "done failures=0" "$tmp/fw.log" || { cat "$tmp/fw.log"; exit 1; }
echo "install-check: pkg-config (static, shared), CMake (static, shared), CMake cross-built Cortex-M4F firmware ok"
