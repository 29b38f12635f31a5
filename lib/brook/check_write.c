/* check_write.c - writes in kernel code (spec 4.2, 4.4, 6.3.4; guide
 * 1.17.6): read-only inputs, reduction operators, swizzle repeats and
 * the shared array index form. */
#include "config.h"

#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- writes (spec 4.2, 4.4, 6.3.4; guide 1.17.6) ------------------------ */

static int is_iig_x(json_t *e)
{
	e = chk_strip_paren(e);
	if (!ast_is(e, "member") || !ty_streq(ast_str(e, "name"), "x"))
		return 0;
	json_t *b = chk_strip_paren(ast_get(e, "e"));
	return ast_is(b, "call") &&
		ty_streq(ast_str(b, "builtin"), "instanceInGroup");
}

static int is_iig_x_node(const json_t *e, const void *unused)
{
	(void)unused;
	return is_iig_x((json_t *)e);
}

/* Whether E holds instanceInGroup().x anywhere. */
static int uses_iig_x(json_t *e)
{
	return ast_find(e, is_iig_x_node, NULL) != NULL;
}

/* guide 1.17.6: lds[Stride * instanceInGroup().x + offset] = data, with
 * Stride = SharedArraySize / GroupSize and 0 <= offset < Stride. */
static void shared_write(chk_ctx *c, chk_sym *s, json_t *target)
{
	if (!c->fn || !c->fn->groupsize || s->shared_size <= 0)
		return;
	long long want = s->shared_size / c->fn->groupsize, v;
	json_t *i = chk_strip_paren(ast_get(target, "i"));
	json_t *terms[2] = {i, NULL};
	int minus = 0;
	if (ast_is(i, "binop") && (ty_streq(ast_str(i, "op"), "+") ||
			ty_streq(ast_str(i, "op"), "-"))) {
		terms[0] = chk_strip_paren(ast_get(i, "l"));
		terms[1] = chk_strip_paren(ast_get(i, "r"));
		minus = ty_streq(ast_str(i, "op"), "-");
	}
	int k = -1;
	json_t *stride = NULL;
	for (int j = 0; j < 2 && terms[j]; j++) {
		json_t *t = terms[j];
		if (is_iig_x(t)) {
			k = j;
		} else if (ast_is(t, "binop") && ty_streq(ast_str(t, "op"), "*")) {
			if (is_iig_x(ast_get(t, "l")))
				k = j, stride = ast_get(t, "r");
			else if (is_iig_x(ast_get(t, "r")))
				k = j, stride = ast_get(t, "l");
			else if (k < 0)
				k = -2 - j;
		}
	}
	if (k < -1) {
		chk_err(c, target, "E-shared-mul", "one of the multiplication operand "
			"must be instanceInGroup().x");
		return;
	}
	if (k < 0 && !uses_iig_x(i)) {
		chk_err(c, target, "E-shared-thread", "Shared array index expression "
			"must contain instanceInGroup().x");
		return;
	}
	if (k < 0 || (minus && k == 1)) {	/* there, in another form */
		chk_err(c, target, "E-shared-offset", "offset of Shared array index "
			"expression must be a constant integer: write Stride * "
			"instanceInGroup().x + offset");
		return;
	}
	if (stride && !chk_int_literal(stride, &v))
		chk_err(c, target, "E-shared-stride", "stride must be a integer "
			"constant");
	else if ((stride ? v : 1) != want)
		chk_err(c, target, "E-shared-stride-value", "stride value must be "
			"equal to (SharedArraySize / groupSize) = %lld", want);
	json_t *off = terms[1] ? terms[1 - k] : NULL;
	if (!off)
		chk_err(c, target, "E-shared-offset", "offset of Shared array index "
			"expression must be a constant integer");
	else if (!chk_int_literal(off, &v))
		chk_err(c, target, "E-shared-offset", "offset must be a integer "
			"constant");
	else if ((v = minus ? -v : v) < 0 || v >= want)
		chk_err(c, target, "E-shared-offset-range", "offset value(\"%lld\") "
			"must be in the range of 0 <= offset < (SharedArraySize / "
			"groupSize) = %lld", v, want);
}

/* spec 6.3.4: no repeated component on the left. */
static void swizzle_repeat(chk_ctx *c, json_t *target)
{
	for (json_t *e = chk_strip_paren(target); ast_is(e, "member");
		e = chk_strip_paren(ast_get(e, "e"))) {
		json_t *sw = ast_get(e, "swizzle");
		int seen = 0;
		size_t i;
		json_t *v;
		json_array_foreach(sw, i, v) {
			int bit = 1 << (json_integer_value(v) & 3);
			if (seen & bit) {
				chk_err(c, e, "E-swizzle-repeat", "illegal to use components "
					"repetition in lvalue expression");
				return;
			}
			seen |= bit;
		}
	}
}

/* Kernel rules on the target of an assignment, ++/-- or out argument.
 * NODE: the assign node ("reduce_op" goes there), or NULL. */
void chk_write_check(chk_ctx *c, json_t *target, json_t *node,
	const char *op)
{
	if (!c->kern)
		return;
	if (!chk_is_lvalue(target)) {
		chk_err(c, target, "E-not-lvalue", "expression is not assignable");
		return;
	}
	swizzle_repeat(c, target);
	chk_sym *s = chk_root_sym(c, target);
	if (!s)
		return;
	switch (s->role) {
	case ROLE_IN:
		chk_err(c, target, "E-input-readonly",
			"Input streams are read only streams: \"%s\"", s->name);
		return;
	case ROLE_VALUE:
		chk_err(c, target, "E-value-readonly", "Non-stream/Non Array inputs "
			"are not allowed to modify inside kernel: \"%s\"", s->name);
		return;
	case ROLE_GATHER:
		chk_err(c, target, "E-gather-readonly",
			"Gather arrays are read only arrays: \"%s\"", s->name);
		return;
	case ROLE_REDUCE: {
		static const char *const ok[] = {"+=", "*=", "|=", "^=", "&=", NULL};
		int good = 0;
		if (node && ast_is(node, "assign"))
			json_object_set_new_nocheck(node, "reduce_op",
				json_string_nocheck(op));
		for (int i = 0; ok[i]; i++)
			good |= strcmp(ok[i], op) == 0;
		/* a reduce function may assign its result freely; a reduction
		 * variable of another kernel only through an associative
		 * operator (spec 4.1.2) */
		if (!good && c->fnode && !ast_bool(c->fnode, "reduce"))
			chk_err(c, target, "E-reduce-op", "reduction variable \"%s\" may "
				"only be updated with +=, *=, |=, ^= or &=", s->name);
		return;
	}
	default:
		break;
	}
	if (s->constq)
		chk_err(c, target, "E-const-lvalue", "lvalue is a constant type: \"%s\"",
			s->name);
	/* a field or components of an element too: s[i].x = ... */
	json_t *el = chk_strip_paren(target);
	while (ast_is(el, "member"))
		el = chk_strip_paren(ast_get(el, "e"));
	if (s->shared && ast_is(el, "index"))
		shared_write(c, s, el);
}
