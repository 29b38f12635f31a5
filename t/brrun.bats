#!/usr/bin/env bats
# t/brrun.bats - brrun: every kernel kind on both backends (the CPU
# interpreter and the generated OpenCL C must print the same), every data
# format, every option and every error.
load helper
bats_require_minimum_version 1.5.0

K="$top_srcdir/t/brrun/kernels.br"
SUM="$top_srcdir/examples/sum.br"

setup() {
	cd "$BATS_TEST_TMPDIR"
	# under --enable-sanitizers: leaks of the OpenCL driver are not ours
	export LSAN_OPTIONS="suppressions=$top_srcdir/t/brrun/lsan.supp:print_suppressions=0"
}

# both ARGS...: brrun ARGS on the CPU backend and on OpenCL; fails unless
# both exit 0 with the same output, which is left in $output.
both() {
	local cpu ocl
	cpu=$(brrun --backend cpu "$@" 2>&1) || {
		echo "cpu backend failed: $cpu" >&2; return 1; }
	ocl=$(brrun --backend opencl "$@" 2>&1) || {
		echo "opencl backend failed: $ocl" >&2; return 1; }
	if [ "$cpu" != "$ocl" ]; then
		echo "outputs differ between backends:" >&2
		diff <(echo "$cpu") <(echo "$ocl") >&2
		return 1
	fi
	output=$cpu
}

# expect TEXT: $output is TEXT (printf-style escapes allowed).
expect() {
	local want
	want=$(printf -- "$1")
	if [ "$output" != "$want" ]; then
		echo "expected:" >&2; echo "$want" >&2
		echo "got:" >&2; echo "$output" >&2
		return 1
	fi
}

# fails_with STATUS TEXT ARGS...: brrun ARGS exits with STATUS and prints a
# one-line message containing TEXT.
fails_with() {
	local st=$1 text=$2
	shift 2
	run brrun "$@"
	if [ "$status" -ne "$st" ]; then
		echo "status $status, expected $st: $output" >&2
		return 1
	fi
	if [[ "$output" != *"$text"* ]]; then
		echo "message lacks '$text': $output" >&2
		return 1
	fi
	if [ "$(printf '%s\n' "$output" | wc -l)" -ne 1 ]; then
		echo "more than one line: $output" >&2
		return 1
	fi
}

