/* brgen - the code generator: a checked brast(5) AST to PREFIX.c and
 * PREFIX.h (and PREFIX.cl), or the OpenCL C alone. See brgen(1). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check.h"
#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/parse.h"
#include "brook/util.h"

static const char usage[] =
	"usage: brgen [options] [FILE.ast|-]\n"
	"Writes the host C, OpenCL C and CPU C of a checked Brook+ AST.\n"
	"\n"
	"  -o PREFIX          write PREFIX.c and PREFIX.h\n"
	"  -k                 also write PREFIX.cl (the OpenCL C)\n"
	"  --target=opencl    write only the OpenCL C, to standard output\n"
	"  -l                 #line directives to the .br file\n"
	"  --checked          report gathers, scatters and array indices outside\n"
	"                     their array, and scatter writes that race\n"
	"  --fp-contract=MODE off (default: one rounding per operation, as\n"
	"                     the CPU backend) or fast (OpenCL may fuse a*b+c)\n"
	"  --fast-math        --fp-contract=fast, and rsqrt is OpenCL's own\n"
	"  --diagnostics=FMT  gcc (default), brcc, json or sarif\n"
	"  -j N               threads: 2 prints the OpenCL C and the host C at\n"
	"                     once (the default with two processors), 1 not\n"
	"  --help             this text\n"
	"  --version          the version\n"
	"\n"
	"Exit status: 0 success, 1 the AST is not checked or has a construct\n"
	"brgen cannot translate, 2 usage or I/O error (also an unreadable AST).\n";

typedef struct opts {
	const char *prefix, *input;
	int keep_cl, opencl_only;
	gen_options gen;
} opts;

static int parse_args(int argc, char **argv, opts *o, diag_ctx *d)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			exit(0);
		} else if (strcmp(a, "--version") == 0) {
			printf("brgen (brook) %s\n", PACKAGE_VERSION);
			exit(0);
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			o->prefix = argv[++i];
		} else if (strncmp(a, "-o", 2) == 0 && a[2]) {
			o->prefix = a + 2;
		} else if (strcmp(a, "-k") == 0) {
			o->keep_cl = 1;
		} else if (strcmp(a, "-l") == 0) {
			o->gen.line_directives = 1;
		} else if (strncmp(a, "-j", 2) == 0) {
			const char *n = a[2] ? a + 2 : i + 1 < argc ?
				argv[++i] : "";
			if (strcmp(n, "1") != 0 && strcmp(n, "2") != 0) {
				fprintf(stderr, "brgen: error: -j takes 1 or 2, "
					"not '%s'\n", n);
				return -1;
			}
			o->gen.jobs = n[0] - '0';
		} else if (strcmp(a, "--checked") == 0) {
			o->gen.checked = 1;
		} else if (strcmp(a, "--fp-contract=off") == 0) {
			o->gen.fp_contract = 0;
		} else if (strcmp(a, "--fp-contract=fast") == 0) {
			o->gen.fp_contract = 1;
		} else if (strcmp(a, "--fast-math") == 0) {
			o->gen.fp_contract = 1;
			o->gen.fast_math = 1;
		} else if (strncmp(a, "--fp-contract=", 14) == 0) {
			fprintf(stderr, "brgen: error: unknown --fp-contract "
				"mode '%s' (off or fast)\n", a + 14);
			return -1;
		} else if (strcmp(a, "--target=opencl") == 0) {
			o->opencl_only = 1;
		} else if (strncmp(a, "--target=", 9) == 0) {
			fprintf(stderr, "brgen: error: unknown target '%s' "
				"(only opencl)\n", a + 9);
			return -1;
		} else if (strncmp(a, "--diagnostics=", 14) == 0) {
			if (diag_set_format(d, a + 14) != 0) {
				fprintf(stderr, "brgen: error: unknown "
					"diagnostics format '%s'\n", a + 14);
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "brgen: error: unknown option '%s'\n%s",
				a, usage);
			return -1;
		} else if (o->input) {
			fprintf(stderr, "brgen: error: more than one input\n");
			return -1;
		} else {
			o->input = a;
		}
	}
	if (!o->input)
		o->input = "-";
	if (!o->opencl_only && !o->prefix) {
		fprintf(stderr, "brgen: error: -o PREFIX is required (or "
			"--target=opencl)\n");
		return -1;
	}
	return 0;
}

/* A checked AST is checked again before any code is written: gen reads
 * its annotations ("ref", "ty", "role", ...) as they are, so one edited
 * after brcheck (a dangling "ref", a declaration of another kind, "items"
 * that are not an array) must be refused, not translated (issue 10).
 * Unless it is sealed: its text ends with the digest brcheck wrote of it
 * (brast(5)), so it is byte for byte what brcheck accepted. The
 * options are those recorded in the document; warnings were brcheck's to
 * report and are not repeated. Returns check_doc()'s status. */
