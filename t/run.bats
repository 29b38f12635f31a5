#!/usr/bin/env bats
# t/run.bats - Brook+ programs compiled by the whole pipeline and run under
# both backends: t/run/NAME.br prints t/run/NAME.out under BRT_RUNTIME=cpu
# and BRT_RUNTIME=opencl alike.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# run_program NAME: build t/run/NAME.br, run it on both backends, compare
# with the golden output.
run_program() {
	brook_build "$top_srcdir/t/run/$1.br" "$1"
	run_both "./$1"
	printf '%s\n' "$output" > "$1.actual"
	diff_golden "$top_srcdir/t/run/$1.out" "$1.actual"
}

@test "guide 1.2.1: sum of two 10x10 streams" { run_program sum; }
@test "spec 3.3.2: implicit downscale 10 -> 5" { run_program copy_down; }
@test "spec 3.3.2: implicit upscale 5 -> 10" { run_program copy_up; }
@test "spec 4.1.1: mad with a scalar, 1D and 2D" { run_program mad; }
