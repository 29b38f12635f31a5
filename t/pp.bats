#!/usr/bin/env bats
# t/pp.bats - brpp: golden files (t/pp/NAME.br + NAME.i), agreement with
# gcc -E on t/pp/gcc/*.c, every message ID, the options, and bad input.
load helper
bats_require_minimum_version 1.5.0

PP=$top_srcdir/t/pp

# One pp-token a line (C99 6.4), so that outputs compare token by token,
# whatever their white space.
pp_tokens() {
	sed -E -n '
:next
s/^[[:space:]]+//
t clr
:clr
/^$/d
s/^((L|u8|u|U)?"([^"\\]|\\.)*")/\1\n/
t emit
s/^((L|u|U)?'"'"'([^'"'"'\\]|\\.)*'"'"')/\1\n/
t emit
s/^(\.?[0-9]([.0-9A-Za-z_$]|[eEpP][-+])*)/\1\n/
t emit
s/^([A-Za-z_$][A-Za-z0-9_$]*)/\1\n/
t emit
s/^(%:%:|\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-*\/%+&^|]=|##|<:|:>|<%|%>|%:)/\1\n/
t emit
s/^(.)/\1\n/
:emit
P
s/^[^\n]*\n//
b next
'
}

# limit_memory KB: caps the memory (address space) of the rest of the
# test at KB, or skips it where ASan or valgrind need more than that.
limit_memory() {
	local p
	p=$(command -v brpp)
	if [ "${BROOK_VALGRIND-}" = 1 ] ||
	    [ "$(head -c 4 "$p")" != "$(printf '\177ELF')" ] ||
	    grep -q __asan_init "$p"; then
		skip "brpp runs under ASan or valgrind"
	fi
	ulimit -v "$1"
}

# in_tmp: makes a scratch folder current (files named as in messages).
in_tmp() {
	cd "$BATS_TEST_TMPDIR"
}

# diag_is STATUS TEXT: brpp ran with that status and printed TEXT.
diag_is() {
	if [ "$status" -ne "$1" ]; then
		echo "status $status, expected $1; output:"
		echo "$output"
		return 1
	fi
	if [[ "$output" != *"$2"* ]]; then
		echo "expected in the output: $2"
		echo "output: $output"
		return 1
	fi
}

# pp_error_test FILE-TEXT EXPECTED: FILE-TEXT in x.br gives EXPECTED and
# exit status 1.
pp_error_test() {
	in_tmp
	printf '%b' "$1" > x.br
	run brpp x.br
	diag_is 1 "$2"
}

# pp_warning_test FILE-TEXT EXPECTED: a warning, exit status 0.
pp_warning_test() {
	in_tmp
	printf '%b' "$1" > x.br
	run brpp x.br
	diag_is 0 "$2"
	[[ "$output" == *": warning: "* ]]
}

@test "brpp --version and --help" {
	run brpp --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^brpp\ \(brook\)\ [0-9]+\.[0-9]+ ]]
	run brpp --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"-D NAME[=VALUE]"* ]]
	[[ "$output" == *"--diagnostics="* ]]
}

@test "golden files: every t/pp/NAME.br gives t/pp/NAME.i" {
	cd "$PP"
	n=0
	for src in *.br; do
		brpp "$src" > "$BATS_TEST_TMPDIR/out.i" 2>/dev/null
		diff_golden "${src%.br}.i" "$BATS_TEST_TMPDIR/out.i"
		n=$((n + 1))
	done
	[ "$n" -ge 8 ]
}

@test "guide 1.15.1: MULTIPLY, SEVEN, INT4 replaced; the continued MULTIPLY is the same definition" {
	cd "$PP"
	run brpp guide_define.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"int4 a = int4 (7, 1, 1, 1);"* ]]
	[[ "$output" == *"int4 b = int4 (1, 1, 1, 1);"* ]]
	[[ "$output" == *"o0 = i0 + i1 * multiply (a, b);"* ]]
	[[ "$output" != *"warning"* ]]
}

@test "guide 1.15.1: VALUE redefined warns \"Macro redefinition\", 15 holds [pp-macro-redefined]" {
	cd "$PP"
	run brpp guide_value.br
	diag_is 0 'guide_value.br:2:9: warning: "VALUE": Macro redefinition [pp-macro-redefined]'
	[[ "$output" == *'guide_value.br:1:9: note: See previous definition of "VALUE" and latest one considered as macro'* ]]
	[[ "$output" == *"    int a = 15;"* ]]
}

@test "an identical redefinition is silent (C99 6.10.3p2), white space aside" {
	in_tmp
	printf '#define A (1 +  2)\n#define A (1 + 2) /* c */\n#define F(x) x\n#define F( x ) x\nA F(3)\n' > x.br
	run brpp x.br
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning"* ]]
	printf '#define A (1+2)\n#define A (1 + 2)\n' > y.br
	run brpp y.br
	diag_is 0 '"A": Macro redefinition'
}

