#!/usr/bin/env bats
# t/parse.bats - brparse, the parser (man/brparse.1) and the AST file
# (man/brast.5).
#
# Golden files, run from t/parse/: NAME.br + NAME.ast.json, the output of
# `brparse --pretty NAME.br`; err-NAME.br + err-NAME.err, the standard
# error of `brparse err-NAME.br` (exit status 1). fuzz-NAME.br are inputs
# the fuzzer (fuzz/parse_fuzz.c) found a fault with, kept as cases.

load helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$top_srcdir/t/parse"
	T=$BATS_TEST_TMPDIR
}

@test "every golden case gives its AST" {
	local f failed=0
	for f in *.br; do
		case $f in err-*) continue ;; esac
		if ! brparse --pretty "$f" >"$T/out" 2>"$T/err"; then
			echo "$f: brparse failed:"; cat "$T/err"; failed=1; continue
		fi
		diff -u "${f%.br}.ast.json" "$T/out" || {
			echo "$f: AST differs from ${f%.br}.ast.json"; failed=1; }
	done
	[ "$failed" = 0 ]
}

@test "every error case gives its diagnostics and exit status 1" {
	local f failed=0 rc
	for f in err-*.br; do
		brparse "$f" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
		[ "$rc" = 1 ] || { echo "$f: exit status $rc"; failed=1; }
		# no AST: the line that tells the next tool brparse failed
		[ "$(cat "$T/out")" = $'\n#brook failed' ] ||
			{ echo "$f: wrote an AST"; failed=1; }
		diff -u "${f%.br}.err" "$T/err" || failed=1
	done
	[ "$failed" = 0 ]
}

@test "every diagnostic ID has an error case and a man page entry" {
	local id missing=0
	for id in $(grep -oh '"parse-[a-z-]*"\|"brast-[a-z-]*"' \
		"$top_srcdir"/lib/brook/parse*.c | tr -d '"' | sort -u); do
		# brast-* and parse-too-deep have tests of their own below
		grep -q "\[$id\]" err-*.err || [ "${id%%-*}" = brast ] \
			|| [ "$id" = parse-too-deep ] || {
			echo "no case for $id"; missing=1; }
		grep -q -- "$id" "$top_srcdir/man/brparse.1" || {
			echo "$id not in man/brparse.1"; missing=1; }
	done
	[ "$missing" = 0 ]
}

# The property of DESIGN.md: parse, print, parse again gives the same AST.
@test "print then parse gives the same AST for every .br of t/ and examples/" {
	local f failed=0 n=0
	cd "$top_srcdir"
	while IFS= read -r f; do
		case $f in t/parse/err-*) continue ;; esac
		brpp "$f" >"$T/i" 2>/dev/null || continue   # brpp's own error cases
		if ! brparse -o "$T/a.json" "$T/i" 2>"$T/err"; then
			echo "$f: does not parse:"; cat "$T/err"; failed=1; continue
		fi
		brparse --print "$T/a.json" >"$T/p.c"
		if ! brparse --no-locations "$T/p.c" >"$T/b" 2>"$T/err"; then
			echo "$f: printed C does not parse:"; cat "$T/err"; failed=1
			continue
		fi
		brparse --no-locations "$T/a.json" >"$T/a"
		cmp -s "$T/a" "$T/b" || { echo "$f: AST changed by printing"; failed=1; }
		n=$((n + 1))
	done < <(find t examples -name '*.br' | sort)
	echo "$n files"
	[ "$failed" = 0 ] && [ "$n" -gt 10 ]
}

@test "print then parse gives the same AST for every case of t/parse" {
	local f failed=0
	for f in *.br; do
		case $f in err-*) continue ;; esac
		brparse --print "$f" >"$T/p.c"
		brparse --no-locations "$f" >"$T/a"
		brparse --no-locations "$T/p.c" >"$T/b" 2>"$T/err" || {
			echo "$f: printed C does not parse:"; cat "$T/err"; failed=1; }
		cmp -s "$T/a" "$T/b" || { echo "$f: AST changed by printing"; failed=1; }
	done
	[ "$failed" = 0 ]
}

@test "the printer writes C that a C compiler accepts" {
	local f
	for f in decls stmts exprs complex digraphs knr; do
		brparse --print "$f.br" >"$T/$f.c"
		$BROOK_CC -std=c99 -fsyntax-only -w "$T/$f.c"
	done
}

