/* check_diag.c - how the checker reports: errors, warnings by level
 * (spec 9: -a, -wN) and malformed ASTs (E-ast). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- diagnostics -------------------------------------------------------- */

static void vreport(chk_ctx *c, diag_level lv, const json_t *n,
	const char *id, const char *fmt, va_list ap)
{
	const char *file = NULL;
	int line = 0, col = 0;
	if (!n || ast_at(c->doc, n, &file, &line, &col) != 0) {
		file = NULL;
		if (c->cur)
			ast_at(c->doc, c->cur, &file, &line, &col);
	}
	strbuf msg = {0};
	sb_vprintf(&msg, fmt, ap);
	diag_report(c->d, lv, file, line, col, id, "%s", msg.s);
	sb_free(&msg);
}

void chk_err(chk_ctx *c, const json_t *n, const char *id,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, DIAG_ERROR, n, id, fmt, ap);
	va_end(ap);
}

/* A warning of LEVEL (1..3), spec 9: "If strong type checking is enabled,
 * all warnings with a level greater than 1 become errors, and the -w and -x
 * flags are disabled." So without -a a warning of level 1 is printed as a
 * warning and one of level 2 or 3 is an error, its ID W-x becoming E-x;
 * with -a, -wN keeps the warnings of a level up to N (and -x, in main(),
 * makes them errors). */
void chk_warn(chk_ctx *c, int level, const json_t *n, const char *id,
	const char *fmt, ...)
{
	char eid[64];
	diag_level lv = DIAG_WARNING;
	if (c->o->a && level > c->o->wlevel)
		return;
	if (!c->o->a && level > 1) {
		snprintf(eid, sizeof eid, "E-%s", id + 2);
		id = eid;
		lv = DIAG_ERROR;
	}
	va_list ap;
	va_start(ap, fmt);
	vreport(c, lv, n, id, fmt, ap);
	va_end(ap);
}

/* The AST itself is wrong (edited by hand, or another tool's bug). */
void chk_bad(chk_ctx *c, const json_t *n, const char *fmt, ...)
{
	va_list ap;
	c->malformed = 1;
	va_start(ap, fmt);
	strbuf msg = {0};
	sb_puts(&msg, "malformed AST: ");
	sb_vprintf(&msg, fmt, ap);
	va_end(ap);
	const char *file = NULL;
	int line = 0, col = 0;
	if (!n || ast_at(c->doc, n, &file, &line, &col) != 0)
		file = NULL;
	diag_report(c->d, DIAG_ERROR, file, line, col, "E-ast", "%s", msg.s);
	sb_free(&msg);
}
