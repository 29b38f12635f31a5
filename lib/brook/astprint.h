/* astprint.h - C text from a brast(5) document: host code for brgen, and
 * brparse --print. Brook constructs print in Brook syntax unless a hook
 * prints them otherwise. */
#ifndef BROOK_ASTPRINT_H
#define BROOK_ASTPRINT_H

#include "brook/json.h"

#include "brook/util.h"

/* Hooks let a caller print some nodes itself (brgen turns stream
 * declarations, kernel calls and stream methods into libbrt calls). Each
 * returns 1 when it printed the node, 0 to let the printer do it. A hook
 * may call back into the astprint_ functions for the node's parts. Any of
 * them may be NULL. An expression hook's output is put in parentheses
 * where the context binds tighter than assignment. */
typedef struct astprint_hooks {
	void *ctx;
	int (*expr)(void *ctx, strbuf *out, const json_t *e);
	int (*stmt)(void *ctx, strbuf *out, const json_t *s, int indent);
	int (*decl)(void *ctx, strbuf *out, const json_t *d, int indent);
} astprint_hooks;

/* The whole translation unit: every node of doc's "decls". h may be NULL. */
void astprint_decls(strbuf *out, const json_t *doc, const astprint_hooks *h);

/* One declaration, function or directive of "decls" or of a block, at
 * INDENT tabs, ending with a newline. */
void astprint_decl(strbuf *out, const json_t *d, const astprint_hooks *h,
	int indent);

/* A statement at INDENT tabs, ending with a newline. */
void astprint_stmt(strbuf *out, const json_t *s, const astprint_hooks *h,
	int indent);

/* An expression (no newline), or an initializer list. */
void astprint_expr(strbuf *out, const json_t *e, const astprint_hooks *h);

/* A type as C writes it around a declarator: ("int (*)[3]", "p") gives
 * "int (*p)[3]"; declarator_name may be NULL or "" for an abstract type. */
void astprint_type(strbuf *out, const json_t *type, const char *declarator_name);

#endif
