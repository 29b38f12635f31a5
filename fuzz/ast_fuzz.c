/* ast_fuzz.c - libFuzzer harness for the AST file reader, brcheck and
 * brgen: brast_load() on the input as an AST file, check_doc() on what it
 * accepts, gen_program() on a document without errors; the fast JSON
 * reader checked against json_loadb on every input, and the reader of a
 * pipe (ast_read_fd) against it. An AST of another
 * version or one edited to be inconsistent must be refused with a
 * message, never crash. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "brook/ast.h"
#include "brook/parse.h"
#include "brook/util.h"

/* Stops the run unless A and B are both NULL, or the same tree with its
 * members in the same order (the same text written). */
static void same_tree(json_t *a, json_t *b)
{
	if (!a != !b || (a && !json_equal(a, b)))
		abort();
	if (!a)
		return;
	char *ta = brast_dump(a), *tb = brast_dump(b);
	if (strcmp(ta, tb) != 0)
		abort();
	free(ta);
	free(tb);
}

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
	same_tree(fast, slow);
	json_decref(fast);
	json_decref(slow);
}

/* The code gen_program writes for a checked document WHOLE, made anew
 * from the text (the generator changes the tree), and the code
 * gen_program_prepared writes for DOC with the index PREP made while it
 * was read, as brgen does: the same, or the same failure. */
static void same_prepared(const char *text, size_t size, json_t *doc,
	gen_prep *prep)
{
	json_t *whole = ast_read_json(text, size);
	if (!whole || !doc || strcmp(ast_str(whole, "stage"), "checked") != 0)
	{
		json_decref(whole);
		return;
	}
	diag_ctx d1, d2;
	fuzz_diag_init(&d1, "ast_fuzz");
	fuzz_diag_init(&d2, "ast_fuzz");
	gen_options go = { 0 };
	go.checked = 1;
	go.prefix = "fuzz";
	strbuf c1 = { 0 }, h1 = { 0 }, cl1 = { 0 };
	strbuf c2 = { 0 }, h2 = { 0 }, cl2 = { 0 };
	int r1 = gen_program(whole, &go, &c1, &h1, &cl1, &d1);
	int r2 = gen_program_prepared(doc, prep, &go, &c2, &h2, &cl2, &d2);
	if (r1 != r2 || d1.nerrors != d2.nerrors || c1.len != c2.len ||
			h1.len != h2.len || cl1.len != cl2.len ||
			(c1.len && memcmp(c1.s, c2.s, c1.len)) ||
			(h1.len && memcmp(h1.s, h2.s, h1.len)) ||
			(cl1.len && memcmp(cl1.s, cl2.s, cl1.len)))
		abort();
	sb_free(&c1);
	sb_free(&h1);
	sb_free(&cl1);
	sb_free(&c2);
	sb_free(&h2);
	sb_free(&cl2);
	diag_finish(&d1);
	diag_finish(&d2);
	json_decref(whole);
}

/* ast_read_fd, reading the text as it arrives, builds the tree
 * ast_read_json builds of the whole, or none where it builds none,
 * wherever the reads cut the text: here a few bytes at a time, through a
 * pipe (an input that fits in one). brgen's index made meanwhile
 * (gen_prep) gives the code of the index made after. */
static void same_when_streamed(const char *text, size_t size)
{
	static const size_t limits[] = { 1, 7, 64 };
	int fd[2];

	if (size > 32768)
		return;
	json_t *whole = ast_read_json(text, size);
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		if (pipe(fd) != 0)
			abort();
		if (write(fd[1], text, size) != (ssize_t)size)
			abort();
		close(fd[1]);
		strbuf got = {0};
		json_t *doc;
		gen_prep *prep = gen_prep_new();
		ast_read_fd_limit(limits[i]);
		if (ast_read_fd_each(fd[0], &got, &doc, gen_prep_decl, prep)
				!= 0)
			abort();
		ast_read_fd_limit(0);
		close(fd[0]);
		if (got.len != size || (size && memcmp(got.s, text, size)))
			abort();
		same_tree(doc, whole);
		if (i == 0)
			same_prepared(text, size, doc, prep);
		gen_prep_free(prep);
		json_decref(doc);
		sb_free(&got);
	}
	json_decref(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_ctx d;
	fuzz_diag_init(&d, "ast_fuzz");
	same_as_jansson((const char *)data, size);
	same_when_streamed((const char *)data, size);
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
