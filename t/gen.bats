#!/usr/bin/env bats
# t/gen.bats - brgen: options, refusals, the files it writes, stream
# lifetimes in host code, and its diagnostics.
load helper
bats_require_minimum_version 1.5.0

# brt.h's BRT_ABI_VERSION
abi_version() {
	sed -n 's/^#define BRT_ABI_VERSION \([0-9]*\).*/\1/p' \
		"$top_srcdir/lib/brt/brt.h"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	brpp "$top_srcdir/examples/sum.br" | brparse | brcheck > sum.ast
}

@test "brgen --help and --version" {
	run brgen --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"-o PREFIX"* ]]
	run brgen --version
	[ "$status" -eq 0 ]
	[[ "$output" == "brgen (brook) "* ]]
}

@test "brgen -o writes PREFIX.c and PREFIX.h that compile without warnings" {
	brgen -o out sum.ast
	[ -f out.c ] && [ -f out.h ] && [ ! -f out.cl ]
	$BROOK_CC $BROOK_CFLAGS -c out.c -o out.o
	grep -q '#ifdef __cplusplus' out.h
	grep -q 'void sum(brt_stream \*a, brt_stream \*b, brt_stream \*c);' out.h
}

@test "brgen's C names the ABI of libbrt it was made for (brt.h, brt_abi_N, soname libbrt.so.N)" {
	v=$(abi_version)
	[ -n "$v" ]
	brgen -o out sum.ast
	grep -qx "#if BRT_ABI_VERSION != $v" out.c
	grep -q "brg_cl_source, [0-9]*, &brt_abi_$v\$" out.c
	# a brt.h of another version: the C stops, naming the version
	mkdir inc
	printf '#include "%s"\n#undef BRT_ABI_VERSION\n#define BRT_ABI_VERSION 1\n' \
		"$top_srcdir/lib/brt/brt.h" >inc/brt.h
	run $BROOK_CC -Iinc $BROOK_CFLAGS -c out.c -o other.o
	[ "$status" -ne 0 ]
	[[ "$output" == *"made by brgen for libbrt's ABI $v; this brt.h is of another"* ]]
	# optimised, the object still names the mark; libbrt defines its
	# own and no other
	$BROOK_CC $BROOK_CFLAGS -O2 -c out.c -o out.o
	nm out.o | grep -q " U brt_abi_$v\$"
	lib=$top_builddir/lib/brt/.libs/libbrt.a
	[ "$(nm "$lib" | grep -c ' brt_abi_')" -eq 1 ]
	nm "$lib" | grep -q " R brt_abi_$v\$"
	# a libbrt of another version: the link fails, naming the mark
	objcopy --redefine-sym "brt_abi_$v=brt_abi_$((v - 1))" "$lib" other.a
	libs=$(printf '%s\n' "$BROOK_LIBS" | sed 's|[^ ]*libbrt\.a|other.a|')
	run $BROOK_CC $BROOK_CFLAGS out.c -o prog $libs
	[ "$status" -ne 0 ]
	# (ld: undefined reference to `brt_abi_2'; lld: undefined symbol)
	[[ "$output" == *"brt_abi_$v"* ]]
	$BROOK_CC $BROOK_CFLAGS out.c -o prog $BROOK_LIBS
	# the shared libbrt's soname carries the version: libbrt.so.N
	so=$top_builddir/lib/brt/.libs/libbrt.so
	if [ -e "$so" ]; then
		objdump -p "$so" | grep -Eq "SONAME +libbrt\.so\.$v\$"
	fi
}

