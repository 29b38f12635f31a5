/* brpp - the Brook+ preprocessor (man/brpp.1): options, I/O, exit status.
 * The work is pp_run() in lib/brook/pp.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/diag.h"
#include "brook/pp.h"
#include "brook/util.h"

static const char usage[] =
	"usage: brpp [options] [FILE.br | -]\n"
	"Preprocesses FILE (standard input when none or -) to standard output.\n"
	"  -D NAME[=VALUE]  define NAME as VALUE (default 1); also -DNAME\n"
	"  -U NAME          undefine NAME (after every -D)\n"
	"  -I DIR           search DIR for #include \"...\" files\n"
	"  -o FILE          write to FILE (only when there is no error)\n"
	"  -P               no linemarkers in the output\n"
	"  -x, -Werror      warnings are errors\n"
	"  -w               no warnings\n"
	"  -pp              accepted and ignored (brcc's \"enable the preprocessor\")\n"
	"  --diagnostics=gcc|brcc|json|sarif   the format of messages\n"
	"  --help, --version\n";

/* A growable list of option values. */
typedef struct strlist {
	const char **v;
	int n;
} strlist;

static void list_add(strlist *l, const char *s)
{
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = s;
}

static int fail_usage(const char *fmt, const char *arg)
{
	fputs("brpp: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'brpp --help'.\n", stderr);
	return 2;
}

/* -o's file; NULL or "-" for standard output */
static const char *output;

static int brpp_main(int argc, char **argv)
{
	strlist defs = {0}, undefs = {0}, incs = {0};
	const char *input = NULL;
	pp_options o;
	diag_ctx d;
	memset(&o, 0, sizeof o);
	diag_init(&d, "brpp");

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		/* the options that take a value: -D, -U, -I, -o, joined or not */
		if (a[0] == '-' && strchr("DUIo", a[1]) && a[1]) {
			const char *val = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				return fail_usage("option %s needs a value", a);
			switch (a[1]) {
			case 'D': list_add(&defs, val); break;
			case 'U': list_add(&undefs, val); break;
			case 'I': list_add(&incs, val); break;
			default: output = val; break;
			}
		} else if (strcmp(a, "-P") == 0)
			o.no_linemarkers = 1;
		else if (strcmp(a, "-pp") == 0)
			;	/* guide 1.15.2.2: brcc needs it; brpp always runs */
		else if (strcmp(a, "-x") == 0 || strcmp(a, "-Werror") == 0)
			d.werror = 1;
		else if (strcmp(a, "-w") == 0)
			d.nowarn = 1;
		else if (strncmp(a, "--diagnostics=", 14) == 0) {
			if (diag_set_format(&d, a + 14) != 0)
				return fail_usage("unknown diagnostics format '%s'", a + 14);
		} else if (strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("brpp (brook) %s\n", PACKAGE_VERSION);
			return 0;
		} else if (a[0] == '-' && a[1] != '\0')
			return fail_usage("unknown option '%s'", a);
		else if (input)
			return fail_usage("more than one input file ('%s')", a);
		else
			input = a;
	}
	if (!input)
		input = "-";
	o.defines = defs.v;
	o.ndefines = defs.n;
	o.undefs = undefs.v;
	o.nundefs = undefs.n;
	o.incdirs = incs.v;
	o.nincdirs = incs.n;

	char err[512];
	if (output && strcmp(output, "-") != 0) {
		if (strcmp(input, "-") != 0 && util_same_file(input, output)) {
			fprintf(stderr, "brpp: %s: the output would overwrite the input\n",
				output);
			return 2;
		}
		if (util_check_writable(output, err, sizeof err) != 0) {
			fprintf(stderr, "brpp: %s\n", err);
			return 2;
		}
	}

	strbuf out = {0};
	sb_reserve(&out, 1);
	int status = pp_run(&o, input, &out, &d);
	diag_finish(&d);
	if (status != 2 && (status == 0 || !output || strcmp(output, "-") == 0) &&
	    util_write_file(output ? output : "-", out.s, out.len, err, sizeof err) != 0) {
		fprintf(stderr, "brpp: %s\n", err);
		status = 2;
	}
	sb_free(&out);
	free(defs.v);
	free(undefs.v);
	free(incs.v);
	return status;
}

/* Failing, brpp ends what it wrote to standard output with the line that
 * tells brparse it failed (brast(5), FAILED OUTPUT) */
int main(int argc, char **argv)
{
	int status = brpp_main(argc, argv);
	if (status != 0 && (!output || strcmp(output, "-") == 0))
		util_mark_failed(1);
	return status;
}
