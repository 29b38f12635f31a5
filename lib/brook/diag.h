/* diag.h - diagnostics for every front-end tool, in the formats of
 * DESIGN.md: gcc (default), brcc (the seed's own style), json (one object a
 * line) and sarif (SARIF 2.1.0, written when the run ends). */
#ifndef BROOK_DIAG_H
#define BROOK_DIAG_H

#include <stdio.h>

typedef enum diag_level {
	DIAG_NOTE,
	DIAG_WARNING,
	DIAG_ERROR
} diag_level;

typedef enum diag_format {
	DIAG_FMT_GCC,
	DIAG_FMT_BRCC,
	DIAG_FMT_JSON,
	DIAG_FMT_SARIF
} diag_format;

typedef struct diag_ctx {
	const char *tool;	/* "brcheck", shown in SARIF and internal errors */
	diag_format fmt;
	FILE *out;		/* stderr unless changed */
	int caret;		/* print the source line and a caret */
	int werror;		/* warnings count as errors (-x, -Werror) */
	int nowarn;		/* drop warnings (-w0 and the like) */
	int nerrors, nwarnings;
	int limit;		/* stop counting after this many errors; 0: none */
	void *sarif;		/* json_t array of results, for DIAG_FMT_SARIF */
	const char *last_file;	/* source cache for the caret */
	char *src;
	size_t srclen;
} diag_ctx;

void diag_init(diag_ctx *d, const char *tool);
/* "gcc", "brcc", "json" or "sarif": 0, or -1 for an unknown name. */
int diag_set_format(diag_ctx *d, const char *name);

/* Reports one diagnostic. FILE may be NULL (no location); LINE and COL are
 * 1-based, 0 when unknown. ID is the stable identifier ("E-kernel-goto"),
 * or NULL. A warning with werror set is reported as an error. */
void diag_report(diag_ctx *d, diag_level level, const char *file, int line,
	int col, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Writes what a format keeps until the end (SARIF) and frees state. */
void diag_finish(diag_ctx *d);

/* The exit status of a tool after its run: 1 if any error, else 0. */
int diag_status(const diag_ctx *d);

#endif
