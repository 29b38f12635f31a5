/* check_fuzz.c - libFuzzer harness for brcheck and brgen: parse_text()
 * and check_doc() on the input as preprocessed Brook+ text, then
 * gen_program() on a program without errors, as brparse | brcheck | brgen
 * run. Any input must give output or diagnostics, never a crash, a hang
 * or a sanitizer report. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "brook/check.h"
#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/parse.h"
#include "brook/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	diag_ctx d;
	diag_init(&d, "check_fuzz");
	d.out = null;
	d.caret = 0;
	json_t *doc = parse_text((const char *)data, size, "fuzz.br", NULL, &d);
	if (doc) {
		check_options co = { 0 };
		co.portable = size > 0 && (data[0] & 1);
		int r = check_doc(doc, &co, &d);
		if (r != 0 && d.nerrors == 0)
			abort();	/* a failure is reported */
		if (r == 0) {
			gen_options go = { 0 };
			go.checked = size > 0 && (data[0] & 2);
			go.line_directives = 1;
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