# ast_of TEXT: the AST of TEXT without locations
ast_of() { printf '%s\n' "$1" | brparse --no-locations; }

@test "BrookGPU's 'void reduce f' and 'reduce void f' give the same AST" {
	local a b
	a=$(ast_of 'void reduce sum(float a<>, reduce float result<>) { result = result + a; }')
	b=$(ast_of 'reduce void sum(float a<>, reduce float result<>) { result = result + a; }')
	[ "$a" = "$b" ]
	[[ "$a" == *'"reduce":true'* ]]
}

@test "a K&R definition gives a prototype's AST with proto false" {
	local a b
	a=$(ast_of 'char *f(a, b, c) float b; const char *a; { return 0; }')
	b=$(ast_of 'char *f(const char *a, float b, int c) { return 0; }')
	[ "${a/'"proto":false'/'"proto":true'}" = "$b" ]
	[[ "$a" == *'"proto":false'* ]]
	# printed back as K&R, declarations in the identifier list's order
	printf 'int f(a, b) float b; { return a; }\n' | brparse --print >"$T/p"
	grep -qx 'int f(a, b)' "$T/p"
	[ "$(sed -n 2,3p "$T/p")" = "$(printf '\tint a;\n\tfloat b;')" ]
}

@test "float4 a(...) is an initialized variable, float4 a(T) a prototype" {
	local a b
	a=$(ast_of 'float4 a(0.2f, 1.0f, 3.2f, 1.0f), b(a); int n(5);')
	b=$(ast_of 'float4 a = float4(0.2f, 1.0f, 3.2f, 1.0f), b = a; int n = 5;')
	[ "$a" = "$b" ]
	a=$(ast_of 'typedef float T; float4 a(T); float4 b(float x);')
	[[ "$a" == *'{"k":"func","name":"a"'*'{"k":"func","name":"b"'* ]]
	[[ "$a" != *'"k":"var","name":"a"'* ]]
}

