/* check_write.c - writes in kernel code (spec 4.2, 4.4, 6.3.4; guide
 * 1.17.6): read-only inputs, reduction operators, swizzle repeats and
 * the shared array index form; reads of shared arrays out of them. */
#include "config.h"

#include <limits.h>
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

/* The terms of I, a shared array's index, in the form of guide 1.17.6:
 * Stride * instanceInGroup().x + offset, the terms in either order, the
 * factors too, Stride missing for 1 and the offset for 0, or - offset.
 * Returns the place (0, 1) of the term holding instanceInGroup().x, with
 * its factor in *STRIDE (or NULL) and the other term in *OFF (or NULL);
 * -1 when no term is instanceInGroup().x or a multiple of it; below -1
 * when a term is a product and neither factor is instanceInGroup().x. */
static int shared_terms(json_t *i, json_t **stride, json_t **off,
	int *minus)
{
	json_t *terms[2] = {chk_strip_paren(i), NULL};
	int k = -1;

	*minus = 0;
	*stride = *off = NULL;
	if (ast_is(terms[0], "binop") && (ty_streq(ast_str(terms[0], "op"),
			"+") || ty_streq(ast_str(terms[0], "op"), "-"))) {
		*minus = ty_streq(ast_str(terms[0], "op"), "-");
		terms[1] = chk_strip_paren(ast_get(terms[0], "r"));
		terms[0] = chk_strip_paren(ast_get(terms[0], "l"));
	}
	for (int j = 0; j < 2 && terms[j]; j++) {
		json_t *t = terms[j];
		if (is_iig_x(t)) {
			k = j;
		} else if (ast_is(t, "binop") && ty_streq(ast_str(t, "op"), "*")) {
			if (is_iig_x(ast_get(t, "l")))
				k = j, *stride = ast_get(t, "r");
			else if (is_iig_x(ast_get(t, "r")))
				k = j, *stride = ast_get(t, "l");
			else if (k < 0)
				k = -2 - j;
		}
	}
	if (k >= 0 && terms[1])
		*off = terms[1 - k];
	return k;
}

/* guide 1.17.6: lds[Stride * instanceInGroup().x + offset] = data, with
 * Stride = SharedArraySize / GroupSize and 0 <= offset < Stride. */
static void shared_write(chk_ctx *c, chk_sym *s, json_t *target)
{
	if (!c->fn || !c->fn->groupsize || s->shared_size <= 0)
		return;
	long long want = s->shared_size / c->fn->groupsize, v;
	json_t *i = ast_get(target, "i"), *stride, *off;
	int minus;
	int k = shared_terms(i, &stride, &off, &minus);
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
	if (!off)
		chk_err(c, target, "E-shared-offset", "offset of Shared array index "
			"expression must be a constant integer: the guide's form "
			"has one even where it is 0, as in [%lld * "
			"instanceInGroup().x + 0]", want);
	else if (!chk_int_literal(off, &v))
		chk_err(c, target, "E-shared-offset", "offset must be a integer "
			"constant");
	else if ((v = minus ? -v : v) < 0 || v >= want)
		chk_err(c, target, "E-shared-offset-range", "offset value(\"%lld\") "
			"must be in the range of 0 <= offset < (SharedArraySize / "
			"groupSize) = %lld", v, want);
}

/* guide 1.17.5.1: a thread may read any element of the shared array, so
 * a read has no form of its own; one is out of the array when its index
 * is a constant outside it (folded: s[60 + 10]), or is in the write's
 * form with constant Stride and offset and outside it for every thread
 * of the group (instanceInGroup().x from 0 to GroupSize's first value
 * less 1). A read out for some threads only may stand where an if keeps
 * those threads from it (if (t < 32) s[t] += s[t + 32]): no error. */
