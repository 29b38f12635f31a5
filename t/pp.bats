#!/usr/bin/env bats
# t/pp.bats - brpp: golden files (t/pp/NAME.br + NAME.i), every message ID,
# the options, agreement with gcc -E, and bad input.
load helper

@test "brpp --version and --help" {
	run brpp --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^brpp\ \(brook\)\ [0-9] ]]
	run brpp --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"-D NAME"* ]]
}