@test "linemarkers: included files are marked with flags 1 and 2, and columns kept" {
	cd "$PP"
	run brpp include.br
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '# 1 "include.br"' ]
	[ "${lines[1]}" = '# 1 "inc/scale.h" 1' ]
	[ "${lines[2]}" = '# 1 "inc/factor.h" 1' ]
	[ "${lines[3]}" = '# 4 "inc/scale.h" 2' ]
	[ "${lines[4]}" = '# 3 "include.br" 2' ]
	[[ "$output" == *'# 9 "include.br" 2'* ]]
}

@test "gcc agreement: brpp -P and gcc -E -P give the same tokens on t/pp/gcc/*.c (C99 6.10.3.5 examples and more)" {
	command -v gcc || skip "gcc is not installed"
	n=0
	for src in "$PP"/gcc/*.c; do
		gcc -E -P -x c "$src" 2>/dev/null | pp_tokens > "$BATS_TEST_TMPDIR/gcc.tok"
		brpp -P "$src" | pp_tokens > "$BATS_TEST_TMPDIR/brpp.tok"
		[ -s "$BATS_TEST_TMPDIR/gcc.tok" ]
		if ! diff -u "$BATS_TEST_TMPDIR/gcc.tok" "$BATS_TEST_TMPDIR/brpp.tok"; then
			echo "tokens differ on $src"
			return 1
		fi
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
}

@test "C99 6.10.3.5 examples give the results the standard prints" {
	run brpp -P "$PP/gcc/c99_6_10_3_5_ex3.c"
	toks=$(echo "$output" | tr -d ' \n')
	[[ "$toks" == *'f(2*(y+1))+f(2*(f(2*(z[0]))))%f(2*(0))+t(1);'* ]]
	[[ "$toks" == *'f(2*(2+(3,4)-0,1))|f(2*(~5))&f(2*(0,1))^m(0,1);'* ]]
	[[ "$toks" == *'inti[]={1,23,4,5,};'* ]]
	[[ "$toks" == *'charc[2][6]={"hello",""};'* ]]
	run brpp -P "$PP/gcc/c99_6_10_3_5_ex4.c"
	[[ "$output" == *'printf("x" "1" "= %d, x" "2" "= %s", x1, x2);'* ]]
	[[ "$output" == *'"strncmp(\"abc\\0d\", \"abc\", '"'"'\\4'"'"') == 0"'* ]]
	[[ "$output" == *'"vers2.h"'* ]]
	[[ "$output" == *'"hello" ", world"'* ]]
	[[ "$output" == *'char p[] = "x ## y";'* ]]
	toks=$(echo "$output" | tr -d ' \n')
	[[ "$toks" == *'intj[]={123,45,67,89,10,11,12,};'* ]]
	run brpp -P "$PP/gcc/c99_6_10_3_5_ex6.c"
	[[ "$output" == *'fprintf(stderr, "Flag");'* ]]
	[[ "$output" == *'fprintf(stderr, "X = %d\n", x);'* ]]
	[[ "$output" == *'puts("The first, second, and third items.");'* ]]
	[[ "$output" == *'((x>y)?puts("x>y"):printf("x is %d but y is %d", x, y));'* ]]
}

@test "#if arithmetic: every case of t/pp/gcc/ifexpr.c comes out yes" {
	run brpp -P "$PP/gcc/ifexpr.c"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '_yes')" -eq 19 ]
	[[ "$output" != *"_no"* ]]
}

@test "columns: an unexpanded line keeps its spacing; a token after a comment keeps its column" {
	cd "$PP"
	run brpp columns.br
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf 'int\ta = 1;')" ]
	[ "${lines[2]}" = '    int b                 = 2;' ]
	[ "${lines[3]}" = '  int c = 2  +  3;   int d = 4;' ]
	[ "${lines[4]}" = '# 16 "columns.br"' ]
}

@test "#line and GCC linemarkers in the input set __LINE__ and __FILE__" {
	cd "$PP"
	run brpp line.br
	[ "$status" -eq 0 ]
	[[ "$output" == *'# 100 "line.br"'*'int b = 100;'* ]]
	[[ "$output" == *'# 200 "renamed.br"'*'int c = 200; char *g = "renamed.br";'* ]]
	[[ "$output" == *'int d = 202;'* ]]
	[[ "$output" == *'# 7 "gcc-marker.c"'*'int e = 7;'* ]]
}

@test "#line to an earlier line starts a new output line with a linemarker" {
	in_tmp
	printf 'a\n#line 1\nb\n' > x.br
	run brpp x.br
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '# 1 "x.br"\na\n# 1 "x.br"\nb')" ]
}

@test "#include <...> and #pragma pass through after a linemarker; _Pragma becomes #pragma; #pragma once is done" {
	cd "$PP"
	run brpp passthrough.br
	[ "$status" -eq 0 ]
	[[ "$output" == *$'# 1 "passthrough.br"\n#include <stdio.h>'* ]]
	[[ "$output" == *$'# 3 "passthrough.br"\n#include <stdlib.h>'* ]]
	[[ "$output" == *$'# 4 "passthrough.br"\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable'* ]]
	[[ "$output" == *$'# 6 "passthrough.br"\n#pragma omp parallel for'* ]]
	in_tmp
	printf '#pragma once\nint once;\n' > once.h
	printf '#include "once.h"\n#include "once.h"\n' > x.br
	run brpp -P x.br
	[ "$(echo "$output" | grep -c 'int once;')" -eq 1 ]
	[[ "$output" != *pragma* ]]
}

@test "__FILE__, __LINE__, __DATE__, __TIME__ (SOURCE_DATE_EPOCH), __BROOK__, __BRPP__" {
	in_tmp
	printf 'f __FILE__ l __LINE__\nd __DATE__ t __TIME__ b __BROOK__\n#if __BRPP__ >= 100\nv\n#endif\n' > x.br
	SOURCE_DATE_EPOCH=86400 run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'f "x.br" l 1' ]
	[ "${lines[1]}" = 'd "Jan  2 1970" t "00:00:00" b 1' ]
	[ "${lines[2]}" = 'v' ]
	run brpp -P - < x.br
	[ "${lines[0]}" = 'f "<stdin>" l 1' ]
}

@test "pp-source-date-epoch: SOURCE_DATE_EPOCH is an integer from 0 to 253402300799" {
	in_tmp
	printf '__DATE__ __TIME__\n' > x.br
	SOURCE_DATE_EPOCH=253402300799 run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "$output" = '"Dec 31 9999" "23:59:59"' ]
	SOURCE_DATE_EPOCH=0 run brpp -P x.br
	[ "$output" = '"Jan  1 1970" "00:00:00"' ]
	for v in 253402300800 99999999999999999999 abc -1 +1 ' 1' 1x; do
		SOURCE_DATE_EPOCH=$v run brpp -P x.br
		diag_is 1 "x.br:1:1: error: SOURCE_DATE_EPOCH must be an integer from 0 to 253402300799, not \"$v\" [pp-source-date-epoch]"
		[ "$(grep -c error <<<"$output")" -eq 1 ]
	done
	# unused, it is not read
	printf 'int a;\n' > y.br
	SOURCE_DATE_EPOCH=abc run brpp -P y.br
	[ "$status" -eq 0 ]
	[ "$output" = 'int a;' ]
}

@test "#include searches the includer's folder, then -I in order" {
	in_tmp
	mkdir -p sub a b
	printf '#include "h.h"\n' > sub/s.h
	printf 'int sub_h;\n' > sub/h.h
	printf 'int a_h;\n' > a/h.h
	printf 'int b_h; int only_b;\n' > b/h.h
	printf 'int b_only;\n' > b/only.h
	printf '#include "sub/s.h"\n#include "h.h"\n#include "only.h"\n' > x.br
	run brpp -P -I a -I b x.br
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "int sub_h; int a_h; int b_only;" ]
	run brpp -P -Ib -Ia x.br
	[ "$(echo $output)" = "int sub_h; int b_h; int only_b; int b_only;" ]
}

@test "#include of a macro (C99 6.10.2p4), quoted or angled" {
	in_tmp
	printf 'int inc;\n' > inc.h
	printf '#define Q "inc.h"\n#define A <math.h>\n#include Q\n#include A\n' > x.br
	run brpp x.br
	[ "$status" -eq 0 ]
	[[ "$output" == *'int inc;'* ]]
	[[ "$output" == *'#include <math.h>'* ]]
}

@test "include guards: a guarded file is read once, even in a cycle" {
	in_tmp
	printf '#ifndef A_H\n#define A_H\n#include "b.h"\nint a;\n#endif\n' > a.h
	printf '#ifndef B_H\n#define B_H\n#include "a.h"\nint b;\n#endif\n' > b.h
	printf '#include "a.h"\n#include "b.h"\n#include "a.h"\n' > x.br
	run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "int b; int a;" ]
}

@test "-D NAME, -DNAME=VALUE, -D NAME(ARGS)=BODY, -U; guide 1.15.2.1 forms" {
	in_tmp
	printf 'WIN32 VALUE ONE TWO F(3) __BROOK__\n' > x.br
	run brpp -P -D WIN32 -D VALUE=100 -DONE -DTWO=2 '-DF(x)=(x+1)' -U __BROOK__ x.br
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | tr -d ' ')" = "110012(3+1)__BROOK__" ]
	run brpp -P -D WIN32 -U WIN32 x.br
	[ "$output" = "WIN32 VALUE ONE TWO F(3) 1" ]
}

@test "-pp is accepted and ignored (brcc compatibility)" {
	in_tmp
	printf '#define X 1\nX\n' > x.br
	run brpp -pp -P x.br
	[ "$status" -eq 0 ]
	[ "$output" = "1" ]
}

@test "-P writes no linemarkers" {
	cd "$PP"
	run brpp -P include.br
	[ "$status" -eq 0 ]
	[[ "$output" != *'# '* ]]
	[[ "$output" == *'b = ((a) * 2.0f);'* ]]
}

@test "-o FILE writes the file; refuses to overwrite the input; checks writability first" {
	in_tmp
	printf '#define X 1\nX\n' > x.br
	run brpp -o out.i x.br
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	grep -q '^1$' out.i
	run brpp -o x.br x.br
	[ "$status" -eq 2 ]
	[[ "$output" == *"would overwrite the input"* ]]
	grep -q '^X$' x.br
	run brpp -o no/such/dir/out.i x.br
	[ "$status" -eq 2 ]
	printf '#error stop\n' > bad.br
	echo old > out2.i
	run brpp -o out2.i bad.br
	[ "$status" -eq 1 ]
	[ "$(cat out2.i)" = "old" ]
}

@test "usage errors exit 2: unknown option, missing value, two inputs, unknown format" {
	run brpp --bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown option"* ]]
	run brpp -D
	[ "$status" -eq 2 ]
	run brpp a.br b.br
	[ "$status" -eq 2 ]
	run brpp --diagnostics=xml
	[ "$status" -eq 2 ]
}

@test "an unreadable input exits 2 [pp-io]" {
	run brpp /no/such/file.br
	diag_is 2 "[pp-io]"
	[[ "$output" == *"No such file"* ]]
}

@test "--diagnostics=brcc, json and sarif" {
	in_tmp
	printf '#if 1/0\n#endif\n' > x.br
	run brpp --diagnostics=brcc x.br
	diag_is 1 "x.br(1) : ERROR--1: division by zero in #if"
	run brpp --diagnostics=json x.br
	diag_is 1 '{"tool":"brpp","level":"error","message":"division by zero in #if","file":"x.br","line":1,"col":6,"id":"pp-div-zero"}'
	run brpp --diagnostics=sarif x.br
	diag_is 1 '"ruleId": "pp-div-zero"'
	[[ "$output" == *'"version": "2.1.0"'* ]]
}

@test "-x and -Werror make warnings errors; -w drops them" {
	in_tmp
	printf '#warning careful\n' > x.br
	run brpp -x x.br
	diag_is 1 "x.br:1:2: error: #warning careful [pp-warning]"
	run brpp -Werror x.br
	[ "$status" -eq 1 ]
	run brpp -w x.br
	[ "$status" -eq 0 ]
	[[ "$output" != *careful* ]]
}

@test "-w drops a warning's notes with it, in every format; with -x, -w drops nothing" {
	in_tmp
	printf '#define A 1\n#define A 2\n' > x.br
	for f in gcc brcc json sarif; do
		run brpp -w --diagnostics=$f x.br
		[ "$status" -eq 0 ]
		[[ "$output" != *"previous definition"* ]]
	done
	run brpp -w -x x.br
	diag_is 1 'x.br:2:9: error: "A": Macro redefinition [pp-macro-redefined]'
	[[ "$output" == *'x.br:1:9: note: See previous definition of "A"'* ]]
}

# ---- every message ID ----------------------------------------------------

@test "pp-unterminated-if: Expecting '#endif' before end of file" {
	pp_error_test 'int a;\n#if 1\n#ifdef X\n' "x.br:3:2: error: Expecting '#endif' before end of file [pp-unterminated-if]"
}

@test "pp-unterminated-if: in an included file, reported there" {
	in_tmp
	printf '#if 1\n' > inc.h
	printf '#include "inc.h"\n#if 1\n#endif\n' > x.br
	run brpp x.br
	diag_is 1 "inc.h:1:2: error: Expecting '#endif' before end of file [pp-unterminated-if]"
}

@test "pp-unterminated-comment: Expecting end of comment" {
	pp_error_test 'int a;\n  /* no end\n\n' "x.br:2:3: error: Expecting end of comment [pp-unterminated-comment]"
}

@test "pp-unterminated-string and pp-unterminated-char" {
	pp_error_test 'char *s = "abc;\n' 'x.br:1:11: error: missing terminating " character [pp-unterminated-string]'
	pp_error_test "int c = 'a;\n" "x.br:1:9: error: missing terminating ' character [pp-unterminated-char]"
	pp_error_test 'int c = L"a;\n' 'x.br:1:9: error: missing terminating " character [pp-unterminated-string]'
}

@test "an open character constant in #if is an error, not a read past its end" {
	pp_error_test "#if 'ab\\\\'\n#endif\n" "missing terminating ' character [pp-unterminated-char]"
	pp_error_test "#if '\\\\\n" "missing terminating ' character [pp-unterminated-char]"
}

@test "pp-unknown-directive: Undefined preprocessor directive(\"TOKEN\")" {
	pp_error_test '#foo bar\n' 'x.br:1:2: error: Undefined preprocessor directive("foo") [pp-unknown-directive]'
	pp_error_test '#if 0\n#foo\n#endif\n#!\n' 'x.br:4:2: error: Undefined preprocessor directive("!") [pp-unknown-directive]'
}

@test "pp-define-missing, pp-undef-missing, pp-ifdef-missing: Expecting token after '#define'" {
	pp_error_test '#define\n' "x.br:1:1: error: Expecting token after '#define' [pp-define-missing]"
	pp_error_test '#undef\n' "x.br:1:1: error: Expecting token after '#undef' [pp-undef-missing]"
	pp_error_test '#ifdef\n#endif\n' "x.br:1:1: error: Expecting token after '#ifdef' [pp-ifdef-missing]"
	pp_error_test '#ifndef\n#endif\n' "x.br:1:1: error: Expecting token after '#ifndef' [pp-ifdef-missing]"
}

@test "pp-macro-name: macro names must be identifiers; defined is no macro name" {
	pp_error_test '#define 3 x\n' 'x.br:1:9: error: Unsupported preprocessor directive syntax: macro names must be identifiers, not "3" [pp-macro-name]'
	pp_error_test '#define defined 1\n' 'x.br:1:9: error: "defined" cannot be used as a macro name [pp-macro-name]'
	pp_error_test '#ifdef "s"\n#endif\n' '[pp-macro-name]'
}

@test "pp-define-syntax: parameter lists, #, ## at the ends" {
	pp_error_test '#define f(a,a) a\n' 'x.br:1:13: error: Unsupported preprocessor directive syntax: duplicate macro parameter "a" [pp-define-syntax]'
	pp_error_test '#define f(a b\n' '"b" in macro parameter list [pp-define-syntax]'
	pp_error_test '#define f(a\n' "missing ')' in macro parameter list [pp-define-syntax]"
	pp_error_test '#define f(a) #b\n' "x.br:1:14: error: Unsupported preprocessor directive syntax: '#' is not followed by a macro parameter [pp-define-syntax]"
	pp_error_test '#define f ## b\n' "'##' cannot appear at either end of a macro expansion [pp-define-syntax]"
	pp_error_test '#define f(x) x ##\n' "'##' cannot appear at either end of a macro expansion [pp-define-syntax]"
	pp_error_test '#define f(__VA_ARGS__) 1\n' "__VA_ARGS__ can only appear in the expansion of a variadic macro [pp-define-syntax]"
}

@test "after an error in #define, the rest of its line is dropped, not written" {
	in_tmp
	printf '#define f(x,x) x + y\n#define g(__VA_ARGS__) __VA_ARGS__ + y\n#define h(x,,y) x + y\n#define i(x y) x + y\nint a;\n' > x.br
	run --separate-stderr brpp -P x.br
	[ "$status" -eq 1 ]
	[ "$(grep -c 'pp-define-syntax' <<<"$stderr")" -eq 4 ]
	[ "$output" = "$(printf 'int a;\n\n#brook failed')" ]
}

@test "pp-macro-args: wrong argument count" {
	pp_error_test '#define f(a, b) a b\nf(1)\n' 'x.br:2:1: error: macro "f" requires 2 arguments, but only 1 given [pp-macro-args]'
	pp_error_test '#define f(a) a\nint i = f(1, 2);\n' 'x.br:2:9: error: macro "f" passed 2 arguments, but takes just 1 [pp-macro-args]'
	pp_error_test '#define f() 0\nf(1)\n' 'macro "f" passed 1 arguments, but takes just 0 [pp-macro-args]'
	pp_error_test '#define v(a, b, ...) 0\nv(1)\n' 'macro "v" requires 3 arguments, but only 1 given [pp-macro-args]'
}

@test "pp-unterminated-call: unterminated argument list" {
	pp_error_test '#define f(a) a\nint x = f(1, (2\n\n' 'x.br:2:9: error: unterminated argument list invoking macro "f" [pp-unterminated-call]'
}

@test "pp-invalid-paste: ## must make one token" {
	pp_error_test '#define cat(a, b) a ## b\ncat(+, -) cat(x, "s")\n' 'x.br:2:5: error: pasting "+" and "-" does not give a valid preprocessing token [pp-invalid-paste]'
	pp_error_test '#define cat(a, b) a ## b\ncat(/, /)\n' 'pasting "/" and "/" does not give a valid preprocessing token [pp-invalid-paste]'
}

@test "pp-if-syntax: malformed #if expressions" {
	pp_error_test '#if\n#endif\n' 'x.br:1:2: error: Unsupported #if syntax: #if with no expression [pp-if-syntax]'
	pp_error_test '#if 1 +\n#endif\n' 'Unsupported #if syntax: expected a value at end of line [pp-if-syntax]'
	pp_error_test '#if (1\n#endif\n' "Unsupported #if syntax: expected ')' at end of line [pp-if-syntax]"
	pp_error_test '#if 1 2\n#endif\n' 'x.br:1:7: error: Unsupported #if syntax: missing binary operator before "2" [pp-if-syntax]'
	pp_error_test '#if 1.5\n#endif\n' 'Unsupported #if syntax: floating constant "1.5" [pp-if-syntax]'
	pp_error_test '#if 09\n#endif\n' 'Unsupported #if syntax: invalid digit "9" in "09" [pp-if-syntax]'
	pp_error_test '#if 1z\n#endif\n' 'Unsupported #if syntax: invalid integer constant "1z" [pp-if-syntax]'
	pp_error_test '#if "s"\n#endif\n' 'Unsupported #if syntax: expected a value before ""s"" [pp-if-syntax]'
	pp_error_test '#if defined\n#endif\n' 'Unsupported #if syntax: operator "defined" requires an identifier [pp-if-syntax]'
	pp_error_test '#if defined(X\n#endif\n' "Unsupported #if syntax: missing ')' after \"defined\" [pp-if-syntax]"
	pp_error_test "#if ''\n#endif\n" 'Unsupported #if syntax: empty character constant [pp-if-syntax]'
	pp_error_test '#if 1 ? 2\n#endif\n' "Unsupported #if syntax: expected ':' at end of line [pp-if-syntax]"
	pp_error_test '#if 0\n#elif\n#endif\n' 'x.br:2:2: error: Unsupported #if syntax: #elif with no expression [pp-if-syntax]'
}

@test "pp-div-zero: division by zero in #if, only where evaluated" {
	pp_error_test '#if 1 / 0\n#endif\n' 'x.br:1:7: error: division by zero in #if [pp-div-zero]'
	pp_error_test '#if 1 % (2 - 2)\n#endif\n' 'division by zero in #if [pp-div-zero]'
	in_tmp
	printf '#if 0 && 1 / 0\n#elif 1 || 1 %% 0\n#endif\n#if 0 ? 1/0 : 1\n#endif\n' > y.br
	run brpp y.br
	[ "$status" -eq 0 ]
	[ -z "$(echo "$output" | grep error)" ]
}

@test "pp-if-too-deep: deep #if expressions are a diagnostic, not a crash" {
	in_tmp
	{ printf '#if '; printf '(%.0s' $(seq 5000); printf '1'; printf ')%.0s' $(seq 5000); printf '\n#endif\n'; } > x.br
	run brpp x.br
	diag_is 1 "#if expression nested more than 256 deep [pp-if-too-deep]"
	{ printf '#if '; printf -- '- %.0s' $(seq 5000); printf '1\n#endif\n'; } > y.br
	run brpp y.br
	diag_is 1 "[pp-if-too-deep]"
}

@test "pp-if-overflow and pp-int-range: warnings" {
	pp_warning_test '#if 0x7fffffffffffffff + 1\n#endif\n' 'x.br:1:2: warning: integer overflow in preprocessor expression [pp-if-overflow]'
	pp_warning_test '#if 18446744073709551615 > 0\n#endif\n' 'integer constant "18446744073709551615" is so large that it is unsigned [pp-int-range]'
	pp_warning_test '#if 99999999999999999999999\n#endif\n' 'is too large for its type [pp-int-range]'
}

@test "pp-else-after-else and pp-unmatched-conditional" {
	pp_error_test '#if 1\n#else\n#else\n#endif\n' 'x.br:3:2: error: #else after #else [pp-else-after-else]'
	pp_error_test '#if 0\n#else\n#elif 1\n#endif\n' '#elif after #else [pp-else-after-else]'
	pp_error_test '#if 0\n#else\n#else\n#endif\n' '#else after #else [pp-else-after-else]'
	pp_error_test '#endif\n' 'x.br:1:2: error: #endif without #if [pp-unmatched-conditional]'
	pp_error_test '#else\n' '#else without #if [pp-unmatched-conditional]'
	pp_error_test '#elif 1\n' '#elif without #if [pp-unmatched-conditional]'
}

@test "pp-unmatched-conditional: an #endif cannot close the includer's #if" {
	in_tmp
	printf '#endif\n' > inc.h
	printf '#if 1\n#include "inc.h"\n#endif\n' > x.br
	run brpp x.br
	diag_is 1 "inc.h:1:2: error: #endif without #if [pp-unmatched-conditional]"
}

@test "pp-include-missing, pp-include-syntax" {
	pp_error_test '#include "nope.h"\n' 'x.br:1:1: error: cannot open include file "nope.h": No such file or directory [pp-include-missing]'
	pp_error_test '#include\n' '#include expects "FILENAME" or <FILENAME> [pp-include-syntax]'
	pp_error_test '#include 42\n' '#include expects "FILENAME" or <FILENAME> [pp-include-syntax]'
}

@test "pp-include-cycle: a includes b includes a" {
	in_tmp
	printf '#include "b.h"\nint a;\n' > a.h
	printf '#include "a.h"\nint b;\n' > b.h
	printf '#include "a.h"\n' > x.br
	run brpp x.br
	diag_is 1 'b.h:1:1: error: #include cycle: a.h includes b.h includes a.h [pp-include-cycle]'
	printf '#include "x.br"\n' > y.br
	printf '#include "self.br"\n' > self.br
	run brpp self.br
	diag_is 1 '#include cycle: self.br includes self.br [pp-include-cycle]'
}

@test "pp-include-depth: 200 nested includes at most" {
	in_tmp
	seq 0 250 | xargs -I N sh -c 'printf "#include \"f%d.h\"\n" $((N + 1)) > fN.h'
	printf 'int end;\n' > f251.h
	run brpp f0.h
	diag_is 1 "#include nested more than 200 deep [pp-include-depth]"
	[ "$(echo "$output" | grep -c 'pp-include-depth')" -eq 1 ]
}

@test "pp-include-in-args: #include inside a macro call" {
	in_tmp
	printf 'int i;\n' > i.h
	pp_error_test '#define f(x) x\nf(1,\n#include "i.h"\n)\n' '#include in the arguments of a macro call [pp-include-in-args]'
}

@test "pp-args-redefine: a macro redefined or undefined in its own arguments" {
	pp_error_test '#define f(x) [x]\nf(1\n#undef f\n#define f(x) {x}\n2)\nf(3)\n' 'x.br:2:1: error: macro "f" redefined or undefined in its own arguments [pp-args-redefine]'
	[[ "$output" == *"{3}"* ]]
}

@test "directives inside macro arguments are done in place (as GCC)" {
	in_tmp
	printf '#define f(x) [x]\nf(1\n#ifdef NOPE\n2\n#else\n3\n#endif\n)\n' > x.br
	run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "[1 3]" ]
}

@test "pp-line-syntax: #line operands" {
	pp_error_test '#line x\n' 'x.br:1:7: error: #line requires a line number from 0 to 2147483647, not "x" [pp-line-syntax]'
	pp_error_test '#line 99999999999\n' '#line requires a line number from 0 to 2147483647, not "99999999999" [pp-line-syntax]'
	pp_error_test '#line 10 foo\n' 'invalid file name "foo" in #line [pp-line-syntax]'
	pp_error_test '#line\n' '[pp-line-syntax]'
}

@test "pp-line-range: no line is read past 2147483647 (C99 6.10.4p3), no number goes negative" {
	in_tmp
	printf '#line 2147483645\nint a = __LINE__;\n#pragma weight 3\nint b = __LINE__;\nint c = __LINE__;\n#error boom\n' > x.br
	run --separate-stderr brpp --diagnostics=json x.br
	[ "$status" -eq 1 ]
	[ "$stderr" = '{"tool":"brpp","level":"error","message":"line number out of range: nothing after line 2147483647 is read","file":"x.br","line":2147483647,"col":0,"id":"pp-line-range"}' ]
	[ "$output" = "$(printf '# 1 "x.br"\n# 2147483645 "x.br"\nint a = 2147483645;\n# 2147483646 "x.br"\n#pragma weight 3\nint b = 2147483647;\n\n#brook failed')" ]
	printf '#line 2147483647\nint a = __LINE__;\n\n' > x.br
	run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "$output" = 'int a = 2147483647;' ]
	printf '#line 2147483647\n#include <stdio.h>\n' > x.br
	run brpp x.br
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '# 1 "x.br"\n# 2147483647 "x.br"\n#include <stdio.h>')" ]
	printf '#line 2147483647\n#include "h.h"\nint a;\n' > y.br
	printf 'int h;\n' > h.h
	run brpp y.br
	diag_is 1 'y.br:2147483647: error: line number out of range: nothing after line 2147483647 is read [pp-line-range]'
	[[ "$output" == *'# 2147483647 "y.br" 2'* ]]
}

@test "pp-pragma-syntax: _Pragma needs ( string )" {
	pp_error_test '_Pragma(1)\n' 'x.br:1:1: error: _Pragma takes a parenthesized string literal [pp-pragma-syntax]'
}

@test "pp-error and pp-warning: #error exits 1, #warning 0" {
	pp_error_test "#error don't do \"this\"\n" "x.br:1:2: error: #error don't do \"this\" [pp-error]"
	pp_warning_test '#warning take care\n' 'x.br:1:2: warning: #warning take care [pp-warning]'
}

@test "pp-extra-tokens: spec 7's \"Unexpected token following preprocessor directive\"" {
	pp_warning_test '#define X\n#undef X Y\n' 'x.br:2:10: warning: Unexpected token following preprocessor directive (#undef "X") -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#ifdef X Y\n#endif\n' '(#ifdef "X") -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#ifndef X Y\n#endif\n' '(#ifndef "X") -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#if 1\n#else X\n#endif\n' '(#else) -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#if 1\n#endif X\n' '(#endif) -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#if 0\n#endif X\n' '(#endif) -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#include <a.h> b\n' '(#include) -- expected a new line [pp-extra-tokens]'
	pp_warning_test '#line 5 "a" b\n' '(#line) -- expected a new line [pp-extra-tokens]'
}

@test "pp-define-whitespace and pp-va-args: warnings" {
	pp_warning_test '#define X+1\n' 'x.br:1:10: warning: missing white space after the macro name "X" [pp-define-whitespace]'
	pp_warning_test '#define X __VA_ARGS__\n' '__VA_ARGS__ can only appear in the expansion of a C99 variadic macro [pp-va-args]'
}

@test "pp-nul-byte and pp-stray-char: binary bytes" {
	pp_error_test 'int a;\nint \0b;\n' 'x.br:2:5: error: null character in input [pp-nul-byte]'
	pp_error_test 'int a;\n  \001\n' 'x.br:2:3: error: stray character '"'"'\001'"'"' in input [pp-stray-char]'
}

@test "pp-expansion-too-deep: macro calls nested deep in arguments" {
	in_tmp
	{ printf '#define f(x) x\n'; printf 'f(%.0s' $(seq 1000); printf '1'; printf ')%.0s' $(seq 1000); printf '\n'; } > x.br
	run brpp x.br
	diag_is 1 "macro calls nested more than 200 deep in macro arguments [pp-expansion-too-deep]"
}

@test "pp-expansion-too-deep: 20,000 nested calls stop at the limit once, in little memory" {
	in_tmp
	{ printf '#define f(x) x\n'; printf 'f(%.0s' $(seq 20000); printf '1'; printf ')%.0s' $(seq 20000); printf '\nint after;\n'; } > x.br
	limit_memory 262144	# 256 MB: each level held a copy of the rest
	run brpp -P x.br
	diag_is 1 "x.br:2:403: error: macro calls nested more than 200 deep in macro arguments [pp-expansion-too-deep]"
	[ "$(grep -c error <<<"$output")" -eq 1 ]
	[ "$(tail -n 3 <<<"$output" | head -n 1)" = 'int after;' ]
	[ "$(tail -n 1 <<<"$output")" = '#brook failed' ]
}

@test "pp-expansion-too-big: exponential macros stop" {
	pp_error_test '#define A0 x x\n#define A1 A0 A0\n#define A2 A1 A1\n#define A3 A2 A2\n#define A4 A3 A3\n#define A5 A4 A4\n#define A6 A5 A5\n#define A7 A6 A6\n#define A8 A7 A7\n#define A9 A8 A8\n#define B0 A9 A9\n#define B1 B0 B0\n#define B2 B1 B1\n#define B3 B2 B2\n#define B4 B3 B3\n#define B5 B4 B4\n#define B6 B5 B5\n#define B7 B6 B6\n#define B8 B7 B7\n#define B9 B8 B8\n#define C0 B9 B9\n#define C1 C0 C0\n#define C2 C1 C1\n#define C3 C2 C2\n#define C4 C3 C3\nC4\n' '[pp-expansion-too-big]'
}

@test "pp-too-many-errors: brpp gives up after 50 errors" {
	in_tmp
	printf '#bad%d\n' $(seq 100) > x.br
	run brpp x.br
	diag_is 1 "too many errors, giving up [pp-too-many-errors]"
	[ "$(echo "$output" | grep -c 'pp-unknown-directive')" -eq 50 ]
}

# ---- bad input never crashes ---------------------------------------------

@test "binary data: a diagnostic and exit 1, no crash" {
	in_tmp
	# every byte value, twice, in a fixed order
	bytes=$(printf '\\%03o' $(seq 0 255))
	printf "$bytes$bytes" > bin.br
	run brpp bin.br
	diag_is 1 "[pp-nul-byte]"
	[[ "$output" == *"error"* ]]
	head -c 100000 "$top_srcdir/man/brpp.1" | tr 'a-z' '\001-\032' > ctl.br
	run brpp ctl.br
	[ "$status" -eq 1 ]
}

@test "a 10 MB line: valid, it is copied; with an open string, a diagnostic" {
	in_tmp
	head -c 10000000 /dev/zero | tr '\0' 'a' > long.br
	echo >> long.br
	brpp -P long.br > long.i
	cmp long.br long.i
	{ printf '#define a b\nchar *s = "'; head -c 10000000 /dev/zero | tr '\0' 'a'; printf '\n'; } > open.br
	run brpp -o open.i open.br
	diag_is 1 "open.br:2:11: error: missing terminating \" character [pp-unterminated-string]"
	{ head -c 2000000 /dev/zero | tr '\0' ' ' | sed 's/  / a/g'; echo; } > words.br
	brpp -P -D a=b words.br > words.i
	[ "$(head -c 6 words.i)" = " b b b" ]
}

@test "unterminated everything at once: comment, string, #if, macro call" {
	pp_error_test '#define f(x) x\n#if 1\nchar c = "abc;\nf(1, 2\n/* and' '[pp-unterminated-string]'
	[[ "$output" == *"[pp-unterminated-comment]"* ]]
	[[ "$output" == *"[pp-unterminated-call]"* ]]
	[[ "$output" == *"[pp-unterminated-if]"* ]]
}

@test "10,000 nested #if: open ones are an error; closed ones are fine" {
	in_tmp
	printf '#if %d\n' $(seq 10000) > open.br
	run brpp open.br
	diag_is 1 "open.br:10000:2: error: Expecting '#endif' before end of file [pp-unterminated-if]"
	{ printf '#ifdef X%d\n' $(seq 10000); echo deep; printf '#endif%.0s\n' $(seq 10000); } > closed.br
	run brpp -P -D X10000 closed.br
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "a file with no final newline, CRLF line ends, and an empty file" {
	in_tmp
	printf '#define X 1\r\nint a = X;\r\nint b = \\\r\n 2;' > x.br
	run brpp -P x.br
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "int a = 1; int b = 2;" ]
	: > empty.br
	run brpp empty.br
	[ "$status" -eq 0 ]
	[ "$output" = '# 1 "empty.br"' ]
}

@test "the output of brpp reads back through brpp unchanged in tokens" {
	cd "$PP"
	for src in *.br; do
		brpp "$src" 2>/dev/null > "$BATS_TEST_TMPDIR/once.i"
		brpp "$BATS_TEST_TMPDIR/once.i" > "$BATS_TEST_TMPDIR/twice.i"
		diff <(grep -v '^#' "$BATS_TEST_TMPDIR/once.i" | pp_tokens) \
			<(grep -v '^#' "$BATS_TEST_TMPDIR/twice.i" | pp_tokens)
	done
}

@test "a UTF-8 byte order mark at the start of a file, or of an included one, is skipped" {
	printf '\357\273\277#define N 3\nint a = N;\n' > "$BATS_TEST_TMPDIR/bom.h"
	printf '\357\273\277#include "bom.h"\nint b = N;\n' > "$BATS_TEST_TMPDIR/bom.br"
	run brpp -P "$BATS_TEST_TMPDIR/bom.br"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'int a = 3;\nint b = 3;')" ]
}
