#!/usr/bin/env bash
# Installs the C library: `bash scripts/install.sh PREFIX [TARGET]` builds libmbs (release) and
# writes (for a bare-metal TARGET such as thumbv7em-none-eabihf: the header, libmbs.a and the
# CMake package, for a firmware's find_package with a cross toolchain file):
#   PREFIX/include/mbs/mbs.h
#   PREFIX/lib/libmbs.a, PREFIX/lib/libmbs.so.X.Y.Z (SONAME libmbs.so.0.Y while 0.x) + links
#   PREFIX/lib/pkgconfig/mbs.pc                  (pkg-config --cflags --libs --static mbs:
#                                                 libmbs.a, the safe default of a 0.x ABI)
#   PREFIX/lib/pkgconfig/mbs-shared.pc           (pkg-config --cflags --libs mbs-shared:
#                                                 libmbs.so, with an rpath to PREFIX/lib)
#   PREFIX/lib/cmake/mbs/mbsConfig.cmake, mbsConfigVersion.cmake
#                                                (find_package(mbs 0.1); target mbs::mbs)
# mbs.pc names the archive itself (with both libmbs.a and libmbs.so in one directory, `-lmbs`
# would link the shared one); --static adds the system libraries Rust's std needs.
set -euo pipefail
prefix=${1:?usage: scripts/install.sh PREFIX [TARGET]}
cross=${2:-}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -n "$cross" ]; then
  # (cargo says it drops the cdylib crate type on bare metal: expected, so quiet.)
  out=$(MBS_SKIP_CBINDGEN=1 cargo build --quiet --release -p mbs-ffi --target "$cross" 2>&1) || { echo "$out"; exit 1; }
else
  cargo build --quiet --release -p mbs-ffi
fi
target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
built="$target/release"
[ -z "$cross" ] || built="$target/$cross/release"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
IFS=. read -r major minor patch <<<"$version"
if [ "$major" = 0 ]; then soname="libmbs.so.0.$minor"; else soname="libmbs.so.$major"; fi
lib="$prefix/lib"
install -d "$prefix/include/mbs" "$lib/pkgconfig" "$lib/cmake/mbs"
install -m 644 include/mbs.h "$prefix/include/mbs/mbs.h"
install -m 644 "$built/libmbs.a" "$lib/libmbs.a"
if [ -z "$cross" ]; then
  install -m 755 "$built/libmbs.so" "$lib/libmbs.so.$version"
  ln -sf "libmbs.so.$version" "$lib/$soname"
  ln -sf "$soname" "$lib/libmbs.so"
fi
# What a static link of the Rust staticlib needs from the system (rustc --print
# native-static-libs for this target says the same).
private="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
cmake_libs="gcc_s;util;rt;pthread;m;dl"
# On bare metal the archive carries all it needs (compiler_builtins, no std).
[ -z "$cross" ] || { private=""; cmake_libs=""; }
cat >"$lib/pkgconfig/mbs.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: mbs
Description: Multibody dynamics for firmware and small hosts (C API)
Version: $version
Cflags: -I\${includedir}/mbs -I\${includedir}
Libs: \${libdir}/libmbs.a
Libs.private: $private
PC
cat >"$lib/pkgconfig/mbs-shared.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: mbs-shared
Description: Multibody dynamics for firmware and small hosts (C API, shared library)
Version: $version
Cflags: -I\${includedir}/mbs -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lmbs
PC
cat >"$lib/cmake/mbs/mbsConfig.cmake" <<CM
# mbs $version: imported targets mbs::static (libmbs.a), mbs::shared (libmbs.so) and mbs::mbs,
# the static one unless mbs_USE_SHARED is ON (static linking is the safe default of a 0.x ABI).
get_filename_component(_mbs_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET mbs::static)
  add_library(mbs::static STATIC IMPORTED)
  set_target_properties(mbs::static PROPERTIES
    IMPORTED_LOCATION "\${_mbs_prefix}/lib/libmbs.a"
    INTERFACE_INCLUDE_DIRECTORIES "\${_mbs_prefix}/include/mbs;\${_mbs_prefix}/include"
    INTERFACE_LINK_LIBRARIES "$cmake_libs")
  if(EXISTS "\${_mbs_prefix}/lib/libmbs.so.$version")
    add_library(mbs::shared SHARED IMPORTED)
    set_target_properties(mbs::shared PROPERTIES
      IMPORTED_LOCATION "\${_mbs_prefix}/lib/libmbs.so.$version"
      IMPORTED_SONAME "$soname"
      INTERFACE_INCLUDE_DIRECTORIES "\${_mbs_prefix}/include/mbs;\${_mbs_prefix}/include")
  endif()
  if(mbs_USE_SHARED)
    add_library(mbs::mbs INTERFACE IMPORTED)
    set_target_properties(mbs::mbs PROPERTIES INTERFACE_LINK_LIBRARIES mbs::shared)
  else()
    add_library(mbs::mbs INTERFACE IMPORTED)
    set_target_properties(mbs::mbs PROPERTIES INTERFACE_LINK_LIBRARIES mbs::static)
  endif()
endif()
unset(_mbs_prefix)
CM
cat >"$lib/cmake/mbs/mbsConfigVersion.cmake" <<CV
# mbs $version: while the major version is 0 a minor release may change the ABI, so a request
# is met by the same 0.minor with a patch at least the one asked for; from 1.0, by the same major.
set(PACKAGE_VERSION "$version")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(PACKAGE_FIND_VERSION VERSION_LESS_EQUAL PACKAGE_VERSION)
  if("$major" STREQUAL "0")
    if(PACKAGE_FIND_VERSION_MAJOR EQUAL 0 AND PACKAGE_FIND_VERSION_MINOR EQUAL $minor)
      set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
  elseif(PACKAGE_FIND_VERSION_MAJOR EQUAL $major)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
endif()
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
CV
# The shared library's pkg-config file only where there is one.
[ -z "$cross" ] || rm -f "$lib/pkgconfig/mbs-shared.pc"
echo "installed mbs $version${cross:+ for $cross} into $prefix"
