/* brcheck - the Brook+ semantic checker (man/brcheck.1).
 *
 * brcheck [options] [FILE.ast|FILE.br|- ...]
 * With no file, reads an AST on standard input and writes the checked AST
 * on standard output. With source files, runs brpp and brparse in-process
 * and only reports diagnostics (a linter), unless -o asks for the AST. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brook/ast.h"
#include "brook/check.h"
#include "brook/diag.h"
#include "brook/parse.h"
#include "brook/pp.h"
#include "brook/util.h"

typedef struct brcheck_args {
	check_options co;
	pp_options po;
	const char *out;
	int lint;
	int werror;
	const char **files;
	int nfiles;
} brcheck_args;

static void usage(FILE *f)
{
	fputs("usage: brcheck [options] [FILE.ast|FILE.br|- ...]\n"
		"Checks Brook+ programs against the language's semantic rules.\n"
		"With no FILE (or -), reads an AST (brparse's output) on standard\n"
		"input and writes the checked AST on standard output. Source files\n"
		"(.br) are preprocessed and parsed in-process and only linted.\n"
		"\n"
		"  -a              disable strong type checking (conversions warn)\n"
		"  -c, -C          disable constant buffers (legacy gather arrays)\n"
		"  -wN             warning level 0..3 (with -a; default 1)\n"
		"  -x, -Werror     warnings are errors (with -a)\n"
		"  --portable      report the limits of 2008 hardware as warnings\n"
		"  --lint          print diagnostics only, never the AST\n"
		"  -o FILE         write the checked AST to FILE\n"
		"  -D NAME[=VAL]   define a macro for .br files\n"
		"  -U NAME         undefine a macro for .br files\n"
		"  -I DIR          add DIR to the include path for .br files\n"
		"  --diagnostics=gcc|brcc|json|sarif   diagnostics format\n"
		"  --help          print this help\n"
		"  --version       print the version\n", f);
}

/* The value of an option given as "-Dx" or "-D x"; NULL if missing. */
static const char *opt_value(int argc, char **argv, int *i, size_t len)
{
	if (argv[*i][len])
		return argv[*i] + len;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static void push(const char ***v, int *n, const char *s)
{
	*v = xrealloc((void *)*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

/* Returns 0, or 2 after a usage message; -1 when the run is over
 * (--help, --version). */
static int parse_args(int argc, char **argv, brcheck_args *a, diag_ctx *d)
{
	int only_files = 0;
	a->co.wlevel = 1;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *v;
		if (only_files || s[0] != '-' || strcmp(s, "-") == 0) {
			push(&a->files, &a->nfiles, s);
		} else if (strcmp(s, "--") == 0) {
			only_files = 1;
		} else if (strcmp(s, "--help") == 0) {
			usage(stdout);
			return -1;
		} else if (strcmp(s, "--version") == 0) {
			printf("brcheck (brook) %s\n", BROOK_VERSION_STRING);
			return -1;
		} else if (strcmp(s, "-a") == 0) {
			a->co.a = 1;
		} else if (strcmp(s, "-c") == 0 || strcmp(s, "-C") == 0) {
			a->co.c = 1;
		} else if (strcmp(s, "-x") == 0 || strcmp(s, "-Werror") == 0) {
			a->werror = 1;
		} else if (strcmp(s, "--portable") == 0) {
			a->co.portable = 1;
		} else if (strcmp(s, "--lint") == 0) {
			a->lint = 1;
		} else if (strncmp(s, "--diagnostics=", 14) == 0) {
			if (diag_set_format(d, s + 14) != 0) {
				fprintf(stderr, "brcheck: unknown diagnostics format "
					"\"%s\" (gcc, brcc, json or sarif)\n", s + 14);
				return 2;
			}
		} else if (strncmp(s, "-w", 2) == 0) {
			v = opt_value(argc, argv, &i, 2);
			if (!v || strlen(v) != 1 || v[0] < '0' || v[0] > '3') {
				fprintf(stderr, "brcheck: -w takes a level 0, 1, 2 or "
					"3\n");
				return 2;
			}
			a->co.wlevel = v[0] - '0';
		} else if (strncmp(s, "-o", 2) == 0) {
			if (!(a->out = opt_value(argc, argv, &i, 2))) {
				fprintf(stderr, "brcheck: -o needs a file name\n");
				return 2;
			}
		} else if (s[1] == 'D' || s[1] == 'U' || s[1] == 'I') {
			if (!(v = opt_value(argc, argv, &i, 2))) {
				fprintf(stderr, "brcheck: -%c needs an argument\n", s[1]);
				return 2;
			}
			if (s[1] == 'D')
				push(&a->po.defines, &a->po.ndefines, v);
			else if (s[1] == 'U')
				push(&a->po.undefs, &a->po.nundefs, v);
			else
				push(&a->po.incdirs, &a->po.nincdirs, v);
		} else {
			fprintf(stderr, "brcheck: unknown option \"%s\"\n", s);
			usage(stderr);
			return 2;
		}
	}
	if (a->nfiles == 0)
		push(&a->files, &a->nfiles, "-");
	if (a->out && a->nfiles > 1) {
		fprintf(stderr, "brcheck: -o takes one input file\n");
		return 2;
	}
	/* spec 9: with strong type checking -w and -x have no effect */
	d->werror = a->werror && a->co.a;
	return 0;
}

static int is_ast_name(const char *path)
{
	size_t n = strlen(path);
	if (strcmp(path, "-") == 0)
		return 1;
	return (n > 4 && strcmp(path + n - 4, ".ast") == 0) ||
		(n > 5 && strcmp(path + n - 5, ".json") == 0);
}

/* The document of one input, or NULL (*status set: 1 input errors, 2 I/O
 * or unreadable AST). */
static json_t *load(const brcheck_args *a, const char *path, diag_ctx *d,
	int *status)
{
	char errbuf[512];
	if (is_ast_name(path)) {
		strbuf data = {0};
		json_t *doc;
		if (brast_read(path, &data, &doc, d, errbuf, sizeof errbuf)
				!= 0) {
			diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "%s", errbuf);
			sb_free(&data);
			*status = 2;
			return NULL;
		}
		/* 1 for the output of a tool that failed, as for errors */
		if (!doc)
			*status = util_failed_text(data.s, data.len) ? 1 : 2;
		sb_free(&data);
		return doc;
	}
	strbuf text = {0};
	char err[512];
	int fd = strcmp(path, "-") ? util_open_read(path, err, sizeof err) : 0;
	if (fd < 0) {	/* brcheck's ID for it, not the preprocessor's */
		diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "cannot read %s",
			err);
		*status = 2;
		return NULL;
	}
	if (fd > 0)
		close(fd);
	int r = pp_run(&a->po, path, &text, d);
	if (r != 0) {
		sb_free(&text);
		*status = r;
		return NULL;
	}
	json_t *doc = parse_text(text.s ? text.s : "", text.len, path, NULL, d);
	sb_free(&text);
	if (!doc)
		*status = 1;
	return doc;
}