@test "digraphs read as the punctuators they stand for" {
	local a b
	a=$(ast_of '%:pragma once
int a<:2:> = <% 1, 2 %>;')
	b=$(ast_of '#pragma once
int a[2] = { 1, 2 };')
	[ "$a" = "$b" ]
	# through brpp, which reads %: directives and passes the rest on
	a=$(printf '%s\n' '%:define N 2' 'int a<:N:> = <% 1, 2 %>;' | brpp |
		brparse --no-locations)
	b=$(ast_of 'int a[2] = { 1, 2 };')
	[ "$a" = "$b" ]
}

@test "gcc -E output with the C library's headers parses" {
	printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' \
		'#include <string.h>' '#include <math.h>' '#include <stdint.h>' \
		'#include <time.h>' '#include <pthread.h>' >"$T/h.c"
	cat sum.br >>"$T/h.c"
	$BROOK_CC -E -x c "$T/h.c" >"$T/h.i"
	brparse "$T/h.i" >"$T/h.json"
	brparse --print "$T/h.json" >"$T/h.p"
	brparse --no-locations "$T/h.p" >"$T/b"
	brparse --no-locations "$T/h.json" | cmp - "$T/b"
}

@test "brpp's linemarkers give the original file and line" {
	brpp sum.br | brparse -o "$T/a.json"
	brparse --pretty "$T/a.json" >"$T/p"
	grep -q '"files": \["sum.br"\]' "$T/p"
	# kernel void sum on line 4, column 1
	grep -q '"at": \[0,4,1\]' "$T/p"
}

@test "linemarkers take every line number up to 2147483647, ten digits too; later lines count as 2147483647" {
	printf '# 2147483646 "x.br"\nint a = ;\n' > "$T/l.br"
	run --separate-stderr brparse "$T/l.br"
	[ "$status" -eq 1 ]
	[ "$stderr" = "x.br:2147483646:9: error: expected expression before ';' [parse-syntax]" ]
	printf '#line 2147483647 "x.br"\n\n\nint a = ;\n' > "$T/l.br"
	run --separate-stderr brparse "$T/l.br"
	[ "$stderr" = "x.br:2147483647:9: error: expected expression before ';' [parse-syntax]" ]
}

@test "an AST file reads back unchanged" {
	brparse exprs.br >"$T/a.json"
	brparse "$T/a.json" >"$T/b.json"
	cmp "$T/a.json" "$T/b.json"
	[ "$(wc -l <"$T/a.json")" = 1 ]
}

@test "an AST of another version is rejected" {
	echo '{"brast": 99, "stage": "parsed", "files": [], "decls": []}' >"$T/v.json"
	run brparse "$T/v.json"
	[ "$status" = 1 ]
	[[ "$output" == *"unknown version"*"[brast-version]"* ]]
	echo '{"brast": 1, "decls": [' >"$T/bad.json"
	run brparse "$T/bad.json"
	[ "$status" = 1 ]
	[[ "$output" == *"[brast-json]"* ]]
}

@test "an AST file may use all of JSON: escapes, numbers, spacing" {
	# brast(5) is JSON: what the writer never writes still reads, and
	# UTF-8 takes the slower reader's way to the same tree
	for raw in '' 'é'; do
		printf '{ "brast" : 1 ,\r\n\t"stage":"parsed","files":["a\\u00e9\\/\\"b\\\\.br","\\u20ac\\t%s"],"decls":[],"n":[-0,12,-3,1.5e2,-2E-1,0.25,9223372036854775807,-9223372036854775808],"b":[true,false,null,{},[],{"":""}]}' "$raw" >"$T/j.json"
		run brparse "$T/j.json"
		[ "$status" = 0 ]
		[ "$output" = '{"brast":1,"stage":"parsed","files":["aé/\"b\\.br","€\t'"$raw"'"],"decls":[],"n":[0,12,-3,150.0,-0.20000000000000001,0.25,9223372036854775807,-9223372036854775808],"b":[true,false,null,{},[],{"":""}]}' ]
	done
}

@test "text that is not JSON is no AST file, with the reason" {
	bad() {
		printf '%s' "$1" >"$T/j.json"
		run brparse "$T/j.json"
		[ "$status" = 1 ]
		[[ "$output" == *"not an AST file: $2"*"[brast-json]"* ]]
	}
	bad '{"brast":1,"decls":[01]}' "invalid token near '0'"
	bad '{"brast":1,"s":"\u0000"}' '\u0000 is not allowed'
	bad '{"brast":1,"s":"\ud800"}' "invalid Unicode '\\uD800'"
	bad '{"brast":1} x' "end of file expected near 'x'"
	bad '{"brast":1,"decls":[],}' "string or '}' expected"
	bad '{"brast":1,"n":1e400}' 'real number overflow'
	bad '{"brast":1,"n":-99999999999999999999}' 'too big negative integer'
	bad '{"brast":1,"s":"a	b"}' 'control character 0x9'
	bad "$(printf '{"brast":1,"s":"\377"}')" 'unable to decode byte 0xff'
	bad '{"brast":1,"n":1.}' 'invalid token'
	bad '{"brast":1,"b":tru}' 'invalid token'
	bad '{"brast":1,"a":[1 2]}' "']' expected near '2'"
}

@test "--typedef declares more typedef names" {
	printf 'my_t x;\nmy_t *f(my_t a);\n' >"$T/t.i"
	run brparse "$T/t.i"
	[ "$status" = 1 ]
	brparse --typedef my_t --typedef other_t "$T/t.i" >"$T/a.json"
	grep -q '"t":"typedef","name":"my_t"' "$T/a.json"
}

@test "brt(3)'s types are typedef names without --typedef" {
	local name n=0
	# the types of brt(3)'s synopsis: names followed by a '*' or a name
	for name in BError $(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESC/p' \
		"$top_srcdir/man/brt.3" |
		grep -oE '\b(brt_[a-z_]+|BR[A-Za-z]+) [*"a-z]' | cut -d' ' -f1 |
		sort -u); do
		ast_of "$name x; $name *f($name a);" >"$T/a" 2>&1 || {
			cat "$T/a"; false; }
		[ "$(grep -o "\"t\":\"typedef\",\"name\":\"$name\"" "$T/a" |
			wc -l)" = 4 ]
		n=$((n + 1))
	done
	[ "$n" -ge 9 ]
	# a program may still use the names for its own things
	ast_of 'int f(void) { int brt_stream = 2; return brt_stream; }
typedef int BError; BError g; struct brt_device { int a; };' >"$T/a"
	grep -q '"k":"id","name":"brt_stream"' "$T/a"
}

@test "a stream dimension is any expression but a comma one; '>' outside parentheses ends it" {
	local d
	# every operator but '>', '>=', '>>', '>>=' and ',' at the top; any
	# expression in parentheses, brackets, calls and the middle of ?:
	for d in 'n == 2' 'n != 2' 'n < 2' 'n <= 2' 'n << 1' 'n & 1' 'n ^ 1' \
		'n | 1' 'n && 1' 'n || 1' 'n ? 1 : 2' 'n = 1' 'n <<= 1' '-n' \
		'(int)2.5f' 'sizeof(int) * n' '(n > 1)' '(n >> 1, 2)' 'a[n > 1]' \
		'f(n >= 1)' 'n ? n >> 1 : 2' '2, n == 2 ? 4 : 8'; do
		ast_of "int n, a[2]; int f(int); float s<$d>;" >"$T/a" 2>&1 || {
			echo "$d:"; cat "$T/a"; false; }
	done
	# '>', '>=', '>>' and '>>=' at the top end the dimensions
	for d in 'n > 1' 'n >= 1' 'n >> 1' 'n >>= 1' '2, n > 1' 'n ? 1 : n > 1'; do
		run brparse <<<"int n; float s<$d>;"
		[ "$status" = 1 ]
		[[ "$output" == *"a '>' ends stream dimensions"* ]] || {
			echo "$d: $output"; false; }
	done
}

@test "deep nesting gives a diagnostic, not a crash" {
	local kind
	for kind in paren block chain unary index if; do
		python3 - "$kind" >"$T/deep.i" <<'EOF'
import sys
n = 10000
k = sys.argv[1]
if k == "paren": print("int x = " + "(" * n + "1" + ")" * n + ";")
if k == "block": print("void f(void) " + "{" * n + "}" * n)
if k == "chain": print("int x = 1" + " + 1" * 100000 + ";")
if k == "unary": print("int x = " + "-" * n + "1;")
if k == "index": print("int y = a" + "[0]" * n + ";")
if k == "if": print("void f(void) {" + "if (1) " * n + ";}")
EOF
		run brparse "$T/deep.i"
		[ "$status" = 1 ] || { echo "$kind: status $status"; false; }
		[[ "$output" == *"[parse-too-deep]"* ]] || { echo "$kind: $output"; false; }
	done
}

@test "nesting within the limits reads back from the AST file" {
	python3 -c 'print("int x = " + "(" * 300 + "1" + ")" * 300 + ";")' >"$T/d.i"
	brparse "$T/d.i" >"$T/a.json"
	brparse --print "$T/a.json" >/dev/null
}

@test "-o writes the file whole, and nothing on error" {
	brparse -o "$T/a.json" sum.br
	[ -s "$T/a.json" ]
	run brparse -o "$T/b.json" err-syntax.br
	[ "$status" = 1 ]
	[ ! -e "$T/b.json" ]
}

@test "--diagnostics=json writes one object a line" {
	run brparse --diagnostics=json err-syntax.br
	[ "$status" = 1 ]
	[[ "${lines[0]}" == "{"*'"parse-syntax"'* ]]
	brparse --diagnostics=sarif sum.br >"$T/a.json" 2>"$T/sarif"
	grep -q '"version": "2.1.0"' "$T/sarif"
	cmp "$T/a.json" <(brparse sum.br)
}

@test "usage errors, missing files, --help and --version" {
	run brparse --no-such-option
	[ "$status" = 2 ]
	run brparse no-such-file.br
	[ "$status" = 2 ]
	run brparse a.br b.br
	[ "$status" = 2 ]
	run brparse --diagnostics=xml sum.br
	[ "$status" = 2 ]
	run brparse --help
	[ "$status" = 0 ]
	[[ "$output" == *"--typedef"* ]]
	run brparse --version
	[ "$status" = 0 ]
	[[ "$output" == "brparse (brook) "* ]]
}

@test "standard input is read when no file is given" {
	brparse <sum.br >"$T/a.json"
	grep -q '"files":\["<stdin>"\]' "$T/a.json"
}
