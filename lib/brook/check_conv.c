/* check_conv.c - implicit conversions in kernel code (spec 6.3.3):
 * strong type checking by default, warnings by level with -a (spec 9). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- conversions (spec 6.3.3) ------------------------------------------- */

/* spec 7.1: "Mismatched type for argument n". */
void chk_arg_type_err(chk_ctx *c, json_t *a, int n, const json_t *at,
	const json_t *pt)
{
	char *an = TN(at), *pn = TN(pt);
	chk_err(c, a, "E-argument-type", "Mismatched type for argument %d: actual "
		"type is \"%s\" but expected type is \"%s\"", n, an, pn);
	free(an);
	free(pn);
}


/* What a conversion of arithmetic types does, for the messages of spec 7.2. */
typedef struct conv_info {
	int loss, unused, uninit;
} conv_info;

static conv_info conv_what(const json_t *from, const json_t *to)
{
	conv_info ci = {0, 0, 0};
	const char *fs = ty_scalar(from), *ts = ty_scalar(to);
	int fn = ty_ncomp(from), tn = ty_ncomp(to);
	ci.loss = strcmp(fs, ts) != 0 && !ty_promotes(fs, ts);
	ci.unused = fn > tn;
	ci.uninit = fn > 1 && fn < tn;
	return ci;
}

static int conv_level(conv_info ci)
{
	return ci.loss || ci.unused ? 1 : ci.uninit ? 2 : 3;
}

/* ": unused right operand components and possible loss of data" */
static void conv_parts(strbuf *b, conv_info ci, const char *side)
{
	const char *sep = ": ";
	if (ci.unused) {
		if (side)
			sb_printf(b, "%sunused %s operand components", sep, side);
		else
			sb_printf(b, "%sloss of components", sep);
		sep = " and ";
	}
	if (ci.uninit) {
		if (side)
			sb_printf(b, "%suninitialized %s operand components", sep,
				side);
		else
			sb_printf(b, "%suninitialized components", sep);
		sep = " and ";
	}
	if (ci.loss)
		sb_printf(b, "%spossible loss of data", sep);
}

/* The implicit conversion of E, of type FROM, to TO in kernel code. Strong
 * typing (the default) allows none but the promotion of a literal; with -a
 * each conversion warns at the level of what it loses. */
void chk_convert(chk_ctx *c, json_t *at, json_t *e, json_t *from,
	json_t *to, conv_site site, int n)
{
	/* a call of a void function (a kernel) is no value, in host code
	   too, where C would refuse it */
	if (ty_is_void(from) && !ty_is_void(to) && !ty_is_unknown(to)) {
		chk_err(c, at, "E-void-value", "a void value (of a call that "
			"returns nothing) is not a value");
		return;
	}
	/* the same canonical type (most conversions) asks nothing more */
	if (!c->kern || from == to || ty_is_unknown(from) ||
		ty_is_unknown(to) || ty_equal(from, to))
		return;
	int arith = ty_is_arith(from) && ty_is_arith(to);
	if (arith) {
		const char *fs = ty_scalar(from), *ts = ty_scalar(to);
		int fn = ty_ncomp(from), tn = ty_ncomp(to);
		/* a literal number (ast_is_literal) promotes silently
		   (spec 6.3.3 table) where strong typing asks for the same
		   type, so `a > 10.0` and `i0 > 0` check; `short s = 5`
		   does not (guide 1.11: narrowing needs a cast) */
		if (fn == 1 && tn == 1 && ast_is_literal(e) &&
				ty_promotes(fs, ts))
			return;
		if (fn == tn && chk_is_instance(e) && ty_streq(fs, "int") &&
			ty_streq(ts, "uint"))
			return;
	}
	char *fname = TN(from), *tname = TN(to);
	if (!arith || !c->o->a) {
		switch (site) {
		case CONV_ASSIGN:
			chk_err(c, at, "E-type-mismatch",
				"Mismatched types: conversion from \"%s\" to \"%s\"",
				fname, tname);
			break;
		case CONV_ELEMENT:
			chk_err(c, at, "E-element-type",
				"Mismatched type for element %d: actual type is %s "
				"but expected type is %s", n, fname, tname);
			break;
		case CONV_ARG:
			chk_arg_type_err(c, at, n, from, to);
			break;
		case CONV_RETURN:
			chk_err(c, at, "E-return-type",
				"Mismatched type: actual type is %s but expected "
				"type is %s", fname, tname);
			break;
		}
	} else {
		conv_info ci = conv_what(from, to);
		strbuf m = {0};
		switch (site) {
		case CONV_ASSIGN:
			sb_printf(&m, "implicit conversion from \"%s\" to \"%s\"",
				fname, tname);
			conv_parts(&m, ci, "right");
			break;
		case CONV_ELEMENT:
			if (ci.loss)
				sb_printf(&m, "possible loss of data for element "
					"%d: conversion from \"%s\" to \"%s\"", n, fname,
					tname);
			else
				sb_printf(&m, "implicit conversion for element %d "
					"from \"%s\" to \"%s\"", n, fname, tname);
			break;
		case CONV_ARG:
			sb_printf(&m, "Conversion from \"%s\" to \"%s\" for "
				"argument %d", fname, tname, n);
			conv_parts(&m, ci, NULL);
			break;
		case CONV_RETURN:
			sb_printf(&m, "Conversion from \"%s\" to \"%s\"", fname,
				tname);
			conv_parts(&m, ci, NULL);
			break;
		}
		chk_warn(c, conv_level(ci), at, "W-implicit-conversion", "%s", m.s);
		sb_free(&m);
	}
	free(fname);
	free(tname);
}