@test "a program linked with the shared libbrt: the loader refuses a libbrt.so.N of another ABI mark" {
	libs=$top_builddir/lib/brt/.libs
	[ -e "$libs/libbrt.so" ] || skip "libbrt built without a shared library"
	command -v objcopy >/dev/null || skip "no objcopy"
	v=$(abi_version)
	# the loader's own behaviour: not under t/vgcc's valgrind
	cc=${BROOK_CC#"$top_srcdir/t/vgcc "}
	brgen -o out sum.ast
	$cc $BROOK_CFLAGS out.c -o prog -L"$libs" -lbrt -pthread -lm
	objdump -p prog | grep -Eq "NEEDED +libbrt\.so\.$v\$"
	# the libbrt it was made for: it runs
	LD_LIBRARY_PATH=$libs BRT_RUNTIME=cpu ./prog >good.txt
	[ -s good.txt ]
	# a libbrt.so.N whose mark is another version's (an ABI changed
	# without its soname): the loader stops before main, naming the mark
	mkdir other
	for o in "$libs"/libbrt_la-*.o; do
		objcopy --redefine-sym "brt_abi_$v=brt_abi_$((v + 1))" "$o" \
			"other/$(basename "$o")"
	done
	$cc -shared -o "other/libbrt.so.$v" -Wl,-soname,"libbrt.so.$v" \
		other/*.o -ldl -pthread -lm
	# (127: ld.so's status when it cannot start a program)
	run -127 env LD_LIBRARY_PATH="$PWD/other" BRT_RUNTIME=cpu ./prog
	[[ "$output" == *"undefined symbol: brt_abi_$v"* ]]
	[[ "$output" != *"$(head -n 1 good.txt)"* ]]
}

@test "brgen -k also writes PREFIX.cl, the OpenCL C" {
	brgen -k -o out sum.ast
	grep -q '__kernel void sum(' out.cl
	grep -q 'brg_cl_source' out.c
}

@test "brgen --target=opencl writes only the OpenCL C to stdout" {
	run brgen --target=opencl sum.ast
	[ "$status" -eq 0 ]
	[[ "$output" == *"__kernel void sum("* ]]
	[[ "$output" == *"const BRG_L4 brg_dom, const BRG_L4 brg_off)"* ]]
	[[ "$output" == *"#ifdef BRG_I32"* ]]
	[ ! -f sum.c ]
}

@test "brgen -l emits #line directives to the .br file" {
	brgen -l -o out sum.ast
	grep -q '^#line [0-9]* ".*examples/sum.br"' out.c
	$BROOK_CC $BROOK_CFLAGS -c out.c -o out.o
}

@test "brgen -l: cc's message about a host declaration names its .br line, in a function laid out on one line" {
	printf '#include <stdio.h>\nstatic float g[2][1e3f];\nint main(void) { float x[1.5]; float s<4>; return 0; }\n' > hd.br
	brpp hd.br | brparse | brcheck | brgen -l -o hd
	run $BROOK_CC $BROOK_CFLAGS -c hd.c -o hd.o
	[ "$status" -ne 0 ]
	[[ "$output" == *"hd.br:2:"*"error: size of array"*"g"*"has non-integer type"* ]]
	[[ "$output" == *"hd.br:3:"*"error: size of array"*"x"*"has non-integer type"* ]]
	# one #line a declaration, streams included
	[ "$(grep -c '^[[:space:]]*#line 3 "hd.br"' hd.c)" -eq 4 ]
}

@test "a map kernel's CPU code has a packed path that gcc -O3 vectorizes" {
	brgen -o out sum.ast
	# the buffers are restrict parameters; the test picks the path
	grep -q '^static __attribute__((noinline)) void sum__packed(' out.c
	grep -q 'const float \*restrict a_p,$' out.c
	grep -q 'float \*restrict c_p)$' out.c
	grep -q 'if (a_v.map == 0 &&$' out.c
	grep -q 'sum__packed(brg_c, brg_b, brg_e, a + a_v.base, b + b_v.base, c + c_v.base);' out.c
	$BROOK_CC --version 2>/dev/null | grep -qi 'gcc\|free software' ||
		skip "not gcc"
	$BROOK_CC -std=c99 -O3 -I"$top_srcdir/lib/brt" -fopt-info-vec-optimized \
		-c out.c -o out.o 2> vec.txt
	# the loop of sum__packed
	local line
	line=$(grep -n '^static __attribute__((noinline)) void sum__packed(' out.c)
	line=${line%%:*}
	vectorized_in vec.txt "$line" $((line + 25))
}

@test "a map kernel with a loop: its CPU functions carry BRG_NOLV (gcc's loop vectorizer off), one without keeps it" {
	brpp "$top_srcdir/t/gen/loops.br" | brparse | brcheck | brgen -o nolv
	grep -qF '#define BRG_NOLV __attribute__((optimize("no-tree-loop-vectorize")))' nolv.c
	grep -q '^BRG_FN BRG_NOLV void counted__body(' nolv.c
	grep -q '^BRG_FN BRG_NOLV void counted__body32(' nolv.c
	grep -q '^static __attribute__((noinline)) BRG_NOLV void counted__packed(' nolv.c
	grep -q '^static __attribute__((noinline)) BRG_NOLV void counted__packed32(' nolv.c
	grep -q '^static BRG_NOLV void counted__cpu(' nolv.c
	grep -q '^BRG_FN void flat__body(' nolv.c
	grep -q '^static __attribute__((noinline)) void flat__packed(' nolv.c
	grep -q '^static void flat__cpu(' nolv.c
	$BROOK_CC $BROOK_CFLAGS -Wall -Wextra -Werror -c nolv.c -o nolv.o
	$BROOK_CC --version 2>/dev/null | grep -qi 'gcc\|free software' ||
		skip "not gcc"
	# no loop of counted's functions vectorized; flat's packed loop is
	$BROOK_CC -std=c99 -O3 -I"$top_srcdir/lib/brt" -fopt-info-vec-optimized \
		-c nolv.c -o nolv.o 2> vec.txt
	local a b
	a=$(grep -n '^BRG_FN BRG_NOLV void counted__body(' nolv.c | cut -d: -f1)
	b=$(grep -n '^BRG_FN BRG_NOLV void whiled__body(' nolv.c | cut -d: -f1)
	[ "$a" -lt "$b" ]
	! vectorized_in vec.txt $((a - 1)) "$b" || false
	b=$(grep -n '^static __attribute__((noinline)) void flat__packed(' nolv.c | cut -d: -f1)
	vectorized_in vec.txt "$b" $((b + 25))
}

@test "a reduction's second pass (partial results, map 4) reads them as vectors: a reduce function by its body, a reduce variable by its operator; no division before the first load" {
	brpp "$top_srcdir/t/run/reduce.br" | brparse | brcheck | brgen --target=opencl > red.cl
	# sum, a reduce function: one vector loop, for both passes
	sed -n '/^__kernel void sum__reduce(/,/^}/p' red.cl > sum.cl
	[ "$(grep -c 'if (brg_fast && ((brg_st + brg_lo) & 3) == 0) {' sum.cl)" -eq 1 ]
	! grep -q 'map != 4' sum.cl || false
	# isum, a reduce variable (+=): the partial results through +, the
	# input through its body
	sed -n '/^__kernel void isum__reduce(/,/^}/p' red.cl > isum.cl
	grep -q 'if (brg_fast && brg_vin.map == 4 && ((brg_st + brg_lo) & 3) == 0) {' isum.cl
	grep -q 'brg_acc = brg_acc + brg_v.w;' isum.cl
	grep -q 'if (brg_fast && brg_vin.map != 4 && ((brg_st + brg_lo) & 3) == 0) {' isum.cl
	grep -q 'isum__body(brg_v.w, &brg_acc, brg_cx);' isum.cl
	# no division before the first load where each block is one
	# work-group's, nor for the start of a packed run
	grep -A1 'if (brg_chunks != 1) {' sum.cl | grep -q 'brg_o = brg_g / brg_chunks;'
	grep -q 'brg_st = brg_vin.base + brg_o \* brg_n;' sum.cl
	grep -A3 'if (!brg_fast) {' sum.cl | grep -q 'brg_coords(brg_o, brg_od, brg_oc);'
}

@test "every option each tool's --help lists is in its man page" {
	local t o esc opts n=0 missing=0
	for t in brpp brparse brcheck brgen brrun; do
		# -DNAME and -wN name -D and -w with their value
		opts=$("$t" --help | grep -oE '(^|[ ,[])--?[a-zA-Z][a-zA-Z0-9-]*' |
			sed -E 's/^[ ,[]//; s/^(-[a-zA-Z])[A-Z]+$/\1/' | sort -u)
		# ... on a line of .B, .BI or .BR: where options are defined
		for o in $opts; do
			n=$((n + 1))
			esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
			grep -qE -- "^\.B[IR]? (.*[^a-z\\\\-])?$esc([ =\\\\\"]|\$)" \
				"$top_srcdir/man/$t.1" || {
				echo "$t: $o not in man/$t.1"; missing=1; }
		done
	done
	[ "$missing" = 0 ]
	# the pattern finds them
	[ "$n" -gt 40 ]
}

@test "every diagnostic ID of brgen and brrun is in its man page" {
	local id missing=0
	for id in $(grep -oh '"E-gen-[a-z0-9-]*"' "$top_srcdir"/lib/brook/gen*.c |
			tr -d '"' | sort -u); do
		grep -q -- "$(echo "$id" | sed 's/-/\\\\-/g')" \
			"$top_srcdir/man/brgen.1" || {
			echo "$id not in man/brgen.1"; missing=1; }
	done
	for id in $(grep -oh '"E-run-[a-z0-9-]*"' "$top_srcdir"/lib/brook/run*.c \
			"$top_srcdir"/cmd/brrun/*.c | tr -d '"' | sort -u); do
		grep -q -- "$(echo "$id" | sed 's/-/\\\\-/g')" \
			"$top_srcdir/man/brrun.1" || {
			echo "$id not in man/brrun.1"; missing=1; }
	done
	[ "$missing" = 0 ]
	# the patterns find the IDs
	[ "$(grep -oh '"E-gen-[a-z0-9-]*"' "$top_srcdir"/lib/brook/gen*.c |
		sort -u | wc -l)" -gt 20 ]
}

@test "brgen refuses an AST that is not checked (status 1)" {
	run brgen -o out "$top_srcdir/t/gen/unchecked.ast"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not checked"*"[E-gen-unchecked]"* ]]
	[ ! -f out.c ]
}

@test "brgen refuses an AST of another version (status 2)" {
	run brgen -o out "$top_srcdir/t/gen/version.ast"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown version"*"[brast-version]"* ]]
	[ ! -f out.c ]
}

@test "brgen needs -o or --target=opencl (status 2)" {
	run brgen sum.ast
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o PREFIX is required"* ]]
	run brgen --target=cuda sum.ast
	[ "$status" -eq 2 ]
	run brgen --bogus sum.ast
	[ "$status" -eq 2 ]
}

@test "brgen checks that the outputs can be written before any work" {
	run brgen -o /nonexistent-dir/out sum.ast
	[ "$status" -eq 2 ]
	run brgen -o out missing.ast
	[ "$status" -eq 2 ]
	[ ! -f out.c ]
}

@test "streams are released on every path out of their block" {
	brook_build "$top_srcdir/t/gen/release.br" rel
	run_both ./rel
	[ "$output" = "2 1" ]
	# the statement before each jump releases the block's streams
	for jump in 'continue;' 'break;' 'goto done;' 'return brg_ret;'; do
		grep -B1 -F "$jump" rel.c | head -1 | grep -q brt_stream_free
	done
	# and the end of each block
	[ "$(grep -c 'brt_stream_free(u);' rel.c)" -eq 3 ]
	[ "$(grep -c 'brt_stream_free(v);' rel.c)" -eq 2 ]
}

@test "syncGroup() inside a statement is refused [E-gen-sync-nested]" {
	brpp "$top_srcdir/t/gen/nested_sync.br" | brparse | brcheck > ns.ast
	run brgen -o ns ns.ast
	[ "$status" -eq 1 ]
	[[ "$output" == *"nested_sync.br:9:3: error: "*"[E-gen-sync-nested]"* ]]
}

@test "a loop with syncGroup() declaring its own variable is refused [E-gen-sync-loop]" {
	brpp "$top_srcdir/t/gen/sync_loop.br" | brparse | brcheck > sl.ast
	run brgen -o sl sl.ast
	[ "$status" -eq 1 ]
	[[ "$output" == *"sync_loop.br:8:2: error: a loop with syncGroup() declares its variable before the loop [E-gen-sync-loop]"* ]]
	[ ! -f sl.c ]
}

# forged SRC KIND: SRC.br checked, edited by t/gen/edit.py KIND into what
# brcheck refuses, and sealed: brgen takes it as checked.
forged() {
	brpp "$1.br" | brparse | brcheck > "$1.ok.ast"
	python3 "$top_srcdir/t/gen/edit.py" "$1.ok.ast" "$2" > "$1.raw.ast"
	python3 "$top_srcdir/t/gen/seal.py" "$1.raw.ast" > "$1.ast"
}

# forged_refused SRC KIND MESSAGE [STATUS]: brgen refuses forged SRC KIND
# with MESSAGE and STATUS (default 1), writing nothing.
forged_refused() {
	forged "$1" "$2"
	run brgen -o "$1" "$1.ast"
	[ "$status" -eq "${4:-1}" ]
	[[ "$output" == *"$3"* ]]
	[ ! -f "$1.c" ]
}

@test "host code brgen cannot translate [E-gen-stream-op, E-gen-iter]" {
	command -v python3 >/dev/null || skip "no python3"
	cp "$top_srcdir/t/gen/host_refused.br" "$top_srcdir/t/gen/iter_noinit.br" .
	forged_refused host_refused gather-op "host_refused.br:8:2: error: streamGatherOp: the operation must be STREAM_GATHER_FETCH or a kernel f(T a<>, out U b<>) of the array's elements T and t's U [E-gen-stream-op]"
	forged_refused iter_noinit noinit "iter_noinit.br:5:13: error: an iterator stream needs an initializer iter(start, end) [E-gen-iter]"
}

@test "a stream operator whose operation or element types do not fit is refused [E-gen-stream-op]" {
	command -v python3 >/dev/null || skip "no python3"
	cat > fit.br <<'EOS'
kernel void fits(float a<>, out float b<>) { b = 2.0f * a; }
kernel void misfit(float a<>, out float2 b<>) { b = float2(a, a); }
int main(void)
{
	float a<8>, ix<4>, t<4>;
	streamGatherOp(t, ix, a, fits);
	return 0;
}
EOS
	forged_refused fit op-fn "fit.br:6:2: error: streamGatherOp: the operation must be STREAM_GATHER_FETCH or a kernel f(T a<>, out U b<>) of the array's elements T and t's U [E-gen-stream-op]"
	sed 's/, fits);/, STREAM_GATHER_FETCH);/' fit.br > ty.br
	forged_refused ty op-type "ty.br:6:2: error: streamGatherOp: the stream and the array hold different types [E-gen-stream-op]"
}

@test "a struct constant argument with an array field of 9 dimensions [E-gen-struct-value]" {
	brpp "$top_srcdir/t/gen/deep_array.br" | brparse | brcheck > da.ast
	run brgen -o da da.ast
	[ "$status" -eq 1 ]
	[[ "$output" == *"deep_array.br:3:24: error: field 'v': a struct constant argument of this field's type is not supported on OpenCL [E-gen-struct-value]"* ]]
}

@test "++ or -- on a swizzle of several components for its value is refused [E-gen-incdec-swizzle]" {
	command -v python3 >/dev/null || skip "no python3"
	cat > swz.br <<'EOS'
kernel void k(int4 a<>, out int4 r<>)
{
	int4 t = a;
	int2 u = -t.xy;
	r = t + int4(u.x, u.y, 0, 0);
}
EOS
	forged_refused swz incdec "swz.br:4:11: error: '++' on a swizzle of several components; write the swizzle += 1 [E-gen-incdec-swizzle]"
}

@test "a write to a scatter array inside an expression is refused [E-gen-scatter-place]" {
	command -v python3 >/dev/null || skip "no python3"
	printf 'kernel void k(int i<>, float v<>, out float o[]) { float t; o[i] = v; t = o[i] - v; }\n' > sp.br
	forged_refused sp place "sp.br:1:75: error: a write to a scatter array must be an expression statement of its own [E-gen-scatter-place]"
}

@test "a group kernel's variable as an out argument of a call inside an expression is refused [E-gen-sub-out]" {
	command -v python3 >/dev/null || skip "no python3"
	cat > so.br <<'EOS'
kernel float put(float v<>, out float b<>) { b = v * 10.0f; return v; }
Attribute[GroupSize(4, 1, 1)]
kernel void g(float v[], out float o[])
{
	float x, y;
	int k = instance().x;
	put(v[k], x);
	y = 2.0f;
	syncGroup();
	o[k] = x + y;
}
EOS
	forged_refused so sub-out "so.br:7:2: error: an out argument in local memory: call the subkernel as an expression statement of its own [E-gen-sub-out]"
}

@test "syncGroup() or instanceInGroup() in a subkernel is refused [E-gen-group-sub]" {
	cat > gsub.br <<'EOS'
kernel float sub(float x) { syncGroup(); return x; }
kernel float pos(float x) { int4 t = instanceInGroup(); return x + (float)t.x; }
Attribute[GroupSize(4, 1, 1)]
kernel void k(float a<>, out float c[])
{
	int i = instance().x;
	c[i] = sub(a) + pos(a);
}
EOS
	brpp gsub.br | brparse | brcheck > gsub.ast
	run brgen -o gsub gsub.ast
	[ "$status" -eq 1 ]
	[[ "$output" == *"gsub.br:1:29: error: syncGroup() in a subkernel: call it in the group kernel's own body [E-gen-group-sub]"* ]]
	[[ "$output" == *"gsub.br:2:38: error: instanceInGroup() in a subkernel: call it in the group kernel's own body [E-gen-group-sub]"* ]]
	[ ! -f gsub.c ]
}

@test "constructs brcheck refuses first, in an edited AST, are brgen errors too [E-gen-*]" {
	command -v python3 >/dev/null || skip "no python3"
	cp "$top_srcdir/t/gen/refused.br" .
	forged_refused refused stream-init "refused.br:11:16: error: Stream can't have an initializer [E-gen-stream-init]"
	forged_refused refused stream-size "refused.br:11:16: error: a stream declared in host code needs every dimension [E-gen-stream-size]"
	forged_refused refused global-stream "refused.br:13:15: error: streams must be local variables [E-gen-global-stream]"
	forged_refused refused host-indexof "refused.br:18:13: error: Indexof()operator has no meaning inside Non-kernel functions [E-gen-host-indexof]"
	forged_refused refused pointer "refused.br:1:49: error: pointers in kernel code [E-gen-pointer]"
	forged_refused refused expr "refused.br:1:49: error: 'compound' expressions are not supported in kernels [E-gen-expr]"
	forged_refused refused stmt "refused.br:3:43: error: 'goto' statements are not supported in kernels [E-gen-stmt]"
	forged_refused refused call "refused.br:3:47: error: kernel code can call only kernels and built-in functions [E-gen-call]"
	forged_refused refused builtin "refused.br:1:57: error: built-in function 'nosuch' is not supported in kernels [E-gen-builtin]"
	forged_refused refused ctor "refused.br:1:67: error: not a vector constructor [E-gen-ctor]"
	forged_refused refused reduce "refused.br:4:1: error: a reduction needs one input stream and one reduce parameter [E-gen-reduce]"
	forged_refused refused string "refused.br:2:38: error: String constant in kernel not allowed [E-gen-string]"
	forged_refused refused subarray "refused.br:23:64: error: an array argument of a subkernel must be an array parameter [E-gen-subkernel-array]"
	# brgen's loader refuses a document without decls before the
	# generator's own test of them (E-gen-malformed, for library callers),
	forged_refused refused malformed 'refused.ast: error: not an AST file: "files" or "decls" is missing [brast-json]' 2
	# and one of another version (E-gen-version, likewise)
	forged_refused refused version 'refused.ast: error: AST file of an unknown version (this reads version 1) [brast-version]' 2
	# the unedited program goes through
	brgen -o refused refused.ok.ast
	[ -f refused.c ]
}

@test "brgen --checked reports a gather outside its array" {
	brpp "$top_srcdir/t/run/gather.br" | brparse | brcheck 2>/dev/null |
		brgen --checked -o g
	$BROOK_CC $BROOK_CFLAGS g.c -o g $BROOK_LIBS
	BRT_RUNTIME=cpu ./g > out 2> err
	grep -q 'gather.br:11: kernel g1: gather index (6, 0, 0, 0) outside the array t' err
	diff_golden "$top_srcdir/t/run/gather.out" out
}

@test "brgen --checked checks the gathers of a scatter write's value even where the write is dropped" {
	cat > dv.br <<'B'
#include <stdio.h>
typedef struct { float a; float b; } P;
kernel void k(float i<>, float g[], out float c[]) { c[i] = g[i + 1.0f]; }
kernel void m(float i<>, float g[], out P c[]) { c[i].b += g[i + 1.0f]; }
int main(void)
{
	float iv[3] = {0, 1, 2}, gv[2] = {5, 6}, cv[2];
	float i<3>, g<2>, c<2>;
	P p<2>;
	streamRead(i, iv);
	streamRead(g, gv);
	k(i, g, c);
	streamWrite(c, cv);
	printf("%g %g\n", cv[0], cv[1]);
	m(i, g, p);
	return 0;
}
B
	brpp dv.br | brparse | brcheck 2>/dev/null | brgen --checked -o dv
	$BROOK_CC $BROOK_CFLAGS dv.c -o dv $BROOK_LIBS
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt ./dv > out 2> err
		[ "$(cat out)" = "6 6" ]
		grep -q 'dv.br:3: kernel k: gather index (3, 0, 0, 0) outside the array g of 2 x 1 x 1 x 1; reading the nearest element' err
		grep -q 'dv.br:3: kernel k: scatter index (2, 0, 0, 0) outside the array c of 2 x 1 x 1 x 1; the write is dropped' err
		grep -q 'dv.br:4: kernel m: gather index (3, 0, 0, 0) outside the array g of 2 x 1 x 1 x 1; reading the nearest element' err
	done
}

@test "brgen --checked reports an update of a scatter element outside the array as the dropped write it is" {
	brpp "$top_srcdir/t/run/scatter_update.br" | brparse | brcheck 2>/dev/null |
		brgen --checked -o su
	$BROOK_CC $BROOK_CFLAGS su.c -o su $BROOK_LIBS
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt ./su > out 2> err
		diff_golden "$top_srcdir/t/run/scatter_update.out" out
		# o[i] += v, and o[i] as a subkernel's out argument (read in,
		# written back): the write, once
		[ "$(grep -c 'scatter_update.br:11: kernel k1: scatter index (7, 0, 0, 0) outside the array o of 3 x 1 x 1 x 1; the write is dropped' err)" = 1 ]
		[ "$(grep -c 'scatter_update.br:20: kernel k6: scatter index (-1, 0, 0, 0) outside the array o of 3 x 1 x 1 x 1; the write is dropped' err)" = 1 ]
		! grep -q 'k6: gather' err || false
	done
}

@test "brgen refuses x op= y whose target has a side effect where it would take its address inside an expression (E-gen-effect-target)" {
	cat > et.br <<'B'
kernel void f(int a<>, int k, out int r<>)
{
	int t[2];
	int q = 0, z;
	t[0] = a;
	t[1] = a;
	z = (t[q++] /= k);
	r = t[0] + q + z;
}
B
	brpp et.br | brparse | brcheck > et.ast
	run brgen -o et et.ast
	[ "$status" = 1 ]
	[ "$output" = "et.br:7:7: error: the target of '/=' has a side effect, and brgen takes its address to evaluate it once: make the assignment a statement of its own, or compute the index first [E-gen-effect-target]" ]
	# as a statement: through a pointer taken once
	sed -i 's/z = (t\[q++\] \/= k);/t[q++] \/= k; z = 0;/' et.br
	brpp et.br | brparse | brcheck | brgen --target=opencl > et.cl
	grep -qF 'do { int *brg_lp = &(t[(BRG_L)(q++)]); (*brg_lp) = brg_div_int((*brg_lp), k); } while (0);' et.cl
	# a scatter array's element as a subkernel's out argument: read in
	# and written back with its index tested each time
	cat > so.br <<'B'
kernel void add(float v, out float o<>) { o = o + v; }
kernel void g(float a<>, float k<>, out float s[])
{
	int i = (int)k;
	add(a, s[i++]);
}
B
	brpp so.br | brparse | brcheck > so.ast
	run brgen -o so so.ast
	[ "$status" = 1 ]
	[ "$output" = "so.br:5:9: error: an out argument in a scatter array whose index has a side effect: brgen reads it in and writes it back, testing the index each time; compute the index first [E-gen-effect-target]" ]
}

# checked_goldens NAME: t/gen/NAME.br built with brgen --checked prints
# t/gen/NAME.out, and NAME.err on standard error, on both runtimes
checked_goldens() {
	cp "$top_srcdir/t/gen/$1.br" .
	brpp "$1.br" | brparse | brcheck 2>/dev/null | brgen --checked -o "$1"
	$BROOK_CC $BROOK_CFLAGS "$1.c" -o "$1" $BROOK_LIBS
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt "./$1" > out 2> err
		diff_golden "$top_srcdir/t/gen/$1.out" out
		diff_golden "$top_srcdir/t/gen/$1.err" err
	done
}

@test "brgen --checked reports indices outside a kernel's C arrays and shared arrays and uses the nearest element, the same on both backends" {
	checked_goldens checked_array
	# without --checked: the index as written (C's rules), no records
	brpp checked_array.br | brparse | brcheck 2>/dev/null | brgen -o plain
	! grep -q 'brg_aidx' plain.c || false
	grep -q 'return t\[(int64_t)(k)\];' plain.c
	grep -q 'brt_site brg_sites' checked_array.c
	! grep -q 'brt_site brg_sites' plain.c || false
}

@test "brgen --checked reports elements of shared arrays read before any work-item of the group wrote them, the same on both backends" {
	checked_goldens checked_shared
	# s[i] = s[i] + a reads the element before its own write marks it
	grep -q 'brg_sf_s\[brg_si\] = 1;' checked_shared.c
	# without --checked: shared memory as the device leaves it, no flags
	brpp checked_shared.br | brparse | brcheck 2>/dev/null | brgen -o plain
	! grep -q 'brg_sf_' plain.c || false
}

@test "a --checked report line prints once a process, for the first 65,536 distinct lines; past them every line prints" {
	cat > many.br <<'BR'
#include <stdio.h>

kernel void g(float i<>, float t[], float off, out float o<>)
{
	o = t[i + off];
}

int main(void)
{
	float idx[16], t[4] = { 1.0f, 2.0f, 3.0f, 4.0f }, r[16];
	int k;

	for (k = 0; k < 16; k++)
		idx[k] = (float)(4 + k);
	{
		float si<16>, st<4>, so<16>;
		streamRead(si, idx);
		streamRead(st, t);
		/* 16 lines a launch, each index its own: 4,096 launches
		   fill the 65,536; the first launch again before and after */
		g(si, st, 0.0f, so);
		for (k = 0; k < 4096; k++)
			g(si, st, (float)(16 * k), so);
		g(si, st, 0.0f, so);
		streamWrite(so, r);
	}
	printf("%g %g\n", r[0], r[15]);
	return 0;
}
BR
	brpp many.br | brparse | brcheck 2>/dev/null | brgen --checked -o many
	$BROOK_CC $BROOK_CFLAGS many.c -o many $BROOK_LIBS
	BRT_RUNTIME=cpu ./many > out 2> err
	[ "$(cat out)" = "4 4" ]
	# the first launch's 16 lines print once, then after the other
	# 65,520 distinct ones fill the set they print again
	[ "$(grep -c 'outside the array t' err)" -eq 65552 ]
	[ "$(grep -c 'gather index (4, 0, 0, 0) outside' err)" -eq 2 ]
	[ "$(grep -c 'gather index (65539, 0, 0, 0) outside' err)" -eq 1 ]
	[ "$(tail -n 1 err)" = "brt: 16 --checked reports were the same as one printed before: each prints once" ]
	[ "$(wc -l < err)" -eq 65553 ]
}

