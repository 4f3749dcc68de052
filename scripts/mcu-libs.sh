#!/usr/bin/env bash
# Builds libmbs.a for the Cortex-M cores users pick and links a C program against each with the
# vendor flags of that core (arm-none-eabi-gcc, newlib's nosys specs): a library of the wrong
# float ABI fails here, as it would in a firmware build ("uses VFP register arguments").
#
#   bash scripts/mcu-libs.sh [TARGET...]     # default: all of the table below
#
# Prints one line per target: the archive, its size, and the size of the code the program
# links from it (what a firmware pays, far less than the archive).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# Rust target | the arm-none-eabi-gcc flags of the cores that link it
declare -A FLAGS=(
  [thumbv6m-none-eabi]="-mcpu=cortex-m0plus -mthumb -mfloat-abi=soft"
  [thumbv7m-none-eabi]="-mcpu=cortex-m3 -mthumb -mfloat-abi=soft"
  [thumbv7em-none-eabi]="-mcpu=cortex-m4 -mthumb -mfloat-abi=soft"
  [thumbv7em-none-eabihf]="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
  [thumbv8m.main-none-eabihf]="-mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard"
)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabi thumbv7em-none-eabihf thumbv8m.main-none-eabihf)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "${targets[@]}"; do
  flags=${FLAGS[$t]:?unknown target $t}
  rustup target list --installed | grep -qx "$t" || rustup target add "$t" >/dev/null 2>&1
  # (cargo says it drops the cdylib crate type on bare metal: expected.)
  cargo build --quiet --release -p mbs-ffi --target "$t" 2>"$tmp/cargo.log" || { cat "$tmp/cargo.log"; exit 1; }
  lib="target/$t/release/libmbs.a"
  # shellcheck disable=SC2086
  arm-none-eabi-gcc $flags -O2 -std=c11 -Iinclude scripts/install_check/app.c "$lib" \
    --specs=nosys.specs -Wl,--gc-sections -ffunction-sections -fdata-sections -lm \
    -Wl,-Map="$tmp/$t.map" -o "$tmp/$t.elf" 2>"$tmp/ld.log" || { cat "$tmp/ld.log"; exit 1; }
  # Bytes of code and read-only data the program took from libmbs.a (from the link map).
  linked=$(python3 - "$tmp/$t.map" <<'PY'
import re, sys
total, pending, kept = 0, False, False
for line in open(sys.argv[1]):
    # Only what the link kept (the map lists the discarded sections first).
    kept = kept or line.startswith("Linker script and memory map")
    if not kept:
        continue
    m = re.match(r"^ \.(text|rodata)\S*\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s+(\S+)", line)
    if m:
        total += int(m.group(2), 16) if "libmbs.a" in m.group(3) else 0
        pending = False
        continue
    if re.match(r"^ \.(text|rodata)\S*\s*$", line):
        pending = True
        continue
    m = re.match(r"^\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s+(\S+)", line)
    if pending and m and "libmbs.a" in m.group(2):
        total += int(m.group(1), 16)
    pending = False
print(total)
PY
)
  printf '%-26s %-34s archive %9d B, linked from it %7d B (%s)\n' "$t" "$lib" "$(stat -c %s "$lib")" "$linked" "$flags"
done
# The mismatch a vendor project meets: the hard-float library in a soft-float link must fail.
if [ -e target/thumbv7em-none-eabihf/release/libmbs.a ]; then
  if arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -O2 -std=c11 -Iinclude \
    scripts/install_check/app.c target/thumbv7em-none-eabihf/release/libmbs.a --specs=nosys.specs \
    -lm -o "$tmp/mismatch.elf" 2>"$tmp/mismatch.log"; then
    echo "a soft-float link of the hard-float libmbs.a was accepted"
    exit 1
  fi
  grep -q "VFP register arguments" "$tmp/mismatch.log" ||
    { echo "the float-ABI mismatch failed for another reason:"; cat "$tmp/mismatch.log"; exit 1; }
  echo "float-ABI mismatch refused by the linker: $(grep -m1 -o 'uses VFP register arguments.*' "$tmp/mismatch.log")"
fi
