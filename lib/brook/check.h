/* check.h - brcheck's semantic checker: the rules of the specification's
 * sections 4 and 6, and the annotations of ast.h's WHAT BRCHECK ADDS.
 * man/brcheck.1 lists every diagnostic it reports. */
#ifndef BROOK_CHECK_H
#define BROOK_CHECK_H

#include "brook/json.h"

#include "brook/diag.h"

typedef struct check_options {
	int a;		/* -a: no strong type checking (spec 9) */
	int c;		/* -c, -C: no constant buffers (spec 6.3.7) */
	int portable;	/* --portable: report brcc's 2008 limits as warnings */
	int wlevel;	/* -wN with -a: warnings of level <= N; 1 by default */
} check_options;

/* Checks DOC (a brast document) and annotates it in place: "id", "ref",
 * "ty", "swizzle", "callee", "class", "role", "reduce_op"; the document's
 * "options" and "subs"; sets "stage" to "checked". Diagnostics go to D.
 * Returns 0 when the program has no errors, 1 when it has, 2 when DOC is
 * not a well-formed AST (reported through D; DOC may be left partly
 * annotated). */
int check_doc(json_t *doc, const check_options *o, diag_ctx *d);

/* check_doc, calling EACH (when not NULL) with ARG and each element of
 * "decls" once it is checked: annotated as it stays, and with the
 * document's members before "decls" as they stay. Only the members after
 * "decls" change after (brcheck sends the document on as it is checked). */
typedef void check_each_fn(void *arg, const json_t *decl);
int check_doc_each(json_t *doc, const check_options *o, diag_ctx *d,
	check_each_fn *each, void *arg);

#endif