# npy VERSION DESCR SHAPE DATA: a .npy file on stdout; DATA is printf
# escapes of the data bytes. A DESCR in [..] is a structured dtype's list.
npy() {
	local ver=$1 descr=$2 shape=$3 data=$4
	[[ $descr == \[* ]] || descr="'$descr'"
	local hdr="{'descr': $descr, 'fortran_order': False, 'shape': $shape, }"
	local pre=10
	[ "$ver" -ge 2 ] && pre=12
	while [ $(( (pre + ${#hdr} + 1) % 64 )) -ne 0 ]; do hdr="$hdr "; done
	local n=$(( ${#hdr} + 1 ))
	printf '\223NUMPY'
	printf "\\$(printf %03o "$ver")\\000"
	if [ "$ver" -eq 1 ]; then
		printf "\\$(printf %03o $((n & 255)))\\$(printf %03o $((n >> 8)))"
	else
		printf "\\$(printf %03o $((n & 255)))\\$(printf %03o $((n >> 8)))\\000\\000"
	fi
	printf '%s\n' "$hdr"
	printf "$data"
}

# float32 1, 2, 3 little-endian
F123='\000\000\200\077\000\000\000\100\000\000\100\100'

# ---- kernels on both backends ---------------------------------------------

@test "the issue's example: sum of two literals" {
	both "$SUM" sum a=[1,2,3] b=[10,20,30] c
	expect "11 22 33"
}

@test "2-D literal, rows first, and a generator" {
	both "$SUM" sum a=[[1,2],[3,4]] b=ones c
	expect "2 3\n4 5"
}

@test "an output not named is printed anyway" {
	both "$SUM" sum a=[1,2] b=[3,4]
	expect "4 6"
}

@test "a value parameter" {
	both "$K" scale a=[1,2,3] k=2.5 c
	expect "2.5 5 7.5"
}

@test "vectors, swizzles, two outputs headed by their names" {
	both "$K" vec a=[[1,2,3,4],[5,6,7,8]] b=ones c d
	expect "c:\n5,5,5,5 9,9,9,9\nd:\n13.7417 36.4881"
}

@test "spec 5 builtins: frac round sign lerp clamp fmod abs floor sqrt rsqrt" {
	both "$K" math a=[-2.5,-1,-0.5,0,0.3,1.5,2.5,7.25] c
	expect "-2.5,-4.125,-3.5,2.11566 -2,-2.25,-1.5,1.70711 -0.5,-1.125,-1,1.5236 0,0,0.5,1 1.3,0.675,1.4,1.42478 3.5,2.875,4.5,1.8572 4.5,4.125,8.5,2.11566 8.25,10.0625,23.25,3.04074"
}

@test "cross and normalize" {
	both "$K" vmath a=[[1,2,3],[0,0,2]] b=[[4,5,6],[1,0,0]] c n
	expect "c:\n-3,6,-3 0,2,0\nn:\n0.267261,0.534522,0.801784 0,0,1"
}

@test "the seeds' builtins program, kernel by kernel" {
	both "$top_srcdir/t/run/builtins.br" f1 \
		x=[-2.75,-1.5,-0.25,0,0.5,1.25,3.5] r1 r2 r3
	both "$top_srcdir/t/run/builtins.br" f2 \
		v=[[3,4,0,2],[0,0,1,-1],[1,2,2,4]] n c s
	both "$top_srcdir/t/run/builtins.br" f3 \
		v=[[3,4,0,2],[0,0,1,-1],[1,2,2,4]] e p q
	expect "e:\n1,1,1,1 1,1,1,1 1,1,1,1\np:\n0,0,1,-1 1,1,1,-1 0,0,1,-1\nq:\n-2,-2,0,-1 0,0,-1,0 -1,-1,-1,-2"
}

@test "32-bit int arithmetic, shifts, unsigned wrap-around" {
	both "$K" ints a=[7,-7,100,-100] b=[2,2,-3,7] c d e
	expect "c:\n4 -4 -32 -16\nd:\n63 -55 -802 -793\ne:\n14 4294967282 4294966996 4294966596"
}

@test "char and short arithmetic" {
	both "$K" chars a=[100,-100,5] b=[100,200,250] c d
	expect "c:\n-56 100 -1\nd:\n10000 -20000 1250"
}

@test "for, while, do, break, continue, switch" {
	both "$K" loops n=[0,1,2,3,10,50] c
	expect "13 1003 2013 16 71 26"
}

@test "local arrays, ?:, &&" {
	both "$K" local_array a=[1,2] c
	expect "6 12"
	both "$K" cond a=[-1,2,5] c
	expect "1 102 5"
}

@test "gather: float index, clamped to the array" {
	both "$K" gather idx=[0,2.7,-1,10] g=[10,20,30,40] c
	expect "10 30 10 40"
}

@test "gather: vector index and C-style indices" {
	both "$K" gather2 p=[[0,0],[1,0],[0,1],[5,5]] g=[[1,2],[3,4]] c d
	expect "c:\n1 2 3 4\nd:\n1 2 3 4"
}

@test "gather of a declared 3-D array" {
	both "$top_srcdir/t/run/gather.br" g3 p=[[0,0,0],[3,2,1],[1,1,1]] \
		t=iota o --shape t=4x3x2
	expect "0 23023 17017"
}

@test "indexof and instance()" {
	both "$K" where a=[[1,2,3],[4,5,6]] c
	expect "0,0,0,0 1,0,0,0 2,0,0,0\n0,1,0,0 1,1,0,0 2,1,0,0"
	both "$top_srcdir/t/run/indexof.br" where_out i --shape i=3x2
	expect "0,0,0,0 1,0,0,0 2,0,0,0\n0,1,0,0 1,1,0,0 2,1,0,0"
}

@test "reduce function to a scalar: sum and max" {
	both "$K" rsum a=iota r --shape a=100
	expect "4950"
	both "$K" rmax a=[3,9,2,7] r
	expect "9"
}

@test "reduction variables start from the operator's identity" {
	both "$K" vsum a=iota s --shape a=1000
	expect "499500"
	both "$K" prod a=[1,2,3,4,5] p
	expect "120"
	for k in "isum a=[1,2,3,4] b:10" "ior a=[1,2,4,8] b:15" \
		"ixor a=[1,3,7] b:5" "iand a=[7,6,14] b:6" \
		"cond_sum a=[1,20,30,5] c:50"; do
		both "$top_srcdir/t/run/reduce.br" ${k%:*}
		expect "${k##*:}"
	done
}

@test "partial reductions onto a stream (spec 4.1.3)" {
	both "$K" rsum a=[[1,2,3,4],[5,6,7,8]] r --shape r=1x2
	expect "10\n26"
	both "$K" rsum a=[[1,2,3,4],[5,6,7,8]] r --shape r=2x1
	expect "14 22"
}

@test "a reduce function's constant argument also rules the combining of partial results" {
	# 100,000 elements are folded in several ranges on the CPU backend and
	# several work-groups on OpenCL; wantmax=1 combines them by max
	both "$top_srcdir/t/run/reduce_more.br" pick a=iota wantmax=1 b --shape a=100000
	expect "99999"
	both "$top_srcdir/t/run/reduce_more.br" pick a=iota wantmax=0 b --shape a=100000
	expect "0"
	both "$top_srcdir/t/run/reduce_more.br" pick a=iota wantmax=1 b --shape a=25000x4 --shape b=1x4
	expect "24999\n49999\n74999\n99999"
}

@test "a reduction variable given a start value, both backends" {
	both "$K" vsum a=[1,2,3] s=10
	expect "16"
}

@test "subkernels with return values and out arguments" {
	both "$K" subk a=[1,2,3] c
	expect "5 13 25"
	both "$top_srcdir/t/run/subkernel.br" many a=[-1,0,1,2,3] \
		b=[5,-5,0.5,2.5,1] p q r m
	expect "p:\n0 1 4 9 16\nq:\n-2 0 2 4 6\nr:\n1,-5,0.5,1.5 -0,5,-0,-0 -1,-0.5,-0.5,-1.5 -2,-2.5,-1,-3 -3,-1,-1.5,-4.5\nm:\n5 0 1 2.5 3"
}

@test "scatter: the rest of the array stays zero, out of range dropped" {
	both "$K" scat a=[1,2,3] idx=[2,0,1] s
	expect "2 3 1"
	both "$top_srcdir/t/run/scatter.br" scatter index=[3,2,1,0,9] \
		a=[1,2,3,4,5] b --shape b=5
	# the dropped write is a warning (brt.3, brt_records)
	expect "brrun: warning: b: Kernel Execution: kernel scatter: scatter outside the array b of 5 x 1 x 1 x 1; the write is dropped [E-run-runtime]\n4 3 2 1 0"
}

@test "a struct scatter outside its array is a dropped write on both backends" {
	cat > st.br <<'B'
typedef struct { float a; float b; } P;
kernel void s(P v<>, float i<>, out P t[]) { t[(int)i] = v; }
B
	both st.br s 'v=[[1,2],[3,4]]' i=[0,5] t --shape t=2
	expect "brrun: warning: t: Kernel Execution: kernel s: scatter outside the array t of 2 x 1 x 1 x 1; the write is dropped [E-run-runtime]\n1,2 0,0"
}

@test "--checked reports gathers and scatters outside their array, the same on both backends" {
	cp "$top_srcdir/t/brrun/checked.br" oor.br
	both --checked oor.br g a=[1,2,3,4] i=[0,1,2,3] r
	expect "oor.br:3: kernel g: gather index (4, 0, 0, 0) outside the array a of 4 x 1 x 1 x 1; reading the nearest element\noor.br:3: kernel g: gather index (5, 0, 0, 0) outside the array a of 4 x 1 x 1 x 1; reading the nearest element\n3 4 4 4"
	both --checked oor.br s 'v=[[1,2],[3,4]]' i=[1,-3] t --shape t=1x2
	expect "oor.br:7: kernel s: scatter index (0, -3, 0, 0) outside the array t of 1 x 2 x 1 x 1; the write is dropped\nbrrun: warning: t: Kernel Execution: kernel s: scatter outside the array t of 1 x 2 x 1 x 1; the write is dropped [E-run-runtime]\n0,0\n1,0"
	# in a function the kernel calls: the function and its parameter
	both --checked oor.br h a=[1,2] i=[1,2] r
	expect "oor.br:9: kernel pick: gather index (2, 0, 0, 0) outside the array a of 2 x 1 x 1 x 1; reading the nearest element\n2 2"
	# without it: the gathers clamp silently
	both oor.br g a=[1,2,3,4] i=[0,1,2,3] r
	expect "3 4 4 4"
}

@test "--checked reports indices outside a kernel's C arrays and shared arrays, the same on both backends" {
	cp "$top_srcdir/t/gen/checked_array.br" ca.br
	both --checked ca.br rd i=[0,3,4,-1] r
	expect "ca.br:9: kernel rd: index -1 outside the array t[4]; using the nearest element\nca.br:9: kernel rd: index 4 outside the array t[4]; using the nearest element\n0 30 30 0"
	# a write: the nearest element too
	both --checked ca.br wr i=[0,2,3,-2] r
	expect "ca.br:14: kernel wr: index -2 outside the array t[3]; using the nearest element\nca.br:14: kernel wr: index 3 outside the array t[3]; using the nearest element\n923 129 129 923"
	# two dimensions, each checked
	both --checked ca.br two i=[0,3] j=[2,-1] r
	expect "ca.br:24: kernel two: index 3 outside the array m[2][3] in its dimension 1; using the nearest element\nca.br:24: kernel two: index -1 outside the array m[2][3] in its dimension 2; using the nearest element\n3 4"
	# an array of structs, a function the kernel calls, a shared array
	both --checked ca.br st i=[2] r
	expect "ca.br:40: kernel st: index 2 outside the array p[2]; using the nearest element\n27"
	both --checked ca.br sub a=[1] i=[5] r
	expect "ca.br:48: kernel nth: index 5 outside the array t[2]; using the nearest element\n2"
	both --checked ca.br grp a=iota i=[0,3,4,-1,1,2,3,9] r --shape a=8 --shape r=8
	expect "ca.br:57: kernel grp: index -1 outside the shared array s[4]; using the nearest element\nca.br:57: kernel grp: index 4 outside the shared array s[4]; using the nearest element\nca.br:57: kernel grp: index 9 outside the shared array s[4]; using the nearest element\n0 3 3 0 5 6 7 7"
	# reductions: a reduce variable onto a stream, a reduce function,
	# whose body also folds partial results (n - 1 calls a target element)
	both --checked ca.br rsum a=iota s --shape a=8 --shape s=2
	expect "ca.br:64: kernel rsum: index 3 outside the array t[3]; using the nearest element\nca.br:64: kernel rsum: index 4 outside the array t[3]; using the nearest element\nca.br:64: kernel rsum: index 5 outside the array t[3]; using the nearest element\nca.br:64: kernel rsum: index 6 outside the array t[3]; using the nearest element\nca.br:64: kernel rsum: index 7 outside the array t[3]; using the nearest element\n5 22"
	both --checked ca.br rmx a=iota k=2 r --shape a=8
	expect "ca.br:72: kernel rmx: index 2 outside the array t[2]; using the nearest element\n7\nbrt: 6 --checked reports were the same as one printed before: each prints once"
	# a report prints once a process: --bench runs the kernel four times
	for be in cpu opencl; do
		run brrun --backend $be --checked --bench 3 ca.br rd i=[4] r
		[ "$status" = 0 ]
		[ "$(grep -c 'kernel rd: index 4 outside the array t\[4\]' <<< "$output")" = 1 ]
		[[ "$output" == *$'\n'"brt: 3 --checked reports were the same as one printed before: each prints once" ]]
	done
	# without --checked: no report (the interpreter uses the nearest
	# element; compiled code follows C, where such an index is undefined)
	run brrun --backend cpu ca.br rd i=[4] r
	[ "$status" = 0 ] && [ "$output" = "30" ]
}

@test "--checked reports elements of shared arrays read before any work-item of the group wrote them, the same on both backends" {
	cp "$top_srcdir/t/gen/checked_shared.br" cs.br
	# s[i] = s[i] + a: the read comes before the write
	both --checked cs.br self a=[1,2,3,4] r
	expect "cs.br:8: kernel self: element 0 of the shared array s[4] read before any work-item of its group wrote it; using 0\ncs.br:8: kernel self: element 1 of the shared array s[4] read before any work-item of its group wrote it; using 0\ncs.br:8: kernel self: element 2 of the shared array s[4] read before any work-item of its group wrote it; using 0\ncs.br:8: kernel self: element 3 of the shared array s[4] read before any work-item of its group wrote it; using 0\n1 2 3 4"
	# ++ reads first; an out argument written before is no report
	both --checked cs.br upd a=[1,2,3,4] r
	expect "cs.br:18: kernel upd: element 1 of the shared array s[8] read before any work-item of its group wrote it; using 0\ncs.br:18: kernel upd: element 3 of the shared array s[8] read before any work-item of its group wrote it; using 0\ncs.br:18: kernel upd: element 5 of the shared array s[8] read before any work-item of its group wrote it; using 0\ncs.br:18: kernel upd: element 7 of the shared array s[8] read before any work-item of its group wrote it; using 0\n12 14 16 18"
	# a flag a component: .y written but for element 2, .x never
	both --checked cs.br vec a=[1,2,3,4] r
	expect "cs.br:31: kernel vec: component .x of element 0 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 1 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 2 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 3 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .y of element 2 of the shared array v[4] read before any work-item of its group wrote it; using 0\n4 0 2 1"
	# each group starts unwritten: the second group reads them again
	both --checked cs.br vec a=iota r --shape a=8
	expect "cs.br:31: kernel vec: component .x of element 0 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 1 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 2 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .x of element 3 of the shared array v[4] read before any work-item of its group wrote it; using 0\ncs.br:31: kernel vec: component .y of element 2 of the shared array v[4] read before any work-item of its group wrote it; using 0\n3 0 1 0 7 0 5 4\nbrt: 5 --checked reports were the same as one printed before: each prints once"
	# .zw.x = a writes z; .x += a reads x first; a whole float4 read
	# with x and z written; .yx of a float3 written, .z read
	both --checked cs.br comp a=[1,2,3,4] r
	expect "cs.br:40: kernel comp: component .x of element 0 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:40: kernel comp: component .x of element 1 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:40: kernel comp: component .x of element 2 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:40: kernel comp: component .x of element 3 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:43: kernel comp: components .yw of element 0 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:43: kernel comp: components .yw of element 1 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:43: kernel comp: components .yw of element 2 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:43: kernel comp: components .yw of element 3 of the shared array w[4] read before any work-item of its group wrote it; using 0\ncs.br:44: kernel comp: component .z of element 0 of the shared array t[4] read before any work-item of its group wrote it; using 0\ncs.br:44: kernel comp: component .z of element 1 of the shared array t[4] read before any work-item of its group wrote it; using 0\ncs.br:44: kernel comp: component .z of element 2 of the shared array t[4] read before any work-item of its group wrote it; using 0\ncs.br:44: kernel comp: component .z of element 3 of the shared array t[4] read before any work-item of its group wrote it; using 0\n102 204 306 408"
}

@test "an index with a side effect in a compound assignment or an out argument is evaluated once, as in C, on both backends" {
	cp "$top_srcdir/t/gen/checked_array.br" ca.br
	# t[i++] += a; t[i++] += 2; t[i]++;
	both ca.br inc a=[0,3,4,-1] r
	expect "212 3212 4212 -788"
	both --checked ca.br inc a=[5] r
	expect "5212"
	# an out argument of a subkernel: read in and written back, its
	# index once (scalars and structs)
	cat > oa.br <<'B'
typedef struct { float a; float b; } P;
kernel void set(float v, out float o<>) { o = o + v; }
kernel void setp(float v, out P o<>) { o.a = o.a + v; o.b = v; }
kernel void f(float a<>, out float r<>)
{
	float t[4] = {1.0f, 2.0f, 3.0f, 4.0f};
	P q[3];
	int i = 0, j = 0;
	q[0].a = 1.0f; q[0].b = 0.0f; q[1].a = 2.0f; q[1].b = 0.0f;
	q[2].a = 3.0f; q[2].b = 0.0f;
	set(a, t[i++]);
	set(a, t[i++]);
	setp(a, q[j++]);
	setp(a, q[j++]);
	r = t[0] * 1000.0f + t[1] * 100.0f + t[2] * 10.0f + (float)(i + j)
		+ q[0].a * 0.1f + q[1].a * 0.01f + q[2].a * 0.001f;
}
B
	both oa.br f a=[1,2] r
	expect "2334.23 3434.34"
}

@test "a gather's vector index with a side effect is evaluated once, on both backends" {
	# the interpreter evaluated int2(c++, 0) once a component: c + 2
	cat > vi.br <<'B'
kernel void f(float a<>, float g[][], float h[][][], out float r<>)
{
	int c = 0, d = 1;
	float x = g[int2(c++, 0)];
	float y = h[int3(0, d++, 0)];
	r = x * 100.0f + y + (float)(c * 10 + d);
}
B
	both vi.br f a=[0,0] "g=[[1,2],[3,4]]" "h=[[[5,6],[7,8]]]" r
	expect "119 119"
}

@test "--checked sorts a launch's reports by line and index, the same on both backends whatever order the instances ran in" {
	cat > gr.br <<'B'
Attribute[GroupSize(4, 1, 1)]
kernel void rev(float a<>, float g[], out float c[])
{
	shared float t[4];
	t[1 * instanceInGroup().x + 0] = a;
	syncGroup();
	c[instance().x] = t[3 - instanceInGroup().x] + g[15 - instance().x];
}
B
	both --checked gr.br rev a=iota g=ones c=@c.txt --shape a=8 --shape g=10 --shape c=6
	expect "gr.br:7: kernel rev: gather index (10, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: gather index (11, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: gather index (12, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: gather index (13, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: gather index (14, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: gather index (15, 0, 0, 0) outside the array g of 10 x 1 x 1 x 1; reading the nearest element
gr.br:7: kernel rev: scatter index (6, 0, 0, 0) outside the array c of 6 x 1 x 1 x 1; the write is dropped
gr.br:7: kernel rev: scatter index (7, 0, 0, 0) outside the array c of 6 x 1 x 1 x 1; the write is dropped
brrun: warning: c: Kernel Execution: kernel rev: scatter outside the array c of 6 x 1 x 1 x 1; the write is dropped [E-run-runtime]"
	[ "$(cat c.txt)" = "4 3 2 1 8 7" ]
}

@test "--checked reports scatter elements that two instances write, as a program built with brgen --checked does" {
	cp "$top_srcdir/t/gen/scatter_race.br" .
	both --checked scatter_race.br put a=iota idx=[0,1,1,2,5,5,5,3] s --shape s=6
	expect "scatter_race.br:8: kernel put: element (1, 0, 0, 0) of the scatter array s of 6 x 1 x 1 x 1 written by more than one instance of the launch: the writes race\nscatter_race.br:8: kernel put: element (5, 0, 0, 0) of the scatter array s of 6 x 1 x 1 x 1 written by more than one instance of the launch: the writes race\n0 2 3 7 0 6"
	# one instance writing two fields of an element is no race
	both --checked scatter_race.br fields a=iota --shape a=8 p
	expect "0,-0 1,-1 2,-2 3,-3 4,-4 5,-5 6,-6 7,-7"
	# a 2-D array
	both --checked scatter_race.br put2 'at=[[[2,1],[0,0]],[[3,2],[2,1]]]' t --shape t=4x3
	[[ "$output" == "scatter_race.br:18: kernel put2: element (2, 1, 0, 0) of the scatter array t of 4 x 3 x 1 x 1 written by more than one instance of the launch: the writes race"$'\n'* ]]
	# sixteen named, then the count of the others
	both --checked scatter_race.br halves a=iota --shape a=40 s --shape s=20
	[ "$(grep -c 'kernel halves: element .* written by more than one instance' <<< "$output")" = 16 ]
	[[ "$output" == *$'\n'"kernel halves: 4 more elements of s written by more than one instance"$'\n'* ]]
	# two statements write: the lines of both, the first before
	both --checked scatter_race.br two a=iota idx=[0,1,1,2,5,5,5,3] s --shape s=6
	[[ "$output" == "scatter_race.br:27: kernel two: element (5, 0, 0, 0) of the scatter array s of 6 x 1 x 1 x 1 written by more than one instance of the launch, at lines 27 and 29: the writes race"$'\n'* ]]
	# one of the two statements writes an element twice: its line
	both --checked scatter_race.br two a=iota idx=[0,1,1,2,5,5,3,3] s=@s.txt --shape s=6
	[[ "$output" == *"scatter_race.br:27: kernel two: element (3, 0, 0, 0) of the scatter array s of 6 x 1 x 1 x 1 written by more than one instance of the launch: the writes race"* ]]
	rm -f s.txt
	# a GroupSize kernel: two groups write elements 0 to 3
	# (which group writes last varies: the values go to a file)
	both --checked scatter_race.br gput a=iota --shape a=8 s=@s.txt --shape s=4
	[ "$(grep -c '^scatter_race.br:38: kernel gput: element ([0-3], 0, 0, 0) of the scatter array s of 4 x 1 x 1 x 1 written by more than one instance' <<< "$output")" = 4 ]
	# without --checked: no report
	both scatter_race.br put a=iota idx=[0,1,1,2,5,5,5,3] s --shape s=6
	expect "0 2 3 7 0 6"
	run brrun --help
	[[ "$output" == *"--checked"* ]]
}

@test "an error every output shares is reported once, with no line from libbrt about errors never checked" {
	cat > two.br <<'B'
kernel void two(float a<>, out float b<>, out float c<>) { b = a; c = a; }
B
	for b in cpu opencl; do
		run brrun --backend $b two.br two a=[1,2,3,4] b c --shape b=2x2 --shape c=4
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == "brrun: error: b: Kernel Execution: "*"[E-run-runtime]" ]]
	done
}

@test "a scatter array given data starts from it" {
	both "$top_srcdir/t/run/scatter.br" scatter index=[0] a=[9] \
		b=[1,2,3]
	expect "9 2 3"
}

@test "scalar char and short operands promote to int, their vectors compute in their own width (brook(7))" {
	cat > nw.br <<'EOS'
kernel void k(uchar a<>, uchar b<>, out uchar o<>, out int r<>)
{
	o = (a + b) / (uchar)2;
	r = (int)((a + b) > (uchar)250);
}
kernel void kv(uchar2 a<>, uchar2 b<>, out uchar2 o<>)
{
	o = (a + b) / uchar2((uchar)2, (uchar)2);
}
EOS
	both nw.br k a=[200] b=[100] o r
	expect "o:\n150\nr:\n1"
	both nw.br kv a=[[200,10]] b=[[100,20]] o
	expect "22,15"
}

@test "a subkernel that reaches its end without a return gives zeros on both backends" {
	cat > fo.br <<'EOS'
kernel float4 s4(float x)
{
	if (x > 0.0f)
		return float4(1.0f, 2.0f, 3.0f, 4.0f);
}
kernel int si(float x)
{
	if (x > 0.0f)
		return 7;
}
kernel void k(float a<>, out float4 b<>, out int c<>) { b = s4(a); c = si(a); }
EOS
	both fo.br k a=[1,-1,0] b c
	expect "b:\n1,2,3,4 0,0,0,0 0,0,0,0\nc:\n7 0 0"
}

@test "a scatter array given a file is updated in place: from its data where it exists, else from zeros" {
	for be in cpu opencl; do
		printf '1 2 3\n' > s.txt
		run brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[0] a=[9] b=@s.txt
		[ "$status" -eq 0 ] && [ -z "$output" ]
		[ "$(cat s.txt)" = "9 2 3" ]
		# the same file again: it starts from the last result
		brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[2] a=[7] b=@s.txt
		[ "$(cat s.txt)" = "9 2 7" ]
		# a .bin file with its dimensions is read and written raw
		printf '\0\0\200?\0\0\0@\0\0@@' > s.bin	# 1 2 3 as floats
		brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[1] a=[5] b=@s.bin:3
		[ "$(od -An -tf4 s.bin | tr -s ' ')" = " 1 5 3" ]
		# no such file: zeros, the shape of --shape, then saved
		rm -f new.txt
		brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[1] a=[5] b=@new.txt --shape b=4
		[ "$(cat new.txt)" = "0 5 0 0" ]
		# not a regular file: written, never read
		run brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[1] a=[5] b=@/dev/stdout --shape b=3
		[ "$status" -eq 0 ] && [ "$output" = "0 5 0" ]
		brrun --backend $be "$top_srcdir/t/run/scatter.br" scatter \
			index=[1] a=[5] b=@/dev/stdout --shape b=3 > redirected.txt
		[ "$(cat redirected.txt)" = "0 5 0" ]
	done
}

@test "iterator inputs, 1-D and 2-D" {
	both "$K" it "p=iter([0,0],[1,2])" c --shape p=4x2
	expect "0 2.5 5 7.5\n1 3.5 6 8.5"
	both "$K" it "p=iter(0,1)" c --shape p=4
	expect "0 2.75 5.5 8.25"
	both "$top_srcdir/t/run/iter.br" plus "a=iter(0,10)" c=[1,1,1,1,1] b
	expect "1 3 5 7 9"
}

@test "a GroupSize kernel: shared memory and syncGroup()" {
	both "$top_srcdir/t/brrun/group.br" gsum a=iota c --shape a=8
	expect "6 6 6 6 22 22 22 22"
}

@test "local structs: fields, nesting, arrays, initializers, copies" {
	both "$top_srcdir/t/brrun/struct.br" f a=[1,2] b
	expect "13 18"
}

# ---- struct parameters (spec 2) ------------------------------------------

ST="$top_srcdir/t/brrun/structs.br"

@test "struct streams in and out, a struct value, fields flattened" {
	both "$ST" scale 'x=[[1,2,3],[4,5,6]]' k=2 y
	expect "2,4,5 8,7,8"
	both "$ST" shift 'x=[[1,2,3],[4,5,6]]' 'by=[10,20,30]' y
	expect "11,22,33 14,25,36"
	# 2-D: rows of elements of 3 numbers
	both "$ST" scale 'x=[[[1,2,3],[4,5,6]],[[7,8,9],[0,0,0]]]' k=1 y
	expect "1,3,4 4,6,7\n7,9,10 0,1,1"
	# a struct without a tag (typedef struct { ... } Range)
	both "$ST" clampr 'x=[-1,0.5,3]' 'r=[0,1]' y
	expect "0 0.5 1"
}

@test "struct gathers and scatters, whole elements and fields" {
	both "$ST" pick 'i=[2,0]' 't=[[1,2,3],[4,5,6],[7,8,9]]' a e
	expect "a:\n9 3\ne:\n7,8,9 1,2,3"
	both "$ST" put 'v=[3,1]' dst --shape dst=5
	expect "0,0,0 1,1,-1 0,0,0 3,3,-3 0,0,0"
	# a GroupSize kernel of a struct stream
	both "$ST" grp 'x=[[1,2,3],[4,5,6],[7,8,9],[1,1,1]]' y
	expect "12 13 19 20"
	# a float2 index into a 2-D struct gather (clamped at the edges)
	both "$ST" pick2 'p=[[0,0],[1,1],[0.5,1.7],[-3,9]]' \
		't=[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]]' e f
	expect "e:\n2,2,3 20,11,12 14,8,9 14,8,9\nf:\n4 22 16 16"
}

@test "enumeration constants in kernels: their values on both backends" {
	cat > en.br <<'EOS'
typedef enum { RED, GREEN = 5, BLUE } color;
enum shade { DARK = GREEN * 2, LIGHT, MASK = (1 << 4) | BLUE, NEG = -LIGHT % 4,
	CMP = (BLUE > GREEN) + (RED != 0) * 2 + (LIGHT >= 11) * 4 + ~RED * 8 };
enum { SZ = sizeof(int) };
kernel void f(float a<>, color c, out float b<>)
{
	b = a + (float)((int)BLUE + (int)c) + 100.0f * (float)LIGHT
		+ 1000.0f * (float)MASK + 0.25f * (float)NEG + 0.5f * (float)CMP;
}
kernel void g(float a<>, out float b<>) { b = a + (float)SZ; }
EOS
	both en.br f a=[1] c=2 b
	expect "23106.8"
	both en.br f a=[0] c=0 b
	expect "23103.8"
	run brrun --backend opencl en.br g a=[1] b
	[ "$output" = 5 ]
	# a struct constant argument with enum fields, one of an enumeration
	# defined inside the struct
	cat > se.br <<'EOS'
typedef enum { LO, HI } level;
enum mode { ADD = 3, SUB };
typedef struct { level l; float v; enum { P1 = 7, P2 } k; enum mode m; } item;
kernel void k(float a<>, item it, out float b<>)
{
	b = (int)it.l == (int)HI ? a + it.v : a - it.v;
	b += (float)((int)it.k + (int)P2 + (int)it.m * 100);
}
EOS
	both se.br k a=[1] it=[1,2,7,4] b
	expect "418"
	# a constant the interpreter does not fold
	run brrun --backend cpu en.br g a=[1] b
	[ "$status" -eq 1 ]
	[[ "$output" == *"en.br:10:58: error: the interpreter does not support the use of 'SZ' here"*"[E-run-interp]"* ]]
}

@test "enumeration constants: case labels, and casts converted as C converts" {
	cat > cs.br <<'EOS'
enum { RED = 1, GREEN = 4, WRAP = (char)300, BYTE = (uchar)-1, NEG = (short)65535, ONE = (bool)7 };
kernel void k(int a<>, out int o<>)
{
	switch (a) {
	case RED: o = 10; break;
	case GREEN: o = 20; break;
	case 1 << 3: o = 30; break;
	case (char)300: o = 40; break;
	case -GREEN: o = 50; break;
	default: o = a + WRAP + BYTE * 1000 + NEG * 100000 + ONE * 1000000;
	}
}
EOS
	both cs.br k a=[1,4,8,44,-4,0] o
	expect "10 20 30 40 50 1155044"
}

@test "decimal unsigned constants up to 2^32 - 1 are uint (C99 6.4.4.1)" {
	cat > ul.br <<'EOS'
kernel void k(uint a<>, out uint b<>, out uint c<>, out int d<>)
{
	b = a + 3000000000u;
	c = 4294967295U - a;
	d = (int)(2147483648u / 2u);
}
EOS
	both ul.br k a=[1,2] b c d
	expect "b:\n3000000001 3000000002\nc:\n4294967294 4294967293\nd:\n1073741824 1073741824"
}

@test "the interpreter computes as the generated code: small integer scalars in int, their vectors in their width; -a widens with zeros; indexof() of a resized input" {
	cat > small.br <<'EOS'
kernel void k(char a<>, uchar b<>, char4 c<>, out int r1<>, out int r2<>,
	out int4 r3<>, out int4 r4<>)
{
	r1 = (int)(a * a);
	r2 = (int)(-b);
	r3 = (int4)(c * c);
	r4 = (int4)(-c) + (int4)(c + c);
}
EOS
	both small.br k 'a=[100]' 'b=[1]' 'c=[[100,-128,16,2]]' r1 r2 r3 r4
	expect "r1:\n10000\nr2:\n-1\nr3:\n16,0,0,4\nr4:\n-156,-128,16,2"
	cat > widen.br <<'EOS'
kernel void k(float4 a<>, float2 b<>, out float4 r1<>, out float4 r2<>)
{
	r1 = a + b;
	r2 = b;
}
EOS
	brcheck -a -w0 -o widen.ast widen.br
	both widen.ast k 'a=[[1,2,3,4]]' 'b=[[0.5,0.25]]' r1 r2
	expect "r1:\n1.5,2.25,3,4\nr2:\n0.5,0.25,0,0"
	cat > ix.br <<'EOS'
kernel void top(float a<>, out float o<>, out float4 p<>)
{
	o = a;
	p = indexof(a);
}
EOS
	both ix.br top 'a=[10,20,30]' --shape o=6 --shape p=6 o p
	expect "o:\n10 10 20 20 30 30\np:\n0,0,0,0 0,0,0,0 1,0,0,0 1,0,0,0 2,0,0,0 2,0,0,0"
	both ix.br top 'a=[[1,2],[3,4]]' --shape o=4x4 --shape p=4x4 o p
	[[ "$output" == *"0,0,0,0 0,0,0,0 1,0,0,0 1,0,0,0"*"1,1,0,0 1,1,0,0"* ]]
}

@test "++ on a vector of floats in a group kernel's shared array (local memory on OpenCL)" {
	cat > shinc.br <<'EOS'
Attribute[GroupSize(4, 1, 1)]
kernel void k(float2 a<>, out float2 c[])
{
	shared float2 s[4];
	int i = instance().x;
	float2 t = a;
	s[1 * instanceInGroup().x + 0] = a;
	s[1 * instanceInGroup().x + 0]++;
	t--;
	syncGroup();
	c[i] = s[(instanceInGroup().x + 1) % 4] + t;
}
EOS
	both shinc.br k 'a=[[1,2],[3,4],[5,6],[7,8]]' c
	expect "4,6 8,10 12,14 8,10"
}

@test "the interpreter saturates a float converted to an int that cannot hold it (NaN gives 0)" {
	printf 'kernel void k(float a<>, out int b<>) { b = (int)a; }\n' > sat.br
	run brrun --backend cpu sat.br k 'a=[3e9,-3e9,nan,2.5]' b
	[ "$status" -eq 0 ]
	[ "$output" = "2147483647 -2147483648 0 2" ]
}

@test "NaN prints as nan on both backends, whatever its sign bit" {
	printf 'kernel void k(float a<>, out float b<>, out float c<>) { b = log(a); c = fmod(a, 0.0f); }\n' > nan.br
	both nan.br k 'a=[-1,2]' b c
	expect "b:\nnan 0.693147\nc:\nnan nan"
}

@test "nested structs with padding: each field printed as its type" {
	both "$ST" nest 'o=[[0.5,1,2,3,4],[1.5,-1,-2,-3,250]]' p
	expect "4.5,2,3,2,5 251.5,-2,-3,-2,251"
	# the original's struct five_floats and a struct with short2, double
	both "$top_srcdir/t/run/struct.br" bump 'p=[[0,0,0,0],[10,1,-1,0.25]]' q
	expect "1,0,0,0 11,-1,1,0.5"
}

@test "a reduce function of structs: to a host struct, a smaller stream and a file" {
	D='a=[[0.5,1,2,3,4],[1.5,-1,-2,-3,250],[2,7,1,1,9],[-4,3,0,5,1]]'
	both "$ST" span "$D" b
	expect "0,7,1,6,250"
	both "$ST" span "$D" b --shape b=2
	expect "2,1,0,0,250 -2,7,1,6,9"
	# enough elements for several threads and work-groups, whose partial
	# results the same body combines; short2 sums wrap as C's do
	both "$ST" span a=iota --shape a=3000x2 b --shape b=1x2
	expect "4.4985e+06,2999,-23484,-23484,255\n1.34985e+07,5999,-1916,-1916,255"
	both "$ST" span a=iota --shape a=3000x2 b=@b.npy
	grep -qa "'descr': \[('d', '<f8'), ('in.n', '<i4'), ('in.s', '<i2', (2,)), ('c', '|u1'), ('', '|V7'), \], 'fortran_order': False, 'shape': ()" b.npy
	both "$ST" nest o=@b.npy p
	expect "1.79973e+07,11998,-25400,-25400,0"
	# a reduce function takes no start value
	fails_with 1 "'b' takes no start value: a reduce function" "$ST" span "$D" 'b=[1,2,3,4,5]'
}

@test "struct data: .bin in the host layout, .npy with a structured dtype" {
	brrun "$ST" nest 'o=[[0.5,1,2,3,4],[1.5,-1,-2,-3,250]]' p=@p.bin
	[ "$(stat -c %s p.bin)" -eq 48 ]	# 2 elements of 24 bytes
	both "$ST" nest o=@p.bin:2 p
	expect "9.5,4,2,3,6 502.5,-4,-2,-3,252"
	brrun "$ST" nest 'o=[[0.5,1,2,3,4],[1.5,-1,-2,-3,250]]' p=@p.npy
	grep -qa "'descr': \[('d', '<f8'), ('in.n', '<i4'), ('in.s', '<i2', (2,)), ('c', '|u1'), ('', '|V7'), \]" p.npy
	both "$ST" nest o=@p.npy p
	expect "9.5,4,2,3,6 502.5,-4,-2,-3,252"
	# numpy's own packed layout: 17 bytes an element, no padding
	npy 1 "[('d', '<f8'), ('n', '<i4'), ('s', '<i2', (2,)), ('c', '|u1')]" \
		'(1,)' '\000\000\000\000\000\000\340\077\001\000\000\000\002\000\003\000\004' \
		> packed.npy
	both "$ST" nest o=@packed.npy p
	expect "4.5,2,3,2,5"
	brrun "$ST" scale x=[1,2,3] k=1 y=@y.txt
	[ "$(cat y.txt)" = "1,3,4" ]
}

@test "struct generators: every field as its own type" {
	both "$ST" nest o=iota p --shape o=3
	expect "0,0,0,0,1 2,2,1,1,2 4,4,2,2,3"
	both "$ST" scale x=ones k=2 y --shape x=2
	expect "2,3,3 2,3,3"
	run brrun "$ST" scale x=rand:5 k=1 y --shape x=1
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^0\.[0-9]+,1\.[0-9]+,1\.[0-9]+$ ]]
}

@test "--check of a struct output names the field" {
	run brrun "$ST" scale 'x=[[1,2,3],[4,5,6]]' k=2 y --check 'y=[[2,4,5],[8,7,8]]'
	[ "$status" -eq 0 ]
	brrun "$ST" nest 'o=[[0.5,1,2,3,4]]' p=@want.npy
	run brrun "$ST" nest 'o=[[0.5,1,2,3,4]]' p --check p=@want.npy
	[ "$status" -eq 0 ]
	fails_with 1 "check y: y[1].b.x is 7, expected 7.5 (relative error 0.0667 > tolerance 1e-05)" \
		"$ST" scale 'x=[[1,2,3],[4,5,6]]' k=2 y=@y.npy --check 'y=[[2,4,5],[8,7.5,8]]'
	fails_with 1 "check p: p[0].in.s.y is 2, expected 9" \
		"$ST" nest 'o=[[0.5,1,2,3,4]]' p=@p.npy --check 'p=[[4.5,2,3,9,5]]'
}

@test "error: struct data of the wrong number of fields, types or size" {
	fails_with 1 "x is a struct of 3 numbers (a, b.x, b.y): the data's last axis must have 3, its shape is (2, 2) [E-run-shape]" \
		"$ST" scale 'x=[[1,2],[4,5]]' k=2 y
	fails_with 1 "by is a struct of 3 numbers (a, b.x, b.y): the data's last axis must have 3, its shape is (4,)" \
		"$ST" shift 'x=[[1,2,3]]' 'by=[1,2,3,4]' y
	fails_with 1 "o.in.n is int: 1.5 is not a value of that type [E-run-type]" \
		"$ST" nest 'o=[[0.5,1.5,2,3,4]]' p
	fails_with 1 "o.c is uchar: 256 is not a value of that type" \
		"$ST" nest 'o=[[0.5,1,2,3,256]]' p
	brrun "$ST" nest 'o=[[0.5,1,2,3,4]]' p=@p.bin
	fails_with 1 "p.bin: 24 bytes, but 2 elements of a struct of 24 bytes need 48 [E-run-shape]" \
		"$ST" nest o=@p.bin:2 p
	npy 1 "[('a', '<f8'), ('b', '<f4', (2,))]" '(1,)' \
		'\000\000\000\000\000\000\360\077'"$(echo "$F123" | cut -c1-32)" > f8.npy
	fails_with 1 "x.a is float32, the data's field is float64 [E-run-type]" \
		"$ST" scale x=@f8.npy k=1 y
	npy 1 "[('a', '<f4'), ('b', '<f4')]" '(1,)' "$(echo "$F123" | cut -c1-32)" > two.npy
	fails_with 1 "x is a struct of 3 numbers" "$ST" scale x=@two.npy k=1 y
	fails_with 1 "a is float, the data is a structured array [E-run-type]" \
		"$SUM" sum a=@two.npy b=1 c
	npy 1 '<f4' '(1, 3)' "$F123" > plain.npy
	fails_with 1 "x is a struct: give its numbers as text or a literal, or its bytes as @FILE.bin:DIMS, not float32 data" \
		"$ST" scale x=@plain.npy k=1 y
	npy 1 "[('a', '<f4'), ('b', '<f4', (2,))]" '(2,)' "$F123" > short.npy
	fails_with 1 "short.npy: truncated .npy file: shape (2,) of 12-byte elements needs 24 data bytes, 12 there [E-run-npy]" \
		"$ST" scale x=@short.npy k=1 y
	npy 1 "[('a', [('x', '<f4')])]" '(1,)' "$F123" > nested.npy
	fails_with 1 "nested structured dtypes are not supported" \
		"$ST" scale x=@nested.npy k=1 y
	fails_with 1 "iterators are float, float2, float3 or float4 streams" \
		"$ST" scale 'x=iter(0,1)' k=1 y --shape x=4
}

@test "a kernel named like an OpenCL built-in" {
	both "$K" mad a=[1,2] b=[3,4] c
	expect "4 9"
}

@test "an input of one element is widened to the domain" {
	both "$SUM" sum a=[[1,2],[3,4]] b=1 c
	expect "2 3\n4 5"
}

@test "inputs of other shapes are resized (spec 3.3.2)" {
	both "$SUM" sum a=[1,2] b=iota c --shape c=4
	expect "1 1 3 3"
}

# ---- data formats -----------------------------------------------------------

@test ".npy out and back in, float32" {
	brrun "$SUM" sum a=[[1,2],[3,4]] b=1 c=@c.npy
	[ "$(head -c 6 c.npy | od -An -c | tr -d ' ')" = "223NUMPY" ]
	run brrun "$SUM" sum a=@c.npy b=@c.npy c
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '4 6\n8 10')" ]
}

@test ".npy versions 1.0, 2.0 and 3.0" {
	for v in 1 2 3; do
		npy $v '<f4' '(3,)' "$F123" > a$v.npy
		run brrun "$SUM" sum a=@a$v.npy b=0 c
		[ "$status" -eq 0 ]
		[ "$output" = "1 2 3" ]
	done
}

@test ".npy of every integer dtype for its type" {
	npy 1 '|u1' '(2,)' '\001\377' > u1.npy
	npy 1 '|i1' '(2,)' '\001\377' > i1.npy
	npy 1 '<i4' '(2,)' '\005\000\000\000\373\377\377\377' > i4.npy
	run brrun "$K" chars a=@i1.npy b=@u1.npy c d
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'c:\n2 -2\nd:\n1 -255')" ]
	run brrun "$K" ints a=@i4.npy b=[2,2] c d e
	[ "$status" -eq 0 ]
	[[ "$output" == "c:"$'\n'"3 -3"* ]]
}

@test ".npy in and out for short, ushort, uint and double" {
	TY="$top_srcdir/t/brrun/types.br"
	both "$TY" wide 'a=[-1,2]' 'b=[1,65535]' 'c=[4000000000,1]' \
		'd=[0.25,1e300]' g u s
	expect "g:\n-0.5 2e+300\nu:\n4000000001 65536\ns:\n-2 3"
	brrun "$TY" wide 'a=[-1,2]' 'b=[1,65535]' 'c=[4000000000,1]' \
		'd=[0.25,1e300]' g=@g.npy u=@u.npy s=@s.npy
	grep -q "'descr': '<f8'" g.npy
	grep -q "'descr': '<u4'" u.npy
	grep -q "'descr': '<i2'" s.npy
	npy 1 '<u2' '(2,)' '\001\000\377\377' > u2.npy
	both "$TY" wide a=@s.npy b=@u2.npy c=@u.npy d=@g.npy g u s
	expect "g:\n-3 4e+300\nu:\n4000000002 131071\ns:\n-3 4"
}

@test ".npy with a vector axis, and a vector result saved as .npy" {
	brrun "$K" vec a=[[1,2,3,4]] b=[[1,1,1,1]] c=@c.npy d=@d.npy
	run brrun "$K" vec a=@c.npy b=ones c d
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'c:\n6,7,8,9\nd:\n28.6603')" ]
	grep -q "'shape': (1, 4)" c.npy
}

@test "text input: spaces, commas, newlines, comments, rows" {
	printf '# a comment\n1, 2\t3\n4 5 6\n' > a.txt
	run brrun "$SUM" sum a=@a.txt b=0 c
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '1 2 3\n4 5 6')" ]
	printf '1\n2\n3\n' > col.txt
	run brrun "$SUM" sum a=@col.txt b=0 c
	[ "$output" = "1 2 3" ]
}

@test "text and raw binary outputs" {
	brrun "$SUM" sum a=[[1,2],[3,4]] b=0.5 c=@c.txt
	[ "$(cat c.txt)" = "$(printf '1.5 2.5\n3.5 4.5')" ]
	brrun "$SUM" sum a=[1,2,3] b=0 c=@c.bin
	[ "$(od -An -tx1 c.bin | tr -d ' \n')" = "0000803f0000004000004040" ]
}

@test "raw binary input with its dimensions" {
	printf "$F123$F123" > a.bin
	run brrun "$SUM" sum a=@a.bin:3x2 b=0 c
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '1 2 3\n1 2 3')" ]
}

