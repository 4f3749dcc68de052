#!/usr/bin/env bash
# Measures the embedded figures of docs/embedded.md and prints them as Markdown tables:
#   1. flash bytes of mbs code in the linked C firmwares (from the linker map: the input
#      sections that come from libmbs.a): fw.elf (main.c, the whole C API) and loop.elf
#      (loop.c, the lean control loop the 16 KiB budget is measured on); and of the Rust firmware;
#   2. stack high-water mark of one step (stack painting in both firmwares);
#   3. RAM of the state types (size_of on the target, printed by the Rust firmware);
#   4. instructions per step, f32 and f64 (QEMU exec log, one instruction per translation
#      block, counted between the marker functions mbs_count_begin/mbs_count_end);
#   5. the FPU check: every f32 step on the Cortex-M4F executes VFP arithmetic (the executed
#      instructions are looked up in the disassembly) and calls no soft-float routine; the
#      script exits 1 if not.
#
#   bash scripts/embedded-figures.sh            # everything, both targets
#   KEEP_LOGS=1 bash scripts/embedded-figures.sh  # keep the exec logs in target/firmware/logs
#
# Needs scripts/setup.sh's tools. Builds into target/firmware (like tests/firmware_qemu.rs),
# with the `dist` profile (one codegen unit, fat LTO: how libmbs.a ships); PROFILE=release
# measures the test builds instead.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FW=$ROOT/target/firmware
LOGS=$FW/logs
M4F=thumbv7em-none-eabihf
M0=thumbv6m-none-eabi
PROFILE=${PROFILE:-dist}
export CARGO_TARGET_DIR=$FW MBS_SKIP_CBINDGEN=1
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS MAKEFLAGS MFLAGS
mkdir -p "$LOGS"

quiet() { # runs "$@", shows its output only if it fails
  local out
  if ! out=$("$@" 2>&1); then
    echo "FAILED: $*" >&2
    echo "$out" >&2
    exit 1
  fi
}

# ---- build ---------------------------------------------------------------------------
quiet cargo build --quiet --profile "$PROFILE" -p mbs-ffi --target $M4F --target $M0
(cd firmware/rust && quiet cargo build --quiet --profile "$PROFILE" --locked --target $M4F --target $M0)
for t in $M4F $M0; do quiet make -s -C c_examples/firmware TARGET=$t PROFILE="$PROFILE"; done

suffix=""; [ "$PROFILE" = release ] || suffix="-$PROFILE"
rust_elf() { echo "$FW/$1/$PROFILE/mbs-firmware"; }
c_elf() { echo "$FW/c-$1$suffix/fw.elf"; }
loop_elf() { echo "$FW/c-$1$suffix/loop.elf"; }
machine() { if [ "$1" = $M4F ]; then echo "-M mps2-an386 -cpu cortex-m4"; else echo "-M microbit"; fi; }
qemu_major=$(qemu-system-arm --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)
if [ "${qemu_major:-0}" -ge 8 ]; then ONE_INSN="-accel tcg,one-insn-per-tb=on"; else ONE_INSN="-singlestep"; fi

run() { # target elf [mode] -> the firmware's output
  local semi="enable=on,target=native"
  [ -n "${3:-}" ] && semi="$semi,arg=$3"
  # shellcheck disable=SC2046
  timeout 60 qemu-system-arm $(machine "$1") -nographic -semihosting-config "$semi" -kernel "$2" 2>&1
}

# A hex-to-number function for awks without gawk's strtonum (Debian's default is mawk).
AWK_HEX='function hex(s,  i, n) { s = tolower(s); sub(/^0x/, "", s); n = 0
  for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return n }'

