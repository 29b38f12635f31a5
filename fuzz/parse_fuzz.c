/* parse_fuzz.c - libFuzzer harness for brparse: the lexer, the grammar,
 * the AST builder, the JSON reader and writer and the printer.
 *
 * Any input must give an AST or diagnostics, never a crash; and an AST
 * printed back to C must parse to the same AST (brparse(1), the property
 * t/parse.bats checks on the test files). Input that starts with '{' goes
 * to the AST file reader and the printer instead. Build and run: see
 * fuzz/build.sh and brparse(1), FUZZING.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/astprint.h"
#include "brook/diag.h"
#include "brook/parse.h"
#include "brook/util.h"

static json_t *parse_quiet(const char *text, size_t len, diag_ctx *d)
{
	return parse_text(text, len, "fuzz.br", NULL, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_ctx d;
	diag_init(&d, "parse_fuzz");
	d.out = fopen("/dev/null", "w");
	d.caret = 0;
	const char *text = (const char *)data;
	if (size > 0 && data[0] == '{') {
		json_t *doc = brast_load(text, size, "fuzz.json", &d);
		if (doc) {
			strbuf b = {0};
			astprint_decls(&b, doc, NULL);
			sb_free(&b);
			free(brast_dump(doc));
			json_decref(doc);
		}
	} else {
		json_t *doc = parse_quiet(text, size, &d);
		if (doc) {
			char *json = brast_dump(doc);
			json_t *again = brast_load(json, strlen(json), "dump", &d);
			if (!again)
				__builtin_trap();	/* the writer wrote bad JSON */
			strbuf b = {0};
			astprint_decls(&b, doc, NULL);
			json_t *reparsed = parse_quiet(b.s ? b.s : "", b.len, &d);
			if (!reparsed)
				__builtin_trap();	/* printed C does not parse */
			json_t *x = brast_strip_locations(doc);
			json_t *y = brast_strip_locations(reparsed);
			json_object_del(x, "files");
			json_object_del(y, "files");
			if (!json_equal(x, y))
				__builtin_trap();	/* printing changed the AST */
			json_decref(x);
			json_decref(y);
			json_decref(reparsed);
			json_decref(again);
			sb_free(&b);
			free(json);
			json_decref(doc);
		}
	}
	diag_finish(&d);
	fclose(d.out);
	return 0;
}
