/* ast_fuzz.c - libFuzzer harness for the AST file reader, brcheck and
 * brgen: brast_load() on the input as an AST file, check_doc() on what it
 * accepts, gen_program() on a document without errors; the fast JSON
 * reader checked against json_loadb on every input. An AST of another
 * version or one edited to be inconsistent must be refused with a
 * message, never crash. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check.h"
#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/parse.h"
#include "brook/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* brast_load's own reader (ast_read_json) takes only text json_loadb
 * takes, and builds the same tree, members in the same order; what it
 * declines goes to json_loadb. */
static void same_as_jansson(const char *text, size_t size)
{
	json_t *fast = ast_read_json(text, size);
	if (!fast)
		return;
	json_error_t err;
	json_t *slow = json_loadb(text, size, 0, &err);
	if (!slow || !json_equal(fast, slow))
		abort();
	char *a = brast_dump(fast), *b = brast_dump(slow);
	if (strcmp(a, b) != 0)
		abort();
	free(a);
	free(b);
	json_decref(fast);
	json_decref(slow);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	diag_ctx d;
	diag_init(&d, "ast_fuzz");
	d.out = null;
	d.caret = 0;
	same_as_jansson((const char *)data, size);
	json_t *doc = brast_load((const char *)data, size, "fuzz.ast", &d);
	if (doc) {
		json_t *stage = json_object_get(doc, "stage");
		int checked = json_is_string(stage) &&
			strcmp(json_string_value(stage), "checked") == 0;
		int r = 0;
		/* brgen reads checked documents as they are; brcheck the rest */
		if (!checked) {
			check_options co = { 0 };
			r = check_doc(doc, &co, &d);
			if (r != 0 && d.nerrors == 0)
				abort();	/* a failure is reported */
		}
		if (r == 0) {
			gen_options go = { 0 };
			go.checked = 1;
			go.prefix = "fuzz";
			strbuf c = { 0 }, h = { 0 }, cl = { 0 };
			int g = gen_program(doc, &go, &c, &h, &cl, &d);
			if (g != 0 && d.nerrors == 0)
				abort();
			sb_free(&c);
			sb_free(&h);
			sb_free(&cl);
		}
		json_decref(doc);
	}
	diag_finish(&d);
	return 0;
}