# ---- 1. flash --------------------------------------------------------------------------
# Sums the flash-resident input sections (.text, .rodata in .text, .ARM.exidx, .data's load
# image) of the linker map by the object they come from.
map_flash() { # map file -> "mbs <bytes> builtins <bytes> other <bytes> total <bytes>"
  awk "$AWK_HEX"'
    /^Linker script and memory map/ { on = 1; next }
    !on { next }
    /^\.[A-Za-z_]/ { out = $1; pending = ""; next }
    function add(size, file) {
      if (out != ".text" && out != ".ARM.exidx" && out != ".data") return
      s = hex(size)
      if (file ~ /libmbs\.a\(/) { if (file ~ /compiler_builtins/) b += s; else m += s }
      else o += s
    }
    /^ [^ ]/ && NF == 1 { pending = $1; next }
    /^ [^ ]/ && NF >= 4 && $2 ~ /^0x/ && $3 ~ /^0x/ { add($3, $4); pending = ""; next }
    /^  +0x/ && NF == 3 && pending != "" && $1 ~ /^0x/ && $2 ~ /^0x/ { add($2, $3); pending = ""; next }
    END { printf "mbs %d builtins %d other %d total %d\n", m, b, o, m + b + o }
  ' "$1"
}

echo "## Flash"
echo
echo "| firmware | target | mbs code (libmbs.a: mbs) | libmbs.a: compiler_builtins | rest of firmware | whole image (text+data) |"
echo "|---|---|---|---|---|---|"
for t in $M4F $M0; do
  read -r _ m _ b _ o _ tot <<<"$(map_flash "$FW/c-$t$suffix/fw.map")"
  echo "| C (c_examples/firmware) | $t | $m | $b | $o | $tot |"
  read -r _ m _ b _ o _ tot <<<"$(map_flash "$FW/c-$t$suffix/loop.map")"
  echo "| C lean (loop.c) | $t | $m | $b | $o | $tot |"
done
for t in $M4F $M0; do
  read -r text data _ <<<"$(arm-none-eabi-size -B "$(rust_elf $t)" | awk 'NR == 2 { print $1, $2 }')"
  echo "| Rust (firmware/rust, with core::fmt for printing) | $t | - | - | - | $((text + data)) |"
done
echo
echo "Largest symbols of libmbs.a in the C firmware ($M4F, bytes; Rust symbols and the mbs_* C API):"
echo
echo '```'
arm-none-eabi-nm --size-sort -S -C "$(c_elf $M4F)" | awk "$AWK_HEX"'{ n = $4; for (i = 5; i <= NF; i++) n = n " " $i
    if ((n ~ /::/ || n ~ /^mbs_/) && n !~ /^mbs_count_/) print hex($2), $3, n }' | sort -rn | sed -n 1,15p # sed reads to the end: no SIGPIPE under pipefail
echo '```'
echo
echo "Largest symbols of libmbs.a in the lean C firmware ($M4F, bytes):"
echo
echo '```'
arm-none-eabi-nm --size-sort -S -C "$(loop_elf $M4F)" | awk "$AWK_HEX"'{ n = $4; for (i = 5; i <= NF; i++) n = n " " $i
    if ((n ~ /::/ || n ~ /^mbs_/) && n !~ /^mbs_count_/) print hex($2), $3, n }' | sort -rn | sed -n 1,25p
echo '```'

# ---- 2, 3. stack and RAM ---------------------------------------------------------------
echo
echo "## Stack (bytes, stack painting; one step = the call and everything below it)"
echo
echo "| firmware | target | what | bytes |"
echo "|---|---|---|---|"
for t in $M4F $M0; do
  for kind in rust c c-lean; do
    case $kind in rust) elf=$(rust_elf $t) ;; c) elf=$(c_elf $t) ;; *) elf=$(loop_elf $t) ;; esac
    run $t "$elf" | awk -v k=$kind -v t=$t '$1 == "stack" {
      what = ""; ty = ""; bytes = ""
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "what") what = kv[2];
        else if (kv[1] == "type") ty = " " kv[2]; else if (kv[1] == "bytes") bytes = kv[2] }
      printf "| %s | %s | %s%s | %s |\n", k, t, what, ty, bytes }'
  done
done
echo
echo "## RAM (bytes, size_of on the target)"
echo
echo "| target | type | scalar | bytes |"
echo "|---|---|---|---|"
for t in $M4F $M0; do
  run $t "$(rust_elf $t)" | awk -v t=$t '$1 == "ram" {
    for (i = 2; i <= NF; i++) { split($i, kv, "=");
      if (kv[1] == "what") what = kv[2]; else if (kv[1] == "type") ty = kv[2];
      else if (kv[1] == "bytes") printf "| %s | %s | %s | %s |\n", t, what, ty, kv[2] } }'
done