@test "generators: iota, zeros, rand is reproducible" {
	run brrun "$SUM" sum a=iota b=zeros c --shape a=2x2
	[ "$output" = "$(printf '0 1\n2 3')" ]
	run brrun "$SUM" sum a=rand:5 b=0 c --shape a=4
	first=$output
	run brrun "$SUM" sum a=rand:5 b=0 c --shape a=4
	[ "$output" = "$first" ]
	run brrun "$SUM" sum a=rand:6 b=0 c --shape a=4
	[ "$output" != "$first" ]
	run brrun "$K" ints a=rand b=1 c d e --shape a=50
	[ "$status" -eq 0 ]
}

@test "--shape reshapes an input" {
	run brrun "$SUM" sum a=[1,2,3,4,5,6] b=0 c --shape a=3x2
	[ "$output" = "$(printf '1 2 3\n4 5 6')" ]
}

@test "a 3-D result prints its planes apart" {
	run brrun "$SUM" sum a=iota b=0 c --shape a=2x2x2
	[ "$output" = "$(printf '0 1\n2 3\n\n4 5\n6 7')" ]
}

@test "an AST file as input, parsed or checked" {
	brpp "$SUM" | brparse > sum.ast
	run brrun sum.ast sum a=[1] b=[2] c
	[ "$output" = "3" ]
	brpp "$SUM" | brparse | brcheck > sum.checked.ast
	run brrun sum.checked.ast sum a=[1] b=[2] c
	[ "$output" = "3" ]
}

