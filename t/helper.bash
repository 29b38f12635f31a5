# t/helper.bash - loaded by every bats suite (load helper).
#
# make check sets top_srcdir, top_builddir, BROOK_CC, BROOK_CFLAGS,
# BROOK_LIBS and puts the five programs first on PATH. Running a suite by
# hand from the source tree (bats t/pp.bats) works after a build in ./ .
: "${top_srcdir:=$(cd "$BATS_TEST_DIRNAME/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BROOK_CC:=cc}"
: "${BROOK_CFLAGS:=-std=c99 -Wall -Wextra -Werror -I$top_srcdir/lib/brt}"
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

# brook_build SRC.br OUT: the whole pipeline, as the README writes it,
# then the C compiler; leaves OUT (the program), OUT.c and OUT.h.
brook_build() {
	local src=$1 out=$2
	brpp "$src" | brparse | brcheck | brgen -o "$out" || return 1
	$BROOK_CC $BROOK_CFLAGS "$out.c" -o "$out" $BROOK_LIBS
}

# BROOK_VALGRIND=1 runs the programs of run_both under valgrind on both
# backends, BROOK_VALGRIND=cpu on the CPU backend only (PoCL compiles with
# LLVM, for minutes under valgrind). An error or a definite leak exits 86,
# as a sanitizer report does; t/valgrind.supp holds what lies outside the
# project (the loader, PoCL, LLVM). README.md, Testing.
vg_wrap() {
	case "${BROOK_VALGRIND-}:$1" in
	1:*|cpu:cpu)
		echo valgrind -q --error-exitcode=86 --leak-check=full \
			--errors-for-leak-kinds=definite \
			"--suppressions=$top_srcdir/t/valgrind.supp" ;;
	esac
}

# run_both PROG [ARGS...]: runs PROG under BRT_RUNTIME=cpu and
# BRT_RUNTIME=opencl; fails unless both exit 0 with the same stdout, which
# is left in $output.
run_both() {
	local cpu ocl
	# OpenCL first: its compiled programs are then in the cache when
	# the CPU run lists the OpenCL devices too (under valgrind, PoCL's
	# LLVM compile takes minutes)
	ocl=$(BRT_RUNTIME=opencl $(vg_wrap opencl) "$@") ||
		{ echo "opencl backend failed" >&2; return 1; }
	cpu=$(BRT_RUNTIME=cpu $(vg_wrap cpu) "$@") ||
		{ echo "cpu backend failed" >&2; return 1; }
	if [ "$cpu" != "$ocl" ]; then
		echo "outputs differ between backends:" >&2
		diff <(echo "$cpu") <(echo "$ocl") >&2
		return 1
	fi
	output=$cpu
}
