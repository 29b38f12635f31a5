/* driver.h - what the harnesses of brcheck and brgen share (check_fuzz.c,
 * ast_fuzz.c): a quiet diagnostic context and the run of check_doc() and
 * gen_program() on a document, as brcheck | brgen run. A failure must be
 * reported with a message (fuzz/README.md); one that is not aborts, so
 * that libFuzzer saves the input. Included once by each harness. */
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stdio.h>
#include <stdlib.h>

#include "brook/check.h"
#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A diagnostic context that writes to /dev/null, without carets. */
static void fuzz_diag_init(diag_ctx *d, const char *tool)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	diag_init(d, tool);
	d->out = null;
	d->caret = 0;
}

/* check_doc() on doc with the options co (none: doc is taken as checked,
 * as brgen takes a checked document), then gen_program() with go when
 * there is no error. */
static void fuzz_check_gen(json_t *doc, const check_options *co,
	const gen_options *go, diag_ctx *d)
{
	if (co && check_doc(doc, co, d) != 0) {
		if (d->nerrors == 0)
			abort();	/* a failure is reported */
		return;
	}
	strbuf c = { 0 }, h = { 0 }, cl = { 0 };
	if (gen_program(doc, go, &c, &h, &cl, d) != 0 && d->nerrors == 0)
		abort();
	sb_free(&c);
	sb_free(&h);
	sb_free(&cl);
}

#endif
