#!/usr/bin/env bats
# t/reliability.bats - nothing a user feeds the tools crashes them or loses
# data (issue 10): inputs found by fuzzing (fuzz/README.md), nesting and
# size limits, AST files of another version or edited to be inconsistent,
# outputs that never overwrite an input and are never left half written,
# and the memory safety of generated gathers and scatters. Every tool runs
# under `timeout 20`: a hang fails the test like a crash does.
load helper
bats_require_minimum_version 1.5.0

R=$top_srcdir/t/reliability

setup() {
	cd "$BATS_TEST_TMPDIR"
	# under --enable-sanitizers: leaks of the OpenCL driver are not ours
	export LSAN_OPTIONS="suppressions=$top_srcdir/t/brrun/lsan.supp:print_suppressions=0"
}

# refused [STATUS...]: the last `run` ended with one of STATUS (default 1
# or 2) and a diagnostic, within the time limit and without a crash or a
# sanitizer report.
refused() {
	local want=${*:-1 2} s ok=0
	for s in $want; do
		[ "$status" -eq "$s" ] && ok=1
	done
	if [ $ok = 0 ]; then
		echo "status $status, expected one of: $want" >&2
		echo "$output" >&2
		return 1
	fi
	clean
	[ -n "$output" ] || { echo "no diagnostic" >&2; return 1; }
}

# clean: the last `run` printed no sanitizer report and did not time out
# (on stdout or, with run --separate-stderr, on stderr).
clean() {
	[ "$status" -ne 124 ] || { echo "timed out" >&2; return 1; }
	[ "$status" -lt 128 ] || { echo "killed by a signal" >&2; return 1; }
	case $output${stderr:-} in
	*"ERROR: AddressSanitizer"* | *"ERROR: LeakSanitizer"* | *"runtime error:"*)
		echo "$output" >&2
		return 1 ;;
	esac
}

# nest N OPEN INNER CLOSE: OPEN N times, INNER, then CLOSE N times.
# (One printf each: a shell loop is slow under bats.)
nest() {
	local open=${2//%/%%} close=${4//%/%%}
	printf -- "%.0s$open" $(seq "$1")
	printf '%s' "$3"
	[ -z "$close" ] || printf -- "%.0s$close" $(seq "$1")
}

# pipeline SRC: SRC through every tool in turn; each must end cleanly.
# Leaves the statuses of brpp, brparse, brcheck and brgen in st[0..3] and
# their messages in pp.err, parse.err, check.err and gen.err.
pipeline() {
	st=(0 0 0 0)
	timeout 20 brpp "$1" > p.i 2> pp.err || st[0]=$?
	timeout 20 brparse p.i > p.ast 2> parse.err || st[1]=$?
	timeout 20 brcheck p.ast > p.chk 2> check.err || st[2]=$?
	timeout 20 brgen -o p p.chk 2> gen.err || st[3]=$?
	local i
	for i in 0 1 2 3; do
		[ "${st[$i]}" -lt 3 ] || { echo "tool $i ended with ${st[$i]}" >&2;
			cat pp.err parse.err check.err gen.err >&2; return 1; }
	done
	! grep -E 'Sanitizer|runtime error:' pp.err parse.err check.err gen.err || false
}

# --- the tools' JSON values -------------------------------------------

@test "json.h: values with jansson's meanings (order, large objects, objects made in one piece, json_pack, text)" {
	# t/json/json_test.c; make check builds it
	run --separate-stderr "$top_builddir/t/json/json_test"
	echo "$stderr" >&2
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = '{}' ]
	[[ "${lines[1]}" =~ ^ok\ [0-9]+$ ]]
}

# --- inputs found by fuzzing -------------------------------------------

@test "brpp: #undef of a macro inside its own arguments is an error, not a use after free" {
	printf '#define f(x) x\nf(\n#undef f\n1)\nint y;\n' > u.br
	run timeout 20 brpp u.br
	refused 1
	[[ "$output" == *'macro "f" redefined or undefined in its own arguments'*"[pp-args-redefine]"* ]]
}

@test "brpp: #define of a macro inside its own arguments is an error, not a use after free" {
	printf '#define A(x) x x\n#define B(x) A(A(x))\nB(B(B x x\n#define B(x) A(A(x))\nB(B(B(B(1))))\n' > d.br
	run timeout 20 brpp d.br
	refused 1
	[[ "$output" == *'macro "B" redefined or undefined in its own arguments'* ]]
}

@test "brpp: a macro call whose arguments are all empty" {
	printf '#define s(x) #x\n#define e() 1\n#define two(a, b) a b #b\ns() e() two(,)\n' > e.br
	run timeout 20 brpp -P e.br
	[ "$status" -eq 0 ]
	clean
	[ "$output" = '"" 1 ""' ]
}

@test "brcheck and brgen: every input found by fuzzing ends with a status, never a crash" {
	shopt -s nullglob
	for f in "$R"/fuzz-*.br; do
		run timeout 20 brcheck "$f"
		clean
		[ "$status" -le 2 ]
	done
	for f in "$R"/fuzz-*.ast; do
		run timeout 20 brcheck "$f"
		clean
		[ "$status" -le 2 ]
		run timeout 20 brgen -o out "$f"
		clean
		[ "$status" -le 2 ]
	done
}