@test "brgen --checked reports scatter elements written by more than one instance, the same on both backends" {
	checked_goldens scatter_race
	# without --checked: no tags, no reports
	brpp scatter_race.br | brparse | brcheck 2>/dev/null | brgen -o plain
	! grep -q 'brg_wrote(brg_cx' plain.c || false
	! grep -qF '.owners = 1' plain.c || false
	$BROOK_CC $BROOK_CFLAGS plain.c -o plain $BROOK_LIBS
	BRT_RUNTIME=cpu ./plain > out 2> err
	diff_golden "$top_srcdir/t/gen/scatter_race.out" out
	[ ! -s err ]
}

@test "kernel code the OpenCL compiler would warn about prints nothing on the program's standard error" {
	printf 'kernel void k(float a<>, out float b<>)\n{\n\tint i = 2;\n\tb = (i > i) ? 1.0f : a + a;\n}\nint main(void)\n{\n\tfloat v[2] = {1, 2};\n\tfloat a<2>;\n\tfloat b<2>;\n\tstreamRead(a, v);\n\tk(a, b);\n\tstreamWrite(b, v);\n\treturn !(v[0] == 2 && v[1] == 4);\n}\n' > w.br
	brpp w.br | brparse | brcheck | brgen -o w
	# gcc warns of it in the CPU code too: not here
	$BROOK_CC $BROOK_CFLAGS -w w.c -o w $BROOK_LIBS
	# a fresh cache: the program is compiled (PoCL's compiler printed
	# "1 warning generated." before libbrt's -w, brt(3))
	BRT_CACHE_DIR=$PWD/cache BRT_RUNTIME=opencl ./w 2> err
	[ ! -s err ]
}

