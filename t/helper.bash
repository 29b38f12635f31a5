# t/helper.bash - loaded by every bats suite (load helper).
#
# make check sets top_srcdir, top_builddir, BROOK_CC, BROOK_CFLAGS,
# BROOK_LIBS and puts the five programs first on PATH. Running a suite by
# hand from the source tree (bats t/pp.bats) works after a build in ./ .
: "${top_srcdir:=$(cd "$BATS_TEST_DIRNAME/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BROOK_CC:=cc}"
: "${BROOK_CFLAGS:=-std=c99 -pedantic -Wall -Wextra -Werror -I$top_srcdir/lib/brt}"
: "${BROOK_LIBS:=$top_builddir/lib/brt/.libs/libbrt.a -lOpenCL -pthread -lm}"
case ":$PATH:" in
*":$top_builddir/cmd/brpp:"*) ;;
*) PATH="$top_builddir/cmd/brpp:$top_builddir/cmd/brparse:$top_builddir/cmd/brcheck:$top_builddir/cmd/brgen:$top_builddir/cmd/brrun:$PATH" ;;
esac
export PATH

# Golden-file comparison: diff_golden EXPECTED ACTUAL_FILE. Prints a diff
# and fails when they differ.
diff_golden() {
	if ! diff -u "$1" "$2"; then
		echo "golden file $1 differs from the output above" >&2
		return 1
	fi
}

# vectorized_in REPORT LO HI: gcc's -fopt-info-vec-optimized REPORT has a
# loop vectorized on a line L of the source, LO < L < HI.
vectorized_in() {
	grep 'loop vectorized' "$1" | cut -d: -f2 | while read -r l; do
		[ "$l" -gt "$2" ] && [ "$l" -lt "$3" ] && echo yes
	done | grep -q yes
}

# brook_build SRC.br OUT: the whole pipeline, as the README writes it,
# then the C compiler; leaves OUT (the program), OUT.c and OUT.h.
brook_build() {
	local src=$1 out=$2
	brpp "$src" | brparse | brcheck | brgen -o "$out" || return 1
	$BROOK_CC $BROOK_CFLAGS "$out.c" -o "$out" $BROOK_LIBS
}

# BROOK_VALGRIND=1 runs every program of the suite under valgrind
# (t/vgrun): the five tools through wrappers first on PATH, the programs
# a test builds through t/vgcc before BROOK_CC, and run_both's programs
# built otherwise. PoCL then compiles for the CPU that valgrind presents
# (haswell, avx2 kernel library) into one kernel cache, which a run with
# BROOK_VALGRIND=warm fills without valgrind, so that LLVM compiles
# nothing under valgrind. make check-valgrind does both; README.md, Testing.
case ${BROOK_VALGRIND-} in
1|warm)
	: "${POCL_CACHE_DIR:=$top_builddir/t/pocl-cache}"
	: "${POCL_LLVM_CPU_NAME:=haswell}" "${POCL_KERNELLIB_NAME:=avx2}"
	# hwloc's CPUID probe fails under valgrind and says so on stderr
	: "${HWLOC_COMPONENTS:=-x86}"
	export POCL_CACHE_DIR POCL_LLVM_CPU_NAME POCL_KERNELLIB_NAME \
		HWLOC_COMPONENTS ;;
esac
if [ "${BROOK_VALGRIND-}" = 1 ]; then
	case $BROOK_CC in "$top_srcdir/t/vgcc "*) ;;
	*) BROOK_CC="$top_srcdir/t/vgcc $BROOK_CC" ;;
	esac
	if [ ! -x "$BATS_RUN_TMPDIR/vgbin/brrun" ]; then
		mkdir -p "$BATS_RUN_TMPDIR/vgbin"
		for t in brpp brparse brcheck brgen brrun; do
			# brrun links libbrt.so: libtool's wrapper sets its path
			p=$top_builddir/cmd/$t/$t
			[ -f "$top_builddir/cmd/$t/.libs/$t" ] &&
				p=$top_builddir/cmd/$t/.libs/$t
			printf '#!/bin/sh\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "%s" "%s" "$@"\n' \
				"$top_builddir/lib/brt/.libs" "$top_srcdir/t/vgrun" \
				"$p" > "$BATS_RUN_TMPDIR/vgbin/$t"
			chmod +x "$BATS_RUN_TMPDIR/vgbin/$t"
		done
	fi
	case ":$PATH:" in
	*":$BATS_RUN_TMPDIR/vgbin:"*) ;;
	*) PATH=$BATS_RUN_TMPDIR/vgbin:$PATH ;;
	esac
fi

# vg_wrap PROG: what runs PROG under valgrind in a BROOK_VALGRIND=1 run,
# for a program that t/vgcc did not build (an ELF file, not its script).
vg_wrap() {
	[ "${BROOK_VALGRIND-}" = 1 ] && [ "$(head -c 4 "$1" 2>/dev/null)" = "$(printf '\177ELF')" ] &&
		echo "$top_srcdir/t/vgrun"
}

# rounds N: N, or 2 in a BROOK_VALGRIND=1 run, for tests that repeat a
# program to catch a race (a program under valgrind runs for seconds).
rounds() {
	if [ "${BROOK_VALGRIND-}" = 1 ]; then echo 2; else echo "$1"; fi
}

# run_both PROG [ARGS...]: runs PROG under BRT_RUNTIME=cpu and
# BRT_RUNTIME=opencl; fails unless both exit 0 with the same stdout, which
# is left in $output.
run_both() {
	local cpu ocl
	ocl=$(BRT_RUNTIME=opencl $(vg_wrap "$1") "$@") ||
		{ echo "opencl backend failed" >&2; return 1; }
	cpu=$(BRT_RUNTIME=cpu $(vg_wrap "$1") "$@") ||
		{ echo "cpu backend failed" >&2; return 1; }
	if [ "$cpu" != "$ocl" ]; then
		echo "outputs differ between backends:" >&2
		diff <(echo "$cpu") <(echo "$ocl") >&2
		return 1
	fi
	output=$cpu
}

# strace_or_skip: skips the test where strace is missing or cannot trace;
# else LeakSanitizer is off, as it cannot run under ptrace (a
# --enable-sanitizers build)
strace_or_skip() {
	command -v strace >/dev/null || skip "no strace (setup.sh installs it)"
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}
