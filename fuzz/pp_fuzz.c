/* pp_fuzz.c - libFuzzer harness for brpp: pp_run() on the input as the
 * text of a source file. The input is written to in.br in a folder of its
 * own, which is also the -I folder, so `#include "in.br"` reaches the
 * include limit. Any input must give output or diagnostics, never a
 * crash, a hang or a sanitizer report. Build and run: fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brook/diag.h"
#include "brook/pp.h"
#include "brook/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64], path[96];
	static const char *incdirs[1];
	static const char *defines[] = { "BRFUZZ=1", "F(x)=x+1" };
	static FILE *null;
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/pp_fuzz.XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof path, "%s/in.br", dir);
		incdirs[0] = dir;
		null = fopen("/dev/null", "w");
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);

	pp_options o = { 0 };
	o.defines = defines;
	o.ndefines = 2;
	o.incdirs = incdirs;
	o.nincdirs = 1;
	o.no_linemarkers = size > 0 && (data[0] & 1);
	diag_ctx d;
	diag_init(&d, "pp_fuzz");
	d.out = null;
	d.caret = 0;
	strbuf out = { 0 };
	int r = pp_run(&o, path, &out, &d);
	if (r != 0 && d.nerrors == 0)
		abort();	/* a failure is reported */
	sb_free(&out);
	diag_finish(&d);
	return 0;
}