@test "a kernel named like an OpenCL built-in gets another OpenCL name" {
	brpp "$top_srcdir/t/run/mad.br" | brparse | brcheck > mad.ast
	run brgen --target=opencl mad.ast
	[[ "$output" == *"__kernel void brk_mad("* ]]
	brgen -o mad mad.ast
	grep -q '.cl_name = "brk_mad"' mad.c
}

@test "brgen --fp-contract=fast lets OpenCL fuse multiply-adds; off is the default" {
	brpp "$top_srcdir/t/run/sum.br" | brparse | brcheck > s.ast
	run brgen --target=opencl s.ast
	[ "$status" -eq 0 ]
	[[ "$output" == *"#pragma OPENCL FP_CONTRACT OFF"* ]]
	run brgen --target=opencl --fp-contract=off s.ast
	[[ "$output" == *"#pragma OPENCL FP_CONTRACT OFF"* ]]
	run brgen --target=opencl --fp-contract=fast s.ast
	[ "$status" -eq 0 ]
	[[ "$output" == *"#pragma OPENCL FP_CONTRACT ON"* ]]
	[[ "$output" != *"FP_CONTRACT OFF"* ]]
	brgen --fp-contract=fast -o s s.ast
	grep -q 'FP_CONTRACT ON' s.c
	run brgen --target=opencl --fp-contract=loose s.ast
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown --fp-contract mode 'loose'"* ]]
}

@test "brgen --fast-math: contraction on and OpenCL's rsqrt; the CPU C keeps 1 / sqrt" {
	printf 'kernel void k(float a<>, out float b<>)\n{\n\tb = rsqrt(a) * a + a;\n}\n' > r.br
	brpp r.br | brparse | brcheck > r.ast
	run brgen --target=opencl r.ast
	[[ "$output" == *"(float)1 / sqrt(a)"* ]]
	[[ "$output" == *"FP_CONTRACT OFF"* ]]
	run brgen --target=opencl --fast-math r.ast
	[ "$status" -eq 0 ]
	[[ "$output" == *"{ return rsqrt(a); }"* ]]
	[[ "$output" != *"1 / sqrt"* ]]
	[[ "$output" == *"#pragma OPENCL FP_CONTRACT ON"* ]]
	# the mark for which libbrt keeps the driver's own division (brt(3))
	[[ "$output" == *$'\n#define BRG_FAST_MATH 1\n'* ]]
	run brgen --target=opencl --fp-contract=fast r.ast
	[[ "$output" != *"BRG_FAST_MATH"* ]]
	brgen --fast-math -o r r.ast
	grep -q '1 / sqrt' r.c
}

@test "brgen: a counted loop's gathers by its counter get an unclamped copy" {
	brpp "$top_srcdir/t/run/gather_loop.br" | brparse | brcheck |
		brgen --target=opencl > gl.cl
	# span: for (j = lo; j < hi; j++) ... t[j]
	grep -qF 'if ((long)(lo) + 0 >= 0 && (long)(hi) + 0 <= t_v.dims[0]) {' gl.cl
	grep -qF 'BRG_GE(t, t_v.base, (BRG_L)(j))' gl.cl
	grep -qF 'BRG_GE(t, t_v.base, brg_ci((BRG_L)(j), t_v.dims[0]))' gl.cl
	# rows: a constant lower bound is tested here, the row still clamped
	grep -qF 'if ((long)((int)p.x) - 1 < g_v.dims[0] && (long)((int)p.x) + 2 < g_v.dims[0]) {' gl.cl
	grep -qF 'BRG_GE(g, g_v.base, (BRG_L)(j - 1) + brg_ci((BRG_L)(y), g_v.dims[1]) * g_v.pitch[1])' gl.cl
	# moving writes its bound: one copy; --checked: one copy
	[ "$(grep -c 'if ((long)' gl.cl)" -eq 2 ]
	brpp "$top_srcdir/t/run/gather_loop.br" | brparse | brcheck |
		brgen --checked --target=opencl > glc.cl
	! grep -q 'if ((long)' glc.cl || false
}

