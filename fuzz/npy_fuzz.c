/* npy_fuzz.c - libFuzzer harness for brrun's data readers: .npy files,
 * text files and [..] literals (run_data.h). How to build and run it:
 * brrun(1), FUZZING. The first byte chooses the reader; the rest is the
 * input. A reader must either accept the input or report one error, and
 * never crash, leak or read out of bounds. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_data.h"
#include "brook/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	diag_ctx d;
	diag_init(&d, "npy_fuzz");
	d.out = fopen("/dev/null", "w");
	if (!d.out)
		return 0;
	d.caret = 0;
	const char *body = (const char *)data + 1;
	size_t len = size - 1;
	run_array a;
	int r;
	switch (data[0] % 3) {
	case 0:
		r = run_npy_parse(body, len, "fuzz.npy", &a, &d);
		break;
	case 1:
		r = run_text_parse(body, len, "fuzz.txt", &a, &d);
		break;
	default: {
		char *s = xstrndup(body, len);	/* literals are C strings */
		r = run_literal_parse(s, "fuzz", &a, &d);
		free(s);
		break;
	}
	}
	if (r == 0) {
		/* what was read must print and round-trip through .npy */
		char *out;
		size_t olen;
		run_text_format(&a, 1, &out, &olen);
		free(out);
		run_npy_format(&a, &out, &olen);
		run_array b;
		if (run_npy_parse(out, olen, "again.npy", &b, &d) != 0 ||
			b.count != a.count || memcmp(a.data, b.data,
			a.count * run_scalar_size(a.scalar)) != 0)
			abort();
		run_array_free(&b);
		free(out);
		run_array_free(&a);
	} else if (d.nerrors != 1) {
		abort();	/* a failure reports exactly one error */
	}
	diag_finish(&d);
	fclose(d.out);
	return 0;
}
