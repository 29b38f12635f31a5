/* pp.h - brpp, the C99 preprocessor for Brook+ sources (man/brpp.1).
 *
 * pp_run() preprocesses one file into C text with GCC-style linemarkers
 * (`# 12 "sum.br"`, `# 1 "inc.h" 1`, `# 13 "sum.br" 2`), so later stages
 * report the original file, line and column. `#include <...>` and `#pragma`
 * lines are passed through unexpanded, each on its own line after a
 * linemarker giving its location. */
#ifndef BROOK_PP_H
#define BROOK_PP_H

#include "brook/diag.h"
#include "brook/util.h"

typedef struct pp_options {
	const char **defines;	/* "NAME" or "NAME=VALUE", as -D takes them */
	int ndefines;
	const char **undefs;	/* names, as -U takes them; after the -D's */
	int nundefs;
	const char **incdirs;	/* -I folders, searched in order */
	int nincdirs;
	int no_linemarkers;	/* -P */
} pp_options;

/* Preprocesses PATH ("-" is standard input, named "<stdin>") and appends
 * the result to OUT. Returns 0 when all went well, 1 when the input has
 * errors (reported through D), 2 when PATH cannot be read (reported). */
int pp_run(const pp_options *o, const char *path, strbuf *out, diag_ctx *d);

#endif