@test "brgen: a float index stepped by constants is read as integers in a copy of its loop" {
	brpp "$top_srcdir/t/run/gather_float.br" | brparse | brcheck 2>/dev/null |
		brgen --target=opencl > gf.cl
	# walk: index += step, step = (1, -1, 0, 0); gathers index.xy
	grep -qF 'if (index.x >= -16777216.0f && index.x <= 16777216.0f && index.y >= -16777216.0f && index.y <= 16777216.0f && BRG_D24(t_v.dims[0]) && BRG_D24(t_v.dims[1])) {' gf.cl
	# four scalars, not a BRG_L4 (PoCL's loop over the work-items)
	grep -qF 'struct { BRG_L x, y, z, w; } brg_sh_index = { BRG_CVT(index.x), BRG_CVT(index.y), BRG_CVT(index.z), BRG_CVT(index.w) };' gf.cl
	grep -qF 'index += step, brg_sh_index.x = min(brg_sh_index.x + (BRG_L)1, (BRG_L)1073741824), brg_sh_index.y = max(brg_sh_index.y + (BRG_L)-1, (BRG_L)-1073741824);' gf.cl
	grep -qF 'BRG_GE(t, t_v.base, brg_ci(brg_sh_index.x, t_v.dims[0]) + brg_ci(brg_sh_index.y, t_v.dims[1]) * t_v.pitch[1])' gf.cl
	grep -qF 't[brg_gat_float2(&t_v, index.xy)]' gf.cl
	[ "$(grep -c 'struct { BRG_L x, y, z, w; } brg_sh_' gf.cl)" -eq 4 ]
	! grep -q 'BRG_L4 brg_sh_' gf.cl || false
	# the guide's simple_matmult: index.zw and index.xy
	brpp "$top_srcdir/examples/simple_matmult.br" | brparse | brcheck 2>/dev/null |
		brgen --target=opencl > sm.cl
	grep -q 'brg_ci(brg_sh_index.z, A_v.dims\[0\])' sm.cl
	# not for an index assigned otherwise, or stepped both ways
	cat > w.br <<'BR'
kernel void k(float t[], out float o<>)
{
	float i = 0.0f, s = 0.0f, u = 0.0f;
	int j;
	for (j = 0; j < 4; j++) {
		s += t[i] + t[u];
		i = i + 1.0f;
		u += 1.0f;
		u += -2.0f;
	}
	o = s;
}
BR
	brpp w.br | brparse | brcheck | brgen --target=opencl > w.cl
	! grep -q brg_sh_ w.cl || false
}

@test "brgen: the guide's loop counted down by a float gets a copy on an integer count without clamps, taken when its reads lie inside" {
	brpp "$top_srcdir/examples/simple_matmult.br" | brparse | brcheck 2>/dev/null |
		brgen --target=opencl > sm.cl
	sed -n '/^void simple_matmult__body(/,/^}/p' sm.cl > body.cl
	grep -qF 'const BRG_L brg_trip = brg_trips(i0);' body.cl
	# the test: A's z and B's y run from their start over brg_trip trips
	grep -qF 'if (brg_trip >= 0 && (long)brg_sh_index.y + (long)1 * brg_trip <= 16777216 && (long)brg_sh_index.z + (long)1 * brg_trip <= 16777216 && (brg_trip == 0 || (brg_sh_index.z >= 0 && (long)brg_sh_index.z + (long)1 * (brg_trip - 1) < A_v.dims[0] && brg_sh_index.w >= 0 && brg_sh_index.w < A_v.dims[1] && brg_sh_index.x >= 0 && brg_sh_index.x < B_v.dims[0] && brg_sh_index.y >= 0 && (long)brg_sh_index.y + (long)1 * (brg_trip - 1) < B_v.dims[1]))) {' body.cl
	# the copy: an integer count, no clamp, no cap, no float steps
	grep -qF 'for (BRG_L brg_k = 0; brg_k < brg_trip; brg_k++)' body.cl
	grep -qF 'accumulator += BRG_GE(A, A_v.base, brg_sh_index.z + brg_sh_index.w * A_v.pitch[1]) * BRG_GE(B, B_v.base, brg_sh_index.x + brg_sh_index.y * B_v.pitch[1]);' body.cl
	grep -qxF '				brg_sh_index.y += 1, brg_sh_index.z += 1;' body.cl
	# then the counter and the index as the float loop leaves them
	grep -qF 'i0 = i0 - (float)brg_trip; index.y = (float)brg_sh_index.y; index.z = (float)brg_sh_index.z;' body.cl
	# the other copies as before: three loops, two of them on i0
	[ "$(grep -c 'while (i0 > 0)' body.cl)" -eq 2 ]
	grep -q 'brg_ci(brg_sh_index.z, A_v.dims\[0\])' body.cl
	# not counted: a do loop, a counter read in the body, a break, a
	# step other than 1, a gather after the step
	for loop in 'do { s += t[k]; k += 1.0f; i = i - 1.0f; } while (i > 0);' \
		'while (i > 0) { s += t[k] + i; k += 1.0f; i = i - 1.0f; }' \
		'while (i > 0) { s += t[k]; if (s > 9.0f) break; k += 1.0f; i--; }' \
		'while (i > 0) { s += t[k]; k += 1.0f; i = i - 2.0f; }' \
		'while (i > 0) { k += 1.0f; s += t[k]; i -= 1.0f; }' \
		'while (i > 0) { s += t[k]; k += 1.0f; i = i - 1.0f; i = i - 1.0f; }' \
		'while (i > 0) { s += t[k]; if (s > 2.0f) k += 1.0f; k += 1.0f; i--; }'; do
		printf 'kernel void k(float t[], float n, out float o<>)\n{\n\tfloat i = n, k = 0.0f, s = 0.0f;\n\t%s\n\to = s;\n}\n' "$loop" > n.br
		brpp n.br | brparse | brcheck | brgen --target=opencl > n.cl
		grep -q 'brg_sh_k' n.cl
		! grep -q brg_trip n.cl || false
	done
	# the index read in the loop: its float steps stay, and its integers
	# are bounded all the same
	brpp "$top_srcdir/t/run/float_counter.br" | brparse | brcheck 2>/dev/null |
		brgen --target=opencl > fc.cl
	sed -n '/^void keep__body(/,/^}/p' fc.cl > keep.cl
	grep -qF 'if (brg_trip >= 0 && (long)brg_sh_index.x + (long)1 * brg_trip <= 16777216 && (long)brg_sh_index.y + (long)1 * brg_trip <= 16777216 && (brg_trip == 0' keep.cl
	grep -qF 'index += step, brg_sh_index.x += 1, brg_sh_index.y += 1;' keep.cl
	grep -qxF '			i0 = i0 - (float)brg_trip;' keep.cl
}