/* The type both operands of a binary operator are brought to
 * (ty_promoted). */
json_t *chk_promoted(json_t *l, json_t *r)
{
	return (json_t *)ty_promoted(l, r);
}

/* Brings the operands of a binary operator (or the arms of ?:) to one type
 * in kernel code; returns that type (borrowed). */
json_t *chk_unify(chk_ctx *c, json_t *at, json_t *le, json_t *l,
	json_t *re, json_t *r, int cond)
{
	if (ty_equal(l, r))
		return l;
	int ln = ty_ncomp(l), rn = ty_ncomp(r);
	const char *ls = ty_scalar(l), *rs = ty_scalar(r);
	if (ln == 1 && rn == 1) {
		/* one literal operand: either side may be promoted */
		if ((ast_is_literal(le) || ast_is_literal(re)) &&
			(ty_promotes(ls, rs) || ty_promotes(rs, ls)))
			return chk_promoted(l, r);
		if (ast_is_literal(le) && ast_is_literal(re))
			return chk_promoted(l, r);
	}
	json_t *p = chk_promoted(l, r);
	if (!c->o->a) {
		/* the types named; the result unknown, so that the expression
		 * around it says nothing more */
		char *lname = TN(l), *rname = TN(r);
		if (cond)
			chk_err(c, at, "E-cond-mismatch", "Mismatched types: True "
				"expression type and false expression type must have "
				"same types and same number of components (\"%s\" and "
				"\"%s\")", lname, rname);
		else
			chk_err(c, at, "E-operand-mismatch", "Mismatched operands: both "
				"must have same type and same number of components "
				"(\"%s\" and \"%s\")", lname, rname);
		free(lname);
		free(rname);
		return chk_T(c, "unknown");
	}
	json_t *from = p == l ? r : l, *to = p;
	conv_info ci = conv_what(from, to);
	char *fname = TN(from), *tname = TN(to);
	strbuf m = {0};
	sb_printf(&m, "implicit conversion from \"%s\" to \"%s\"", fname, tname);
	conv_parts(&m, ci, cond ? (p == l ? "false" : "true") :
		(p == l ? "right" : "left"));
	chk_warn(c, conv_level(ci), at, "W-implicit-conversion", "%s", m.s);
	sb_free(&m);
	free(fname);
	free(tname);
	return p;
}
