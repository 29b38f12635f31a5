#!/bin/sh
# build.sh - builds the three versions of every benchmark case into DIR:
#   DIR/bench-c        the plain C versions (all cases, pthreads)
#   DIR/bench-opencl   the hand-written OpenCL versions (all cases)
#   DIR/brook-CASE     each bench/br/CASE.br through brpp | brparse |
#                      brcheck | brgen, linked with libbrt
#
#   bench/build.sh DIR
#
# Environment:
#   BROOK_TOOLS   folder of brpp, brparse, brcheck, brgen (else the PATH)
#   BRT_LIBS      how to link libbrt (default: -lbrt)
#   BRT_CFLAGS    where brt.h is (default: -I<srcdir>/lib/brt)
#   CC            the C compiler (default cc)
#   BENCH_CFLAGS  flags of every benchmark program, generated ones
#                 included (default -O3 -march=native)
#   OPENCL_LIBS   (default -lOpenCL)
#   BRGEN_FLAGS   brgen's options (default --fast-math: the hand-written
#                 kernels are compiled with contraction on, OpenCL C's
#                 default, and call OpenCL's rsqrt, so the Brook ones
#                 are and do too)
# A case whose .br does not build yet is reported in DIR/CASE.log and
# skipped; the rest still build. Exit status: 0 when the C and OpenCL
# versions built, 1 otherwise.
set -u
dir=${1:?usage: build.sh DIR}
src=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$src")
CC=${CC:-cc}
cflags="-std=c99 -D_POSIX_C_SOURCE=200809L ${BENCH_CFLAGS:--O3 -march=native}"
ocl=${OPENCL_LIBS:--lOpenCL}
brt_cflags=${BRT_CFLAGS:--I$top/lib/brt}
brt_libs=${BRT_LIBS:--lbrt}
tools=${BROOK_TOOLS:+$BROOK_TOOLS/}
brgen_flags=${BRGEN_FLAGS---fast-math}
mkdir -p "$dir"
status=0

echo "== bench: building into $dir ($CC $cflags)"
"$src/cl2h.sh" bench_kernels_cl <"$src/kernels.cl" >"$dir/kernels.cl.h"
for f in bench ref par brook_device; do
	# shellcheck disable=SC2086
	$CC $cflags $brt_cflags -I"$src" -c "$src/$f.c" -o "$dir/$f.o" ||
		status=1
done
# shellcheck disable=SC2086
$CC $cflags -I"$src" "$src/cpu.c" "$dir/bench.o" "$dir/ref.o" "$dir/par.o" \
	-pthread -lm -o "$dir/bench-c" || status=1
# shellcheck disable=SC2086
$CC $cflags -I"$src" -I"$dir" "$src/ocl.c" "$dir/bench.o" "$dir/ref.o" \
	$ocl -lm -o "$dir/bench-opencl" || status=1

for br in "$src"/br/*.br; do
	name=$(basename "$br" .br)
	log="$dir/$name.log"
	rm -f "$dir/brook-$name"
	# the pipeline as a user runs it; brcheck's warnings go to the log
	if "${tools}brpp" "$br" | "${tools}brparse" | "${tools}brcheck" |
		# shellcheck disable=SC2086
		"${tools}brgen" $brgen_flags -o "$dir/$name" >"$log" 2>&1 &&
		# shellcheck disable=SC2086
		$CC $cflags $brt_cflags -I"$src" "$dir/$name.c" \
			"$dir/bench.o" "$dir/ref.o" "$dir/brook_device.o" \
			$brt_libs $ocl -pthread -lm -o "$dir/brook-$name" \
			>>"$log" 2>&1; then
		echo "   brook-$name"
	else
		echo "   brook-$name: not built, see $log" >&2
	fi
done
exit $status
