/* brparse - preprocessed Brook+ to the brast(5) AST file; see brparse(1). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/diag.h"
#include "brook/parse.h"
#include "brook/util.h"

static void usage(FILE *f)
{
	fputs("usage: brparse [OPTION]... [FILE|-]\n"
		"Parse preprocessed Brook+ (brpp's output) into the AST file.\n"
		"\n"
		"  -o FILE              write to FILE (atomically) instead of stdout\n"
		"  --typedef NAME       NAME is a typedef name from a system header\n"
		"  --print              print C back (input: source or AST file)\n"
		"  --pretty             indented JSON\n"
		"  --no-locations       leave out \"at\" and \"files\" (to compare ASTs)\n"
		"  --diagnostics=FMT    gcc (default), brcc, json or sarif\n"
		"  --help               show this help\n"
		"  --version            show the version\n", f);
}

/* An AST file starts with '{'; preprocessed C never does. */
static int is_ast(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		|| s[i] == '\r'))
		i++;
	return i < n && s[i] == '{';
}

/* -o's file, "-" for standard output */
static const char *outpath = "-";

static int brparse_main(int argc, char **argv)
{
	enum { OPT_TYPEDEF = 256, OPT_PRINT, OPT_PRETTY, OPT_NOLOC, OPT_DIAG,
		OPT_HELP, OPT_VERSION };
	static const struct option longopts[] = {
		{"typedef", required_argument, NULL, OPT_TYPEDEF},
		{"print", no_argument, NULL, OPT_PRINT},
		{"pretty", no_argument, NULL, OPT_PRETTY},
		{"no-locations", no_argument, NULL, OPT_NOLOC},
		{"diagnostics", required_argument, NULL, OPT_DIAG},
		{"help", no_argument, NULL, OPT_HELP},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	diag_ctx d;
	diag_init(&d, "brparse");
	const char *typedefs[argc > 0 ? argc : 1];
	parse_options po = { typedefs, 0 };
	int print = 0, pretty = 0, noloc = 0, c;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case OPT_TYPEDEF: typedefs[po.ntypedefs++] = optarg; break;
		case OPT_PRINT: print = 1; break;
		case OPT_PRETTY: pretty = 1; break;
		case OPT_NOLOC: noloc = 1; break;
		case OPT_DIAG:
			if (diag_set_format(&d, optarg) != 0) {
				fprintf(stderr, "brparse: unknown diagnostics format "
					"'%s' (gcc, brcc, json, sarif)\n", optarg);
				return 2;
			}
			break;
		case OPT_HELP: usage(stdout); return 0;
		case OPT_VERSION:
			printf("brparse (brook) %s\n", BROOK_VERSION_STRING);
			return 0;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "brparse: more than one input file\n");
		usage(stderr);
		return 2;
	}
	/* the AST's memory: one arena, freed at the end (ast.h) */
	ast_arena_begin();
	const char *in = optind < argc ? argv[optind] : "-";
	char err[512];
	if (strcmp(in, "-") != 0 && strcmp(outpath, "-") != 0 &&
	    util_same_file(in, outpath)) {
		fprintf(stderr, "brparse: %s: the output would overwrite the "
			"input\n", outpath);
		return 2;
	}
	if (util_check_writable(outpath, err, sizeof err) != 0) {
		fprintf(stderr, "brparse: %s\n", err);
		return 2;
	}
	char *text;
	size_t len;
	if (util_read_file(in, &text, &len, err, sizeof err) != 0) {
		fprintf(stderr, "brparse: %s\n", err);
		return 2;
	}
	const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
	if (!is_ast(text, len) && brast_failed_input(text, len, name, &d)) {
		free(text);
		diag_finish(&d);
		ast_arena_end();
		return 1;
	}
	if (!is_ast(text, len) && strcmp(outpath, "-") == 0 && !print &&
			!pretty && !noloc) {
		/* to standard output while it is parsed (brast(5), IN A
		   PIPE) */
		int status;
		/* the document is the arena's to free */
		(void)parse_send(text, len, name, &po, &d, 1, &status, err,
			sizeof err);
		free(text);
		if (status == 2)
			fprintf(stderr, "brparse: %s\n", err);
		diag_finish(&d);
		ast_arena_end();
		return status ? status : diag_status(&d);
	}
	json_t *doc = is_ast(text, len) ? brast_load(text, len, name, &d)
		: parse_text(text, len, name, &po, &d);
	free(text);
	int status = doc ? 0 : 1;
	if (doc && noloc && !print) {
		json_t *s = brast_strip_locations(doc);
		json_object_del(s, "files");
		json_decref(doc);
		doc = s;
	}
	if (doc && !print && !pretty) {
		/* to a pipe in pieces (brast(5), IN A PIPE) */
		if (brast_write(outpath, doc, 0, err, sizeof err) != 0) {
			fprintf(stderr, "brparse: %s\n", err);
			status = 2;
		}
	} else if (doc) {
		char *out;
		if (print) {
			strbuf b = {0};
			astprint_decls(&b, doc, NULL);
			out = sb_take(&b);
			if (!out)
				out = xstrdup("");
		} else {
			out = brast_dump_pretty(doc);
		}
		if (util_write_file(outpath, out, strlen(out), err, sizeof err)
			!= 0) {
			fprintf(stderr, "brparse: %s\n", err);
			status = 2;
		}
		free(out);
	}
	diag_finish(&d);
	ast_arena_end();
	return status ? status : diag_status(&d);
}

/* Failing, brparse ends what it wrote to standard output with the line
 * that tells the next tool it failed (brast(5), FAILED OUTPUT) */
int main(int argc, char **argv)
{
	int status = brparse_main(argc, argv);
	if (status != 0 && strcmp(outpath, "-") == 0)
		util_mark_failed(1);
	return status;
}