@test "brgen: K__packed takes an input or output stream's buffer alone, and one struct of the number of points and their bases (brt.h)" {
	cat > pk.br <<'BR'
kernel void pk(float a<>, float g[], float k, out float b<>)
{
	b = a * k + g[1];
}
kernel void pk3(float3 a<>, float2 c<>, out float3 b<>)
{
	b = a + float3(c.x, c.y, 0.0f);
}
BR
	brpp pk.br | brparse | brcheck | brgen --target=opencl > pk.cl
	# the marks libbrt looks for
	grep -qxF 'typedef struct brg_pv {' pk.cl
	grep -qxF '#define BRG_PACK1 1' pk.cl
	sed -n '/^typedef struct brg_pp_pk {$/,/^	const BRG_L brg_j = /p' pk.cl > head.cl
	cat > want.cl <<'CL'
typedef struct brg_pp_pk {
	BRG_L n, base[2];
} brg_pp_pk;

__kernel void pk__packed(
	__global const float *a,
	__global const float *g, const brt_view g_v,
	const float k,
	__global float *b,
	const brg_pp_pk brg_p)
{
	const BRG_L brg_n = brg_p.n;
#if defined(BRG_CPU) && !defined(BRG_PACK4)
	if ((BRG_L)get_global_size(0) >= brg_n) {
		const BRG_L brg_i = get_global_id(0);
		if ((BRG_L)get_global_size(0) != brg_n && brg_i >= brg_n)
			return;
		a += brg_p.base[0];
		const brg_pv a_v = { 0 };
		b += brg_p.base[1];
		const brg_pv b_v = { 0 };
		const brg_ctx brg_cx = brg_noctx();
		const float a_e = a[a_v.base + brg_i];
		float b_e = 0;
		pk__body(a_e, g, g_v, k, &b_e, brg_cx);
		b[b_v.base + brg_i] = b_e;
		return;
	}
#endif
	const brg_pv a_v = { brg_p.base[0] };
	const brg_pv b_v = { brg_p.base[1] };
	const BRG_L brg_j = get_global_id(0), brg_s = (brg_n + 3) / 4;
CL
	diff want.cl head.cl
	# K itself keeps its views, domain and offset
	grep -qF 'const BRG_L4 brg_dom, const BRG_L4 brg_off)' pk.cl
	# a 3-vector's buffer is of its scalars: its pointer stays, its view
	# has the base; a 2-vector's pointer steps by elements
	sed -n '/^__kernel void pk3__packed(/,/^#endif$/p' pk.cl > pk3.cl
	grep -qxF '		const brg_pv a_v = { brg_p.base[0] };' pk3.cl
	grep -qxF '		c += brg_p.base[1];' pk3.cl
	grep -qxF '		const brg_pv b_v = { brg_p.base[2] };' pk3.cl
	! grep -q 'a += \|b += ' pk3.cl || false
}

@test "brgen: a group kernel's scalars and vectors are a local array of structs on a CPU device where its local memory holds them" {
	brpp "$top_srcdir/t/run/group_locals.br" | brparse | brcheck |
		brgen --target=opencl > gl.cl
	sed -n '/^__kernel .* void brk_mix(/,/^#undef BRG_LV$/p' gl.cl > mix.cl
	# 112 bytes a work-item (float3 and int4 aligned to 16, double to 8,
	# char packed) times 16, and the shared 64
	grep -qxF '#if defined(BRG_CPU) && BRG_LOCAL_MEM >= 1856' mix.cl
	sed -n '/^	__local struct {$/,/^	} brg_lv\[16\];$/p' mix.cl |
		sed '1d;$d' | tr -d '\t' | tr '\n' ' ' > fields
	[ "$(cat fields)" = "int4 g; int t; uint u; float f; float2 f2; float3 f3; double d; int4 i4; char ch; int k; " ]
	grep -qxF '	const int brg_lid = (int)(get_local_id(0) + 4 * (get_local_id(1) + 2 * get_local_id(2)));' mix.cl
	# the same variables private where it does not; a bool and an array
	# are private either way
	sed -n '/^#else$/,/^#endif$/p' mix.cl | grep -c ';$' | grep -qx 10
	grep -qxF '	int odd;' mix.cl
	grep -qxF '	float w[2];' mix.cl
	grep -qF 'BRG_LV(f3) = BRG_LV(f3) + (float3)(' mix.cl
	! grep -q 'BRG_LV(odd)\|BRG_LV(w)' mix.cl || false
	# each kernel's macro ends with it: shift's 48 bytes times 8 and 32
	[ "$(grep -c '^#undef BRG_LV$' gl.cl)" -eq 2 ]
	grep -qxF '#if defined(BRG_CPU) && BRG_LOCAL_MEM >= 416' gl.cl
	# a shared array of structs: its size is not brgen's to tell, and
	# the variables stay private
	cat > st.br <<'BR'
typedef struct pair { float a; float b; } pair;
Attribute[GroupSize(8, 1, 1)]
kernel void st(float a<>, out float c[])
{
	shared pair s[8];
	float x = a;
	s[1 * instanceInGroup().x + 0].a = x;
	syncGroup();
	c[instance().x] = s[(instanceInGroup().x + 1) % 8].a + x;
}
BR
	brpp st.br | brparse | brcheck | brgen --target=opencl > st.cl
	grep -qxF '	float x;' st.cl
	! grep -q 'BRG_LV\|brg_lv' st.cl || false
	# a group of more than 2^20 work-items: private too
	cat > big.br <<'BR'
Attribute[GroupSize(1024, 1024, 2)]
kernel void big(float a<>, out float c[])
{
	shared float s[2097152];
	float x = a;
	s[1 * instanceInGroup().x + 0] = x;
	syncGroup();
	c[instance().x] = s[(instanceInGroup().x + 1) % 8] + x;
}
BR
	brpp big.br | brparse | brcheck | brgen --target=opencl > big.cl
	grep -qxF '	float x;' big.cl
	! grep -q 'BRG_LV\|brg_lv' big.cl || false
}

@test "brgen: a group-uniform loop runs the group's threads inside it on the CPU; a phase dividing the thread id splits its thread loop (gen_group.c)" {
	brpp "$top_srcdir/t/run/group_uniform.br" | brparse | brcheck |
		brgen -o gu
	# uni: the counter's loop around the thread loop, split by tid % 2;
	# t0 and t1 variables of a step; the variables of tid as their values;
	# the counter written back for the statement after the loop
	grep -qF 'for (brg_u1 = 0; brg_u1 < n; brg_u1++) {' gu.c
	grep -qF 'brg_t = brg_t1 * 2 + brg_t0;' gu.c
	grep -qF 'acc[brg_t] += t0 * t1 + (float)(((brg_t1 % 4 * 2 + brg_t0)) * 100 + (brg_t1) * 10 + (brg_t0) + ((brg_t1 / 8)));' gu.c
	grep -qF 'k[brg_t] = brg_u1;' gu.c
	grep -qF 'for (brg_u2 = 8; brg_u2 > 0; brg_u2 -= 3) {' gu.c
	# a phase that divides the thread id has the split thread loop too:
	# uni's first (row = tid / 4 as brg_t1 / 2)
	grep -qF 'row[brg_t] = (brg_t1 / 2);' gu.c
	# tiles' and edge's gathers: each coordinate tested for the group,
	# then read without clamps when all lie inside; y0 and bc, set once
	# from grp (set once from instance()), printed as their values
	grep -qF 'brg_in1 &= (unsigned)(((brg_div_int(grp[brg_t], (n / 16))) * 16) + (brg_t1)) < (unsigned)(A_v.dims[1] < 2147483647 ? A_v.dims[1] : 2147483647);' gu.c
	[ "$(grep -cF 'brg_in1 &= (unsigned)((((brg_mod_int(grp[brg_t], (n / 16))) * 16) + (brg_t1 % 4 * 4 + brg_t0)))' gu.c)" -eq 1 ]
	grep -qF 'A[(A_v.base + (int64_t)(k0[brg_t] / 4 + (brg_t0)) + (int64_t)(((brg_div_int(grp[brg_t], (n / 16))) * 16) + (brg_t1)) * A_v.pitch[1])];' gu.c
	grep -qF 'A[(A_v.base + brg_ci((int64_t)(k0[brg_t] / 4 + (brg_t0)), A_v.dims[0]) + brg_ci((int64_t)(((brg_div_int(grp[brg_t], (n / 16))) * 16) + (brg_t1)), A_v.dims[1]) * A_v.pitch[1])];' gu.c
	grep -qF 'brg_in1 &= (unsigned)(i[brg_t] / 8 + (brg_t1) - 1) < (unsigned)(g_v.dims[1] < 2147483647 ? g_v.dims[1] : 2147483647);' gu.c
	# tiles: k0 and grp tested for one value in the group, then read as
	# the group's in the guards and in the copy of the tiles (B's rows
	# step by one from thread to thread); edge's i = instance().x is not
	grep -qF 'brg_same1 &= (k0[brg_t] == k0[0]) & (grp[brg_t] == grp[0]);' gu.c
	grep -qF 'if (brg_full1 && brg_in1 && brg_same1) {' gu.c
	grep -qF 'const int brg_w_grp = grp[0];' gu.c
	grep -qF 'brg_in1 &= (unsigned)(((brg_div_int(brg_w_grp, (n / 16))) * 16) + (brg_t1)) <' gu.c
	grep -qF 'do { float4 brg_sv = float4_(B[(B_v.base + (int64_t)((((brg_mod_int(brg_w_grp, (n / 16))) * 16) + (brg_t1 % 4 * 4 + brg_t0))) + (int64_t)(brg_w_k0 + (4 * ((brg_t1 / 4)))) * B_v.pitch[1])],' gu.c
	! grep -q 'brg_w_i\b' gu.c || false
	# nonuni: a bound of tid, a counter moved in the body, break: the
	# thread loop stays outside; the loop after a return tests brg_ret
	grep -qF 'for (k[brg_t] = 0; k[brg_t] < tid[brg_t]; k[brg_t]++)' gu.c
	[ "$(grep -cF 'for (k[brg_t] = 0; k[brg_t] < 8; k[brg_t]++)' gu.c)" -eq 2 ]
	grep -qF 'brg_full0 &= (brg_act[brg_t] && !brg_ret[brg_t]) != 0;' gu.c
	# tiles: float4 variables of a step, without per-thread arrays, read
	# from shared memory component by component (an array per component)
	grep -qF 'a0 = float4_(brg_soa_As_x[(int64_t)((brg_t1) * 4 + brg_u2)], brg_soa_As_y[(int64_t)((brg_t1) * 4 + brg_u2)], brg_soa_As_z[(int64_t)((brg_t1) * 4 + brg_u2)], brg_soa_As_w[(int64_t)((brg_t1) * 4 + brg_u2)]);' gu.c
	grep -qF 'b1 = float4_(brg_soa_Bs_x[(int64_t)(brg_u2 * 16 + (brg_t0) + 8)],' gu.c
	! grep -qF 'float4 a0[' gu.c || false
	# flat: a per-thread vector copied in and out of the step (t is
	# only read: copied in)
	grep -qF 'brg_p_v = brg_add_float2(brg_p_v, float2_(' gu.c
	grep -qF 'v[brg_t].y = brg_p_v.y;' gu.c
	[ "$(grep -c 'brg_p_t\.x = t\[brg_t\]\.x;' gu.c)" -eq 2 ]
	! grep -q 't\[brg_t\]\.x = brg_p_t' gu.c || false
	# carry: its loop carries 20 values (five float4s): each thread runs
	# it whole inside the thread loop, the float4s copied in and out
	sed -n '/^static void carry__cpu/,/^}/p' gu.c > carry.c
	[ "$(grep -c 'for (brg_u0 = 0; brg_u0 < 5; brg_u0++) {' carry.c)" -eq 2 ]
	grep -B1 'for (brg_u0 = 0; brg_u0 < 5; brg_u0++) {' carry.c |
		grep -qxF '						float4 w = {0};'
	grep -qF 'brg_p_p4 = brg_add_float4(brg_p_p4, float4_(' carry.c
	! grep -A1 'for (brg_u0 = 0; brg_u0 < 5; brg_u0++) {' carry.c |
		grep -q 'brg_full' || false
	# OpenCL's code does not change; --checked keeps the phases' order
	! grep '^	"' gu.c | grep -q 'brg_u0\|brg_t1' || false
	brpp "$top_srcdir/t/run/group_uniform.br" | brparse | brcheck |
		brgen --checked -o guc
	! grep -q 'brg_u0\|brg_t1' guc.c || false
	# a phase that writes shared memory it reads keeps its order
	cat > rw.br <<'BR'
Attribute[GroupSize(8, 1, 1)]
kernel void rw(float a<>, out float c[])
{
	shared float s[8];
	int t = instanceInGroup().x;
	float acc = 0.0f;
	int k;
	s[1 * instanceInGroup().x + 0] = a;
	syncGroup();
	for (k = 0; k < 8; k++)
		acc += s[k];
	s[1 * instanceInGroup().x + 0] = acc;
	syncGroup();
	c[instance().x] = s[(t + 1) % 8];
}
BR
	brpp rw.br | brparse | brcheck | brgen -o rw
	grep -qF 'for (k[brg_t] = 0; k[brg_t] < 8; k[brg_t]++)' rw.c
	! grep -q 'brg_u0' rw.c || false
	# gcc vectorizes the split thread loop of tiles' step
	$BROOK_CC --version 2>/dev/null | grep -qi 'gcc\|free software' ||
		skip "not gcc"
	$BROOK_CC -std=c99 -O3 -I"$top_srcdir/lib/brt" -fopt-info-vec-optimized \
		-c gu.c -o gu.o 2> vec.txt
	local line
	line=$(grep -nF 'a0 = float4_(brg_soa_As_x[(int64_t)((brg_t1) * 4 + brg_u2)]' gu.c | head -1)
	line=${line%%:*}
	vectorized_in vec.txt $((line - 12)) "$line"
}

@test "brgen: on the CPU a shared array of vectors is an array per component where each use allows it (gen_group.c, gen_soa_plan)" {
	brpp "$top_srcdir/t/run/group_soa.br" | brparse | brcheck |
		brgen -o gs
	sed -n '/^static void soa__cpu/,/^}/p' gs.c > soa.c
	sed -n '/^static void aos__cpu/,/^}/p' gs.c > aos.c
	# soa: float4, int2 and float3 (three arrays, no w)
	grep -qxF '		float brg_soa_s_w[16];' soa.c
	grep -qxF '		int brg_soa_q_y[16];' soa.c
	grep -qxF '		float brg_soa_r_z[16];' soa.c
	! grep -q 'brg_soa_r_w\|float4 s\[' soa.c || false
	# a whole element stored: the value once, then each component
	grep -qF 'do { float4 brg_sv = brg_add_float4(a_e[brg_t], a_e[brg_t]); brg_soa_s_x[(int64_t)(1 * brg_ing.x + 0)] = brg_sv.x; brg_soa_s_y[(int64_t)(1 * brg_ing.x + 0)] = brg_sv.y;' soa.c
	grep -qF 'do { float3 brg_sv = brg_swz_float4_zyx(a_e[brg_t]);' soa.c
	# one component written by =, += and ++; read by a swizzle of two
	grep -qF 'brg_soa_q_y[(int64_t)(1 * brg_ing.x + 0)] += 3;' soa.c
	grep -qF 'brg_soa_q_x[(int64_t)(1 * brg_ing.x + 0)]++;' soa.c
	grep -qF 'float2_(brg_soa_s_w[(int64_t)(((brg_ing.x) * 3 + brg_u0) % 8)], brg_soa_s_z[(int64_t)(((brg_ing.x) * 3 + brg_u0) % 8)])' soa.c
	grep -qF 'w[brg_t] = float3_(brg_soa_r_x[(int64_t)(((brg_ing.x) + 5) % 8)], brg_soa_r_y[' soa.c
	# aos: a whole element stepped by +=, a swizzle of two as a target,
	# an index with a side effect keep the array of structs
	grep -qxF '		float4 s[16];' aos.c
	grep -qxF '		float2 t[16];' aos.c
	grep -qxF '		float4 u[16];' aos.c
	! grep -q brg_soa aos.c || false
	# OpenCL's code does not change (its text in gs.c is cut in pieces
	# that may split a line)
	brpp "$top_srcdir/t/run/group_soa.br" | brparse | brcheck |
		brgen --target=opencl > gs.cl
	[ "$(grep -c '__local float4 s\[16\];' gs.cl)" -eq 2 ]
	! grep -q 'brg_soa' gs.cl || false
}

@test "a kernel with a loop is marked .loops = 1 (the CPU backend shares its small domains among threads)" {
	brpp "$top_srcdir/t/gen/loops.br" | brparse | brcheck | brgen -o loops
	sed -n '/^static const brt_kernel flat__kernel = {/,/^};/p' loops.c > flat.d
	sed -n '/^static const brt_kernel counted__kernel = {/,/^};/p' loops.c > counted.d
	sed -n '/^static const brt_kernel whiled__kernel = {/,/^};/p' loops.c > whiled.d
	[ -s flat.d ] && [ -s counted.d ] && [ -s whiled.d ]
	! grep -q '\.loops' flat.d || false
	grep -q '^	\.loops = 1,$' counted.d
	grep -q '^	\.loops = 1,$' whiled.d
}

# brgen_both AST ARGS...: brgen -j 1 and -j 2 on AST into 1/out and
# 2/out, each file the same
brgen_both() {
	local ast=$1
	shift
	rm -rf 1 2 && mkdir 1 2
	brgen -j 1 "$@" -o 1/out "$ast"
	brgen -j2 "$@" -o 2/out "$ast"
	for f in 1/out.*; do
		cmp "$f" "2/${f#1/}"
	done
}

@test "brgen -j 1 and -j 2 write the same files, with -l, -k and --fast-math too" {
	local n=0
	"$top_srcdir/bench/gen-big.sh" > big.br
	for src in big.br "$top_srcdir"/t/run/*.br "$top_srcdir"/examples/*.br \
			"$top_srcdir"/bench/br/*.br; do
		brpp "$src" | brparse | brcheck > one.ast 2>/dev/null || continue
		brgen_both one.ast
		n=$((n + 1))
	done
	[ "$n" -gt 40 ]
	brpp big.br | brparse | brcheck > one.ast
	brgen_both one.ast -l -k
	[ -f 2/out.cl ] && grep -q '^#line' 2/out.c
	brgen_both one.ast --fast-math
}

@test "without --checked no program of the tree carries --checked's sites, index helpers or shared flags (a scatter's records stay: brgen(1))" {
	local n=0 c=0
	for src in "$top_srcdir"/t/run/*.br "$top_srcdir"/t/gen/*.br \
			"$top_srcdir"/examples/*.br "$top_srcdir"/bench/br/*.br; do
		brpp "$src" | brparse | brcheck > one.ast 2>/dev/null || continue
		brgen -o plain one.ast 2>/dev/null || continue
		brgen --checked -o checked one.ast
		if grep -E 'brg_sites|brg_aidx|brg_sf_|brg_vsite|\bbrg_zi\b' plain.c; then
			echo "in the plain code of $src" >&2
			return 1
		fi
		grep -q 'brg_sites' checked.c && c=$((c + 1))
		n=$((n + 1))
	done
	# it ran: 114 programs, 55 of whose checked code has sites
	[ "$n" -gt 100 ] && [ "$c" -gt 40 ]
}

@test "brgen -j 2 writes a helper that calls new helpers once and whole, in a kernel the second thread printed (difftest seed 7800032)" {
	# a long host function first keeps the first thread busy, so that
	# the second prints last's CPU code. brg_predec_float4 calls
	# brg_sub_float4 and a splat, which the first thread has from first:
	# the second thread's helpers are told apart by where each begins,
	# and brg_predec_float4 began where brg_sub_float4 did (before the
	# fix, 16 runs of 20 differed from -j 1)
	{
		printf 'float busy(float x)\n{\n'
		for i in $(seq 600); do
			printf '\tx = x * %d.0f + 1.0f;\n' $((i % 7 + 1))
		done
		printf '\treturn x;\n}\n'
		printf 'kernel void first(float4 a<>, float4 b<>, out float4 o<>)\n'
		printf '{\n\tfloat4 t = a - b;\n\tt++;\n\to = t;\n}\n'
		printf 'kernel void last(float4 a<>, out float4 o<>)\n{\n'
		printf '\tfloat4 arr[2];\n\tint i = 1;\n\tarr[0] = a;\n'
		printf '\tarr[1] = a;\n\to = --arr[i & 1];\n}\n'
	} > incdec.br
	brpp incdec.br | brparse | brcheck > incdec.ast
	for i in $(seq 8); do
		brgen_both incdec.ast
	done
	[ "$(grep -c '^BRG_FN float4 brg_predec_float4(' 2/out.c)" -eq 1 ]
	[ "$(grep -c '^BRG_FN float4 brg_sub_float4(' 2/out.c)" -eq 1 ]
	$BROOK_CC $BROOK_CFLAGS -c 2/out.c -o out.o
}

@test "brgen -j takes 1 or 2" {
	run brgen -j 3 -o out sum.ast
	[ "$status" -eq 2 ]
	[[ "$output" == *"-j takes 1 or 2, not '3'"* ]]
	run brgen -o out sum.ast -j
	[ "$status" -eq 2 ]
	[[ "$output" == *"-j takes 1 or 2, not ''"* ]]
	[ ! -f out.c ]
	brgen -j 2 -o out sum.ast
	[ -f out.c ]
}

@test "brgen -j 2 starts its second thread on the processor of two that the first is not on; -j 1 starts none" {
	strace_or_skip
	[ "${BROOK_VALGRIND-}" != 1 ] || skip "brgen runs under valgrind, which places its threads itself"
	grep -q 'define HAVE_PTHREAD_ATTR_SETAFFINITY_NP 1' "$top_builddir/config.h" ||
		skip "no pthread_attr_setaffinity_np"
	command -v taskset >/dev/null || skip "no taskset"
	taskset -c 0,1 true 2>/dev/null || skip "processors 0 and 1 are not both ours"
	"$top_srcdir/bench/gen-big.sh" 16 > big.br
	brpp big.br | brparse | brcheck > big.ast
	# a file a thread (-ff): no call split by another thread's lines
	taskset -c 0,1 strace -ff -e trace=sched_setaffinity -o two \
		brgen -j 2 -o out big.ast
	# one call, by the first thread, for the second: one processor of
	# the two (start_beside leaves out the one it runs on)
	local calls
	calls=$(grep -H 'sched_setaffinity(' two.*)
	[ "$(printf '%s\n' "$calls" | grep -c .)" -eq 1 ]
	local re='^two\.([0-9]+):sched_setaffinity\(([0-9]+), [0-9]+, \[[01]\]\) += 0$'
	[[ "$calls" =~ $re ]]
	[ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]
	taskset -c 0,1 strace -f -e trace=sched_setaffinity -o one.txt \
		brgen -j 1 -o out big.ast
	! grep -q 'sched_setaffinity(' one.txt || false
}

@test "with -j 2 the diagnostics are those of one thread: the OpenCL C's first, the host's only without them" {
	# a host function nested deeper than brgen follows [E-gen-nesting]
	{
		echo 'kernel void k(float a<>, out float b<>) { b = a; }'
		echo 'int main(void)'
		echo '{'
		printf '{%.0s' $(seq 300)
		echo 'float s<10>;'
		printf '}%.0s' $(seq 300)
		echo 'return 0;'
		echo '}'
	} > deep.br
	brpp deep.br | brparse | brcheck > deep.ast
	run brgen -j 1 -o out deep.ast
	[ "$status" -eq 1 ]
	[ "$output" = "deep.br:4:256: error: blocks nested more than 256 deep [E-gen-nesting]" ]
	one=$output
	run brgen -j 2 -o out deep.ast
	[ "$status" -eq 1 ]
	[ "$output" = "$one" ]
	# ... and a kernel brgen cannot translate: its error alone, once
	cat "$top_srcdir/t/gen/nested_sync.br" deep.br | sed 's/^kernel void k(float a<>, out float b<>)/kernel void k2(float a<>, out float b<>)/' > both.br
	brpp both.br | brparse | brcheck > both.ast
	run brgen -j 1 -o out both.ast
	[ "$status" -eq 1 ]
	[[ "$output" == *"[E-gen-sync-nested]"* ]]
	[[ "$output" != *"E-gen-nesting"* ]]
	one=$output
	run brgen -j 2 -o out both.ast
	[ "$status" -eq 1 ]
	[ "$output" = "$one" ]
	[ ! -f out.c ]
}

@test "a trigraph in a host string or character literal is kept as written, not replaced by cc -std=c99" {
	printf '#include <stdio.h>\nint main(void) { printf("what??!\\n"); printf("??/"); printf("%%c\\n", %s); return 0; }\n' "'?'" > tri.br
	brpp tri.br | brparse | brcheck | brgen -o tri
	grep -q 'what?\\?!' tri.c
	$BROOK_CC $BROOK_CFLAGS tri.c -o tri $BROOK_LIBS
	[ "$(./tri)" = "$(printf 'what??!\n??/?')" ]
}

@test "a source path with */ or a quote: the comments and #line directives of the C and OpenCL C stay well formed" {
	mkdir -p 'd*'
	printf 'kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\nint main(void) { return 0; }\n' > 'd*/q"b\s.br'
	brpp 'd*/q"b\s.br' | brparse | brcheck | brgen -l -k -o pq
	head -1 pq.c | grep -qF '/* generated by brgen from d* /q"b\s.br */'
	head -1 pq.cl | grep -qF 'd* /q"b\s.br */'
	grep -qF '#line 1 "d*/q\"b\\s.br"' pq.c
	$BROOK_CC $BROOK_CFLAGS pq.c -o pq $BROOK_LIBS
}

@test "a source path with a newline or ??: the AST names the file itself, and the generated C names it without a trigraph" {
	f=$(printf 'n\nl??-x.br')
	printf 'kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\nint main(void) { float x[2] = {1, 2}; float a<2>; float b<2>; streamRead(a, x); k(a, b); streamWrite(b, x); return (int)x[1]; }\n' > "$f"
	brpp "$f" | head -1 | grep -qF '# 1 "n\012l??-x.br"'
	brpp "$f" | brparse -o nl.ast
	python3 -c 'import json, sys; f = json.load(open("nl.ast"))["files"]; sys.exit(f != ["n\nl??-x.br"])'
	# a linemarker's or #line's escapes, as GCC spells them
	printf '#line 3 "t\\tq\\101\\\\z.br"\nkernel void k(float a<>) { a = ; }\n' | { ! brparse 2>err; }
	grep -qF "$(printf 't\tqA\\z.br:3:')" err
	brcheck nl.ast | brgen -l -o nl
	grep -qF '#line 1 "n\012l?\?-x.br"' nl.c
	grep -qF '.src_file = "n\012l?\?-x.br"' nl.c
	$BROOK_CC $BROOK_CFLAGS -Wall -Werror nl.c -o nl $BROOK_LIBS
	run ./nl
	[ "$status" = 3 ]
}

@test "the OpenCL program in the generated C: rows of 4,000 characters (C99 -pedantic takes no longer literal), the bytes of brgen --target=opencl" {
	cp "$top_srcdir/examples/sum.br" "$(printf 'caf\303\251??=x.br')"
	for f in "$top_srcdir/t/run/iter.br" "$top_srcdir/t/run/struct.br" caf*.br; do
		brpp "$f" | brparse | brcheck > p.ast
		brgen -o p p.ast
		brgen --target=opencl p.ast > want.cl
		n=$(wc -c < want.cl)
		grep -q "^static const char brg_cl_source\[$(( (n + 3999) / 4000 ))\]\[4000\] = {$" p.c
		grep -q "(const char \*)brg_cl_source, $n, &brt_abi_[0-9]*$" p.c
		# no literal spans more than a row, and the text is the same
		printf '#define main user_main\n#include "p.c"\n#undef main\nint main(void) { return fwrite(brg_program.source, 1, brg_program.length, stdout) != brg_program.length; }\n' > dump.c
		$BROOK_CC $BROOK_CFLAGS -Woverlength-strings dump.c -o dump $BROOK_LIBS
		./dump > got.cl
		cmp got.cl want.cl
	done
	# the name's bytes past ASCII in octal, and ?? without a trigraph
	grep -qF '"/* OpenCL C generated by brgen from caf\303\251?\?=x.br */\n"' p.c
	if command -v clang >/dev/null; then
		clang -std=c99 -pedantic -Wall -Wextra -Werror -c p.c \
			-I"$top_srcdir/lib/brt" -o p.o
	fi
}

@test "kernels named like OpenCL functions the entries call are renamed; names the generated code takes are refused before brgen" {
	cat > rn.br <<'SRC'
kernel void barrier(float a<>, out float b<>) { b = a + 1.0f; }
kernel void get_id(float a<>, out float b<>) { b = a * 2.0f; }
kernel void ctz(float a<>, out float b<>) { b = a - 1.0f; }
int main(void) { float a<4>; float b<4>; barrier(a, b); get_id(a, b); ctz(a, b); return 0; }
SRC
	brpp rn.br | brparse | brcheck | brgen -k -o rn
	for k in barrier get_id ctz; do
		grep -q "^__kernel void brk_${k}__packed(" rn.cl
		grep -q ".cl_name = \"brk_$k\"" rn.c
	done
	$BROOK_CC $BROOK_CFLAGS rn.c -o rn $BROOK_LIBS
	for src in 'kernel void k(float global<>, out float b<>) { b = global; }' \
		'kernel void k(float a<>, out float b<>) { float INFINITY = a; b = INFINITY; }' \
		'kernel void sqrt(float a<>, out float b<>) { b = a; }' \
		'kernel void k(float a<>, out float k__kernel<>) { k__kernel = a; }' \
		'int brg_ret; kernel void k(float a<>, out float b<>) { b = a; }'; do
		printf '%s\n' "$src" > bad.br
		run brcheck bad.br
		[ "$status" = 1 ]
		[[ "$output" == *"[E-reserved-name]"* || "$output" == *"[E-generated-name]"* ]]
	done
}