void chk_shared_read(chk_ctx *c, chk_sym *s, json_t *e)
{
	json_t *i = ast_get(e, "i"), *stride, *off;
	long long n = s->shared_size, a = 1, b = 0, lo, hi;
	int minus;

	if (!c->fn || !c->fn->groupsize || n <= 0)
		return;
	if (chk_int_const(i, &lo)) {
		if (lo < 0 || lo >= n)
			chk_err(c, e, "E-shared-read-range", "shared array \"%s\" "
				"read out of range: index %lld, size %lld",
				s->name, lo, n);
		return;
	}
	int k = shared_terms(i, &stride, &off, &minus);
	if (k < 0 || (minus && k == 1) || (stride && !chk_int_const(stride,
			&a)) || (off && !chk_int_const(off, &b)) ||
			c->fn->group_x < 1 || c->fn->group_x > INT_MAX)
		return;
	/* a and b are ints: the extremes fit */
	lo = minus ? -b : b;
	hi = lo + a * (c->fn->group_x - 1);
	if (lo > hi) {
		long long t = lo;
		lo = hi;
		hi = t;
	}
	if (lo >= n || hi < 0)
		chk_err(c, e, "E-shared-read-range", "shared array \"%s\" read "
			"out of range by every thread: index from %lld to %lld "
			"(instanceInGroup().x from 0 to %lld), size %lld", s->name,
			lo, hi, c->fn->group_x - 1, n);
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

json_t *chk_write_el(json_t *target)
{
	json_t *el = chk_strip_paren(target);
	while (ast_is(el, "member"))
		el = chk_strip_paren(ast_get(el, "e"));
	return el;
}

/* The one value written so far to the kernel's local variable that E
 * names (chk_sym.value), else NULL. */
static json_t *local_value(chk_ctx *c, json_t *e)
{
	e = chk_strip_paren(e);
	if (!ast_is(e, "id"))
		return NULL;
	chk_sym *s = chk_lookup(&c->names, ast_str(e, "name"));
	return s && s->kind == SYM_VAR && !s->global ? s->value : NULL;
}

/* Whether E is the input element itself: the input stream's parameter,
 * a field or components of it, in parentheses or casts, or a local
 * variable whose one value is. */
static int input_itself(chk_ctx *c, json_t *e)
{
	json_t *v;
	for (int depth = 0; depth < 1000; depth++) {
		e = chk_strip_paren(e);
		if (ast_is(e, "cast"))
			e = ast_get(e, "e");
		else if (ast_is(e, "member"))
			e = ast_get(e, "e");
		else if ((v = local_value(c, e)))
			e = v;
		else
			break;
	}
	if (!ast_is(e, "id"))
		return 0;
	chk_sym *s = chk_lookup(&c->names, ast_str(e, "name"));
	return s && s->role == ROLE_IN;
}

/* A reduce function folds its partial results through its own body
 * (DESIGN.md reading 8), so spec 4.1.2 leaves undefined an update of the
 * reduce variable by an expression of the input element (b += f(a),
 * b = b + a * k): W-reduce-expr for such an update, where the variable
 * is combined with something other than the element itself. NODE: the
 * assign node; S: the reduce variable. */
/* What R, the value assigned to reduce variable S, combines S with, when
 * that is not the input element itself: of b op E, min(b, E) and max(E,
 * b), E; of c ? X : Y, what either arm does; else NULL. */
static json_t *combined_with(chk_ctx *c, json_t *r, chk_sym *s, int depth)
{
	static const char *const assoc[] = {"+", "*", "|", "^", "&", NULL};
	json_t *other = NULL;
	r = chk_strip_paren(r);
	json_t *v = local_value(c, r);
	if (v && depth < 100)	/* t = b + k * a; b = t */
		return combined_with(c, v, s, depth + 1);
	if (ast_is(r, "cond") && depth < 100) {
		other = combined_with(c, ast_get(r, "t"), s, depth + 1);
		return other ? other : combined_with(c, ast_get(r, "f"), s,
			depth + 1);
	}
	if (ast_is(r, "binop") || (ast_is(r, "call") &&
			json_array_size(ast_get(r, "args")) == 2 &&
			(ty_streq(ast_str(r, "builtin"), "min") ||
			ty_streq(ast_str(r, "builtin"), "max")))) {
		/* b = b op E, b = min(b, E), b = max(E, b) */
		int ok = ast_is(r, "call");
		for (int i = 0; !ok && assoc[i]; i++)
			ok |= ty_streq(ast_str(r, "op"), assoc[i]);
		json_t *x = ok && ast_is(r, "call") ?
			json_array_get(ast_get(r, "args"), 0) : ast_get(r, "l");
		json_t *y = ok && ast_is(r, "call") ?
			json_array_get(ast_get(r, "args"), 1) : ast_get(r, "r");
		if (ok && chk_root_sym(c, x) == s)
			other = y;
		else if (ok && chk_root_sym(c, y) == s)
			other = x;
	}
	return other && !input_itself(c, other) ? other : NULL;
}

static void reduce_fn_update(chk_ctx *c, json_t *node, const char *op,
	chk_sym *s)
{
	json_t *r = ast_get(node, "r"), *other;
	if (!ty_streq(op, "=")) {
		other = input_itself(c, r) ? NULL : r;
	} else {
		other = combined_with(c, r, s, 0);
	}
	if (other)
		chk_warn(c, 1, node, "W-reduce-expr", "reduce function combines "
			"\"%s\" with something other than its input element: its "
			"partial results pass through the same body, so the result is "
			"undefined (spec 4.1.2); map the stream first, or use a "
			"kernel's reduce variable", s->name);
}

/* Kernel rules on the target of an assignment, ++/-- or out argument.
 * NODE: the assign node ("reduce_op" goes there), the ++ or -- node, or
 * the subkernel call of the out argument. */
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
	if (s->kind == SYM_VAR && !s->global) {
		/* a local's one value: a plain assignment of the whole of it */
		int whole = ast_is(chk_strip_paren(target), "id") && node &&
			ast_is(node, "assign") && ty_streq(op, "=");
		s->writes++;
		s->value = whole && s->writes == 1 ? ast_get(node, "r") : NULL;
	}
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
		if (!c->fnode)
			return;
		if (ast_bool(c->fnode, "reduce")) {
			if (node && ast_is(node, "assign"))
				reduce_fn_update(c, node, op, s);
			return;
		}
		if (!good) {
			chk_err(c, target, "E-reduce-op", "reduction variable \"%s\" may "
				"only be updated with +=, *=, |=, ^= or &=", s->name);
		} else if (c->fn && !c->fn->reduce_op) {
			c->fn->reduce_op = op;
		} else if (c->fn && strcmp(c->fn->reduce_op, op) != 0) {
			/* DESIGN.md reading 8: the partial results are combined
			 * with the one operator */
			chk_err(c, target, "E-reduce-op", "reduction variable \"%s\" is "
				"updated with %s and with %s: one operator, which also "
				"combines the partial results", s->name,
				c->fn->reduce_op, op);
		}
		return;
	}
	case ROLE_SCATTER:
		/* brgen writes an element through a test of its index, which is
		   a statement */
		if (chk_strip_paren(node) != c->stmt_e)
			chk_err(c, target, "E-scatter-place", "a write to scatter "
				"array \"%s\" must be an expression statement of its "
				"own: an assignment, ++, -- or a subkernel call",
				s->name);
		break;
	default:
		break;
	}
	if (s->role != ROLE_SCATTER && ast_is(node, "call") && c->fn &&
			c->fn->groupsize && chk_strip_paren(node) != c->stmt_e)
		/* brgen copies it in and out around the call, where a group's
		   variable or shared element lives in local memory */
		chk_err(c, target, "E-group-sub-out", "in a group kernel, a "
			"subkernel call that writes \"%s\" must be an expression "
			"statement of its own", s->name);
	if (s->constq)
		chk_err(c, target, "E-const-lvalue", "lvalue is a constant type: \"%s\"",
			s->name);
	/* a field or components of an element too: s[i].x = ... */
	json_t *el = chk_write_el(target);
	if (s->shared && ast_is(el, "index"))
		shared_write(c, s, el);
}