static int recheck(json_t *doc, diag_ctx *d)
{
	const json_t *opt = json_object_get(doc, "options");
	check_options co;
	int nowarn = d->nowarn, st;

	memset(&co, 0, sizeof co);
	co.a = json_is_true(json_object_get(opt, "a"));
	co.c = json_is_true(json_object_get(opt, "c"));
	co.portable = json_is_true(json_object_get(opt, "portable"));
	co.wlevel = json_is_integer(json_object_get(opt, "wlevel")) ?
		(int)json_integer_value(json_object_get(opt, "wlevel")) : 1;
	d->nowarn = 1;
	st = check_doc(doc, &co, d);
	d->nowarn = nowarn;
	return st;
}

static int write_out(const char *path, const strbuf *b)
{
	char err[512];

	if (util_write_file(path, b->s ? b->s : "", b->len, err,
			sizeof err) != 0) {
		fprintf(stderr, "brgen: error: %s\n", err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	opts o;
	diag_ctx d;
	char err[512];
	char path[3][4096];
	json_t *doc;
	strbuf text = {0}, c = {0}, h = {0}, cl = {0};
	int status = 0, i, nout = 0, sealed;
	gen_prep *prep;

	memset(&o, 0, sizeof o);
	diag_init(&d, "brgen");
	if (parse_args(argc, argv, &o, &d) != 0)
		return 2;
	o.gen.prefix = o.prefix;
	if (!o.opencl_only) {
		/* every output checked before any work (atomic writes) */
		const char *ext[3] = {".c", ".h", ".cl"};
		nout = o.keep_cl ? 3 : 2;
		for (i = 0; i < nout; i++) {
			snprintf(path[i], sizeof path[i], "%s%s", o.prefix,
				ext[i]);
			if (strcmp(o.input, "-") != 0 &&
			    util_same_file(o.input, path[i])) {
				fprintf(stderr, "brgen: error: %s: the output would "
					"overwrite the input\n", path[i]);
				return 2;
			}
			if (util_check_writable(path[i], err, sizeof err) != 0) {
				fprintf(stderr, "brgen: error: %s\n", err);
				return 2;
			}
		}
	}
	ast_arena_begin();
	/* each declaration indexed as it arrives (gen.h) */
	prep = gen_prep_new();
	if (brast_read_each(o.input, &text, &doc, &d, err, sizeof err,
			gen_prep_decl, prep) != 0) {
		fprintf(stderr, "brgen: error: %s\n", err);
		sb_free(&text);
		gen_prep_free(prep);
		ast_arena_end();
		return 2;
	}
	sealed = brast_sealed(text.s, text.len);
	if (!doc) {
		/* 1 for the output of a tool that failed, as for errors */
		status = util_failed_text(text.s, text.len) ? 1 : 2;
		sb_free(&text);
		gen_prep_free(prep);
		diag_finish(&d);
		ast_arena_end();
		return status;
	}
	sb_free(&text);
	if (strcmp(ast_str(doc, "stage"), "checked") == 0 && !sealed) {
		/* checked again: its annotations are made anew */
		gen_prep_free(prep);
		prep = NULL;
		status = recheck(doc, &d);
	}
	if (!status && gen_program_prepared(doc, prep, &o.gen,
			o.opencl_only ? NULL : &c, o.opencl_only ? NULL : &h,
			&cl, &d) != 0)
		status = 1;
	gen_prep_free(prep);
	if (!status && o.opencl_only) {
		fwrite(cl.s ? cl.s : "", 1, cl.len, stdout);
		if (fflush(stdout) != 0)
			status = 2;
	} else if (!status) {
		strbuf *bufs[3] = {&c, &h, &cl};
		for (i = 0; i < nout && !status; i++)
			if (write_out(path[i], bufs[i]) != 0)
				status = 2;
	}
	diag_finish(&d);
	ast_arena_end();	/* the AST with it */
	sb_free(&c);
	sb_free(&h);
	sb_free(&cl);
	return status;
}
