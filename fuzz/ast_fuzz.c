/* ast_fuzz.c - libFuzzer harness for the AST file reader, brcheck and
 * brgen: brast_load() on the input as an AST file, check_doc() on what it
 * accepts, gen_program() on a document without errors; the fast JSON
 * reader checked against json_loadb on every input. An AST of another
 * version or one edited to be inconsistent must be refused with a
 * message, never crash. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "driver.h"
#include "brook/ast.h"
#include "brook/parse.h"

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
	diag_ctx d;
	fuzz_diag_init(&d, "ast_fuzz");
	same_as_jansson((const char *)data, size);
	json_t *doc = brast_load((const char *)data, size, "fuzz.ast", &d);
	if (doc) {
		json_t *stage = json_object_get(doc, "stage");
		int checked = json_is_string(stage) &&
			strcmp(json_string_value(stage), "checked") == 0;
		/* brgen reads checked documents as they are; brcheck the rest */
		check_options co = { 0 };
		gen_options go = { 0 };
		go.checked = 1;
		go.prefix = "fuzz";
		fuzz_check_gen(doc, checked ? NULL : &co, &go, &d);
		json_decref(doc);
	}
	diag_finish(&d);
	return 0;
}
