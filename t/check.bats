#!/usr/bin/env bats
# t/check.bats - brcheck, the semantic checker (man/brcheck.1).
#
# Golden files: t/check/NAME.br (or a hand-written AST, NAME.ast) and
# NAME.err, the standard error of `brcheck --lint t/check/NAME.br` run from
# the top of the source tree. A first line "// OPTIONS: -a -w3" adds
# options. A case whose .err is empty must check clean.

load helper

setup() {
	cd "$top_srcdir"
}

# check_case FILE: runs one golden case; prints why it fails.
check_case() {
	local f=$1 base=${1%.*} opts want rc
	opts=$(sed -n '1s,^// OPTIONS: ,,p' "$f")
	# shellcheck disable=SC2086
	brcheck --lint $opts "$f" 2>"$BATS_TEST_TMPDIR/err" >/dev/null
	rc=$?
	want=0
	grep -q ': error: ' "$base.err" && want=1
	[ "$base" = t/check/E-ast ] && want=2
	if [ "$rc" != "$want" ]; then
		echo "$f: exit status $rc, expected $want"
		return 1
	fi
	diff -u "$base.err" "$BATS_TEST_TMPDIR/err" || {
		echo "$f: diagnostics differ from $base.err"
		return 1
	}
}

@test "every golden case gives its expected diagnostics and status" {
	local f failed=0
	for f in t/check/*.br t/check/*.ast; do
		check_case "$f" || failed=1
	done
	[ "$failed" = 0 ]
}

@test "every diagnostic ID of the checker has a case and a man page entry" {
	local id missing=0
	for id in $(grep -oh '"[EW]-[a-z0-9-]*"' lib/brook/check*.c | tr -d '"' | sort -u); do
		[ -f "t/check/$id.br" ] || [ -f "t/check/$id.ast" ] || {
			echo "no case for $id"; missing=1; }
		grep -q -- "^\\\\fB$id\\\\fR" man/brcheck.1 || {
			echo "$id not in man/brcheck.1"; missing=1; }
	done
	[ "$missing" = 0 ]
}

@test "the AST on standard input comes back checked and annotated" {
	brpp t/check/sum.br | brparse | brcheck >"$BATS_TEST_TMPDIR/out.ast"
	grep -q '"stage":"checked"' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"class":"map"' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"role":"out"' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"callee":"kernel"' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"callee":"stream_op"' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"ref":' "$BATS_TEST_TMPDIR/out.ast"
	grep -q '"ty":{"t":"float"}' "$BATS_TEST_TMPDIR/out.ast"
	# a checked AST checks again to the same document
	brcheck <"$BATS_TEST_TMPDIR/out.ast" >"$BATS_TEST_TMPDIR/again.ast"
	cmp "$BATS_TEST_TMPDIR/out.ast" "$BATS_TEST_TMPDIR/again.ast"
}

@test "swizzles, builtins, reduce_op, sub and group classes are annotated" {
	brcheck -o "$BATS_TEST_TMPDIR/v.ast" t/check/vector_ctor.br
	grep -q '"swizzle":\[0,1\]' "$BATS_TEST_TMPDIR/v.ast"
	grep -q '"callee":"sub"' "$BATS_TEST_TMPDIR/v.ast"
	# "subs": the definitions kernel code calls (multiply), by id
	run python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = [n for n in d["decls"] if n.get("name") == "multiply"][0]
print(d["subs"] == [f["id"]], "sub" in f, list(d)[-3:])' "$BATS_TEST_TMPDIR/v.ast"
	[ "$output" = "True False ['options', 'subs', 'digest']" ]
	# an earlier brcheck's "sub": true on the definition: checked again,
	# the same document as now
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
[n for n in d["decls"] if n.get("name") == "multiply"][0]["sub"] = True
del d["subs"], d["digest"]
json.dump(d, open(sys.argv[2], "w"))' "$BATS_TEST_TMPDIR/v.ast" "$BATS_TEST_TMPDIR/old.ast"
	brcheck "$BATS_TEST_TMPDIR/old.ast" | cmp - "$BATS_TEST_TMPDIR/v.ast"
	grep -q '"subs":\[\]' <(brcheck -o - t/check/sum_2d.br)
	brcheck -o "$BATS_TEST_TMPDIR/s.ast" t/check/spec_kernels.br
	grep -q '"class":"reduce"' "$BATS_TEST_TMPDIR/s.ast"
	grep -q '"reduce_op":"+="' "$BATS_TEST_TMPDIR/s.ast"
	grep -q '"builtin":"floor"' <(brcheck -o - t/check/binary_search.br)
	brcheck -o "$BATS_TEST_TMPDIR/g.ast" t/check/sum_2d.br
	grep -q '"class":"group"' "$BATS_TEST_TMPDIR/g.ast"
	grep -q '"role":"scatter"' "$BATS_TEST_TMPDIR/g.ast"
	grep -q '"builtin":"instanceInGroup"' "$BATS_TEST_TMPDIR/g.ast"
}

@test "host names only the C compiler knows are unknown, without a diagnostic" {
	brcheck -o "$BATS_TEST_TMPDIR/h.ast" t/check/sum.br
	grep -q '"name":"printf","ty":{"t":"unknown"}' "$BATS_TEST_TMPDIR/h.ast"
}

@test "-a turns strong-typing errors into warnings; -x makes them errors again" {
	run brcheck --lint t/check/E-operand-mismatch.br
	[ "$status" -eq 1 ]
	run brcheck --lint -a t/check/E-operand-mismatch.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: implicit conversion from \"int\" to \"float\" [W-implicit-conversion]"* ]] || [ -z "$output" ]
	run brcheck --lint -a -w3 t/check/E-operand-mismatch.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: implicit conversion"* ]]
	run brcheck --lint -a -w3 -x t/check/E-operand-mismatch.br
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: implicit conversion"* ]]
	run brcheck --lint -a -w3 -Werror t/check/E-operand-mismatch.br
	[ "$status" -eq 1 ]
}

@test "-wN filters warnings by level under -a and has no effect without it" {
	run brcheck --lint -a -w1 t/check/W-implicit-conversion.br
	[ "$status" -eq 0 ]
	[ "$(grep -c 'warning:' <<<"$output")" -eq 3 ]
	run brcheck --lint -a -w2 t/check/W-implicit-conversion.br
	[ "$(grep -c 'warning:' <<<"$output")" -eq 5 ]
	run brcheck --lint -a -w0 t/check/W-implicit-conversion.br
	[ -z "$output" ]
	# strong typing: level-1 warnings always show; -w and -x change nothing
	run brcheck --lint -w0 -x t/check/W-kernel-noret.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: unspecified kernel return type"* ]]
	run brcheck --lint -a -x t/check/W-kernel-noret.br
	[ "$status" -eq 1 ]
}

# spec 9: "If strong type checking is enabled, all warnings with a level
# greater than 1 become errors, and the -w and -x flags are disabled."
@test "spec 9: without -a a warning of level 2 is an error, whatever -w and -x say" {
	local opts
	for opts in "" -w0 -w1 -w3 -x "-w0 -x" "-w3 -x" -Werror; do
		run brcheck --lint $opts t/check/E-init-components.br
		[ "$status" -eq 1 ]
		[ "$output" = "t/check/E-init-components.br:3:16: error: Uninitialized components: 2 of 4 given [E-init-components]" ]
	done
	# a level-1 warning stays a warning: status 0 even with -x
	for opts in "" -w0 -w3 -x "-w0 -x" -Werror; do
		run brcheck --lint $opts t/check/W-kernel-noret.br
		[ "$status" -eq 0 ]
		[[ "$output" == *"warning: unspecified kernel return type"*"[W-kernel-noret]"* ]]
	done
}

@test "spec 9: with -a, -wN picks the levels shown and -x makes the shown ones errors" {
	local f=t/check/E-init-components.br
	run brcheck --lint -a $f
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run brcheck --lint -a -w1 -x $f
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run brcheck --lint -a -w2 $f
	[ "$status" -eq 0 ]
	[ "$output" = "$f:3:16: warning: Uninitialized components: 2 of 4 given [W-init-components]" ]
	run brcheck --lint -a -w3 -x $f
	[ "$status" -eq 1 ]
	[ "$output" = "$f:3:16: error: Uninitialized components: 2 of 4 given [W-init-components]" ]
	# -w0 shows nothing, so -x has nothing to turn into an error
	run brcheck --lint -a -w0 -x t/check/W-kernel-noret.br
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the order of the flags does not matter
	run brcheck --lint -x -w2 -a $f
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: Uninitialized components"* ]]
}

@test "W-missing-return is a level-1 warning: -a -x makes it an error, -a -w0 hides it" {
	local f=t/check/W-missing-return.br
	run brcheck --lint -x $f
	[ "$status" -eq 0 ]
	[ "$(grep -c 'warning: control can reach the end of' <<<"$output")" -eq 8 ]
	run brcheck --lint -a -x $f
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: control can reach the end of \"sign_of\""*"[W-missing-return]"* ]]
	run brcheck --lint -a -w0 -x $f
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "spec 9: -c with and without -a and -x" {
	local f=t/check/E-gather-incomplete.br
	run brcheck --lint -c $f
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: Incomplete array size specification"*"[W-gather-incomplete]"* ]]
	run brcheck --lint -c -x $f
	[ "$status" -eq 0 ]
	run brcheck --lint -a -c $f
	[ "$status" -eq 0 ]
	[[ "$output" == *"[W-gather-incomplete]"* ]]
	run brcheck --lint -a -c -x $f
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: Incomplete array size specification"* ]]
	run brcheck --lint -a -c -w0 $f
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# without -c the incomplete sizes are an error, -a or not
	run brcheck --lint -a $f
	[ "$status" -eq 1 ]
	[[ "$output" == *"[E-gather-incomplete]"* ]]
}

@test "-c and -C both disable constant buffers" {
	run brcheck --lint t/check/E-gather-incomplete.br
	[ "$status" -eq 1 ]
	run brcheck --lint -c t/check/E-gather-incomplete.br
	[ "$status" -eq 0 ]
	run brcheck --lint -C t/check/E-gather-incomplete.br
	[ "$status" -eq 0 ]
	[[ "$output" == *"[W-gather-incomplete]"* ]]
}

@test "--portable reports the 2008 hardware limits only when asked" {
	run brcheck --lint t/check/W-portable-outputs.br
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run brcheck --lint --portable t/check/W-portable-outputs.br
	[[ "$output" == *"[W-portable-outputs]"* ]]
}

@test "-D, -U and -I reach the preprocessor" {
	printf '#ifdef BAD\nkernel void k(float a<>, out float b<>) { goto x; x: b = a; }\n#endif\n' >"$BATS_TEST_TMPDIR/d.br"
	run brcheck "$BATS_TEST_TMPDIR/d.br"
	[ "$status" -eq 0 ]
	run brcheck -DBAD "$BATS_TEST_TMPDIR/d.br"
	[ "$status" -eq 1 ]
	[[ "$output" == *"[E-kernel-goto]"* ]]
	run brcheck -D BAD -U BAD "$BATS_TEST_TMPDIR/d.br"
	[ "$status" -eq 0 ]
	mkdir -p "$BATS_TEST_TMPDIR/inc"
	printf '#define SCALE 2.0f\n' >"$BATS_TEST_TMPDIR/inc/scale.h"
	printf '#include "scale.h"\nkernel void k(float a<>, out float b<>) { b = a * SCALE; }\n' >"$BATS_TEST_TMPDIR/i.br"
	run brcheck -I "$BATS_TEST_TMPDIR/inc" "$BATS_TEST_TMPDIR/i.br"
	[ "$status" -eq 0 ]
}

@test "several source files are linted in one run, as a CI step" {
	run brcheck -x t/check/sum.br t/check/E-kernel-goto.br t/check/spec_resize.br
	[ "$status" -eq 1 ]
	[[ "$output" == *"t/check/E-kernel-goto.br:4:5: error: control flow statement not supported: goto inside a kernel [E-kernel-goto]"* ]]
	run brcheck -x t/check/sum.br t/check/spec_resize.br
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "diagnostics in brcc, json and sarif formats" {
	run brcheck --diagnostics=brcc t/check/E-kernel-goto.br
	[ "$status" -eq 1 ]
	[ "$output" = "t/check/E-kernel-goto.br(4) : ERROR--1: control flow statement not supported: goto inside a kernel" ]
	run brcheck --diagnostics=json t/check/E-kernel-goto.br
	[[ "$output" == *'"id": "E-kernel-goto"'* || "$output" == *'"id":"E-kernel-goto"'* ]]
	run brcheck --diagnostics=sarif t/check/E-kernel-goto.br
	[[ "$output" == *'"ruleId"'*'E-kernel-goto'* ]]
	[[ "$output" == *'2.1.0'* ]]
	run brcheck --diagnostics=xml t/check/sum.br
	[ "$status" -eq 2 ]
}

@test "usage and I/O errors exit 2" {
	run brcheck --no-such-option
	[ "$status" -eq 2 ]
	run brcheck -w7 t/check/sum.br
	[ "$status" -eq 2 ]
	run brcheck t/check/does-not-exist.br
	[ "$status" -eq 2 ]
	run brcheck -o
	[ "$status" -eq 2 ]
	run brcheck -o "$BATS_TEST_TMPDIR/x.ast" t/check/sum.br t/check/sum_2d.br
	[ "$status" -eq 2 ]
	run brcheck -o /no/such/dir/x.ast t/check/sum.br
	[ "$status" -eq 2 ]
}

@test "an AST of another version, not JSON, or with a dangling ref is refused" {
	run brcheck <<<'{"brast": 99, "stage": "parsed", "files": [], "decls": []}'
	[ "$status" -eq 2 ]
	run brcheck <<<'this is not JSON'
	[ "$status" -eq 2 ]
	run brcheck <<<'[1, 2]'
	[ "$status" -eq 2 ]
	brcheck -o "$BATS_TEST_TMPDIR/s.ast" t/check/sum.br
	sed 's/"ref":1,/"ref":999,/' "$BATS_TEST_TMPDIR/s.ast" >"$BATS_TEST_TMPDIR/bad.ast"
	run brcheck "$BATS_TEST_TMPDIR/bad.ast"
	[ "$status" -eq 2 ]
	[[ "$output" == *'dangling "ref"'*'[E-ast]'* ]]
	run brcheck <<<'{"brast": 1, "stage": "parsed", "files": ["x.br"], "decls": [{"k": "func", "at": [0, 1, 1], "name": "f", "kernel": true, "type": {"t": "int"}}, {"k": "decl", "vars": [{"k": "var", "name": "v", "type": 7}]}, 5]}'
	[ "$status" -eq 2 ]
	[[ "$output" == *'malformed AST'* ]]
}

@test "deep nesting gives a diagnostic, not a crash" {
	python3 -c 'print("kernel void k(float a<>, out float b<>) { b = " + "(" * 3000 + "a" + ")" * 3000 + "; }")' >"$BATS_TEST_TMPDIR/deep.br" ||
		skip "no python3"
	run brcheck "$BATS_TEST_TMPDIR/deep.br"
	[ "$status" -eq 1 ] || [ "$status" -eq 2 ]
	[[ "$output" == *"nested too deeply"* || "$output" == *"too deep"* || "$output" == *"nest"* ]]
}

@test "--help and --version" {
	run brcheck --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--diagnostics=gcc|brcc|json|sarif"* ]]
	run brcheck --version
	[ "$status" -eq 0 ]
	[[ "$output" == "brcheck (brook) "* ]]
}

@test "the programs of examples/, t/run and t/gen check without errors" {
	local f
	# warnings the seeds ask for (a kernel with no return type) may remain
	# a program written for weak typing says "brcheck -a" in its comments
	local opts
	for f in examples/*.br t/run/*.br t/gen/*.br; do
		[ -f "$f" ] || continue
		opts=
		grep -q 'brcheck -a' "$f" && opts=-a
		run brcheck $opts "$f"
		if [ "$status" -ne 0 ] || [[ "$output" == *"error:"* ]]; then
			echo "$f:"
			echo "$output"
			return 1
		fi
	done
}

@test "a source file that cannot be read is brcheck's E-io, status 2" {
	run brcheck "$BATS_TEST_TMPDIR/none.br"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot read $BATS_TEST_TMPDIR/none.br: No such file or directory [E-io]"* ]]
	run brcheck "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *": is a directory [E-io]"* ]]
}