@test "-D and -I reach the preprocessor" {
	mkdir inc
	echo '#define K2 (K * 2.0f)' > inc/k.h
	printf '#include "k.h"\nkernel void f(float a<>, out float b<>) { b = a * K2; }\n' > k.br
	run brrun -I inc -DK=3.0f k.br f a=[1,2] b
	[ "$status" -eq 0 ]
	[ "$output" = "6 12" ]
}

# ---- options --------------------------------------------------------------------

@test "--help and --version" {
	run brrun --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	run brrun --version
	[ "$status" -eq 0 ]
	[[ "$output" == "brrun (brook) "* ]]
}

@test "options anywhere; -- ends them" {
	run brrun "$SUM" sum a=[1,2] --backend cpu b=[3,4] c
	[ "$output" = "4 6" ]
	cp "$SUM" ./-s.br
	run brrun --backend cpu -- -s.br sum a=-1 b=[3] c
	[ "$output" = "2" ]
	fails_with 2 "unknown option '-s.br'" -s.br sum a=1 b=1
}

@test "--list-devices names kind, memory and compute units" {
	run brrun --list-devices
	[ "$status" -eq 0 ]
	[[ "$output" == *"cpu"*"compute units"* ]]
}

@test "BRT_CPU_THREADS: the CPU backend's threads; any other value gives one per processor, with a line on standard error" {
	BRT_CPU_THREADS=3 run --separate-stderr brrun --list-devices
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	[[ "$output" == *" cpu 0  CPU (3 threads) (brook), "*", 3 compute units"* ]]
	n=$(getconf _NPROCESSORS_ONLN)
	for v in 0 -2 1025 abc 3x; do
		BRT_CPU_THREADS=$v run --separate-stderr brrun --list-devices
		[[ "$output" == *" CPU ($n threads) (brook), "* ]]
		[ "$stderr" = "brt: BRT_CPU_THREADS=$v is not a number from 1 to 1024; using $n" ]
	done
	# empty: as if unset
	BRT_CPU_THREADS= run --separate-stderr brrun --list-devices
	[[ "$output" == *" CPU ($n threads) (brook), "* ]] && [ -z "$stderr" ]
	# one thread and seven split a map and a reduction differently; both
	# give the exact answers (the sums of integers stay under 2^24)
	for t in 1 7; do
		BRT_CPU_THREADS=$t run brrun --backend cpu "$SUM" sum a=iota \
			b=ones c=@c$t.npy --shape a=1000x30
		[ "$status" -eq 0 ]
		BRT_CPU_THREADS=$t run brrun --backend cpu "$K" rsum a=iota \
			r=@r$t.npy --shape a=5000 --shape r=1
		[ "$status" -eq 0 ]
	done
	cmp c1.npy c7.npy
	cmp r1.npy r7.npy
	run brrun "$K" rsum a=@r7.npy r
	[ "$output" = 1.24975e+07 ]
}