@test "fuzz/build.sh builds the four harnesses, and each runs its committed seeds" {
	# clang with libFuzzer's runtime (setup.sh installs both)
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return d && n == 7; }\n' > probe.c
	clang -fsanitize=fuzzer probe.c -o probe 2>/dev/null ||
		skip "no clang with libFuzzer here (setup.sh installs clang and libclang-rt-dev)"
	run sh "$top_srcdir/fuzz/build.sh" "$top_builddir" fz
	[ "$status" -eq 0 ]
	for h in parse pp check ast; do
		[[ "$output" == *"built $PWD/fz/${h}_fuzz"* ]]
	done
	# each input once, as a crash is rerun (fuzz/README.md)
	local c=$top_srcdir/fuzz/corpus
	run timeout 120 fz/parse_fuzz "$c"/*.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"Executed $c/sum.br"* ]]
	for h in pp check ast; do
		run timeout 120 "fz/${h}_fuzz" "$c/$h"/*
		[ "$status" -eq 0 ]
		[[ "$output" == *"Executed $c/$h/"* ]]
	done
}

@test "fuzz/build.sh: without a build directory, a usage line" {
	run sh "$top_srcdir/fuzz/build.sh"
	[ "$status" -ne 0 ]
	[[ "$output" == *"usage: fuzz/build.sh BUILD [OUT]"* ]]
}

# --- nesting limits ----------------------------------------------------

@test "10,000 nested parentheses: a diagnostic from brparse and brcheck, not a stack overflow" {
	{ printf 'kernel void k(float a<>, out float b<>) { b = ';
	  nest 10000 '(' a ')'; printf '; }\n'; } > paren.br
	pipeline paren.br
	[ "${st[0]}" -eq 0 ]
	[ "${st[1]}" -eq 1 ]
	grep -q 'nesting too deep.*\[parse-too-deep\]' parse.err
	# brparse's output is marked failed (brast(5), FAILED OUTPUT)
	[ "${st[2]}" -eq 1 ] && [ "${st[3]}" -eq 1 ]
	grep -q '^p.ast: error: .*\[input-failed\]$' check.err
	run timeout 20 brcheck paren.br
	refused 1
	[[ "$output" == *"[parse-too-deep]"* ]]
}

@test "10,000 nested unary operators and if statements: a diagnostic" {
	{ printf 'int x = '; nest 10000 '-' 1 ''; printf ';\n'; } > unary.br
	run timeout 20 brcheck unary.br
	refused 1
	[[ "$output" == *"[parse-too-deep]"* ]]
	{ printf 'void f(int a) { '; nest 10000 'if (a) ' 'a = 1;' ''; printf ' }\n'; } > if.br
	run timeout 20 brcheck if.br
	refused 1
	[[ "$output" == *"[parse-too-deep]"* ]]
}

@test "10,000 nested blocks: a diagnostic from brparse and brcheck, not a stack overflow" {
	{ printf 'kernel void k(float a<>, out float b<>) '; nest 10000 '{' 'b = a;' '}'; printf '\n'; } > block.br
	pipeline block.br
	[ "${st[1]}" -eq 1 ]
	grep -q '\[parse-too-deep\]' parse.err
	run timeout 20 brcheck block.br
	refused 1
}

@test "10,000 nested #if: brpp keeps them apart, and the pipeline goes through" {
	{ nest 10000 $'#if 1\n' $'kernel void k(float a<>, out float b<>) { b = a; }\n' $'#endif\n'; } > if.br
	pipeline if.br
	[ "${st[0]}${st[1]}${st[2]}${st[3]}" = 0000 ]
	grep -q 'void k(' p.c
	{ nest 10000 $'#if 1\n' 'int x;' ''; } > open.br
	run timeout 20 brpp open.br
	refused 1
	[[ "$output" == *"#endif"* || "$output" == *"#if"* ]]
}

@test "10,000 nested parentheses in #if: a diagnostic from brpp" {
	{ printf '#if '; nest 10000 '(' 1 ')'; printf '\nint x;\n#endif\n'; } > ifx.br
	run timeout 20 brpp ifx.br
	refused 1
	[[ "$output" == *"[pp-if-too-deep]"* ]]
}

@test "10,000 nested includes: a diagnostic from brpp and brcheck, not a stack overflow" {
	printf '#include "self.h"\nint x;\n' > self.h
	printf '#include "self.h"\n' > inc.br
	run timeout 20 brpp inc.br
	refused 1
	[[ "$output" == *"self.h includes self.h [pp-include-cycle]"* ]]
	run timeout 20 brcheck inc.br
	refused 1
	[[ "$output" == *"[pp-include-cycle]"* ]]
	# a chain of 10,000 different files
	awk 'BEGIN { for (i = 0; i < 10000; i++) {
		f = "c" i ".h"; printf "#include \"c%d.h\"\n", i + 1 > f; close(f) } }'
	printf 'int last;\n' > c10000.h
	run timeout 20 brpp c0.h
	refused 1
	[[ "$output" == *"[pp-include-depth]"* ]]
}

@test "an AST nested deeper than the JSON reader takes: brcheck and brgen refuse it" {
	{ printf '{"brast":1,"stage":"checked","files":[],"decls":';
	  nest 10000 '[' '' ']'; printf '}\n'; } > deep.ast
	run timeout 20 brcheck deep.ast
	refused 2
	[[ "$output" == *"[brast-json]"* ]]
	run timeout 20 brgen -o out deep.ast
	refused 2
	[[ "$output" == *"[brast-json]"* ]]
	[ ! -e out.c ]
}

# deep_ast N STAGE: a kernel computing a+(a+(..)) N deep, as an AST.
deep_ast() {
	printf '{"brast":1,"stage":"%s","files":["deep.br"],"decls":[{"k":"func","at":[0,1,1],"name":"k","storage":null,"inline":false,"kernel":true,"reduce":false,"attrs":[],"type":{"t":"func","ret":{"t":"void"},"params":[{"k":"param","at":[0,1,15],"name":"a","type":{"t":"stream","of":{"t":"float"},"dims":[null]},"quals":[]},{"k":"param","at":[0,1,30],"name":"b","type":{"t":"stream","of":{"t":"float"},"dims":[null]},"quals":["out"]}],"variadic":false,"proto":true},"body":{"k":"block","at":[0,2,1],"items":[{"k":"expr","at":[0,3,5],"e":{"k":"assign","at":[0,3,5],"op":"=","l":{"k":"id","at":[0,3,5],"name":"b"},"r":' "$2"
	nest "$1" '{"k":"binop","at":[0,3,9],"op":"+","l":{"k":"id","at":[0,3,9],"name":"a"},"r":' \
		'{"k":"id","at":[0,3,9],"name":"a"}' '}'
	printf '}}]}}]}\n'
}

@test "an expression 2,000 deep in an AST: brcheck reports it, brgen does not crash" {
	deep_ast 2000 parsed > d.ast
	run timeout 20 brcheck d.ast
	refused 1
	[[ "$output" == *"deep.br:3:9: error: expression nested too deeply"*"[E-too-deep]"* ]]
	deep_ast 2000 checked > c.ast
	run timeout 20 brgen -o out c.ast
	clean
	[ "$status" -le 2 ]
	deep_ast 3 parsed > ok.ast
	brcheck ok.ast > ok.chk
	brgen -o ok ok.chk
	grep -q 'void k(' ok.c
}

# --- stream sizes ------------------------------------------------------
# (under --enable-sanitizers, ASan must let a huge malloc fail as libc does)

@test "a stream too large or whose size overflows: BR_ERROR_DECLARATION with a message, on both backends" {
	brook_build "$R/overflow.br" ov
	for rt in cpu opencl; do
		run --separate-stderr env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1 \
			BRT_RUNTIME=$rt timeout 60 ./ov
		[ "$status" -eq 0 ]
		clean
		[ "${lines[0]}" = "error 1" ]
		[[ "${lines[1]}" == "log Stream Allocation: "* ]]
		[ "${lines[3]}" = "error 1" ]
		[[ "${lines[4]}" == "log Stream Allocation: "* ]]
	done
}

@test "brt_stream_new with huge dimensions: BR_ERROR_DECLARATION with a message, never a crash" {
	$BROOK_CC $BROOK_CFLAGS "$R/bigdims.c" -o bigdims $BROOK_LIBS
	for rt in cpu opencl; do
		run --separate-stderr env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1 \
			BRT_RUNTIME=$rt timeout 60 ./bigdims
		[ "$status" -eq 0 ]
		clean
		[ "${#lines[@]}" -eq 5 ]
		for l in "${lines[@]}"; do
			[[ "$l" == *" 1 message" ]]
		done
	done
}

# --- AST files of another version or edited ----------------------------

@test "brcheck and brgen refuse an AST of another version (status 2)" {
	for f in ast-version2 ast-checked-version2; do
		run timeout 20 brcheck "$R/$f.ast"
		refused 2
		[[ "$output" == *"unknown version"*"[brast-version]"* ]]
		run timeout 20 brgen -o out "$R/$f.ast"
		refused 2
		[[ "$output" == *"unknown version"*"[brast-version]"* ]]
	done
	[ ! -e out.c ]
}

@test "brcheck refuses an edited AST: dangling ref, wrong kinds, missing fields, wrong types (status 2)" {
	for f in kind decl-kind missing name-int items-obj checked-kind \
		checked-decl-kind checked-missing checked-name-int \
		checked-items-obj checked-dangling-ref checked-ref-type \
		checked-dims; do
		run timeout 20 brcheck "$R/ast-$f.ast"
		refused 2
		[[ "$output" == *"malformed AST"*"[E-ast]"* ]]
	done
}

@test "brcheck refuses an assign, binop, unop or postfix without a known op (F12, status 2)" {
	run timeout 20 brcheck "$R/fuzz-ast-assign-no-op.ast"
	refused 2
	[[ "$output" == *'malformed AST: "assign" node without a known "op" [E-ast]'* ]]
	brpp "$R/sum.br" | brparse > ok.ast
	grep -q '"k":"assign","at":\[[0-9,]*\],"op":"="' ok.ast
	local kind op
	for kind in assign binop unop postfix; do
		for op in '=>' '' '+'; do
			[ "$kind:$op" != binop:+ ] && [ "$kind:$op" != unop:+ ] || continue
			sed "s/\"k\":\"assign\",\(\"at\":\[[0-9,]*\]\),\"op\":\"=\"/\"k\":\"$kind\",\1,\"op\":\"$op\",\"e\":{\"k\":\"int\",\"text\":\"1\",\"value\":1}/" ok.ast > bad.ast
			run timeout 20 brcheck bad.ast
			refused 2
			[[ "$output" == *"\"$kind\" node without a known \"op\" [E-ast]"* ]]
		done
	done
}

@test "brcheck drops locations outside the file table or the lines (F9)" {
	printf 'kernel void k(float a<>, out float b<>) { goto x; x: b = a; }\n' > g.br
	brpp g.br | brparse > g.ast
	run timeout 20 brcheck --diagnostics=json g.ast
	refused 1
	[[ "$output" == *'"line"'* ]]
	for at in '99,1,1' '0,-5,1' '-1,1,1' '0,1,-3' '0,99999999999,1'; do
		sed "s/\"k\":\"goto\",\"at\":\[[0-9,]*\]/\"k\":\"goto\",\"at\":[$at]/" g.ast > e.ast
		! cmp -s g.ast e.ast || false
		run timeout 20 brcheck e.ast
		refused 1
		[[ "$output" == *"[E-kernel-goto]"* ]]
		[[ "$output" != *"<input>"* && "$output" != *":-"* && "$output" != *"99999"* ]]
	done
}

@test "brgen refuses a parsed AST edited to be inconsistent" {
	for f in kind decl-kind missing name-int items-obj; do
		run timeout 20 brgen -o out "$R/ast-$f.ast"
		refused 1 2
	done
	for f in checked-kind checked-missing; do
		run timeout 20 brgen -o out "$R/ast-$f.ast"
		refused 1 2
	done
	[ ! -e out.c ]
}

@test "brgen refuses a checked AST edited to be inconsistent" {
	for f in checked-dangling-ref checked-ref-type checked-dims \
		checked-decl-kind checked-name-int checked-items-obj \
		checked-kind checked-missing; do
		run timeout 20 brgen -o out "$R/ast-$f.ast"
		refused 2
		[[ "$output" == *"malformed AST"*"[E-ast]"* ]]
		run timeout 20 brgen --target=opencl "$R/ast-$f.ast"
		refused 2
		[[ "$output" != *__kernel* ]]
	done
	# the unedited document still goes through, with its options
	brpp "$R/sum.br" | brparse | brcheck -a > ok.ast
	grep -q '"a": *true' ok.ast
	brgen -o ok ok.ast
	grep -q 'void sum(' ok.c
	[ ! -e out.c ]
}

@test "brcheck seals its AST with a digest; brgen checks again one that is edited, reformatted or unsealed" {
	brpp "$R/sum.br" | brparse | brcheck > ok.ast
	# the last member, as brast(5) defines it
	[[ "$(tail -c 31 ok.ast)" =~ \]\,\"digest\":\"[0-9a-f]{16}\"\}$ ]]
	mkdir ok plain spaced
	brgen -o ok/sum ok.ast
	# unsealed, reformatted: checked again, accepted, the same output
	sed 's/,"digest":"[0-9a-f]*"}$/}/' ok.ast > plain.ast
	! grep -q digest plain.ast || false
	sed 's/,"decls"/, "decls"/' ok.ast > spaced.ast
	for f in plain spaced; do
		brgen -o $f/sum $f.ast
		cmp ok/sum.c $f/sum.c
		cmp ok/sum.h $f/sum.h
	done
	# reading drops the digest: brparse writes none, brcheck a new one
	brparse ok.ast > re.ast
	! grep -q digest re.ast || false
	brcheck ok.ast | cmp - ok.ast
	# edited, with the digest of the text before the edit: refused
	sed 's/"name":"a","ref":\([0-9]*\)/"name":"a","ref":9999/' ok.ast > stale.ast
	! cmp -s ok.ast stale.ast || false
	run timeout 20 brgen -o out stale.ast
	refused 2
	[[ "$output" == *'dangling "ref"'*"[E-ast]"* ]]
	[ ! -e out.c ]
}

@test "the digest is the one brast(5) defines, and a matching one skips brgen's second check" {
	command -v python3 >/dev/null || skip "no python3"
	brpp "$R/sum.br" | brparse | brcheck > ok.ast
	python3 "$top_srcdir/t/gen/seal.py" ok.ast | cmp - ok.ast
	# brast(5): a digest tells an edited copy, not a forgery. An edit
	# with its digest recomputed is not checked again, which shows
	# that a matching digest skips the check.
	sed 's/"name":"a","ref":\([0-9]*\)/"name":"a","ref":9999/' ok.ast > stale.ast
	python3 "$top_srcdir/t/gen/seal.py" stale.ast > forged.ast
	run timeout 20 brgen -o out stale.ast
	refused 2
	run timeout 20 brgen -o out forged.ast
	[ "$status" -eq 0 ]
	[[ "$output" != *"[E-ast]"* ]]
}

@test "brgen indexes each declaration as it reads it: the same code from a pipe, from a file, checked again, and where the declarations it indexed are not the document's" {
	command -v python3 >/dev/null || skip "no python3"
	# a swizzle of a swizzle and an anonymous struct (nodes the index
	# changes, after reading), indexof and subkernel calls (sites)
	local p f x
	mkdir pipe file plain dup
	brpp "$R/sum.br" | brparse | brcheck > other.ast
	for p in swizzle_nested struct_anon gather_loop fall_off; do
		brpp "$top_srcdir/t/run/$p.br" | brparse | brcheck > $p.ast
		brpp "$top_srcdir/t/run/$p.br" | brparse | brcheck |
			brgen -o pipe/$p
		brgen -o file/$p $p.ast
		# unsealed: checked again, indexed after
		sed 's/,"digest":"[0-9a-f]*"}$/}/' $p.ast > $p.plain.ast
		brgen -o plain/$p $p.plain.ast
		# sealed, with another program's "decls" before its own (the
		# later member is the one read): the declarations indexed
		# while reading are not the document's, which brgen indexes
		# again
		python3 -c 'import sys
a, b = (open(f).read() for f in sys.argv[1:])
def decls(t):
    j = t.index("\"decls\":") + 8
    d = 0
    for k in range(j, len(t)):
        d += {"[": 1, "]": -1}.get(t[k], 0)
        if d == 0:
            return t[j:k + 1]
sys.stdout.write(b.replace("\"decls\":", "\"decls\":" + decls(a) + ",\"decls\":", 1))' \
			other.ast $p.ast > $p.dup.raw
		python3 "$top_srcdir/t/gen/seal.py" $p.dup.raw > $p.dup.ast
		# its digest matches: not checked again (the test above)
		python3 "$top_srcdir/t/gen/seal.py" $p.dup.ast |
			cmp - $p.dup.ast
		run timeout 20 brgen -o dup/$p $p.dup.ast
		[ "$status" -eq 0 ]
		clean
		for f in file plain dup; do
			for x in c h; do
				cmp pipe/$p.$x $f/$p.$x
			done
		done
	done
}

# --- pipes -------------------------------------------------------------

# cut FILE N...: FILE to stdout, stopping 0.2 s after each of the byte
# offsets N (ascending), so that a reader at the other end of a pipe has
# the text up to there and no further for a while
cut_at() {
	local f=$1 at=0 n
	shift
	for n in "$@"; do
		tail -c +$((at + 1)) "$f" | head -c $((n - at))
		sleep 0.2
		at=$n
	done
	tail -c +$((at + 1)) "$f"
}

# big_asts: big.ast and big.chk of gen-big's program of 16 kernels, and
# the whole/big.c and .h that brgen writes from the file big.chk
big_asts() {
	"$top_srcdir/bench/gen-big.sh" 16 > big.br
	brpp big.br | brparse -o big.ast
	brcheck big.ast -o big.chk
	mkdir whole
	brgen -o whole/big big.chk
}

@test "brcheck and brgen read an AST arriving in pieces cut anywhere: the output of the whole file" {
	big_asts
	mkdir piped
	[ "$(wc -c < big.chk)" -gt 200000 ]
	# cut inside a number, a key, a string and a "ty" object, and at
	# offsets the text puts nowhere in particular
	at=$(grep -bo '"at":\[0,3[0-9][0-9],' big.chk | head -1 | cut -d: -f1)
	ty=$(grep -bo '"ty":{"t":"float"}' big.chk | sed -n 200p | cut -d: -f1)
	nm=$(grep -bo '"name":"map' big.chk | sed -n 5p | cut -d: -f1)
	set -- $(printf '%s\n' $((at + 9)) $((ty + 3)) $((ty + 10)) \
		$((nm + 9)) 150001 $(( $(wc -c < big.chk) - 20 )) | sort -n -u)
	[ $# -eq 6 ]
	cut_at big.chk "$@" | timeout 20 brgen -o piped/big
	cmp whole/big.c piped/big.c
	cmp whole/big.h piped/big.h
	cut_at big.ast 1 4096 65537 100003 | timeout 20 brcheck | cmp - big.chk
}

@test "an AST cut short or spoiled in a pipe: the message a file gets" {
	"$top_srcdir/bench/gen-big.sh" 16 > big.br
	brpp big.br | brparse | brcheck > big.chk
	head -c 180000 big.chk > short.chk
	sed 's/},{"k":"func"/},,{"k":"func"/' big.chk > comma.chk
	sed 's/"decls":\[/"decls":[1,/; s/"}$/"},/' big.chk > tail.chk
	for f in short comma tail; do
		run timeout 20 brgen -o out < $f.chk
		refused 2
		file=$output
		run timeout 20 sh -c "{ head -c 120000 $f.chk; sleep 0.2;
			tail -c +120001 $f.chk; } | brgen -o out"
		refused 2
		[ "$output" = "$file" ]
		[[ "$output" == "<stdin>"*"not an AST file"* ]]
		run timeout 20 brcheck < $f.chk
		refused 2
		[[ "$output" == "<stdin>"*"not an AST file"* ]]
	done
	[ ! -e out.c ]
}

@test "a reader of a pipe naps while the text is slow to come, then sleeps in read(): the output of the whole file" {
	big_asts
	mkdir naps
	# a pause within the naps' 0.1 s, and one longer
	{ head -c 100000 big.chk; sleep 0.03; tail -c +100001 big.chk |
		head -c 100000; sleep 0.3; tail -c +200001 big.chk; } |
		timeout 20 brgen -o naps/big
	cmp whole/big.c naps/big.c
	cmp whole/big.h naps/big.h
	{ head -c 4096 big.ast; sleep 0.03; tail -c +4097 big.ast; } |
		timeout 20 brcheck | cmp - big.chk
	# the looks and the naps themselves: on a pipe, not on a file
	strace_or_skip
	# (the text is sent once brgen has napped, however slow it starts)
	mkfifo p
	strace -f -o trace -e trace=poll,ppoll,nanosleep,clock_nanosleep \
		brgen -o naps/big < p &
	exec 7> p
	for i in $(seq 300); do
		grep -q 'tv_nsec=200000' trace 2>/dev/null && break
		sleep 0.1
	done
	cat big.chk >&7
	exec 7>&-
	wait $!
	grep -Eq 'poll\(\[\{fd=0, events=POLLIN\}\], 1, ' trace
	grep -Eq 'nanosleep\(.*tv_nsec=200000' trace
	cmp whole/big.c naps/big.c
	strace -f -o trace2 -e trace=poll,ppoll,nanosleep,clock_nanosleep \
		brgen -o naps/big big.chk
	run grep -E 'poll\(\[\{fd=[0-9]+, events=POLLIN\}\], 1, 0|tv_nsec=200000' trace2
	[ "$status" -eq 1 ]
}

@test "after 0.1 s of naps with nothing come a reader sleeps in read(); writers send pieces of about 64 KiB into a pipe made to hold 1 MiB" {
	strace_or_skip
	big_asts
	mkdir naps
	mkfifo p
	strace -f -T -o trace -e trace=read,clock_nanosleep,nanosleep \
		brgen -o naps/big < p &
	exec 7> p
	head -c 100000 big.chk >&7
	sleep 1.5
	tail -c +100001 big.chk >&7
	exec 7>&-
	wait $!
	cmp whole/big.c naps/big.c
	# the pause: naps for 0.1 s (500 of them), then a read of standard
	# input that waits for the rest
	grep -Eq 'read\(0, .*<(0\.[5-9]|[1-9])[0-9.]*>$' trace
	n=$(awk '/nanosleep\(.*tv_nsec=200000/ { run++; if (run > max) max = run; next }
		/read\(0,/ { run = 0 } END { print max + 0 }' trace)
	[ "$n" -ge 400 ] && [ "$n" -le 600 ]
	# the writer: pieces of at least 64 KiB but the last, and the pipe
	"$top_srcdir/bench/gen-big.sh" > big2.br
	brpp big2.br | brparse -o big2.ast
	strace -o wtrace -e trace=write,fcntl brcheck < big2.ast | cat > out.chk
	brcheck big2.ast | cmp - out.chk
	grep -q 'fcntl(1, F_SETPIPE_SZ, 1048576)' wtrace
	run awk '/^write\(1,/ { n[++k] = $NF } END {
		for (i = 1; i < k; i++) if (n[i] < 65536) exit 1
		exit k < 10 }' wtrace
	[ "$status" -eq 0 ]
}

@test "brparse and brcheck write an AST to a pipe in pieces: the text they write to a file" {
	"$top_srcdir/bench/gen-big.sh" 16 > big.br
	brpp big.br > big.i
	brparse big.i -o big.ast
	brparse < big.i | cat | cmp - big.ast
	brcheck big.ast -o big.chk
	brcheck < big.ast | cat | cmp - big.chk
	# a document, then the digest of all of it before the digest
	[[ "$(tail -c 31 big.chk)" =~ \]\,\"digest\":\"[0-9a-f]{16}\"\}$ ]]
	mkdir g
	brcheck < big.ast | brgen -o g/big --checked 2>err
	[ ! -s err ]
}

@test "brparse writes the AST while it parses: the file's text (its files read ahead); after an error, a part that the next tool refuses" {
	local n=0
	for f in "$top_srcdir"/t/parse/*.br "$top_srcdir"/fuzz/corpus/*.br \
			"$top_srcdir"/t/run/*.br; do
		brparse "$f" -o one.ast 2>/dev/null || continue
		brparse "$f" | cmp - one.ast
		brpp "$f" 2>/dev/null > one.i || continue
		brparse one.i -o one.ast
		brparse < one.i | cat | cmp - one.ast
		n=$((n + 1))
	done
	[ "$n" -gt 40 ]
	# linemarkers of several files, one named twice
	printf '# 1 "a.br"\nint a;\n# 1 "b.h" 1\nint b;\n# 2 "a.br" 2\nint c;\n' > m.i
	brparse m.i -o m.ast
	brparse m.i | cmp - m.ast
	grep -q '"files":\["a.br","b.h"\]' m.ast
	# an error after the first pieces went out
	"$top_srcdir/bench/gen-big.sh" > big.br
	brpp big.br > big.i
	{ cat big.i; echo 'int broken = ;'; } > bad.i
	run sh -c 'brparse bad.i > part.ast'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: expected expression"* ]]
	[ "$(wc -c < part.ast)" -ge 262144 ]
	[ "$(tail -n 1 part.ast)" = "#brook failed" ]
	run --separate-stderr brcheck part.ast
	[ "$status" -eq 1 ]
	[ "$stderr" = 'part.ast: error: the tool that wrote this input failed: it ends with the line "#brook failed" [input-failed]' ]
	# the part alone, as a tool killed while writing leaves it
	head -n -1 part.ast > cut.ast
	run brcheck cut.ast
	[ "$status" -eq 2 ]
	[[ "$output" == *"not an AST file"* ]]
	run brparse bad.i -o whole.ast
	[ "$status" -eq 1 ]
	[ ! -f whole.ast ]
}

@test "brcheck writes the checked AST while it checks: the file's text; after an error, a part that brgen refuses" {
	local n=0
	for f in "$top_srcdir"/t/check/*.br "$top_srcdir"/t/gen/*.br \
			"$top_srcdir"/t/run/*.br "$top_srcdir"/examples/*.br; do
		brpp "$f" 2>/dev/null | brparse > one.ast 2>/dev/null || continue
		rm -f one.chk
		brcheck one.ast -o one.chk 2>/dev/null || continue
		brcheck < one.ast 2>/dev/null | cat | cmp - one.chk
		n=$((n + 1))
	done
	[ "$n" -gt 120 ]
	# an error in the last declaration, after the first pieces went out
	"$top_srcdir/bench/gen-big.sh" > big.br
	{ cat big.br; echo 'kernel void late(float a<>, out float b<>) { b = c; }'; } > bad.br
	brpp bad.br | brparse > bad.ast
	run --separate-stderr sh -c 'brcheck < bad.ast > part.chk'
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"[E-undefined]" ]]
	[ "$(wc -c < part.chk)" -ge 262144 ]
	[ "$(tail -n 1 part.chk)" = "#brook failed" ]
	run --separate-stderr sh -c 'brcheck < bad.ast | brgen -o x'
	[ "$status" -eq 1 ] && [ ! -e x.c ] && [ ! -e x.h ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	run --separate-stderr brcheck bad.ast -o whole.chk
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ ! -e whole.chk ]
	# a terminal (script(1) gives the tool one) gets the messages only
	command -v script >/dev/null || skip "no script(1)"
	run script -qec "brcheck bad.ast" /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"[E-undefined]"* ]]
	[[ "$output" != *'"brast"'* ]]
}

# piped CMD: runs the four tools in a pipe, as the README shows them,
# CMD in place of the first, and brgen -o x last.
piped() {
	run --separate-stderr timeout 20 sh -c "$1 | brparse | brcheck | brgen -o x"
}

@test "a tool that fails fails the pipeline: one message, status 1 from brgen, no files (brast(5), FAILED OUTPUT)" {
	printf 'kernel void k(float a<>, out float b<>) { b = a; }\n' > ok.br
	# brpp: a missing include file, an unknown directive, an unknown
	# option, a warning under -x, an input that cannot be read
	printf '#include "none.h"\n' | cat - ok.br > x.br
	piped 'brpp x.br'
	[ "$status" -eq 1 ]
	[[ "$stderr" == *'error: cannot open include file "none.h"'*'[pp-include-missing]' ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e x.c ] && [ ! -e x.h ]
	printf '#brook failed\n' | cat - ok.br > x.br
	piped 'brpp x.br'
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] && [ ! -e x.c ]
	[[ "$stderr" == *"[pp-unknown-directive]" ]]
	cp ok.br x.br
	piped 'brpp --no-such x.br'
	[ "$status" -eq 1 ] && [ ! -e x.c ]
	[ "${stderr_lines[0]}" = "brpp: unknown option '--no-such'" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	piped 'brpp none.br'
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] && [ ! -e x.c ]
	printf '#warning look\n' | cat - ok.br > x.br
	piped 'brpp -x x.br'
	[ "$status" -eq 1 ] && [ ! -e x.c ]
	[[ "$stderr" == *"look"* ]]
	# brparse and brcheck
	printf 'kernel void k(float a<>, out float b<>) { b = a +; }\n' > x.br
	piped 'brpp x.br'
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] && [ ! -e x.c ]
	[[ "$stderr" == *"[parse-syntax]" ]]
	printf 'kernel void k(float a<>, out float b<>) { b = c; }\n' > x.br
	piped 'brpp x.br'
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] && [ ! -e x.c ]
	[[ "$stderr" == *"[E-undefined]" ]]
	run --separate-stderr sh -c 'brpp x.br | brparse | brcheck --no-such | brgen -o x'
	[ "$status" -eq 1 ] && [ ! -e x.c ]
	# and with nothing wrong, the files
	cp ok.br x.br
	piped 'brpp x.br'
	[ "$status" -eq 0 ] && [ -z "$stderr" ] && [ -s x.c ]
}

# marked STATUS CMD...: CMD ends with STATUS, its standard output the
# failed-output line alone (brast(5), FAILED OUTPUT).
marked() {
	local want=$1
	shift
	run --separate-stderr "$@"
	[ "$status" -eq "$want" ] && [ "$output" = $'\n#brook failed' ]
}

@test "a tool that fails ends what it writes to standard output with #brook failed, but not on a terminal or in a file" {
	printf '#include "none.h"\nint a;\n' > pp.br
	printf 'int a = ;\n' > parse.br
	printf 'kernel void k(float a<>, out float b<>) { b = c; }\n' > check.br
	brpp check.br | brparse > check.ast
	run --separate-stderr brpp pp.br
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "#brook failed" ]
	[ "${lines[-2]}" = "int a;" ]
	marked 1 brparse parse.br
	marked 1 brcheck check.ast
	marked 1 brcheck < check.ast
	marked 1 brcheck -o - check.ast
	# a usage error of a tool whose output goes to standard output
	marked 2 brpp -Q
	marked 2 brparse -Q
	marked 2 brcheck -Q
	# brcheck as a linter, and any tool writing a file: nothing
	run --separate-stderr brcheck check.br
	[ "$status" -eq 1 ] && [ -z "$output" ]
	run --separate-stderr brcheck -o out.ast check.ast
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ ! -e out.ast ]
	run --separate-stderr brparse parse.br -o out.ast
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ ! -e out.ast ]
	run --separate-stderr brpp pp.br -o out.i
	[ "$status" -eq 1 ] && [ -z "$output" ]
	# a reader that is gone: the line does not make the status SIGPIPE's
	run python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
for cmd in (["brpp", "-Q"], ["brparse", "parse.br"], ["brcheck", "check.ast"]):
    print(subprocess.run(cmd, stdout=w, stderr=subprocess.DEVNULL).returncode)'
	[ "$output" = "$(printf '2\n1\n1')" ]
	# on a terminal (script(1) gives the tool one), the messages only
	command -v script >/dev/null || skip "no script(1)"
	for t in "brpp pp.br" "brparse parse.br" "brcheck check.ast"; do
		run script -qec "$t" /dev/null
		[ "$status" -eq 1 ]
		[[ "$output" == *"error"* ]]
		[[ "$output" != *"#brook failed"* ]]
	done
}

# failed_input NAME CMD...: CMD ends with status 1 and reports its input
# NAME as the output of a tool that failed.
failed_input() {
	local name=$1
	shift
	run --separate-stderr "$@"
	[ "$status" -eq 1 ] && [ "$stderr" = "$name: error: the tool that wrote this input failed: it ends with the line \"#brook failed\" [input-failed]" ]
}

@test "the output of a tool that failed, read from a file: input-failed, status 1, from each reader" {
	local failed=$'\n#brook failed'
	printf 'int a = ;\n' > parse.br
	brparse parse.br > failed.ast || true
	printf 'x\n#brook failed\n' > failed.i
	failed_input failed.i brparse failed.i
	[ "$output" = "$failed" ]
	failed_input failed.ast brparse failed.ast
	failed_input failed.ast brcheck failed.ast
	failed_input '<stdin>' brcheck < failed.ast
	failed_input failed.ast brgen -o x failed.ast
	failed_input '<stdin>' brgen -o x < failed.ast
	[ ! -e x.c ]
	failed_input failed.ast brrun failed.ast k
	# through a pipe, no message: the tool before said why
	run --separate-stderr sh -c 'cat failed.ast | brcheck'
	[ "$status" -eq 1 ] && [ -z "$stderr" ] && [ "$output" = "$failed" ]
	run --separate-stderr sh -c 'cat failed.ast | brgen -o x'
	[ "$status" -eq 1 ] && [ -z "$stderr" ] && [ ! -e x.c ]
	# the line must end the text, alone on its line
	printf 'int a;\n#brook failed\nint b;\n' > mid.i
	run --separate-stderr brparse mid.i
	[ "$status" -ne 0 ] && [[ "$stderr" != *"input-failed"* ]]
	printf 'int a; #brook failed\n' > same.i
	run --separate-stderr brparse same.i
	[ "$status" -ne 0 ] && [[ "$stderr" != *"input-failed"* ]]
}

@test "an AST that cannot be written to standard output: status 2 and a message" {
	[ -w /dev/full ] || skip "no /dev/full"
	"$top_srcdir/bench/gen-big.sh" 16 > big.br
	brpp big.br > big.i
	run timeout 20 sh -c 'brparse big.i > /dev/full'
	refused 2
	[[ "$output" == *"<stdout>: No space left on device"* ]]
	brparse big.i -o big.ast
	run timeout 20 sh -c 'brcheck big.ast > /dev/full'
	refused 2
	[[ "$output" == *"<stdout>: No space left on device"* ]]
	printf 'kernel void k(float a<>, out float b<>) { b = a; }\n' > k.br
	brpp k.br | brparse > k.ast
	run timeout 20 sh -c 'brcheck k.ast > /dev/full'
	refused 2
	[[ "$output" == *"<stdout>: No space left on device"* ]]
}

# --- files -------------------------------------------------------------

@test "no tool overwrites its input" {
	cp "$R/sum.br" x.br
	brpp x.br > x.i
	brparse x.i > x.ast
	brcheck x.ast > c.ast
	cp x.br x.br.0 && cp x.i x.i.0 && cp x.ast x.ast.0 && cp c.ast c.ast.0
	run timeout 20 brpp x.br -o x.br
	refused 2
	[[ "$output" == *"would overwrite the input"* ]]
	run timeout 20 brparse x.i -o x.i
	refused 2
	[[ "$output" == *"would overwrite the input"* ]]
	run timeout 20 brcheck x.ast -o x.ast
	refused 2
	[[ "$output" == *"would overwrite the input"* ]]
	cp c.ast g.c && cp c.ast h.h && cp c.ast k.cl
	run timeout 20 brgen -o g g.c
	refused 2
	[[ "$output" == *"g.c: the output would overwrite the input"* ]]
	run timeout 20 brgen -o h h.h
	refused 2
	run timeout 20 brgen -k -o k k.cl
	refused 2
	cmp x.br x.br.0 && cmp x.i x.i.0 && cmp x.ast x.ast.0
	cmp g.c c.ast && cmp h.h c.ast && cmp k.cl c.ast
	ln -s x.br link.br
	run timeout 20 brpp link.br -o x.br
	refused 2
	cmp x.br x.br.0
}

@test "brrun does not overwrite its program or an input data file" {
	printf 'kernel void inc(float a<>, out float b<>) { b = a + 1.0f; }\n' > inc.br
	cp inc.br inc.br.0
	run timeout 60 brrun --backend cpu inc.br inc 'a=[1,2,3]' b=@inc.br
	refused 2
	[[ "$output" == *"inc.br: the output would overwrite the input"* ]]
	cmp inc.br inc.br.0
	printf '1 2 3\n' > in.txt
	run timeout 60 brrun --backend cpu inc.br inc a=@in.txt b=@in.txt
	refused 2
	[ "$(cat in.txt)" = "1 2 3" ]
}

@test "an output path that cannot be written is an error before any work is done" {
	cp "$R/sum.br" x.br
	printf 'int x = ;\n#error stop\n' > bad.br
	run timeout 20 brpp bad.br -o nodir/out.i
	refused 2
	[[ "$output" != *"stop"* ]]
	run timeout 20 brparse bad.br -o nodir/out.ast
	refused 2
	[[ "$output" != *"expected"* ]]
	brpp x.br | brparse > x.ast
	run timeout 20 brcheck x.ast -o nodir/out.ast
	refused 2
	brcheck x.ast > c.ast
	run timeout 20 brgen -o nodir/out c.ast
	refused 2
	run timeout 60 brrun --backend cpu "$R/sum.br" sum 'a=[1]' 'b=[2]' c=@nodir/c.npy
	refused 2
	[ ! -e nodir ]
}

# no_partial FILE: FILE still holds "old", and no temporary file is left.
no_partial() {
	[ "$(cat "$1")" = old ] || { echo "$1 was changed" >&2; return 1; }
	[ "$(ls -A | wc -l)" -eq "$2" ] || { ls -A >&2; return 1; }
}

@test "an input error after the output began leaves the old output file as it was" {
	{ seq -f 'int v%g;' 2000; printf '#error late\n'; } > late.br
	echo old > out.i
	run timeout 20 brpp late.br -o out.i
	refused 1
	no_partial out.i 2
	{ seq -f 'int v%g;' 2000; printf 'int = ;\n'; } > late.i
	echo old > out.ast
	run timeout 20 brparse late.i -o out.ast
	refused 1
	no_partial out.ast 4
	printf 'kernel void k(float a<>, out float b<>) { float t = a; float t = a; b = t; }\n' > dup.br
	brpp dup.br | brparse > dup.ast
	echo old > out.chk
	run timeout 20 brcheck dup.ast -o out.chk
	refused 1
	no_partial out.chk 7
	echo old > g.c
	run timeout 20 brgen -o g dup.ast
	refused 1
	no_partial g.c 8
	[ ! -e g.h ]
}

# --- generated code ----------------------------------------------------

@test "a gather outside its array reads the nearest element; a scatter outside is dropped (both backends)" {
	brook_build "$R/scatter_log.br" s
	run_both ./s
	mapfile -t lines <<< "$output"
	[ "${lines[0]}" = "10 11 0 0 " ]
	[ "${lines[${#lines[@]} - 1]}" = "10 11 13 10 " ]
}

@test "a scatter outside its array is recorded in the stream's error log" {
	brook_build "$R/scatter_log.br" s
	# BR_ERROR_KERNEL is 4; stdout is the same on both backends
	run_both ./s
	mapfile -t lines <<< "$output"
	[ "${lines[1]}" = "scatter error 4" ]
	[ "${lines[2]}" = "scatter log Kernel Execution: kernel put: scatter outside the array b of 4 x 1 x 1 x 1; the write is dropped" ]
	# one line however many writes were dropped; nothing on stderr
	[ "$(grep -c 'outside the array' <<< "$output")" -eq 1 ]
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt ./s 2> err > /dev/null
		[ ! -s err ]
	done
	# a kernel without scatters takes no record buffer
	! grep -q 'records = 1' <(sed -n '/get__kernel = {/,/^};/p' s.c) || false
	grep -q 'records = 1' <(sed -n '/put__kernel = {/,/^};/p' s.c)
}

@test "brgen --checked reports each gather and scatter outside its array on both backends" {
	brpp "$R/scatter_log.br" | brparse | brcheck | brgen --checked -o s
	$BROOK_CC $BROOK_CFLAGS s.c -o s $BROOK_LIBS
	# the same reports, on standard error, on both backends
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt timeout 60 ./s > out.$rt 2> err.$rt
		grep -q 'scatter_log.br:8: kernel put: scatter index (100, 0, 0, 0) outside the array b of 4 x 1 x 1 x 1; the write is dropped' err.$rt
		grep -q 'scatter_log.br:13: kernel get: gather index (100, 0, 0, 0) outside the array t of 4 x 1 x 1 x 1; reading the nearest element' err.$rt
		[ "$(grep -c 'outside the array' err.$rt)" -eq 4 ]
		! grep -q 'index (' out.$rt || false
		! grep -E 'Sanitizer|runtime error:' err.$rt || false
	done
	cmp out.cpu out.opencl
	sort err.cpu > e1 && sort err.opencl > e2 && cmp e1 e2
	# and in BRT_LOG_FILE
	BRT_LOG_FILE=log BRT_RUNTIME=cpu ./s > /dev/null 2>&1
	grep -q 'brt: .*kernel get: gather index (-3, 0, 0, 0)' log
}

@test "brgen --checked: the first 16 reports of a launch, then a count" {
	brpp "$R/scatter_many.br" | brparse | brcheck | brgen --checked -o m
	$BROOK_CC $BROOK_CFLAGS m.c -o m $BROOK_LIBS
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt timeout 60 ./m 2> err
		[ "$(grep -c 'scatter index' err)" -eq 16 ]
		grep -q '^kernel put: 24 more --checked reports not printed$' err
	done
}

@test "brgen --checked gives the index as the kernel computed it" {
	brpp "$R/scatter_log.br" | brparse | brcheck | brgen --checked -o s
	$BROOK_CC $BROOK_CFLAGS s.c -o s $BROOK_LIBS
	for rt in cpu opencl; do
		BRT_RUNTIME=$rt ./s 2> err > /dev/null
		grep -q 'scatter index (-3, 0, 0, 0)' err
		grep -q 'gather index (-3, 0, 0, 0)' err
	done
}

@test "BRT_CHECK is not read: the reports need brgen --checked (brt.3, brgen.1)" {
	brook_build "$R/scatter_log.br" s
	for rt in cpu opencl; do
		BRT_CHECK=1 BRT_RUNTIME=$rt ./s > out 2> err
		[ ! -s err ]
		# the dropped write is still in the stream's log
		grep -q 'scatter log .*kernel put: scatter outside the array b' out
	done
	grep -q 'BRT_CHECK' "$top_srcdir/man/brt.3"
	grep -q 'BRT_CHECK' "$top_srcdir/man/brgen.1"
}

@test "man pages: groff formats each without a warning, and none holds a control character" {
	local f bad=0
	for f in "$top_srcdir"/man/*.[1-9]; do
		# tabs and newlines only (a stray \f once became a form feed)
		if LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$f"; then
			echo "$f: a control character"; bad=1
		fi
	done
	command -v groff > /dev/null || skip "no groff"
	for f in "$top_srcdir"/man/*.[1-9]; do
		# every warning but 'break' (a long word that cannot be adjusted)
		out=$(LC_ALL=C.UTF-8 groff -man -ww -Wbreak -z "$f" 2>&1)
		[ -z "$out" ] || { echo "$f: $out"; bad=1; }
	done
	[ "$bad" = 0 ]
}

@test "man pages: each reading they cite is listed under READINGS in brook(7); no page or message names a document that is not installed" {
	local f n bad=0
	for n in 1 2 3 4 5 6 7 8 9; do
		sed -n '/^\.SH READINGS/,/^\.SH /p' "$top_srcdir/man/brook.7" |
			grep -q "^\.IP $n\. 4" || { echo "reading $n not listed"; bad=1; }
	done
	for n in $(cat "$top_srcdir"/man/*.[1-9] | grep -o -i 'reading [0-9]*' | awk '{ print $2 }' | sort -u); do
		[ "$n" -ge 1 ] && [ "$n" -le 9 ] || { echo "reading $n cited"; bad=1; }
	done
	if grep -n 'DESIGN' "$top_srcdir"/man/*.[1-9] "$top_srcdir/lib/brt/brt.h"; then bad=1; fi
	for f in brpp brparse brcheck brgen brrun; do
		if grep -a -q 'DESIGN\.md' "$(command -v $f)"; then echo "$f names DESIGN.md"; bad=1; fi
	done
	[ "$bad" = 0 ]
}

@test "a program that exits with a kernel still to run, whose OpenCL build is fresh, exits cleanly" {
	# PoCL builds the launch's kernel in libbrt's exit handler; before
	# the handler was registered again after the first program build,
	# the driver's compiler had already been torn down there (status 139)
	printf 'kernel void mk(out float g<>) { g = 1.0f; }\nint main(void) { float g<4,3>; mk(g); return 0; }\n' > pend.br
	brook_build pend.br pend
	BRT_RUNTIME=opencl BRT_LOG_FILE=pend.log ./pend
	grep -q "runtime: 1 OpenCL devices" pend.log || skip "no OpenCL device"
	for i in 1 2 3; do
		POCL_KERNEL_CACHE=0 BRT_CACHE_DIR= BRT_RUNTIME=opencl ./pend
	done
	# PoCL's own cache empty too: its first build for the launch loaded
	# more of its compiler, torn down before libbrt's exit handler (5
	# crashes in 8 runs before the handler was registered after the
	# first launch as well)
	for i in 1 2 3 4 5 6; do
		rm -rf pocl$i
		POCL_CACHE_DIR=$PWD/pocl$i BRT_CACHE_DIR= BRT_RUNTIME=opencl ./pend
	done
}

@test "-o through a symbolic link replaces its target and keeps the link; a FIFO is written, not replaced" {
	printf 'kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\n' > k.br
	echo orig > target.txt
	ln -s target.txt link.txt
	brpp -o link.txt k.br
	[ -L link.txt ]
	grep -q "kernel void k" target.txt
	brpp k.br | brparse -o link.txt
	[ -L link.txt ] && grep -q '"stage"' target.txt
	brpp k.br | brparse | brcheck -o link.txt
	[ -L link.txt ] && grep -q '"checked"' target.txt
	ln -s target.c gen.c
	brpp k.br | brparse | brcheck | brgen -o gen
	[ -L gen.c ] && grep -q "brg_program" target.c
	brrun k.br k a=[1,2] b=@link.txt
	[ -L link.txt ] && [ "$(cat target.txt)" = "2 3" ]
	mkfifo ff
	cat ff > from-fifo &
	brpp -o ff k.br
	wait
	[ -p ff ]
	grep -q "kernel void k" from-fifo
}

@test "-o over an old file: a new file in its place, its mode kept, the old one removed, nothing left beside it; on Linux by an exchange of the names (brgen(1))" {
	printf 'kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\n' > k.br
	printf 'kernel void k(float a<>, out float b<>) { b = a + 2.0f; }\n' > k2.br
	brpp k.br | brparse | brcheck | brgen -o gen
	chmod 640 gen.c
	ln gen.c old.c		# a second name keeps the old file's text
	local before
	before=$(ls -i gen.c | cut -d' ' -f1)
	brpp k2.br | brparse | brcheck | brgen -o gen
	[ "$(ls -i gen.c | cut -d' ' -f1)" != "$before" ]
	[ "$(stat -c %a gen.c)" = 640 ]
	grep -q "2.0f" gen.c
	grep -q "1.0f" old.c && ! grep -q "2.0f" old.c
	[ "$(stat -c %h old.c)" = 1 ]	# gen.c's old name is gone
	[ "$(ls | grep -c tmp)" = 0 ]
	# the names exchanged, then the old file removed (or, where the file
	# system cannot exchange, renamed over); a first write, with nothing
	# to exchange with, renames
	strace_or_skip
	brpp k.br | brparse | brcheck > k.ast
	strace -o trace -e trace=rename,renameat2,unlink brgen -o gen k.ast
	grep -q '^renameat2(AT_FDCWD, "gen.c.tmp[^"]*", AT_FDCWD, "gen.c", RENAME_EXCHANGE)' trace
	if grep -q '"gen.c", RENAME_EXCHANGE) *= 0' trace; then
		grep -q '^unlink("gen.c.tmp' trace
	else
		grep -q '^rename("gen.c.tmp[^"]*", "gen.c") *= 0' trace
	fi
	strace -o trace -e trace=rename,renameat2,unlink brpp -o new.txt k.br
	grep -q '"new.txt", RENAME_EXCHANGE) *= -1 ENOENT' trace
	grep -q '^rename("new.txt.tmp[^"]*", "new.txt") *= 0' trace
	grep -q "kernel void k" new.txt
	[ "$(ls | grep -c tmp)" = 0 ]
}

@test "-o: a directory that takes the output's name while brgen works is put back where the names were exchanged, and brgen fails" {
	printf 'kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\n' > k.br
	brpp k.br | brparse | brcheck > k.ast
	brgen -o gen k.ast
	# a shim that puts a directory in gen.c's place just before the
	# first exchange of names
	cat > shim.c <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int renameat2(int od, const char *op, int nd, const char *np, unsigned fl)
{
	static int done;
	int (*real)(int, const char *, int, const char *, unsigned) =
		(int (*)(int, const char *, int, const char *, unsigned))
		dlsym(RTLD_NEXT, "renameat2");
	if (!done && (fl & RENAME_EXCHANGE)) {
		done = 1;
		fclose(fopen("shim-ran", "w"));
		unlink(np);
		mkdir(np, 0755);
		mkdir("gen.c/inside", 0755);
	}
	return real(od, op, nd, np, fl);
}
SHIM
	$BROOK_CC -shared -fPIC -o shim.so shim.c -ldl 2>/dev/null ||
		skip "no shared shim"
	run env LD_PRELOAD=$PWD/shim.so \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		brgen -o gen k.ast
	# a static brgen, or one without the exchange, never calls the shim
	[ -e shim-ran ] || skip "the shim was not called"
	[ -d gen.c ]
	[ "$status" -eq 2 ]
	[[ "$output" == *"gen.c: Is a directory"* ]]
	[ -d gen.c/inside ]
	[ "$(ls | grep -c tmp)" = 0 ]
}

# --- the kernel nesting limit (man/brcheck.1, E-too-deep) ---------------
# brcheck weighs kernel code so that all it accepts builds as OpenCL C
# (256 brackets), runs in brrun's interpreter and compiles with the C
# compiler; at the limit the two backends agree, one past it brcheck says
# where.

# at_limit SRC KERNEL ARGS...: SRC checks clean, brgen's C compiles, and
# both backends print the same; leaves the output in $out.
at_limit() {
	local src=$1 cpu ocl
	shift
	brpp "$src" | brparse | brcheck | brgen -o lim
	$BROOK_CC $BROOK_CFLAGS -c lim.c -o lim.o
	cpu=$(timeout 60 brrun --backend cpu "$src" "$@" 2>&1) || {
		echo "cpu backend failed: $cpu" >&2; return 1; }
	ocl=$(timeout 60 brrun --backend opencl "$src" "$@" 2>&1) || {
		echo "opencl backend failed: $ocl" >&2; return 1; }
	[ "$cpu" = "$ocl" ] || { echo "cpu: $cpu; opencl: $ocl" >&2; return 1; }
	out=$cpu
}

# past_limit SRC LINE:COL: brcheck refuses SRC there with E-too-deep.
past_limit() {
	run timeout 20 brcheck "$1"
	refused 1
	[[ "$output" == "$1:$2: error: kernel code nested too deeply (more than 200 levels"*"[E-too-deep]" ]]
}

@test "kernel nesting: 196 redundant parentheses run on both backends, 197 are refused by brcheck" {
	K='kernel void k(float a<>, out float b<>) { b = '
	{ printf '%s' "$K"; nest 196 '(' a ')'; printf '; }\n'; } > p196.br
	at_limit p196.br k a=[1] b
	[ "$out" = 1 ]
	{ printf '%s' "$K"; nest 197 '(' a ')'; printf '; }\n'; } > p197.br
	past_limit p197.br 1:244
}

@test "kernel nesting: 195 nested blocks run on both backends, 196 are refused by brcheck" {
	K='kernel void k(float a<>, out float b<>) { b = a; '
	{ printf '%s' "$K"; nest 195 '{' 'b = b + 1.0f;' '}'; printf ' }\n'; } > b195.br
	at_limit b195.br k a=[1] b
	[ "$out" = 2 ]
	{ printf '%s' "$K"; nest 196 '{' 'b = b + 1.0f;' '}'; printf ' }\n'; } > b196.br
	past_limit b196.br 1:250
}

@test "kernel nesting: a sum of 197 terms runs on both backends, of 198 is refused by brcheck" {
	K='kernel void k(float a<>, out float b<>) { b = a'
	{ printf '%s' "$K"; nest 196 '+a' '' ''; printf '; }\n'; } > s197.br
	at_limit s197.br k a=[1] b
	[ "$out" = 197 ]
	{ printf '%s' "$K"; nest 197 '+a' '' ''; printf '; }\n'; } > s198.br
	past_limit s198.br 1:47
}

@test "kernel nesting: gathers count 4 and loops 3, as brgen prints them" {
	K='kernel void k(float a<>, float g[], out float b<>) { b = '
	{ printf '%s' "$K"; nest 49 'g[' a ']'; printf '; }\n'; } > g49.br
	at_limit g49.br k a=[1] g=[1,0] b
	[ "$out" = 0 ]
	{ printf '%s' "$K"; nest 50 'g[' a ']'; printf '; }\n'; } > g50.br
	past_limit g50.br 1:156
	K='kernel void k(float a<>, out float b<>) { float f; b = a; '
	L='for (f = 0.0f; f < 2.0f; f += 1.0f) {'
	{ printf '%s' "$K"; nest 48 "$L" 'b = b + 1.0f;' '}'; printf ' }\n'; } > l48.br
	at_limit l48.br k a=[1] b
	[ "$out" = 3 ]
	{ printf '%s' "$K"; nest 49 "$L" 'b = b + 1.0f;' '}'; printf ' }\n'; } > l49.br
	run timeout 20 brcheck l49.br
	refused 1
	[[ "$output" == *"kernel code nested too deeply"*"[E-too-deep]" ]]
}

@test "host code keeps the general limit: 300 nested parentheses in a host function check clean" {
	{ printf 'int f(int x) { return '; nest 300 '(' x ')'; printf '; }\n'; } > h.br
	run timeout 20 brcheck h.br
	[ "$status" -eq 0 ]
	clean
}

@test "an expression deeper than brrun's interpreter takes, in a sealed AST: one error, not one per operand" {
	command -v python3 >/dev/null || skip "no python3"
	cat > deep.py <<'PY'
import json
F = {"t": "float"}
def ident(name, ref, col):
    return {"k": "id", "at": [0, 1, col], "name": name, "ref": ref, "ty": F}
e = ident("a", 2, 47)
for i in range(450):
    e = {"k": "binop", "at": [0, 1, 47], "op": "+", "l": e,
         "r": ident("a", 2, 49 + 2 * i), "ty": F}
par = lambda n, c, q, r, i: {"k": "param", "at": [0, 1, c], "name": n,
    "type": {"t": "stream", "of": F, "dims": [None]}, "quals": q,
    "role": r, "id": i}
doc = {"brast": 1, "stage": "checked", "files": ["deep.br"], "decls": [{
    "k": "func", "at": [0, 1, 1], "name": "k", "storage": None,
    "inline": False, "kernel": True, "reduce": False, "attrs": [],
    "type": {"t": "func", "ret": {"t": "void"}, "params": [
        par("a", 21, [], "in", 2), par("b", 36, ["out"], "out", 3)],
        "variadic": False, "proto": True},
    "body": {"k": "block", "at": [0, 1, 41], "items": [{"k": "expr",
        "at": [0, 1, 43], "e": {"k": "assign", "at": [0, 1, 43], "op": "=",
        "l": ident("b", 3, 43), "r": e, "ty": F}}]},
    "id": 1, "class": "map"}],
    "options": {"a": False, "c": False, "portable": False, "wlevel": 1}}
print(json.dumps(doc, separators=(",", ":")))
PY
	python3 deep.py > raw.ast
	python3 "$top_srcdir/t/gen/seal.py" raw.ast > deep.ast
	run timeout 20 brrun --backend cpu deep.ast k a=[1] b
	refused 1
	[ "$(grep -c 'E-run-interp' <<<"$output")" -eq 1 ]
	[[ "$output" == *"nested too deeply for the interpreter (more than 400 levels)"* ]]
}
