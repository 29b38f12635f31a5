/* check_fuzz.c - libFuzzer harness for brcheck and brgen: parse_text()
 * and check_doc() on the input as preprocessed Brook+ text, then
 * gen_program() on a program without errors, as brparse | brcheck | brgen
 * run. Any input must give output or diagnostics, never a crash, a hang
 * or a sanitizer report. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>

#include "driver.h"
#include "brook/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_ctx d;
	fuzz_diag_init(&d, "check_fuzz");
	json_t *doc = parse_text((const char *)data, size, "fuzz.br", NULL, &d);
	if (doc) {
		check_options co = { 0 };
		co.portable = size > 0 && (data[0] & 1);
		gen_options go = { 0 };
		go.checked = size > 0 && (data[0] & 2);
		go.line_directives = 1;
		go.prefix = "fuzz";
		fuzz_check_gen(doc, &co, &go, &d);
		json_decref(doc);
	}
	diag_finish(&d);
	return 0;
}
