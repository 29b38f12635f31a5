#!/usr/bin/env bats
# t/run.bats - Brook+ programs compiled by the whole pipeline and run under
# both backends: t/run/NAME.br prints t/run/NAME.out under BRT_RUNTIME=cpu
# and BRT_RUNTIME=opencl alike.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# run_source SRC.br NAME: build SRC.br, run it on both backends, compare
# with the golden output t/run/NAME.out.
run_source() {
	brook_build "$1" "$2"
	run_both "./$2"
	printf '%s\n' "$output" > "$2.actual"
	diff_golden "$top_srcdir/t/run/$2.out" "$2.actual"
}

# run_program NAME: t/run/NAME.br
run_program() { run_source "$top_srcdir/t/run/$1.br" "$1"; }

@test "guide 1.2.1: sum of two 10x10 streams" { run_program sum; }
@test "spec 3.3.2: implicit downscale 10 -> 5" { run_program copy_down; }
@test "spec 3.3.2: implicit upscale 5 -> 10" { run_program copy_up; }
@test "spec 4.1.1: mad with a scalar, 1D and 2D" { run_program mad; }
@test "spec 2, 6.3.4-5: vector operators, swizzles, constructors" { run_program vectors; }
@test "spec 6.1.1: every element type, guide 1.11: char and short" { run_program types; }
@test "spec 5: built-in functions with Brook's definitions" { run_program builtins; }
@test "spec 5: min, max and clamp of char, uchar, short and ushort vectors, through ints in OpenCL C (a char2 maximum NVIDIA's compiler got wrong)" {
	run_program narrow_minmax
	brpp "$top_srcdir/t/run/narrow_minmax.br" | brparse | brcheck | brgen -k -o k
	grep -qxF 'char brg_f_max_char(char a, char b) { const int x = a, y = b; return (char)(y > x ? y : x); }' k.cl
	grep -qxF 'uchar brg_f_clamp_uchar(uchar a, uchar b, uchar c) { const int x = a, y = b, z = c; return (uchar)(x < y ? y : (x > z ? z : x)); }' k.cl
	grep -qxF 'short brg_f_min_short(short a, short b) { const int x = a, y = b; return (short)(y < x ? y : x); }' k.cl
	# the C keeps the plain form
	grep -qF 'brg_f_max_char(signed char a, signed char b) { return b > a ? b : a; }' k.c
}
@test "an index with a side effect in the target of x op= y, ++, -- or an out argument runs once, through the helpers of integer division and CPU vectors too" {
	run_program index_effects
	# brrun's interpreter gives the same
	run brrun --backend cpu "$top_srcdir/t/run/index_effects.br" f a=[2,3] k=2 n x
	[ "$status" = 0 ]
	[ "$output" = "$(printf 'n:\n419,137,211,11111 419,137,211,11111\nx:\n2,5,41,31 3,11,61,41')" ]
}
@test "indexof and instance() on 1 to 4 dimensional streams" { run_program indexof; }
@test "spec 4.2: gathers 1-3D, C-style and vector indexing, clamped" { run_program gather; }
@test "issue 10: gathers by a for loop's counter, inside and past the ends" { run_program gather_loop; }
@test "issue 10: gathers through a float index stepped in a loop, past 2^24" { run_program gather_float; }
@test "a gather longer than 2^24 through a float index stepped past 2^24 (BRG_D24): the launch in 64-bit code, one over a shorter gather in 32-bit code, the same as C's float steps" {
	run_program gather_big
	# the extent's test: BRG_D24 in the OpenCL C, 1 in its 32-bit variant;
	# the CPU's 32-bit instance leaves it out
	brpp "$top_srcdir/t/run/gather_big.br" | brparse | brcheck |
		brgen --target=opencl > gb.cl
	grep -qxF '#define BRG_D24(d) 1' gb.cl
	grep -qxF '#define BRG_D24(d) ((d) <= 16777216)' gb.cl
	[ "$(grep -c 'BRG_D24(t_v.dims\[0\])' gb.cl)" -eq 2 ]
	[ "$(grep -v '^	"' gather_big.c | grep -c 't_v.dims\[0\] <= 16777216')" -eq 2 ]
	BRT_RUNTIME=opencl BRT_LOG_FILE=$PWD/gb.log ./gather_big > gb.out
	diff_golden "$top_srcdir/t/run/gather_big.out" gb.out
	grep -qE '^brt: kernel: walk__grid for .*[^)]$' gb.log
	grep -qE '^brt: kernel: walk_small__grid for .* \(32-bit indices\)$' gb.log
	[ "$(grep -c '^brt: kernel: walk__grid .*32-bit' gb.log)" -eq 0 ]
}
@test "gathers whose coordinate a gathered value decides (brg_cfd): clamped at both ends, NaN and infinities, 1-D and 2-D, with 32- and 64-bit index code" {
	run_program gather_chase
	BRT_INDEX64=1 run_both ./gather_chase
	diff_golden "$top_srcdir/t/run/gather_chase.out" <(echo "$output")
	# the OpenCL C: brg_cfd where a gathered value decides the coordinate
	# (hop's i, stepped by its own reads; hop2's r and c), brg_cf where
	# it does not (hop2's start, an input stream's element)
	brpp "$top_srcdir/t/run/gather_chase.br" | brparse | brcheck |
		brgen --target=opencl > gc.cl
	grep -qxF '#if !defined(BRG_SSE) && defined(BRG_CPU) && defined(__clang__) \' gc.cl
	grep -qF 'BRG_GE(nxt, nxt_v.base, brg_cfd((float)(i), nxt_v.dims[0]))' gc.cl
	grep -qF 'BRG_GE(nxt, nxt_v.base, brg_cfd((float)(r + 1.0f), nxt_v.dims[0]))' gc.cl
	grep -qF 'brg_cfd((float)(BRG_GE(m, m_v.base' gc.cl
	grep -qF 'BRG_GE(nxt, nxt_v.base, brg_cf((float)(start), nxt_v.dims[0]))' gc.cl
	[ "$(grep -c 'brg_cf((float)(' gc.cl)" -eq 1 ]
	# the CPU code calls brg_cf, SSE's form, everywhere
	[ "$(grep -v '^	"' gather_chase.c | grep -c 'brg_cfd((float)(')" -eq 0 ]
	# -DBRG_NO_CPU_GATHER: brg_cf's forms on a CPU device, the same
	BRT_CL_OPTIONS=-DBRG_NO_CPU_GATHER BRT_RUNTIME=opencl BRT_CACHE_DIR= \
		./gather_chase > gn.32
	BRT_CL_OPTIONS=-DBRG_NO_CPU_GATHER BRT_RUNTIME=opencl BRT_INDEX64=1 \
		BRT_CACHE_DIR= ./gather_chase > gn.64
	diff_golden "$top_srcdir/t/run/gather_chase.out" gn.32
	diff_golden "$top_srcdir/t/run/gather_chase.out" gn.64
}
@test "guide 1.8: scatter with domainOffset/domainSize" { run_program scatter; }
@test "guide 1.8: a dropped scatter write that the program never asks about is reported on standard error when the stream leaves its block, on both backends" {
	local b
	brook_build "$top_srcdir/t/run/scatter.br" scatter
	for b in cpu opencl; do
		BRT_RUNTIME=$b ./scatter > out.$b 2> err.$b
		diff_golden "$top_srcdir/t/run/scatter.out" out.$b
		[ "$(cat err.$b)" = "brt: a stream was released with an error its program never checked (error(), errorLog()): Kernel Execution: kernel scatter: scatter outside the array b of 8 x 1 x 1 x 1; the write is dropped" ]
	done
}
@test "guide 1.8: domainOffset without domainSize runs to the end" { run_program domain_offset; }
@test "guide 1.8: kernels with only a scatter array, their domain from domainSize (K__packed with no stream)" { run_program scatter_nostream; }
@test "a kernel of 17 streams: K__packed's struct of 18 values (brt.h)" { run_program many_streams; }
@test "launches repeated on the same streams beside a changed value, streamSwap, new views, a stream and its whole view in turn, domainOffset and domainSize, domainOffset alone and at 0, six sets of streams in turn, a kernel object another launch took, an input in error, an input written late, loops of 50 and of 300 different launches, a kernel of ten arguments whose values change" { run_program repeat; }
@test "spec 4.1.2-4.1.3: reductions to scalars and streams" { run_program reduce; }
@test "reductions over long consecutive runs, every operator, rows of 36 and 37" { run_program reduce_runs; }
@test "BrookGPU: iterator streams" { run_program iter; }
@test "guide 1.17.8: sum_2d with shared memory and syncGroup" { run_program sum_2d; }
@test "guide 1.17: thread groups in 1D and 2D" { run_program group; }
@test "group kernels' variables of every type across syncGroup() (local memory on a CPU OpenCL device)" { run_program group_locals; }
@test "group kernels' variables private on a CPU OpenCL device whose local memory is too small (BRG_LOCAL_MEM=0)" {
	brook_build "$top_srcdir/t/run/group_locals.br" group_locals
	# the later definition is the one the build takes
	BRT_CL_OPTIONS=-DBRG_LOCAL_MEM=0 BRT_RUNTIME=opencl BRT_CACHE_DIR=$PWD/c \
		BRT_LOG_FILE=$PWD/u.log ./group_locals > u.actual
	diff_golden "$top_srcdir/t/run/group_locals.out" u.actual
	grep -q 'options ".*-DBRG_LOCAL_MEM=0"' u.log
}
@test "guide 1.7.1: domain() substreams as inputs and outputs" { run_program domain; }
@test "spec 4.3: subkernels, multiple outputs" { run_program subkernel; }
@test "spec 2: streams of structs" { run_program struct; }
@test "structs and unions without a tag (typedef struct { ... } NAME), nested ones too" { run_program struct_anon; }
@test "structs with array fields in streams and constant arguments" { run_program struct_array; }
@test "enumeration constants in kernels, and an enum constant argument" { run_program enum; }
@test "unary operators: - -x, ++ and -- on vectors (of floats too), ! on integer vectors" { run_program unary; }
@test "an output left unwritten on a path, or read before written, is 0" { run_program out_unwritten; }
@test "a local variable declared without an initializer is 0: of every type, in a loop's body on each pass, across syncGroup()" { run_program local_zero; }
@test "a file without kernels builds (no unused brg_program)" { run_program no_kernels; }
@test "constant arguments: a number for a vector parameter, a vector of other components" { run_program host_args; }
@test "bool: conversions test against 0" { run_program bool; }
@test "integer / and % by 0 and INT_MIN / -1 are defined, not a trap" { run_program int_div; }
@test "shift counts are taken modulo the width, as OpenCL C does" { run_program shift; }
@test "integer vector + - * and negation with a swizzle of an operand (LLVM 15 reassociated c - a - a.zyzy wrongly on PoCL), compound ones too, to an element whose index steps" { run_program ivec_reassoc; }
@test "++ and -- on float vectors in a group kernel, a shared element among them" { run_program group_incdec; }
@test "a goto back past stream declarations frees them, each pass anew" { run_program goto_stream; }
@test "vector reductions by += and by reduce functions, to a scalar and to rows" { run_program vec_reduce; }
@test "scatter writes to a field or components of an element, out-of-range ones dropped" { run_program scatter_member; }
@test "domain() views outside kernel calls are released with their statement; a vector bound is evaluated once" { run_program domain_views; }
@test "a stream dimension computed negative or past 32 bits is BR_ERROR_DECLARATION, as 0 is" { run_program negdim; }
@test "a gather array declared with its sizes takes a stream of those sizes, checked at run time" { run_program gather_size; }
@test "loops with syncGroup(): break, continue, a condition with a side effect, a shadowing local, on the CPU backend as on OpenCL" { run_program group_sync_loops; }
@test "cross() of float4 vectors: w is 0" { run_program cross4; }
@test "gathers by uint indices of 2^31 and more read the last element, with 32- and 64-bit index code" {
	run_program gather_uint
	BRT_INDEX64=1 run_both ./gather_uint
	[ "$output" = "14 11 13 14 " ]
}
@test "indexof() of a resized input in subkernels is the input's index" { run_program indexof_sub; }
@test "streams of 2^24+ elements and 10000 wide" { run_program large; }
@test "BrookGPU: streamGatherOp and streamScatterOp" { run_program streamop; }
@test "BrookGPU: streamGatherOp with a kernel, of floats and of structs" { run_program streamop_kernel; }
@test "BrookGPU: streamScatterOp with a reduce function, 65,536 elements into 8 places (a histogram), every one combined: int, float, float2, double (compare-and-swap on OpenCL) and float4 (in order)" { run_program streamop_histogram; }
@test "a scatter array's element updated: op=, ++, --, a subkernel's out argument; outside the array dropped" { run_program scatter_update; }
@test "a group kernel's shared element or variable as a subkernel's out argument (local memory on a CPU OpenCL device)" { run_program group_sub_out; }
@test "++ and -- on a swizzle of several components, as a statement and a for step" { run_program incdec_swizzle; }
@test "spec 6.3.4: a swizzle of a swizzle read and written (v.zw.x = a: the CPU's C assigned to a call)" { run_program swizzle_nested; }
@test "guide 1.17.7: a loop with syncGroup() inside another, braced or its body alone" { run_program group_nested_loop; }
@test "spec 4.1.2-4.1.3: double min/max, partial reductions of <100,200>" { run_program spec_reduce; }
@test "spec 2, 4.1.2: reductions of structs; a reduce function reading a constant" { run_program reduce_more; }
@test "one reduce kernel called again with other inputs, targets, sizes and constants" { run_program reduce_again; }
@test "a kernel launched back and forth between streams, then on others" {
	run_program pingpong
	# OpenCL: a kernel object for each of the first four sets of
	# buffers, then the least recently used one takes the next set
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=pp.log ./pingpong >/dev/null
	grep -q "runtime: 1 OpenCL devices" pp.log || skip "no OpenCL device"
	for n in 2 3 4; do
		grep -q "^brt: kernel: brk_step__packed, object $n\$" pp.log
	done
	! grep -q "object 5" pp.log || false
}
@test "OpenCL: a kernel launched on the same streams keeps one kernel object" {
	run_program sum
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=sum.log ./sum >/dev/null
	grep -q "runtime: 1 OpenCL devices" sum.log || skip "no OpenCL device"
	grep -q "^brt: kernel: .* for " sum.log
	! grep -q ", object " sum.log || false
}
@test "K__packed four points a work-item on a CPU OpenCL device too (BRT_CL_OPTIONS=-DBRG_PACK4)" {
	for p in packed_lanes launch pingpong many_streams scatter_nostream repeat; do
		brook_build "$top_srcdir/t/run/$p.br" $p
		BRT_CL_OPTIONS=-DBRG_PACK4 BRT_RUNTIME=opencl \
			BRT_CACHE_DIR=$PWD/c BRT_LOG_FILE=$PWD/$p.log ./$p > $p.actual
		diff_golden "$top_srcdir/t/run/$p.out" $p.actual
		grep -q 'options ".*-DBRG_PACK4"' $p.log
		grep -q '__packed for .*; four points a work-item)$' $p.log
	done
	# the option as two words, as the compiler reads it; a longer name
	# is another macro; without it, one point a work-item
	for o in "-D BRG_PACK4" "-DBRG_PACK4=1" "-DBRG_PACK4X" ""; do
		BRT_CL_OPTIONS="$o" BRT_RUNTIME=opencl BRT_CACHE_DIR= \
			BRT_LOG_FILE=$PWD/o.log ./packed_lanes > o.actual
		diff_golden "$top_srcdir/t/run/packed_lanes.out" o.actual
		case $o in
		*X|"") n=one ;;
		*) n=four ;;
		esac
		grep -q "add1__packed for .*; $n points\? a work-item)$" o.log
		rm -f o.log
	done
}
@test "BrookGPU: streamScatterOp with a reduce function on OpenCL: compare-and-swap for 32 and 64 bits (64 only with cl_khr_int64_base_atomics), one work-item in order else" {
	brpp "$top_srcdir/t/run/streamop_histogram.br" | brparse | brcheck |
		brgen -k -o h
	# one op kernel per scatter: add (int) and addf (float) 32 bits,
	# add2 (float2) and maxd (double) 64, add4 (float4) serial; each
	# swaps in three places: a point on a CPU device (BRG_CPU), a place
	# when its group's table is full, the table at the end
	[ "$(grep -c 'atomic_cmpxchg(brg_p, brg_was, as_uint(cur))' h.cl)" -eq 6 ]
	[ "$(grep -c 'atom_cmpxchg(brg_p, brg_was, as_ulong(cur))' h.cl)" -eq 6 ]
	[ "$(grep -c '^#if defined(BRG_CPU) && !defined(BRG_SCATTER_GROUPS)$' h.cl)" -eq 4 ]
	[ "$(grep -c 'else if ((brg_t = atomic_inc(&brg_tn)) < brg_n) {' h.cl)" -eq 4 ]
	[ "$(grep -c '^#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable' h.cl)" -eq 2 ]
	grep -q 'float2 cur = as_float2(brg_old);' h.cl
	grep -q 'double cur = as_double(brg_old);' h.cl
	# the serial loop: add4 always, add2 and maxd under #else
	[ "$(grep -c 'if (get_global_id(0) != 0)' h.cl)" -eq 3 ]
	# the CPU backend runs every one in order, in one thread
	[ "$(grep -c 'one thread, every point in order' h.c)" -eq 5 ]
}
@test "BrookGPU: streamScatterOp with a reduce function, a GPU's form (work-groups combine their points first) on the CPU OpenCL device (BRG_SCATTER_GROUPS)" {
	brook_build "$top_srcdir/t/run/streamop_histogram.br" h
	BRT_CL_OPTIONS=-DBRG_SCATTER_GROUPS BRT_RUNTIME=opencl \
		BRT_CACHE_DIR= BRT_LOG_FILE=$PWD/g.log ./h > g.out
	grep -q "runtime: 1 OpenCL devices" g.log || skip "no OpenCL device"
	grep -q 'options ".*-DBRG_SCATTER_GROUPS"' g.log
	diff_golden "$top_srcdir/t/run/streamop_histogram.out" g.out
}
@test "BrookGPU: kernel k with a float3 and a gather; stream shape resize" { run_program brookgpu; }
@test "K&R host functions, _Complex, float4 a(...), void reduce" { run_program knr_complex; }
@test "CPU backend: the packed path and the general one agree" { run_program packed; }
@test "a subkernel that reaches its end without a return returns zeros (W-missing-return)" { run_program fall_off; }
@test "guide 1.8: domainSize of 1 on an axis of a 2-D stream is one row, at the offset's row" { run_program domain_rows; }
@test "OpenCL: the packed entry on each of its paths (exact NDRange, work-items past the end, a partial last four, unaligned views)" { run_program packed_lanes; }
@test "brt.h launch geometry: four points a work-item, tails, unaligned bases, 1-3D grids, exact grids; vector reductions" {
	run_program launch
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=launch.log ./launch >/dev/null
	grep -q "runtime: 1 OpenCL devices" launch.log || skip "no OpenCL device"
	for e in saxpy__packed brk_mix__packed twice__packed turn__packed where__grid sides__gridx; do
		grep -q "^brt: kernel: $e for " launch.log
	done
	# K__gridx for a kernel with a row interior only
	! grep -q "^brt: kernel: where__gridx for " launch.log || false
}

@test "PREFIX.h declares a K&R function with its promoted parameter types" {
	brpp "$top_srcdir/t/run/knr_complex.br" | brparse | brcheck | brgen -o kc
	# C99 6.7.5.3p15: the prototype compatible with "float w" in K&R
	grep -qx 'double weight(int n, double w);' kc.h
	{ echo '#include "kc.h"'; cat kc.c; } >both.c
	$BROOK_CC $BROOK_CFLAGS -I. -c both.c -o both.o
}

# run_example NAME: examples/NAME.br, golden t/run/NAME.out
run_example() { run_source "$top_srcdir/examples/$1.br" "$1"; }

@test "example: guide 1.3.1 and 1.9, simple_matmult in three forms" { run_example simple_matmult; }
@test "example: guide 1.3.2, optimized_matmult" { run_example optimized_matmult; }
@test "example: guide 1.10, legacy binary search" { run_example binary_search_legacy; }
@test "example: guide 1.11, 8-bit integers" { run_example char_sum; }
@test "example: guide 1.12, vector constructors" { run_example vector_ctor; }

@test "example: guide 1.10, binary search host code in C through PREFIX.h" {
	brpp "$top_srcdir/examples/binary_search.br" | brparse | brcheck |
		brgen -o binary_search
	$BROOK_CC $BROOK_CFLAGS -I. "$top_srcdir/examples/binary_search_host.c" \
		binary_search.c -o bsearch $BROOK_LIBS
	run_both ./bsearch
	[ "$output" = "0 -1 131 -1 262 -1 393 -1 524 -1 655 -1 786 -1 917 -1
8 found, 0 wrong" ]
	if command -v c++ > /dev/null; then
		printf '#include "binary_search.h"\nint main() { return 0; }\n' > h.cc
		c++ -I. -I"$top_srcdir/lib/brt" -fsyntax-only h.cc
	fi
}
@test "guide 1.6.2, 1.13-1.15: legacy vector_add, preprocessor, async, errors" { run_program guide_misc; }
@test "spec 4.2, 6.3.4-6.3.5: gather_ex_1, indexing, constructors, swizzles" { run_program spec_misc; }

@test "spec 2 and 6.3.3 with brcheck -a: vector conditions and conversions" {
	brpp "$top_srcdir/t/run/weak_types.br" | brparse | brcheck -a 2>/dev/null |
		brgen -o weak_types
	$BROOK_CC $BROOK_CFLAGS weak_types.c -o weak_types $BROOK_LIBS
	run_both ./weak_types
	printf '%s\n' "$output" > weak_types.actual
	diff_golden "$top_srcdir/t/run/weak_types.out" weak_types.actual
}
@test "host functions with stream parameters; a struct constant" { run_program host; }
@test "guide 1.17.7: syncGroup() in a loop with a group-uniform condition" { run_program group_loop; }
@test "guide 1.17: return in a GroupSize kernel, before, between and inside syncGroup() phases" { run_program group_return; }
@test "guide 1.17.7: loops with group-uniform bounds inside phases, others, returns, 2D groups" { run_program group_uniform; }
@test "guide 1.17: variables set once from instance(), the same in a group or not, in the gathers of GroupSize kernels' phases, clamped at both ends" { run_program group_once; }
@test "guide 1.17.2: shared arrays of vectors read and written whole, by swizzles and by components (an array per component on the CPU), and uses that keep structs" { run_program group_soa; }
@test "guide 1.17: variables that are not set once (assigned again, changed for some threads, shadowed) beside ones that are, in GroupSize kernels' phases" { run_program group_reassign; }
@test "guide 1.17.2: shared arrays of vectors read whole inside expressions and swizzled, float2 and int4 stepped by component, stored from the same array; a store in a for's init and two-component targets keep structs" { run_program group_soa_expr; }
@test "guide 1.17: a GroupSize kernel of 4 x 1 groups over a 2D domain, set-once variables from instance().x and .y, 2D gathers past the edges" { run_program group_rows; }

@test "brt.h: the 32-bit index variant and BRT_INDEX64's 64-bit one agree" {
	local p
	for p in gather iter reduce copy_down scatter streamop streamop_histogram indexof; do
		brook_build "$top_srcdir/t/run/$p.br" "$p"
		BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=$p.log32 ./$p > $p.32
		grep -q "runtime: 1 OpenCL devices" $p.log32 ||
			skip "no OpenCL device"
		grep -q "^brt: compiled: .* (32-bit indices)$" $p.log32
		BRT_RUNTIME=opencl BRT_INDEX64=1 BRT_CACHE_DIR= \
			BRT_LOG_FILE=$p.log64 ./$p > $p.64
		grep -q "^brt: compiled: " $p.log64
		! grep -q "32-bit" $p.log64 || false
		diff_golden "$top_srcdir/t/run/$p.out" $p.32
		diff_golden "$top_srcdir/t/run/$p.out" $p.64
	done
}

@test "OpenCL C for a CPU device: a float index's range as a predicted test, gathers from the pointer P + base, or as a GPU's with -DBRG_NO_CPU_GATHER; NaN, infinities and both ends as before, 32- and 64-bit" {
	brook_build "$top_srcdir/t/run/gather.br" gather
	brpp "$top_srcdir/t/run/gather.br" | brparse | brcheck |
		brgen --target=opencl > gather.cl
	# brg_cf: under BRG_CPU a test, else the selects as before
	grep -qxF '#if defined(BRG_CPU) && defined(__clang__) && !defined(BRG_NO_CPU_GATHER)' gather.cl
	grep -qxF '#if defined(BRG_CPU) && !defined(BRG_NO_CPU_GATHER)' gather.cl
	grep -qxF '	if (__builtin_expect(f >= 0.0f && f < nf, 1))' gather.cl
	grep -qxF '	return !(f > 0.0f) ? 0 : f >= nf ? n - 1 : (BRG_L)f;' gather.cl
	# BRG_GE: P + B under BRG_CPU, P[B + I] (the old text) else
	grep -qxF '#define BRG_GE(p, b, i) (p + (b))[i]' gather.cl
	grep -qxF '#define BRG_GE(p, b, i) p[(b) + i]' gather.cl
	grep -qF 'BRG_GE(t, t_v.base, brg_cf((float)(i), t_v.dims[0]))' gather.cl
	# the CPU code keeps its own form (gcc: matmult_tiled 6% slower)
	! grep -q 'BRG_GE' <(grep -v '^	"' gather.c) || false
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=g.log ./gather > g.32
	grep -q "runtime: 1 OpenCL devices" g.log || skip "no OpenCL device"
	grep -q "^brt: compiled: .*-DBRG_CPU.* (32-bit indices)$" g.log ||
		skip "not a CPU OpenCL device"
	BRT_RUNTIME=opencl BRT_INDEX64=1 BRT_CACHE_DIR= ./gather > g.64
	diff_golden "$top_srcdir/t/run/gather.out" g.32
	diff_golden "$top_srcdir/t/run/gather.out" g.64
	# -DBRG_NO_CPU_GATHER: the GPU's forms on the CPU device, the same
	BRT_CL_OPTIONS=-DBRG_NO_CPU_GATHER BRT_RUNTIME=opencl BRT_CACHE_DIR= \
		BRT_LOG_FILE=gn.log ./gather > gn.32
	grep -q "^brt: compiled: .*-DBRG_NO_CPU_GATHER" gn.log
	BRT_CL_OPTIONS=-DBRG_NO_CPU_GATHER BRT_RUNTIME=opencl BRT_INDEX64=1 \
		BRT_CACHE_DIR= ./gather > gn.64
	diff_golden "$top_srcdir/t/run/gather.out" gn.32
	diff_golden "$top_srcdir/t/run/gather.out" gn.64
}

@test "brt.h: the CPU's 32-bit instance (K__packed32, index32) and BRT_INDEX64's 64-bit code agree" {
	local p
	for p in gather scatter streamop indexof subkernel packed; do
		brook_build "$top_srcdir/t/run/$p.br" "$p"
		grep -q '__packed32(brg_c, brg_b, brg_e' $p.c
		grep -q 'if (brg_c->index32' $p.c
		BRT_RUNTIME=cpu ./$p > $p.32
		BRT_RUNTIME=cpu BRT_INDEX64=1 ./$p > $p.64
		diff_golden "$top_srcdir/t/run/$p.out" $p.32
		diff_golden "$top_srcdir/t/run/$p.out" $p.64
	done
	# past 2^31 - 2^20 elements the 64-bit code runs: large.br's gathers
	# and 2^24-element streams stay right either way
	brook_build "$top_srcdir/t/run/large.br" large
	BRT_RUNTIME=cpu ./large > large.actual
	diff_golden "$top_srcdir/t/run/large.out" large.actual
}

@test "CPU gathers by a float index: SSE's clamp and the portable C (-DBRG_NO_SSE) agree, NaN and infinities included" {
	brook_build "$top_srcdir/t/run/gather.br" gather
	grep -q '^#define BRG_SSE 1$' gather.c
	grep -q '_mm_cvttss_si32' gather.c
	# an index out of range takes the end out of line (brg_cf_end)
	grep -q 'i = (BRG_L)brg_cf_end(f, n);' gather.c
	$BROOK_CC $BROOK_CFLAGS -DBRG_NO_SSE gather.c -o gather_nosse $BROOK_LIBS
	local p
	for p in gather gather_nosse; do
		BRT_RUNTIME=cpu ./$p > $p.32
		BRT_RUNTIME=cpu BRT_INDEX64=1 ./$p > $p.64
		diff_golden "$top_srcdir/t/run/gather.out" $p.32
		diff_golden "$top_srcdir/t/run/gather.out" $p.64
	done
}

@test "a float gather index stepped by constants (index += step) is read through integers on the CPU too, in both instances" {
	brook_build "$top_srcdir/t/run/gather_float.br" gather_float
	grep -q 'struct { int64_t x, y, z, w; } brg_sh_' gather_float.c
	grep -q 'struct { int32_t x, y, z, w; } brg_sh_' gather_float.c
	grep -q 'brg_lmin(brg_sh_' gather_float.c
	BRT_RUNTIME=cpu ./gather_float > gf.32
	BRT_RUNTIME=cpu BRT_INDEX64=1 ./gather_float > gf.64
	diff_golden "$top_srcdir/t/run/gather_float.out" gf.32
	diff_golden "$top_srcdir/t/run/gather_float.out" gf.64
}

@test "guide 1.3.1: a loop counted down by a float gathers without clamps where its reads lie inside, in both CPU instances" {
	run_program float_counter
	# fwd, back, odd, keep and many have the counted copy, late and
	# skip not
	[ "$(grep -c '^		const int32_t brg_trip = brg_trips32(' float_counter.c)" -eq 5 ]
	[ "$(grep -c '^		const int64_t brg_trip = brg_trips(' float_counter.c)" -eq 5 ]
	sed -n '/^BRG_FN BRG_NOLV void fwd__body32(/,/^}/p' float_counter.c > fwd.c
	grep -qF 'for (int32_t brg_k = 0; brg_k < brg_trip; brg_k++)' fwd.c
	grep -qF 's = s * 2.0f + t[(t_v.base + brg_sh_index.x + brg_sh_index.y * t_v.pitch[1])];' fwd.c
	BRT_RUNTIME=cpu BRT_INDEX64=1 ./float_counter > fc.64
	diff_golden "$top_srcdir/t/run/float_counter.out" fc.64
}

@test "kernel parameters named off and dom, as the launch's own were in the OpenCL C" { run_program param_names; }

@test "row interiors on a 3D domain, whole rows with an offset, and a box inside (K__rows on a CPU OpenCL device)" {
	run_program rows
	# a CPU device (PoCL's are named pthread-... or cpu-...) runs
	# K__rows in place of K__grid where there are 4 rows a compute unit;
	# a 1D domain, one row, keeps K__grid
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=rows.log ./rows > rows.cl.out
	grep -q "runtime: 1 OpenCL devices" rows.log || skip "no OpenCL device"
	diff_golden "$top_srcdir/t/run/rows.out" rows.cl.out
	if grep -Eq "^brt: kernel: st3__grid for (pthread|cpu)-" rows.log; then
		grep -q "^brt: kernel: st3__rows for " rows.log
		grep -q "^brt: kernel: st2__rows for " rows.log
		grep -q "^brt: kernel: st1__grid for " rows.log
		! grep -q "^brt: kernel: st1__rows for " rows.log || false
	fi
}

@test "spec 4.2: gathers at x plus a constant read the same in a row's interior (K__bodyin32) as at its clamped edges" {
	run_program interior
	# each kernel has an interior body and its guard
	[ "$(grep -c '^BRG_FN void [a-z]*__bodyin32(' interior.c)" -eq 5 ]
	[ "$(grep -c '^BRG_FN int [a-z]*__guard32(' interior.c)" -eq 5 ]
	grep -q 'brg_ok = stencil__guard32(' interior.c
	# x needs no multiply by pitch[0] where the launch has it 1
	grep -q 'if (brg_c->index32 && g_v.pitch\[0\] == 1)' interior.c
	# stencil's interior reads contiguously: no clamp of x left
	sed -n '/^BRG_FN void stencil__bodyin32(/,/^}/p' interior.c > in.c
	grep -q 'g\[(g_v.base + (brg_X + -1) + brg_ci32((int32_t)(((int)(brg_Y + 0))), g_v.dims\[1\])' in.c
	grep -q 'int xp = ((int)(brg_X + 1));' in.c
	# the point's y as the integer brg_Y too, in the guard as well
	grep -q 'int y = ((int)(brg_Y + 0));' in.c
	sed -n '/^BRG_FN int stencil__guard32(/,/^}/p' interior.c > gd.c
	grep -q 'int y = ((int)(brg_Y + 0));' gd.c
	grep -q '&& (((int)(brg_X + 0)) > 0)' gd.c
	BRT_RUNTIME=cpu BRT_INDEX64=1 ./interior > interior.64
	diff_golden "$top_srcdir/t/run/interior.out" interior.64
	# OpenCL's K__grid: K__bodyin where K__guard holds at the work-item
	brpp "$top_srcdir/t/run/interior.br" | brparse | brcheck |
		brgen --target=opencl > interior.cl
	[ "$(grep -c '^void [a-z_]*__bodyin(' interior.cl)" -eq 5 ]
	[ "$(grep -c '^int [a-z_]*__guard(' interior.cl)" -eq 5 ]
	sed -n '/^__kernel void stencil__grid(/,/^}/p' interior.cl > grid.cl
	grep -q 'brg_ok = stencil__guard(' grid.cl
	grep -q 'if (brg_x >= brg_d\[0\] || brg_y >= brg_d\[1\] || brg_z >= brg_d\[2\])' grid.cl
	# K__gridx, for an NDRange that is the domain: the same without it
	sed -n '/^__kernel void stencil__gridx(/,/^}/p' interior.cl > gridx.cl
	grep -q 'brg_ok = stencil__guard(' gridx.cl
	! grep -q 'brg_d\[1\] ||' gridx.cl || false
	grep -q 'stencil__bodyin(.*, brg_X, brg_Y);' grid.cl
	grep -q 'stencil__guard(.*, brg_X, brg_Y);' grid.cl
	sed -n '/^void stencil__bodyin(/,/^}/p' interior.cl > in.cl
	grep -qF 'BRG_GE(g, g_v.base, (brg_X + -1) + brg_ci((BRG_L)(((int)(brg_Y + 0))), g_v.dims[1])' in.cl
	BRT_RUNTIME=opencl BRT_CACHE_DIR= BRT_LOG_FILE=interior.log ./interior > interior.cl.out
	grep -q "runtime: 1 OpenCL devices" interior.log || skip "no OpenCL device"
	grep -q "^brt: kernel: stencil__grid for " interior.log
	diff_golden "$top_srcdir/t/run/interior.out" interior.cl.out
	# no interior where a gather coordinate is not x plus a constant
	brook_build "$top_srcdir/t/run/gather.br" gather
	! grep -q '__bodyin32' gather.c || false
	brpp "$top_srcdir/t/run/gather.br" | brparse | brcheck |
		brgen --target=opencl > gather.cl
	grep -q '^__kernel void g4__grid(' gather.cl
	! grep -q '__bodyin(' gather.cl || false
	# K__rows for each, a row a work-item (brt.h, Launch geometry; run
	# by t/run/rows.br)
	[ "$(grep -c '^__kernel void [a-z_]*__rows(' interior.cl)" -eq 5 ]
	sed -n '/^__kernel void stencil__rows(/,/^}/p' interior.cl > rows.cl
	grep -q 'const BRG_L brg_b = brg_row \* brg_d\[0\], brg_r = brg_b + brg_d\[0\];' rows.cl
	grep -q 'stencil__bodyin(.*, brg_X, brg_Y);' rows.cl
}
@test "spec 3.2: stream dimensions of any integer expression ('>' in parentheses); brt(3)'s types in host code" { run_program stream_dims; }