@test "--backend and --device pick the device; BRT_RUNTIME too" {
	run brrun --backend cpu --device 0 "$SUM" sum a=1 b=2 c
	[ "$output" = "3" ]
	BRT_RUNTIME=cpu run brrun "$SUM" sum a=1 b=2 c
	[ "$output" = "3" ]
	run brrun --backend=opencl "$SUM" sum a=1 b=2 c
	[ "$output" = "3" ]
}

@test "--device alone counts the devices as --list-devices numbers them" {
	n=$(brrun --list-devices | grep -c .)
	run brrun --device $((n - 1)) --bench 1 "$SUM" sum a=1 b=2 c
	[ "$status" -eq 0 ]
	[[ "$output" == *"(cpu): 1 runs"* ]]
	fails_with 2 "no device with that number" --device $n "$SUM" sum a=1 b=1
}

@test "error: a device libbrt cannot open (BRT_FAIL_OPEN) runs nothing elsewhere" {
	if [ "$(brrun --list-devices | grep -c ' opencl ')" -eq 0 ]; then
		skip "no OpenCL device"
	fi
	# the default OpenCL device is refused: asked for, it is an error
	BRT_FAIL_OPEN=1 fails_with 1 "E-run-runtime" --backend opencl "$SUM" \
		sum a=1 b=2 c
	[[ "$output" == *"Use Devices: "*" could not be opened (the device could not be opened before)"* ]]
	# the first opening refused is that of --backend opencl itself
	BRT_FAIL_OPEN=1 BRT_RUNTIME=cpu fails_with 1 \
		"could not be opened (no context: BRT_FAIL_OPEN)" --backend opencl \
		"$SUM" sum a=1 b=2 c
	# not asked for: the CPU backend runs it
	BRT_FAIL_OPEN=1 run brrun "$SUM" sum a=1 b=2 c
	[ "$status" -eq 0 ]
	[ "$output" = "3" ]
}

@test "--bench prints min, median, max and GB/s" {
	run brrun --backend cpu --bench 3 "$SUM" sum a=iota b=ones c --shape a=64
	[ "$status" -eq 0 ]
	[[ "$output" == *"3 runs"*"min"*"median"*"max"*"GB/s"* ]]
}