/* Sending the checked AST to standard output while it is checked. */
typedef struct sending {
	json_t *doc;
	const diag_ctx *d;
	int errors;		/* d's errors before the check */
	int stopped;		/* an error came: nothing more is sent */
	brast_sender *out;
} sending;

static void send_decl(void *arg, const json_t *decl)
{
	sending *s = arg;

	if (s->stopped)
		return;
	if (s->d->nerrors > s->errors) {
		brast_send_drop(s->out);
		s->out = NULL;
		s->stopped = 1;
		return;
	}
	if (!s->out)
		s->out = brast_send_begin(s->doc);
	brast_send_decl(s->out, decl);
}

/* check_doc, the document going to standard output as each declaration
 * is checked (brast(5), IN A PIPE). After an error nothing more is sent:
 * what was stays a part, which main() ends as failed output. */
static int check_send(json_t *doc, const check_options *co, diag_ctx *d,
	char *errbuf, size_t errlen)
{
	sending s = { doc, d, d->nerrors, 0, NULL };
	int st = check_doc_each(doc, co, d, send_decl, &s);

	if (st != 0) {
		brast_send_drop(s.out);
		return st;
	}
	if (!s.out)
		s.out = brast_send_begin(doc);
	if (brast_send_end(s.out, doc, errbuf, errlen) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "%s", errbuf);
		return 2;
	}
	return 0;
}

static int run(const brcheck_args *a, diag_ctx *d)
{
	int status = 0;
	int emit = !a->lint && (a->out || (a->nfiles == 1 &&
		is_ast_name(a->files[0])));
	char errbuf[512];
	if (emit && a->out &&
		util_check_writable(a->out, errbuf, sizeof errbuf) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "%s", errbuf);
		return 2;
	}
	for (int i = 0; emit && a->out && i < a->nfiles; i++)
		if (strcmp(a->files[i], "-") != 0 &&
		    util_same_file(a->files[i], a->out)) {
			diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "%s: the "
				"output would overwrite the input", a->out);
			return 2;
		}
	for (int i = 0; i < a->nfiles; i++) {
		int st = 0;
		json_t *doc = load(a, a->files[i], d, &st);
		/* a terminal gets the whole or nothing, as a file does */
		if (doc && emit && (!a->out || strcmp(a->out, "-") == 0) &&
				!isatty(1)) {
			st = check_send(doc, &a->co, d, errbuf, sizeof errbuf);
			doc = NULL;
		} else if (doc) {
			st = check_doc(doc, &a->co, d);
		}
		if (doc && emit && st == 0) {
			/* brast(5), sealed */
			if (brast_write(a->out ? a->out : "-", doc, 1, errbuf,
				sizeof errbuf) != 0) {
				diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-io", "%s", errbuf);
				st = 2;
			}
		}
		/* no json_decref(doc): the arena (ast.h) holds the document
		 * until exit, and freeing it would walk every value of it to
		 * free nothing */
		if (st > status)
			status = st;
	}
	return status;
}

int main(int argc, char **argv)
{
	brcheck_args a;
	diag_ctx d;
	memset(&a, 0, sizeof a);
	diag_init(&d, "brcheck");
	int status = parse_args(argc, argv, &a, &d);
	ast_arena_begin();	/* the ASTs' memory (ast.h) */
	if (status == 0) {
		status = run(&a, &d);
		if (status < 2 && diag_status(&d) > status)
			status = diag_status(&d);
	}
	diag_finish(&d);
	/* failing where it writes (or was to write) the AST to standard
	   output, it ends that with the line that tells brgen it failed
	   (brast(5), FAILED OUTPUT) */
	if (status > 0 && !a.lint && (!a.out || strcmp(a.out, "-") == 0) &&
	    (a.nfiles == 0 || (a.nfiles == 1 && is_ast_name(a.files[0]))))
		util_mark_failed(1);
	ast_arena_end();
	free((void *)a.files);
	free((void *)a.po.defines);
	free((void *)a.po.undefs);
	free((void *)a.po.incdirs);
	return status < 0 ? 0 : status;
}