# ---- 4, 5. instructions and the FPU check ----------------------------------------------
# The firmware's count mode prints "count order=empty,NAME,..." and runs one call per name
# between the markers. A region is counted from the first instruction of mbs_count_begin to
# the first of mbs_count_end; the empty region (the markers' own cost) is subtracted.
count_regions() { # target elf tag -> "name instructions vfp softfloat-calls vfp-histogram functions..."
  local t=$1 elf=$2 tag=$3 log=$LOGS/$3.log dis=$LOGS/$3.dis order b e
  order=$(timeout 60 qemu-system-arm $(machine "$t") -nographic \
    -semihosting-config enable=on,target=native,arg=count $ONE_INSN -d exec,nochain -D "$log" \
    -kernel "$elf" 2>&1 | sed -n 's/^count order=//p')
  b=$(arm-none-eabi-nm "$elf" | awk '$3 == "mbs_count_begin" { print $1 }')
  e=$(arm-none-eabi-nm "$elf" | awk '$3 == "mbs_count_end" { print $1 }')
  arm-none-eabi-objdump -d --no-show-raw-insn "$elf" |
    awk '/^ +[0-9a-f]+:\t/ { a = $1; sub(":", "", a); print substr("00000000" a, length(a) + 1), $2 }' >"$dis"
  # Addresses are compared as strings with an "x" prefix: awk would read "0000e800" as the
  # number 0e800 = 0.
  awk -v b="x$b" -v e="x$e" -v order="$order" '
    FNR == NR { mn["x" $1] = $2; next }
    /^Trace/ {
      split($4, a, "/"); pc = "x" a[2]
      if (pc == b && !on) { on = 1; r++; n[r] = 0; v[r] = 0; sf[r] = 0 }
      else if (pc == e && on) { on = 0 }
      if (on) {
        n[r]++
        if (mn[pc] ~ /^v/ && mn[pc] !~ /^(vpush|vpop|vldr|vstr|vmov|vldm|vstm|vmrs|vmsr)/) {
          v[r]++; if (!((r, mn[pc]) in hv)) ml[r] = ml[r] " " mn[pc]; hv[r, mn[pc]]++ }
        f = $5
        if (!(r SUBSEP f in seen)) { seen[r, f] = 1; fl[r] = fl[r] " " f
          if (f ~ /(__aeabi_[fd]|__[a-z]+([sd]f[23]|[sd]f[sd]i|[sd]i[sd]f))/) sf[r]++ }
      }
    }
    END {
      k = split(order, names, ",")
      for (i = 2; i <= k; i++) {
        m = split(ml[i], ms, " "); hist = ""
        for (j = 1; j <= m; j++) hist = hist (j > 1 ? "," : "") ms[j] "x" hv[i, ms[j]]
        printf "%s %d %d %d %s%s\n", names[i], n[i] - n[1], v[i], sf[i], (hist == "" ? "-" : hist), fl[i]
      }
    }' "$dis" "$log"
  [ -n "${KEEP_LOGS:-}" ] || rm -f "$log" "$dis"
}

echo
echo "## Instructions per step (QEMU exec log, one instruction per TB; markers subtracted)"
echo
echo "| firmware | target | step | instructions | VFP arithmetic instructions | soft-float routines called (distinct) | VFP mnemonics executed |"
echo "|---|---|---|---|---|---|---|"
fpu_fail=0
f32_steps=0
for t in $M4F $M0; do
  for kind in rust c c-lean; do
    case $kind in rust) elf=$(rust_elf $t) ;; c) elf=$(c_elf $t) ;; *) elf=$(loop_elf $t) ;; esac
    while read -r name insns vfp soft hist funcs; do
      echo "| $kind | $t | $name | $insns | $vfp | $soft | ${hist//,/ } |"
      if [ $t = $M4F ] && [[ $name == *f32* ]]; then
        f32_steps=$((f32_steps + 1))
        if [ "$vfp" -eq 0 ] || [ "$soft" -ne 0 ]; then
          fpu_fail=1
          echo "FPU CHECK FAILED for $kind $name: $vfp VFP instructions, soft-float calls in:$funcs" >&2
        fi
      fi
    done < <(count_regions $t "$elf" "$kind-$t")
  done
done
echo
if [ $f32_steps = 0 ]; then
  fpu_fail=1
  echo "FPU CHECK FAILED: no f32 step was counted on $M4F" >&2
fi
if [ $fpu_fail = 0 ]; then
  echo "FPU check ($M4F): every f32 step executes VFP arithmetic and calls no soft-float routine."
else
  echo "FPU check ($M4F): FAILED (see stderr)."
fi
exit $fpu_fail