@test "--bench --flops --json" {
	run brrun --backend cpu --bench 2 --flops '2*n+1' --json "$SUM" sum \
		a=iota b=ones c --shape a=64
	[ "$status" -eq 0 ]
	[[ "$output" == '{"kernel":"sum","backend":"cpu"'*'"runs":2'*'"bytes":768'*'"gflop_per_s":'* ]]
}

# bench_clock BACKEND CLOCK ARGS...: brrun --bench --json on BACKEND
# reports CLOCK and min <= median <= max, all above zero.
bench_clock() {
	local backend=$1 clock=$2
	shift 2
	command -v jq >/dev/null || skip "no jq"
	run brrun --backend "$backend" --bench 5 --json "$@"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e --arg c "$clock" '.clock == $c and .min_ms > 0
		and .min_ms <= .median_ms and .median_ms <= .max_ms'
}

@test "--bench: OpenCL profiling events on OpenCL, the host clock on the CPU" {
	bench_clock opencl opencl-events "$SUM" sum a=rand b=ones c \
		--shape a=256x256
	bench_clock cpu host "$SUM" sum a=rand b=ones c --shape a=256x256
	# a reduction is two launches on OpenCL: the first's start to the
	# second's end
	bench_clock opencl opencl-events "$K" rsum a=iota r --shape a=100000
	bench_clock cpu host "$K" rsum a=iota r --shape a=1000
	run brrun --backend opencl --bench 2 "$SUM" sum a=1 b=2 c
	[[ "${lines[1]}" == *"(OpenCL profiling events)" ]]
	run brrun --backend cpu --bench 2 "$SUM" sum a=1 b=2 c
	[[ "${lines[1]}" == *"(host clock)" ]]
}

@test "a floating-point condition of ?: (which OpenCL C refuses as it is) reads as C reads it, NaN true, on both backends" {
	cat > fc.br <<'EOS'
kernel void k(float a<>, float b<>, float2 v<>, double d<>, out float c<>)
{
	float x = (a / b) ? 1.0f : 2.0f;
	float y = v.y ? 10.0f : 20.0f;
	float z = d ? 100.0f : 200.0f;
	c = x + y + z + (a ? 1000.0f : 2000.0f);
}
EOS
	for b in cpu opencl; do
		run brrun --backend $b fc.br k a=[0,1,0,2,0] b=[1,0,1,1,0] 'v=[[0,1],[1,0],[0,0],[2,2],[0,0]]' d=[0,1,0,0,0] c
		[ "$status" -eq 0 ]
		[ "$output" = "2212 1121 2222 1211 2221" ]
	done
}

@test "--domain-size and --domain-offset: guide 1.8's execution domain, instance() counting from the offset" {
	printf 'kernel void k(float a<>, out float c<>) { c = a + (float)instance().x * 100.0f + (float)instance().y * 1000.0f; }\n' > dk.br
	for b in cpu opencl; do
		run brrun --backend $b dk.br k a=[1,2,3,4,5,6] c --domain-offset 2 --domain-size 3
		[ "$status" -eq 0 ]
		[ "$output" = "0 0 203 304 405 0" ]
		# the offset alone runs to the end
		run brrun --backend $b dk.br k a=[1,2,3,4,5,6] c --domain-offset=4
		[ "$output" = "0 0 0 0 405 506" ]
		run brrun --backend $b dk.br k 'a=[[1,2,3],[4,5,6]]' c --domain-offset 1,1 --domain-size 2x1
		[ "$output" = "$(printf '0 0 0\n0 1105 1206')" ]
		# a box past the stream: the runtime's error, status 1
		run brrun --backend $b dk.br k a=[1,2,3,4,5,6] c --domain-offset 4 --domain-size 3
		[ "$status" -eq 1 ]
		[[ "$output" == *"c: Exec Domain: Number of threads specified more than stream dimension [E-run-runtime]"* ]]
	done
}

@test "--domain-size runs a kernel whose only output is a scatter array, with no input stream" {
	cat > sc.br <<'EOS'
kernel void put(float v[], out float o[])
{
	int i = instance().x;
	o[7 - i] = v[i] * 10.0f;
	o[i] += 1.0f;
}
EOS
	for b in cpu opencl; do
		run brrun --backend $b sc.br put v=[1,2,3,4,5,6,7,8] o=zeros --shape o=8
		[ "$status" -eq 1 ]
		[[ "$output" == *"no stream and no domainSize gives the domain"* ]]
		run brrun --backend $b sc.br put v=[1,2,3,4,5,6,7,8] o=zeros --shape o=8 --domain-size 4
		[ "$status" -eq 0 ]
		[ "$output" = "1 1 1 1 40 30 20 10" ]
	done
}

@test "--domain-size and --domain-offset take 1 to 4 numbers, x first" {
	printf 'kernel void k(float a<>, out float c<>) { c = a; }\n' > d.br
	for bad in 0 1x0 1x2x3x4x5 x 1,y '' -1; do
		run brrun d.br k a=[1,2] c --domain-size "$bad"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--domain-size takes 1 to 4 sizes from 1, x first, as 64x32, not '$bad' [E-run-usage]"* ]]
	done
	run brrun d.br k a=[1,2] c --domain-offset 1,y
	[ "$status" -eq 2 ]
	[[ "$output" == *"--domain-offset takes 1 to 4 coordinates, x first, as 8x0, not '1,y' [E-run-usage]"* ]]
	run brrun d.br k a=[1,2] c --domain-offset 0
	[ "$status" -eq 0 ]
	[ "$output" = "1 2" ]
	run brrun --help
	[[ "$output" == *"--domain-size WxH, --domain-offset XxY"* ]]
}

@test "--fast-math: the OpenCL program as brgen --fast-math writes it, without correctly rounded division" {
	printf 'kernel void k(float a<>, float b<>, out float c<>) { c = a / b; }\n' > d.br
	BRT_CACHE_DIR=$PWD/c BRT_LOG_FILE=$PWD/f.log run brrun --backend opencl --fast-math d.br k a=[1,2] b=[3,4] c
	[ "$status" -eq 0 ]
	[ "$output" = "0.333333 0.5" ]
	grep -q '^brt: compiled: d.br' f.log
	! grep -q 'correctly-rounded' f.log || false
	BRT_CACHE_DIR=$PWD/c BRT_LOG_FILE=$PWD/e.log run brrun --backend opencl d.br k a=[1,2] b=[3,4] c
	[ "$output" = "0.333333 0.5" ]
	grep -q 'options "-cl-fp32-correctly-rounded-divide-sqrt' e.log
	# the interpreter takes it and ignores it
	run brrun --backend cpu --fast-math d.br k a=[1,2] b=[3,4] c
	[ "$output" = "0.333333 0.5" ]
	run brrun --help
	[[ "$output" == *"--fast-math"* ]]
}

@test "--bench keeps a scalar reduction's result and still writes files" {
	run brrun --bench 2 "$K" vsum a=[1,2,3] s=@s.txt
	[ "$status" -eq 0 ]
	[ "$(cat s.txt)" = "6" ]
}

@test "--check passes within the tolerance" {
	brrun "$SUM" sum a=[1,2,3] b=0 c=@want.npy
	run brrun "$SUM" sum a=[1,2,3] b=0.000001 c --check c=@want.npy
	[ "$status" -eq 0 ]
	[ "$output" = "1 2 3" ]
	run brrun "$SUM" sum a=[1,2,3] b=0 c --check c=[1,2,3]
	[ "$status" -eq 0 ]
}

@test "--check names the worst element and exits 1" {
	run brrun "$SUM" sum a=[[1,2],[3,4]] b=0 c --check c=[[1,2],[3,4.5]]
	[ "$status" -eq 1 ]
	[[ "$output" == *"brrun: error: check c: c[1][1] is 4, expected 4.5 (relative error 0.111 > tolerance 1e-05) [E-run-check]"* ]]
}

@test "--tol widens --check; integer outputs are exact by default" {
	run brrun "$SUM" sum a=[10] b=0 c --check c=[10.5] --tol 0.1
	[ "$status" -eq 0 ]
	run brrun "$K" prod a=[2,3] p --check p=7
	[ "$status" -eq 1 ]
	[[ "$output" == *"p is 6, expected 7"* ]]
}

@test "--check of a vector result names the component" {
	run brrun "$K" vec a=[[1,2,3,4]] b=ones c d --check c=[[6,6,7,6]]
	[ "$status" -eq 1 ]
	[[ "$output" == *"c[0].z is 5, expected 7"* ]]
}

@test "--diagnostics=json" {
	run brrun --diagnostics=json "$SUM" nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == '{"tool":"brrun","level":"error"'* ]]
}

# ---- errors: usage (status 2) ----------------------------------------------

@test "error: no FILE or KERNEL" {
	fails_with 2 "a FILE and a KERNEL are needed" "$SUM"
}

@test "error: unknown option" {
	fails_with 2 "unknown option '--bogus'" --bogus "$SUM" sum
}

@test "error: bad --backend, --device, --bench, --tol, --diagnostics" {
	fails_with 2 "--backend takes cpu or opencl" --backend gpu "$SUM" sum
	fails_with 2 "--device takes a device number" --device x "$SUM" sum
	fails_with 2 "no cpu device with that number" --backend cpu \
		--device 7 "$SUM" sum a=1 b=1
	fails_with 2 "--bench takes a number of runs" --bench=0 "$SUM" sum
	fails_with 2 "--tol takes a relative tolerance" --tol x "$SUM" sum
	fails_with 2 "unknown diagnostics format" --diagnostics=xml "$SUM" sum
}

@test "error: --flops, --json without --bench; --tol without --check" {
	fails_with 2 "--flops goes with --bench" --flops n "$SUM" sum
	fails_with 2 "--json goes with --bench" --json "$SUM" sum
	fails_with 2 "--tol goes with --check" --tol 0.1 "$SUM" sum
}

@test "error: a bad --flops expression" {
	fails_with 2 "--flops '2*m'" --bench 1 --flops '2*m' "$SUM" sum a=1 b=1 c
}

@test "error: --shape and --check of no such parameter" {
	fails_with 2 "takes NAME=VALUE" --shape 3x3 "$SUM" sum
	fails_with 2 "--shape x: no such parameter" --shape x=3 "$SUM" sum a=1 b=1
	fails_with 2 "write the sizes x first" --shape c=3y3 "$SUM" sum a=1 b=1 c
	fails_with 2 "--check a: not an output" --check a=1 "$SUM" sum a=1 b=1
}

@test "error: a name that is not a parameter" {
	fails_with 2 "'x' is not a parameter of sum (parameters: a, b, c) [E-run-arg]" \
		"$SUM" sum a=1 b=2 x=3
	fails_with 2 "'5' is not a parameter of sum (parameters: a, b, c); write NAME=VALUE [E-run-arg]" \
		"$SUM" sum 5
}

@test "error: missing, repeated and empty arguments" {
	fails_with 2 "missing argument 'b' (input stream of sum)" "$SUM" sum a=1
	fails_with 2 "'a' is given twice" "$SUM" sum a=1 a=2 b=1
	fails_with 2 "'a=' has no value" "$SUM" sum a= b=1
	fails_with 2 "'a' is an input stream of sum: give it a value" \
		"$SUM" sum a b=1
}

