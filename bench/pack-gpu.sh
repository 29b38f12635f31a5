#!/bin/sh
# pack-gpu.sh - builds bench/gpu-pack/: everything gpu.sh needs to run the
# suite on a GPU machine that has no compiler. The Brook programs (linked
# with libbrt statically), the hand-written OpenCL and plain C programs,
# libOpenCL.so.1 (the ICD loader), run.sh, report.awk, ratios.gp, gpu.sh.
#
#   bench/pack-gpu.sh [BUILDDIR]     (or: make bench-gpu-pack)
#
# BUILDDIR is a configured and built tree (default: the current folder);
# its tools compile the .br files and its lib/brt/.libs/libbrt.a is linked.
# The programs are built for any x86-64 with SSE4.2 (BENCH_CFLAGS, default
# -O3 -march=x86-64-v2), not for this machine's processor.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
b=$(cd "${1:-.}" && pwd)
pack=$here/gpu-pack
PATH=$b/cmd/brpp:$b/cmd/brparse:$b/cmd/brcheck:$b/cmd/brgen:$PATH
BRT_LIBS=${BRT_LIBS:-"$b/lib/brt/.libs/libbrt.a -ldl"}
BENCH_CFLAGS=${BENCH_CFLAGS:--O3 -march=x86-64-v2}
export PATH BRT_LIBS BENCH_CFLAGS
rm -rf "$pack"
mkdir -p "$pack"
"$here/build.sh" "$pack" || true
for f in "$pack"/*.log; do
	[ -s "$f" ] && [ ! -x "$pack/brook-$(basename "$f" .log)" ] &&
		echo "pack-gpu: $(basename "$f" .log) did not build" >&2
done
rm -f "$pack"/*.o "$pack"/*.log "$pack"/*.h "$pack"/*.c "$pack"/*.cl
lib=$( (ldconfig -p 2>/dev/null || true) |
	sed -n 's/.*libOpenCL\.so\.1 (libc6,x86-64) => //p' | head -n 1)
[ -n "$lib" ] || lib=/usr/lib/x86_64-linux-gnu/libOpenCL.so.1
cp -L "$lib" "$pack/libOpenCL.so.1"
# without their debug sections (libbrt.a's, mostly): 2.6 MB against 7
for f in "$pack"/brook-* "$pack"/bench-c "$pack"/bench-opencl; do
	[ -f "$f" ] && { strip --strip-debug "$f" 2>/dev/null || :; }
done
cp "$here/run.sh" "$here/report.awk" "$here/ratios.gp" "$here/gpu.sh" \
	"$pack/"
echo "pack-gpu: $pack ($(du -sh "$pack" | cut -f1)):"
ls "$pack"