@test "error: a value for an output stream" {
	fails_with 2 "'c' is an output stream: write c to print it" \
		"$SUM" sum a=1 b=2 c=5
}

@test "error: missing files" {
	fails_with 2 "missing.npy: No such file or directory" \
		"$SUM" sum a=@missing.npy b=1
	fails_with 2 "cannot read missing.br" missing.br sum
	fails_with 2 "x.bin" "$SUM" sum a=@x.bin:3 b=1
}

@test "error: an output that would overwrite an input or the program" {
	brrun "$SUM" sum a=[1,2] b=1 c=@a.npy
	fails_with 2 "a.npy: the output would overwrite the input [E-run-file]" \
		"$SUM" sum a=@a.npy b=1 c=@a.npy
	cp "$SUM" s.br
	fails_with 2 "s.br: the output would overwrite the input [E-run-file]" \
		s.br sum a=1 b=1 c=@s.br
}

@test "error: an output file that cannot be written" {
	fails_with 2 "nodir/c.npy" "$SUM" sum a=1 b=1 c=@nodir/c.npy
}

# ---- errors: data and kernels (status 1) ------------------------------------

@test "error: unknown kernel lists the kernels" {
	fails_with 1 "no kernel 'nosuch' in this file (kernels: sum)" \
		"$SUM" nosuch
}

@test "error: a kernel that returns a value is a subkernel, on both backends" {
	printf '%s\n' 'kernel float pos(float a<>) { return a + 1.0f; }' \
		'kernel void k(float a<>, out float b<>) { b = pos(a); }' > sub.br
	for b in cpu opencl; do
		fails_with 1 "sub.br:1:1: error: kernel 'pos' returns a value: a subkernel, which other kernels call; brrun runs a kernel that writes its outputs (out streams, a scatter array, a reduction) [E-run-kernel]" \
			--backend $b sub.br pos a=[1,2]
	done
	both sub.br k a=[1,2] b
	expect "2 3"
}

@test "error: what brgen refuses, both backends refuse" {
	cp "$top_srcdir/t/gen/sync_loop.br" .
	for b in cpu opencl; do
		run brrun --backend $b sync_loop.br k a=rand --shape a=8 c=zeros --shape c=8
		[ "$status" -eq 1 ]
		[[ "$output" == "sync_loop.br:8:2: error: a loop with syncGroup() declares its variable before the loop [E-gen-sync-loop]"* ]]
	done
}

@test "error: a syntax error in the source, with its location" {
	printf 'kernel void f(float a<>, out float b<>) { b = a + ; }\n' > bad.br
	run brrun bad.br f a=1 b
	[ "$status" -eq 1 ]
	[[ "$output" == "bad.br:1:"* ]]
}

@test "error: a semantic error in the source" {
	printf 'kernel void f(float a<>, out float b<>) { a = b; }\n' > bad.br
	run brrun bad.br f a=1 b
	[ "$status" -eq 1 ]
	[[ "$output" == "bad.br:1:"*"read only"* ]]
}

@test "error: a struct brrun cannot bind" {
	printf '%s\n' 'struct A { float v[3]; };' \
		'kernel void f(struct A x<>, out float y<>) { y = x.v[0]; }' \
		> bad.br
	fails_with 1 "bad.br:2:24: error: parameter 'x': brrun binds structs of scalar, vector and struct fields [E-run-kernel]" \
		bad.br f 'x=[[1,2,3]]' y
}

@test "subkernels take, fill and return structs; a call in an argument keeps the ones before it" {
	local SS="$top_srcdir/t/brrun/substruct.br"
	both "$SS" use 'x=[1,2,200]' 'in=[[10,1,2],[20,3,4],[0,0,0]]' \
		't=[[5,6,7],[8,9,10]]' o w f
	expect "o:\n32,9,10 52,9,10 12,10,10\nw:\n2,7,8,1 3,7,8,1.5 201,7,8,100.5\nf:\n19.5 25 1114"
	# the interpreter gave -3 -5: h3's frame took fsub's first argument
	both "$SS" nest 'x=[1,2]' o
	expect "97 95"
	both "$top_srcdir/t/brrun/struct.br" g a=[1,2] b
	expect "1 2"
}

@test "error: malformed literals" {
	fails_with 1 "a: bad value '[1,x]': not a number at column 4 [E-run-value]" \
		"$SUM" sum a=[1,x] b=1
	fails_with 1 "rows of different lengths" "$SUM" sum a=[[1,2],[3]] b=1
	fails_with 1 "nesting differs" "$SUM" sum a=[1,[2]] b=1
	fails_with 1 "expected ',' or ']'" "$SUM" sum a=[1 b=1
	fails_with 1 "a: bad value '1x': not a number" "$SUM" sum a=1x b=1
	fails_with 1 "a: bad value '[1]x': text after the value at column 4 [E-run-value]" "$SUM" sum a=[1]x b=1
	fails_with 1 "a: bad value '1,2,3': text after the value (a list is written in brackets, [1,2,3]) at column 2 [E-run-value]" "$SUM" sum a=1,2,3 b=1
	fails_with 1 "nested more than 5 deep" "$SUM" sum a=[[[[[[1]]]]]] b=1
}

@test "error: non-numeric text, with file, line and column" {
	printf '1 2\n3 q\n' > bad.txt
	fails_with 1 "bad.txt:2:3: error: not a number: 'q' [E-run-text]" \
		"$SUM" sum a=@bad.txt b=1
}

@test "error: text rows of different lengths, and empty text" {
	printf '1 2\n3 4 5\n' > rag.txt
	fails_with 1 "this row has 3 numbers, the row on line 1 has 2" \
		"$SUM" sum a=@rag.txt b=1
	printf '# nothing\n' > empty.txt
	fails_with 1 "no numbers in the file" "$SUM" sum a=@empty.txt b=1
}

@test "error: not a .npy file, and truncated headers" {
	printf 'abcdefghijkl' > bad.npy
	fails_with 1 "bad.npy: not a .npy file" "$SUM" sum a=@bad.npy b=1
	npy 1 '<f4' '(3,)' "$F123" | head -c 30 > cut.npy
	fails_with 1 "cut.npy: truncated .npy file: header of" \
		"$SUM" sum a=@cut.npy b=1
}

@test "error: a truncated .npy file" {
	npy 1 '<f4' '(3,)' "$F123" | head -c -2 > short.npy
	fails_with 1 "short.npy: truncated .npy file: shape (3,) of float32 needs 12 data bytes, 10 there" \
		"$SUM" sum a=@short.npy b=1
}

@test "error: trailing bytes after the .npy data" {
	{ npy 1 '<f4' '(3,)' "$F123"; printf 'xx'; } > long.npy
	fails_with 1 "long.npy: malformed .npy file" "$SUM" sum a=@long.npy b=1
}

@test "error: an unsupported .npy version" {
	npy 1 '<f4' '(3,)' "$F123" > v4.npy
	printf '\004' | dd of=v4.npy bs=1 seek=6 conv=notrunc 2>/dev/null
	fails_with 1 "v4.npy: .npy version 4.0 is not supported" \
		"$SUM" sum a=@v4.npy b=1
}

@test "error: malformed .npy headers" {
	npy 1 '<f4' '[3]' "$F123" > h1.npy
	fails_with 1 "'shape' is not a tuple" "$SUM" sum a=@h1.npy b=1
	npy 1 '<f4' '(3,)' "$F123" | sed "s/'fortran_order': False/'fortran_order': Maybe/" > h2.npy
	fails_with 1 "'fortran_order' is not a bool" "$SUM" sum a=@h2.npy b=1
	npy 1 '<f4' '(3,)' "$F123" | sed "s/'shape'/'shapes'/" > h3.npy
	fails_with 1 "malformed .npy header: unknown key" "$SUM" sum a=@h3.npy b=1
}

@test "big-endian and Fortran-order .npy data read as the numbers and elements they hold" {
	# 1 2 3 as big-endian floats and shorts
	npy 1 '>f4' '(3,)' '\077\200\000\000\100\000\000\000\100\100\000\000' > be.npy
	both "$SUM" sum a=@be.npy b=1 c
	expect '2 3 4'
	printf 'kernel void s(short a<>, out short b<>) { b = a; }\n' > s.br
	npy 1 '>i2' '(3,)' '\377\377\000\002\001\054' > bes.npy
	both s.br s a=@bes.npy b
	expect '-1 2 300'
	# [[1,2,3],[4,5,6]] stored column by column, and a 1-D array (the
	# same in both orders)
	printf 'kernel void k(int a<>, out int b<>) { b = a; }\n' > k.br
	npy 1 '<i4' '(2, 3)' "$(printf '\\%03o\\000\\000\\000' 1 4 2 5 3 6)" |
		sed "s/'fortran_order': False/'fortran_order': True /" > foi.npy
	both k.br k a=@foi.npy b
	expect $'1 2 3\n4 5 6'
	npy 1 '<f4' '(3,)' "$F123" | sed "s/'fortran_order': False/'fortran_order': True /" > fo1.npy
	both "$SUM" sum a=@fo1.npy b=1 c
	expect '2 3 4'
	# a structured dtype in Fortran order: its elements reordered whole
	printf 'typedef struct { int a; int b; } P;\nkernel void p(P a<>, out int b<>) { b = a.a * 10 + a.b; }\n' > p.br
	npy 1 "[('a', '<i4'), ('b', '<i4')]" '(2, 2)' "$(printf '\\%03o\\000\\000\\000' 1 1 3 3 2 2 4 4)" |
		sed "s/'fortran_order': False/'fortran_order': True /" > fos.npy
	both p.br p a=@fos.npy b
	expect $'11 22\n33 44'
}

@test "error: big-endian fields of a structured dtype, and foreign dtypes" {
	printf 'typedef struct { float a; } P;\nkernel void p(P a<>, out float b<>) { b = a.a; }\n' > p.br
	npy 1 "[('a', '>f4')]" '(1,)' '\077\200\000\000' > bes.npy
	fails_with 1 "big-endian fields ('>f4') are not supported in a structured dtype" \
		p.br p a=@bes.npy b
	npy 1 '<c8' '(1,)' '\000\000\000\000\000\000\000\000' > c8.npy
	fails_with 1 "dtype '<c8' has no Brook type" "$SUM" sum a=@c8.npy b=1
}

@test "error: .npy data of another type than the parameter" {
	npy 1 '<f8' '(1,)' '\000\000\000\000\000\000\360\077' > f8.npy
	fails_with 1 "a is float, the data is float64" "$SUM" sum a=@f8.npy b=1
}

@test "error: a fraction or an out-of-range number for an integer type" {
	fails_with 1 "a is int: 1.5 is not a value of that type" \
		"$K" ints a=[1.5] b=1
	fails_with 1 "b is uchar: 300 is not a value of that type" \
		"$K" chars a=1 b=300
	# in full, not rounded to 2.14748e+09
	fails_with 1 "a is int: 2147483648 is not a value of that type" \
		"$K" ints a=[2147483648] b=1
}

@test "error: vector data without its components on the last axis" {
	fails_with 1 "a is float4: the data's last axis must have 4 components, its shape is (3,)" \
		"$K" vec a=[1,2,3] b=ones
}

@test "error: an input with no elements" {
	fails_with 1 "'a' has no elements (shape (0,))" "$SUM" sum a=[] b=1
	fails_with 1 "'a' has no elements (shape (2, 0))" "$SUM" sum a=[[],[]] b=1
}

@test "error: a value given more than one element" {
	fails_with 1 "'k' is a value: it takes one element, the data has shape (2,)" \
		"$K" scale a=[1,2] k=[1,2]
}

@test "error: a gather of another size than declared" {
	fails_with 1 "'t' is declared with 2 in dimension 1" \
		"$top_srcdir/t/run/gather.br" g3 p=[[0,0,0]] t=iota --shape t=4x3x3
}

@test "error: a raw binary file of the wrong size or without dimensions" {
	printf "$F123" > a.bin
	fails_with 1 "a.bin: 12 bytes, but 4 elements of float32 need 16" \
		"$SUM" sum a=@a.bin:4 b=1
	fails_with 1 "a .bin file needs its dimensions" "$SUM" sum a=@a.bin b=1
	# a count that overflows is named as such, not as a need of 0 bytes
	fails_with 1 "a.bin: 2147483648x2147483648x4 elements are more than memory can hold" \
		"$SUM" sum a=@a.bin:2147483648x2147483648x4 b=1
}

@test "generated inputs of a map kernel take the output's --shape" {
	both "$K" sum a=iota b=ones c --shape c=4x2
	expect "1 2 3 4\n5 6 7 8"
	# an input given data still sets the domain
	both "$K" sum a=iota b=[10,20,30,40] c --shape c=4x2
	expect "10 21 32 43\n10 21 32 43"
}

@test "error: a generator or an output with no shape to take" {
	fails_with 1 "generated input 'a' needs a shape" "$SUM" sum a=rand b=rand
	# a reduction's output is no domain
	fails_with 1 "generated input 'a' needs a shape" "$K" vsum a=iota s \
		--shape s=2
	fails_with 1 "output stream 'i' needs a shape" \
		"$top_srcdir/t/run/indexof.br" where_out i
}

@test "error: bad rand seeds and iterators" {
	fails_with 1 "bad seed in 'rand:x'" "$SUM" sum a=rand:x b=[1,2]
	fails_with 1 "write an iterator as iter(START, END)" \
		"$K" it "p=iter(1)" c --shape p=2
	fails_with 1 "an end of iter() has 1 or 2 numbers" \
		"$K" it "p=iter([1,2,3],1)" c --shape p=2
	fails_with 1 "iterators are float" "$K" ints "a=iter(0,1)" b=1 \
		--shape a=2
	fails_with 1 "only an input stream takes an iterator" \
		"$K" gather idx=[1] "g=iter(0,1)" --shape g=2
}

@test "error: --check against data of another size" {
	fails_with 1 "check c: the result has shape (3,), the expected data (2,)" \
		"$SUM" sum a=[1,2,3] b=0 c=@c.npy --check c=[1,2]
}

@test "a number for a vector constant fills each component, as in a compiled program" {
	printf 'kernel void k(float4 a<>, float4 cap, out float4 b<>) { b = min(a, cap); }\n' > cap.br
	both cap.br k 'a=[[1,5,9,0],[2,6,1,3]]' cap=2.5 b
	expect '1,2.5,2.5,0 2,2.5,1,2.5'
	both cap.br k 'a=[[1,5,9,0]]' cap=[2.5,6,7,-1] b
	expect '1,5,7,-1'
	fails_with 1 "cap is float4: the data's last axis must have 4 components" \
		cap.br k 'a=[[1,5,9,0]]' cap=[2.5,6] b
}

@test "--check takes a generator, of the output's shape; a reduce function's target takes no start value" {
	both "$SUM" sum a=[0,1,2] b=[0,0,0] c --check c=iota
	expect '0 1 2'
	run brrun "$SUM" sum a=[0,1,2] b=[0,0,0] c --check c=zeros
	[ "$status" -eq 1 ]
	[[ "$output" == *"check c: c[2] is 2, expected 0"* ]]
	run brrun "$top_srcdir/t/brrun/structs.br" scale x=ones k=0 y \
		--shape x=2 --check y=zeros
	[ "$status" -eq 1 ]
	[[ "$output" == *"check y: y[0].b.x is 1, expected 0"* ]]
	fails_with 1 "'r' takes no start value: a reduce function starts from the first element it folds" \
		"$K" rsum a=[1,2,3] r=10
	both "$K" rsum a=[1,2,3] r
	expect '6'
}

@test "a source file that cannot be read is brrun's E-run-file, status 2" {
	fails_with 2 "cannot read none.br: No such file or directory [E-run-file]" none.br sum
}

@test "a partial group's work-items outside the domain run nothing in the interpreter, as in the generated code" {
	cat > pg.br <<'BR'
Attribute[GroupSize(4, 1, 1)]
kernel void gk(float a<>, out float c[])
{
	int i = instance().x;
	if (i >= 2)
		c[i - 2] = 100.0f + (float)i;
}
BR
	# items 6 and 7 of the second group would write c[4] and c[5]
	both pg.br gk a=zeros --shape a=6
	expect '102 103 104 105 0 0'
}

# sub N NAME: a subkernel NAME of N float parameters, returning their
# sum, and a kernel k calling it with a + 0 ... a + N-1.
sub_params() {
	local i ps="" body="" as=""
	for ((i = 0; i < $1; i++)); do
		ps+="${ps:+, }float p$i"; body+="${body:+ + }p$i"
		as+="${as:+, }a + ${i}.0f"
	done
	printf 'kernel float %s(%s) { return %s; }\n' "$2" "$ps" "$body"
	printf 'kernel void k(float a<>, out float o<>) { o = %s(%s); }\n' \
		"$2" "$as"
}

# chain N: subkernels f0 ... fN-1, each calling the one before, and a
# kernel k calling fN-1: N calls nested.
chain() {
	local i
	echo 'kernel float f0(float x) { return x + 1.0f; }'
	for ((i = 1; i < $1; i++)); do
		echo "kernel float f$i(float x) { return f$((i - 1))(x) + 1.0f; }"
	done
	echo "kernel void k(float a<>, out float o<>) { o = f$(($1 - 1))(a); }"
}

@test "the interpreter calls subkernels of up to 64 parameters, nested up to 64 deep; past either, E-run-interp at the call" {
	sub_params 64 f > p64.br
	both p64.br k a=[1,2]
	expect '2080 2144'
	sub_params 65 f > p65.br
	fails_with 1 "p65.br:2:47: error: the interpreter calls a subkernel of up to 64 parameters [E-run-interp]" \
		--backend cpu p65.br k a=[1,2]
	run brrun --backend opencl p65.br k a=[1,2]
	[ "$status" -eq 0 ] && [ "$output" = '2145 2210' ]
	chain 64 > c64.br
	both c64.br k a=[1,2]
	expect '65 66'
	# k's call of f64 is the 65th nested
	chain 65 > c65.br
	fails_with 1 "c65.br:66:47: error: the interpreter nests subkernel calls up to 64 deep [E-run-interp]" \
		--backend cpu c65.br k a=[1,2]
	run brrun --backend opencl c65.br k a=[1,2]
	[ "$status" -eq 0 ] && [ "$output" = '66 67' ]
}

@test "the interpreter sizes a thread's frames from the kernel's calls: large locals nested, and in a work-group's work-items" {
	# 18,000 floats in three nested frames, a frame within the
	# arguments of a call, and a work-item's subkernel of 2,000
	cat > loc.br <<'BR'
kernel float big(float x) { float t[6000]; int i; for (i = 0; i < 6000; i++) t[i] = x + (float)i; return t[5999]; }
kernel float big2(float x) { float t[6000]; t[5999] = x; return big(t[5999]) + t[5999]; }
kernel float big3(float x) { float t[6000]; t[0] = x; return big2(t[0]) + t[0]; }
kernel float add(float x, float y) { float t[3000]; t[2999] = x + y; return t[2999]; }
kernel void k(float a<>, out float o<>) { o = big3(a); }
kernel void k2(float a<>, out float o<>) { o = add(a, add(a, big(a))); }
kernel float mid(float x) { float t[2000]; int i; for (i = 0; i < 2000; i++) t[i] = x * (float)i; return t[1999]; }
Attribute[GroupSize(2, 1, 1)]
kernel void g(float a<>, out float c[]) { shared float s[2]; int i = instance().x; s[1 * instanceInGroup().x + 0] = a; syncGroup(); c[i] = mid(s[0]) + s[1]; }
BR
	both loc.br k a=[1,2]
	expect '6002 6005'
	both loc.br k2 a=[1,2]
	expect '6002 6005'
	both loc.br g a=iota c --shape a=4
	expect '1 1 4001 4001'
}

@test "the interpreter's limits of locals: 65,536 values an array, a thread's frames, a work-group's, each E-run-interp" {
	cat > big.br <<'BR'
kernel float huge(float x) { float t[70000]; t[0] = x; return t[0]; }
kernel void k(float a<>, out float o<>) { o = huge(a); }
kernel float part(float x) { float t[40000]; t[0] = x; return t[0]; }
kernel float twice(float x) { float t[40000]; t[0] = part(x); return t[0]; }
kernel void k2(float a<>, out float o<>) { o = twice(a); }
kernel float some(float x) { float t[20000]; t[0] = x; return t[0]; }
Attribute[GroupSize(256, 1, 1)]
kernel void g(float a<>, out float c[]) { c[instance().x] = some(a); }
typedef struct S { float4 a; float4 b; float4 c; } S;
kernel void ks(float a<>, out float o<>) { S t[30000]; t[0].a.x = a; o = t[0].a.x; }
kernel void k3(float a<>, out float o<>) { float t[40000]; float u[40000]; t[0] = a; u[0] = a; o = t[0] + u[0]; }
BR
	fails_with 1 "big.br:1:36: error: local array 't' too large: the interpreter holds up to 65536 elements an array [E-run-interp]" \
		--backend cpu big.br k a=[1,2]
	fails_with 1 "big.br:4:1: error: the locals of 'twice' and of the calls in it take more than the interpreter's 65536 values [E-run-interp]" \
		--backend cpu big.br k2 a=[1,2]
	fails_with 1 "big.br:7:11: error: the locals of a work-group of 'g' and of the calls in it take more than the interpreter's 4194304 values [E-run-interp]" \
		--backend cpu big.br g a=iota c --shape a=256
	# 30,000 structs of three values; two arrays of 40,000
	fails_with 1 "big.br:10:46: error: the locals of 'ks' take more than the interpreter's 65536 values with 't' [E-run-interp]" \
		--backend cpu big.br ks a=[1,2]
	fails_with 1 "big.br:11:66: error: the locals of 'k3' take more than the interpreter's 65536 values with 'u' [E-run-interp]" \
		--backend cpu big.br k3 a=[1,2]
}

@test "every kernel of the tree gives the same output and reports on both backends (fuzz/kernelsweep.py)" {
	command -v python3 >/dev/null || skip "no python3"
	run python3 "$top_srcdir/fuzz/kernelsweep.py" --build "$top_builddir"
	echo "$output" | tail -n 40
	[ "$status" -eq 0 ]
	# it ran: most kernels the same, none failing on one backend only
	[[ "${lines[-1]}" =~ ^same\ ([0-9]+),.*differ\ 0,.*fail\ on\ one\ 0$ ]]
	[ "${BASH_REMATCH[1]}" -gt 250 ]
}
