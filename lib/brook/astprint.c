/* astprint.c - brast(5) back to C text (see astprint.h).
 *
 * Expressions print with the parentheses C's precedence needs (C99 6.5):
 * a parsed AST keeps the program's own as "paren" nodes, so those come
 * out as written and nothing is added; trees that brgen builds get what
 * they need. Declarators print inside out (C99 6.7.5).
 */
#include "config.h"

#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/type.h"

/* Printing recursion stops here (documents from jansson are shallower). */
#define PRINT_MAX_DEPTH 5000

typedef struct pctx {
	strbuf *out;
	const astprint_hooks *h;
	int depth;
} pctx;

static void expr(pctx *p, const json_t *e, int need);
static int dim_need(const json_t *e);
static void stmt(pctx *p, const json_t *s, int indent);
static void decl(pctx *p, const json_t *d, int indent, int newline);
static void spec(pctx *p, const json_t *t, int body, int indent);
static void declarator(pctx *p, const json_t *t, strbuf *inner);

static void indent_to(strbuf *out, int n)
{
	for (int i = 0; i < n; i++)
		sb_putc(out, '\t');
}

/* ---- types --------------------------------------------------------------- */

static int is_derived(const json_t *t)
{
	const char *k = ty_kind(t);
	return ty_streq(k, "ptr") || ty_streq(k, "array") || ty_streq(k, "func")
		|| ty_streq(k, "stream");
}

/* The type the declarator's derivations end in (its specifier type). */
static const json_t *base_of(const json_t *t)
{
	for (int i = 0; i < PRINT_MAX_DEPTH && is_derived(t); i++) {
		const char *k = ty_kind(t);
		t = ast_get(t, ty_streq(k, "ptr") ? "to" :
			ty_streq(k, "func") ? "ret" : "of");
	}
	return t;
}

static void quals(strbuf *out, const json_t *t, int before)
{
	size_t i;
	json_t *q;
	ast_array_foreach(ast_arr(t, "quals"), i, q) {
		if (!before)
			sb_putc(out, ' ');
		sb_puts(out, json_string_value(q) ? json_string_value(q) : "");
		if (before)
			sb_putc(out, ' ');
	}
}

/* A K&R definition's type: parameters listed with no prototype (C99
 * 6.9.1), printed as an identifier list and a declaration list. */
static int is_knr(const json_t *ft)
{
	return !ast_bool(ft, "proto") && json_array_size(ast_arr(ft, "params"));
}

/* A parameter's Brook qualifiers: "out ", "reduce " ("const" is the
 * type's). */
static void param_quals(pctx *p, const json_t *pa)
{
	size_t j;
	json_t *q;
	ast_array_foreach(ast_arr(pa, "quals"), j, q)
		if (json_is_string(q) && !ty_streq(json_string_value(q),
			"const")) {
			sb_puts(p->out, json_string_value(q));
			sb_putc(p->out, ' ');
		}
}

/* A K&R definition's declaration list, one declaration a line; the
 * parameters declared together (one base type object) stay together, so
 * a struct's body is written once: "struct s { int x; } a, b;". */
static void knr_decls(pctx *p, const json_t *ft, int indent)
{
	size_t i;
	json_t *pa;
	const json_t *prev = NULL;
	ast_array_foreach(ast_arr(ft, "params"), i, pa) {
		const json_t *b = base_of(ast_get(pa, "type"));
		strbuf d = {0};
		sb_puts(&d, ast_str(pa, "name"));
		declarator(p, ast_get(pa, "type"), &d);
		if (b == prev) {
			sb_puts(p->out, ", ");
		} else {
			if (i)
				sb_puts(p->out, ";\n");
			indent_to(p->out, indent + 1);
			param_quals(p, pa);
			spec(p, b, 1, indent + 1);
			sb_putc(p->out, ' ');
		}
		sb_putn(p->out, d.s, d.len);
		sb_free(&d);
		prev = b;
	}
	sb_puts(p->out, ";\n");
	indent_to(p->out, indent);
}

static void params(pctx *p, const json_t *ft)
{
	size_t i;
	json_t *pa;
	json_t *ps = ast_arr(ft, "params");
	sb_putc(p->out, '(');
	json_array_foreach(ps, i, pa) {
		if (i)
			sb_puts(p->out, ", ");
		if (is_knr(ft)) {
			sb_puts(p->out, ast_str(pa, "name"));
		} else {
			param_quals(p, pa);
			astprint_type(p->out, ast_get(pa, "type"),
				ast_str(pa, "name"));
		}
	}
	if (ast_bool(ft, "variadic"))
		sb_puts(p->out, json_array_size(ps) ? ", ..." : "...");
	else if (json_array_size(ps) == 0 && ast_bool(ft, "proto"))
		sb_puts(p->out, "void");
	sb_putc(p->out, ')');
}

/* The declarator part of type t around the text INNER (the name, or what
 * the outer derivations made of it), C99 6.7.5: pointers prefix, arrays,
 * functions and streams suffix, parentheses where a pointer meets one of
 * those. */
static void declarator(pctx *p, const json_t *t, strbuf *inner)
{
	for (int n = 0; n < PRINT_MAX_DEPTH && is_derived(t); n++) {
		const char *k = ty_kind(t);
		strbuf s = {0};
		if (ty_streq(k, "ptr")) {
			const json_t *to = ast_get(t, "to");
			int wrap = is_derived(to) && strcmp(ty_kind(to), "ptr");
			if (wrap)
				sb_putc(&s, '(');
			sb_putc(&s, '*');
			quals(&s, t, 1);
			sb_putn(&s, inner->s ? inner->s : "", inner->len);
			if (wrap)
				sb_putc(&s, ')');
			t = to;
		} else {
			sb_putn(&s, inner->s ? inner->s : "", inner->len);
			strbuf *save = p->out;
			p->out = &s;
			if (ty_streq(k, "array")) {
				sb_putc(&s, '[');
				/* C99 6.7.5.2: [static const 10], [*] */
				if (ast_bool(t, "static"))
					sb_puts(&s, "static ");
				quals(&s, t, 1);
				if (ast_bool(t, "star"))
					sb_putc(&s, '*');
				if (!json_is_null(ast_get(t, "size")) && ast_get(t, "size"))
					expr(p, ast_get(t, "size"), 2);
				else if (s.len && s.s[s.len - 1] == ' ')
					s.s[--s.len] = 0;
				sb_putc(&s, ']');
				t = ast_get(t, "of");
			} else if (ty_streq(k, "stream")) {
				/* spec 3.2: float a<10, 20>, a<>, e<, 100> */
				size_t i;
				json_t *d;
				sb_putc(&s, '<');
				ast_array_foreach(ast_arr(t, "dims"), i, d) {
					if (i)
						sb_puts(&s, ", ");
					if (!json_is_null(d))
						expr(p, d, dim_need(d));
				}
				sb_putc(&s, '>');
				t = ast_get(t, "of");
			} else {
				params(p, t);
				t = ast_get(t, "ret");
			}
			p->out = save;
		}
		sb_free(inner);
		*inner = s;
	}
}

static const char *basic_name(const char *t)
{
	static const char *const map[][2] = {
		{"schar", "signed char"}, {"uchar", "unsigned char"},
		{"ushort", "unsigned short"}, {"uint", "unsigned int"},
		{"ulong", "unsigned long"}, {"llong", "long long"},
		{"ullong", "unsigned long long"}, {"ldouble", "long double"},
		{"bool", "_Bool"}, {"cfloat", "float _Complex"},
		{"cdouble", "double _Complex"},
		{"cldouble", "long double _Complex"},
		{"ifloat", "float _Imaginary"}, {"idouble", "double _Imaginary"},
		{"ildouble", "long double _Imaginary"},
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(map[i][0], t))
			return map[i][1];
	return t;
}

static void fields(pctx *p, const json_t *fs, int indent);

/* The specifier of a base type; BODY: print a struct's fields or an
 * enum's items where the type has them. */
static void spec(pctx *p, const json_t *t, int body, int indent)
{
	const char *k = ty_kind(t);
	quals(p->out, t, 1);
	if (ty_streq(k, "struct") || ty_streq(k, "union") ||
			ty_streq(k, "enum")) {
		sb_puts(p->out, k);
		if (json_is_string(ast_get(t, "tag"))) {
			sb_putc(p->out, ' ');
			sb_puts(p->out, ast_str(t, "tag"));
		}
		int has = ast_arr(t, ty_streq(k, "enum") ? "items" :
			"fields") != NULL;
		if (!has || !(body || !json_is_string(ast_get(t, "tag"))))
			return;
		sb_puts(p->out, " {\n");
		if (ty_streq(k, "enum")) {
			size_t i;
			json_t *it;
			ast_array_foreach(ast_arr(t, "items"), i, it) {
				indent_to(p->out, indent + 1);
				sb_puts(p->out, ast_str(it, "name"));
				json_t *v = ast_get(it, "value");
				if (v && !json_is_null(v)) {
					sb_puts(p->out, " = ");
					expr(p, v, 3);
				}
				sb_puts(p->out, ",\n");
			}
		} else {
			fields(p, ast_arr(t, "fields"), indent + 1);
		}
		indent_to(p->out, indent);
		sb_putc(p->out, '}');
	} else if (ty_streq(k, "typedef")) {
		sb_puts(p->out, ast_str(t, "name"));
	} else if (*k) {
		sb_puts(p->out, basic_name(k));
	} else {
		sb_puts(p->out, "int");
	}
}

/* Specifier then declarator: "int (*p)[3]". */
static void full_type(pctx *p, const json_t *t, const char *name, int body,
	int indent)
{
	strbuf d = {0};
	if (name)
		sb_puts(&d, name);
	declarator(p, t, &d);
	spec(p, base_of(t), body, indent);
	if (d.len) {
		sb_putc(p->out, ' ');
		sb_putn(p->out, d.s, d.len);
	}
	sb_free(&d);
}

void astprint_type(strbuf *out, const json_t *type, const char *declarator_name)
{
	pctx p = { out, NULL, 0 };
	full_type(&p, type, declarator_name, 0, 0);
}

/* Struct members; consecutive members declared together (one base type
 * object, or equal types that define a body) print as one declaration so
 * a nested struct's body is written once. */
static void fields(pctx *p, const json_t *fs, int indent)
{
	size_t n = json_array_size(fs);
	for (size_t i = 0; i < n; i++) {
		const json_t *f = json_array_get(fs, i);
		const json_t *b = base_of(ast_get(f, "type"));
		indent_to(p->out, indent);
		spec(p, b, 1, indent);
		for (size_t j = i;; j++) {
			const json_t *g = json_array_get(fs, j);
			strbuf d = {0};
			if (json_is_string(ast_get(g, "name")))
				sb_puts(&d, ast_str(g, "name"));
			declarator(p, ast_get(g, "type"), &d);
			if (d.len) {
				sb_puts(p->out, j == i ? " " : ", ");
				sb_putn(p->out, d.s, d.len);
			} else if (j != i) {
				sb_puts(p->out, ", ");
			}
			sb_free(&d);
			json_t *bits = ast_get(g, "bits");
			if (bits && !json_is_null(bits)) {
				sb_puts(p->out, " : ");
				expr(p, bits, 3);
			}
			const json_t *next = json_array_get(fs, j + 1);
			const json_t *nb = next ? base_of(ast_get(next, "type")) : NULL;
			if (!nb || !(nb == b || ((ast_arr(b, "fields") || ast_arr(b,
				"items")) && json_equal((json_t *)nb, (json_t *)b)))
				|| !json_is_string(ast_get(next, "name"))) {
				i = j;
				break;
			}
		}
		sb_puts(p->out, ";\n");
	}
}

/* ---- expressions (C99 6.5) ---------------------------------------------- */

/* The kinds of expression node, told by a switch on the first letter
 * rather than a chain of strcmp: the printer asks every node twice. */
enum ekind {
	EK_OTHER, EK_ID, EK_LIT, EK_BINOP, EK_ASSIGN, EK_COMMA, EK_COND,
	EK_UNOP, EK_POSTFIX, EK_CALL, EK_CTOR, EK_INDEX, EK_MEMBER, EK_CAST,
	EK_SIZEOF, EK_COMPOUND, EK_INDEXOF, EK_PAREN, EK_INITLIST
};

static enum ekind expr_kind(const json_t *e)
{
	const char *k = ast_kind(e);
	switch (k[0]) {
	case 'a':
		return !strcmp(k, "assign") ? EK_ASSIGN : EK_OTHER;
	case 'b':
		return !strcmp(k, "binop") ? EK_BINOP : EK_OTHER;
	case 'c':
		return !strcmp(k, "call") ? EK_CALL : !strcmp(k, "cast") ?
			EK_CAST : !strcmp(k, "char") ? EK_LIT :
			!strcmp(k, "comma") ? EK_COMMA : !strcmp(k, "compound") ?
			EK_COMPOUND : !strcmp(k, "cond") ? EK_COND :
			!strcmp(k, "ctor") ? EK_CTOR : EK_OTHER;
	case 'f':
		return !strcmp(k, "float") ? EK_LIT : EK_OTHER;
	case 'i':
		return !strcmp(k, "id") ? EK_ID : !strcmp(k, "int") ? EK_LIT :
			!strcmp(k, "index") ? EK_INDEX : !strcmp(k, "indexof") ?
			EK_INDEXOF : !strcmp(k, "initlist") ? EK_INITLIST :
			EK_OTHER;
	case 'm':
		return !strcmp(k, "member") ? EK_MEMBER : EK_OTHER;
	case 'p':
		return !strcmp(k, "paren") ? EK_PAREN : !strcmp(k, "postfix") ?
			EK_POSTFIX : EK_OTHER;
	case 's':
		return !strcmp(k, "sizeof") ? EK_SIZEOF : !strcmp(k, "string") ?
			EK_LIT : EK_OTHER;
	case 'u':
		return !strcmp(k, "unop") ? EK_UNOP : EK_OTHER;
	}
	return EK_OTHER;
}

/* Precedence, loosest 1 (comma) to tightest 17 (primary); an operator
 * not in the table (C99 6.5.5 to 6.5.14) counts as "||", 4. */
static int binop_prec(const char *op)
{
	char c = op[0], d = c ? op[1] : 0;
	if (d && op[2])
		return 4;
	switch (c) {
	case '|': return d ? 4 : 6;
	case '&': return d == '&' ? 5 : d ? 4 : 8;
	case '^': return d ? 4 : 7;
	case '=': case '!': return d == '=' ? 9 : 4;
	case '<': case '>':
		return !d || d == '=' ? 10 : d == c ? 11 : 4;
	case '+': case '-': return d ? 4 : 12;
	case '*': case '/': case '%': return d ? 4 : 13;
	}
	return 4;
}

static int prec(const json_t *e, enum ekind k)
{
	switch (k) {
	case EK_COMMA: return 1;
	case EK_ASSIGN: return 2;
	case EK_COND: return 3;
	case EK_BINOP: return binop_prec(ast_str(e, "op"));
	case EK_CAST: return 14;
	case EK_UNOP: case EK_SIZEOF: return 15;
	case EK_CALL: case EK_INDEX: case EK_MEMBER: case EK_POSTFIX:
	case EK_COMPOUND:
		return 16;
	default:
		return 17;
	}
}

/* Does E print with a '>', '>=', '>>' or '>>=' outside parentheses,
 * brackets and the middle of ?: ? DEPTH bounds the walk (then: yes). */
static int gt_on_top(const json_t *e, int depth)
{
	enum ekind k = expr_kind(e);
	if (depth > PRINT_MAX_DEPTH)
		return 1;
	if (k == EK_BINOP || k == EK_ASSIGN) {
		const char *op = ast_str(e, "op");
		return (op && op[0] == '>') || gt_on_top(ast_get(e, "l"),
			depth + 1) || gt_on_top(ast_get(e, "r"), depth + 1);
	}
	if (k == EK_COND)
		return gt_on_top(ast_get(e, "c"), depth + 1)
			|| gt_on_top(ast_get(e, "f"), depth + 1);
	return 0;
}

/* spec 3.2: a stream dimension is any expression but a comma expression,
 * and a '>' outside parentheses closes the list (brparse(1)) */
static int dim_need(const json_t *e)
{
	return gt_on_top(e, 0) ? 17 : 2;
}

static void args(pctx *p, const json_t *a)
{
	size_t i;
	json_t *x;
	sb_putc(p->out, '(');
	json_array_foreach(a, i, x) {
		if (i)
			sb_puts(p->out, ", ");
		expr(p, x, 2);
	}
	sb_putc(p->out, ')');
}

static void initlist(pctx *p, const json_t *l)
{
	size_t i;
	json_t *it;
	sb_putc(p->out, '{');
	ast_array_foreach(ast_arr(l, "items"), i, it) {
		if (i)
			sb_puts(p->out, ", ");
		size_t j;
		json_t *d;
		ast_array_foreach(ast_arr(it, "desig"), j, d) {
			if (ast_is(d, "desig_field")) {
				sb_putc(p->out, '.');
				sb_puts(p->out, ast_str(d, "name"));
			} else {
				sb_putc(p->out, '[');
				expr(p, ast_get(d, "index"), 3);
				sb_putc(p->out, ']');
			}
		}
		if (json_array_size(ast_arr(it, "desig")))
			sb_puts(p->out, " = ");
		expr(p, ast_get(it, "value"), 2);
	}
	sb_putc(p->out, '}');
}

/* "- -x", not "--x"; "& &x", not "&&x" */
static void unary_operand(pctx *p, const char *op, const json_t *e, int need)
{
	if (ast_is(e, "unop") && ast_str(e, "op")[0] == op[0]
		&& (op[0] == '-' || op[0] == '+' || op[0] == '&'))
		sb_putc(p->out, ' ');
	expr(p, e, need);
}

static void expr_body(pctx *p, const json_t *e, enum ekind k)
{
	strbuf *o = p->out;
	if (k == EK_ID) {
		sb_puts(o, ast_str(e, "name"));
	} else if (k == EK_LIT) {
		sb_puts(o, ast_str(e, "text"));
	} else if (k == EK_BINOP) {
		int pr = binop_prec(ast_str(e, "op"));
		expr(p, ast_get(e, "l"), pr);
		sb_putc(o, ' ');
		sb_puts(o, ast_str(e, "op"));
		sb_putc(o, ' ');
		expr(p, ast_get(e, "r"), pr + 1);
	} else if (k == EK_ASSIGN) {
		expr(p, ast_get(e, "l"), 15);
		sb_putc(o, ' ');
		sb_puts(o, ast_str(e, "op"));
		sb_putc(o, ' ');
		expr(p, ast_get(e, "r"), 2);
	} else if (k == EK_COMMA) {
		expr(p, ast_get(e, "l"), 1);
		sb_puts(o, ", ");
		expr(p, ast_get(e, "r"), 2);
	} else if (k == EK_COND) {
		expr(p, ast_get(e, "c"), 4);
		sb_puts(o, " ? ");
		expr(p, ast_get(e, "t"), 1);
		sb_puts(o, " : ");
		expr(p, ast_get(e, "f"), 3);
	} else if (k == EK_UNOP) {
		const char *op = ast_str(e, "op");
		sb_puts(o, op);
		unary_operand(p, op, ast_get(e, "e"), op[0] && op[1] ? 15 : 14);
	} else if (k == EK_POSTFIX) {
		expr(p, ast_get(e, "e"), 16);
		sb_puts(o, ast_str(e, "op"));
	} else if (k == EK_CALL) {
		expr(p, ast_get(e, "fn"), 16);
		args(p, ast_arr(e, "args"));
	} else if (k == EK_CTOR) {
		sb_puts(o, ty_kind(ast_get(e, "type")));
		if (ast_bool(e, "underscore"))
			sb_putc(o, '_');
		args(p, ast_arr(e, "args"));
	} else if (k == EK_INDEX) {
		expr(p, ast_get(e, "a"), 16);
		sb_putc(o, '[');
		expr(p, ast_get(e, "i"), 1);
		sb_putc(o, ']');
	} else if (k == EK_MEMBER) {
		expr(p, ast_get(e, "e"), 16);
		sb_puts(o, ast_bool(e, "arrow") ? "->" : ".");
		sb_puts(o, ast_str(e, "name"));
	} else if (k == EK_CAST) {
		sb_putc(o, '(');
		full_type(p, ast_get(e, "type"), NULL, 0, 0);
		sb_putc(o, ')');
		expr(p, ast_get(e, "e"), 14);
	} else if (k == EK_SIZEOF) {
		sb_puts(o, "sizeof");
		if (ast_get(e, "type")) {
			sb_putc(o, '(');
			full_type(p, ast_get(e, "type"), NULL, 0, 0);
			sb_putc(o, ')');
		} else {
			sb_putc(o, ' ');
			expr(p, ast_get(e, "e"), 15);
		}
	} else if (k == EK_COMPOUND) {
		sb_putc(o, '(');
		full_type(p, ast_get(e, "type"), NULL, 0, 0);
		sb_putc(o, ')');
		initlist(p, ast_get(e, "init"));
	} else if (k == EK_INDEXOF) {
		sb_puts(o, "indexof(");
		expr(p, ast_get(e, "e"), 1);
		sb_putc(o, ')');
	} else if (k == EK_PAREN) {
		sb_putc(o, '(');
		expr(p, ast_get(e, "e"), 1);
		sb_putc(o, ')');
	} else if (k == EK_INITLIST) {
		initlist(p, e);
	} else {
		sb_puts(o, "/* ? */0");
	}
}

/* e where the context needs precedence NEED or tighter */
static void expr(pctx *p, const json_t *e, int need)
{
	if (++p->depth > PRINT_MAX_DEPTH) {
		sb_puts(p->out, "/* too deep */0");
		p->depth--;
		return;
	}
	if (p->h && p->h->expr) {
		size_t mark = p->out->len;
		if (need > 2)
			sb_putc(p->out, '(');
		if (p->h->expr(p->h->ctx, p->out, e)) {
			if (need > 2)
				sb_putc(p->out, ')');
			p->depth--;
			return;
		}
		p->out->len = mark;
		p->out->s[mark] = 0;
	}
	enum ekind k = expr_kind(e);
	int wrap = prec(e, k) < need;
	if (wrap)
		sb_putc(p->out, '(');
	expr_body(p, e, k);
	if (wrap)
		sb_putc(p->out, ')');
	p->depth--;
}

void astprint_expr(strbuf *out, const json_t *e, const astprint_hooks *h)
{
	pctx p = { out, h, 0 };
	expr(&p, e, 1);
}

/* ---- declarations ---------------------------------------------------------- */

static void put_list(strbuf *out, const json_t *a)
{
	size_t i;
	json_t *q;
	json_array_foreach(a, i, q) {
		sb_puts(out, json_string_value(q) ? json_string_value(q) : "");
		sb_putc(out, ' ');
	}
}

/* spec 4, guide chapter on thread groups:
 * Attribute[GroupSize(x, y, z)] kernel void f(...) { ... } */
static void func(pctx *p, const json_t *f, int indent, int newline)
{
	size_t i;
	json_t *a;
	json_t *attrs = ast_arr(f, "attrs");
	if (json_array_size(attrs)) {
		sb_puts(p->out, "Attribute[");
		json_array_foreach(attrs, i, a) {
			if (i)
				sb_puts(p->out, ", ");
			sb_puts(p->out, ast_str(a, "name"));
			if (json_array_size(ast_arr(a, "args")))
				args(p, ast_arr(a, "args"));
		}
		sb_puts(p->out, "]\n");
		indent_to(p->out, indent);
	}
	if (json_is_string(ast_get(f, "storage")))
		sb_printf(p->out, "%s ", ast_str(f, "storage"));
	if (ast_bool(f, "inline"))
		sb_puts(p->out, "inline ");
	if (ast_bool(f, "reduce"))
		sb_puts(p->out, "reduce ");
	if (ast_bool(f, "kernel"))
		sb_puts(p->out, "kernel ");
	const json_t *t = ast_get(f, "type");
	if (ast_bool(f, "noret")) {
		strbuf d = {0};
		sb_puts(&d, ast_str(f, "name"));
		declarator(p, t, &d);
		sb_putn(p->out, d.s, d.len);
		sb_free(&d);
	} else {
		full_type(p, t, ast_str(f, "name"), 0, indent);
	}
	json_t *body = ast_get(f, "body");
	if (body && !json_is_null(body)) {
		sb_putc(p->out, '\n');
		if (is_knr(t))
			knr_decls(p, t, indent);
		stmt(p, body, indent);
	} else {
		sb_puts(p->out, newline ? ";\n" : ";");
	}
}

static void var_decl(pctx *p, const json_t *d, int indent)
{
	const json_t *vars = ast_arr(d, "vars");
	put_list(p->out, ast_arr(json_array_get(vars, 0), "quals"));
	if (json_is_string(ast_get(d, "storage")))
		sb_printf(p->out, "%s ", ast_str(d, "storage"));
	spec(p, ast_get(d, "type"), 1, indent);
	size_t i;
	json_t *v;
	json_array_foreach(vars, i, v) {
		strbuf s = {0};
		sb_puts(&s, ast_str(v, "name"));
		declarator(p, ast_get(v, "type"), &s);
		sb_puts(p->out, i ? ", " : " ");
		sb_putn(p->out, s.s, s.len);
		sb_free(&s);
		json_t *init = ast_get(v, "init");
		if (init && !json_is_null(init)) {
			sb_puts(p->out, " = ");
			expr(p, init, 2);
		}
	}
	sb_putc(p->out, ';');
}

static void decl(pctx *p, const json_t *d, int indent, int newline)
{
	if (p->h && p->h->decl && p->h->decl(p->h->ctx, p->out, d, indent))
		return;
	if (ast_is(d, "directive")) {
		/* a directive starts its own line, whatever the indentation */
		if (p->out->len && p->out->s[p->out->len - 1] != '\n')
			sb_putc(p->out, '\n');
		else
			while (p->out->len && p->out->s[p->out->len - 1] == '\t')
				p->out->s[--p->out->len] = 0;
		sb_puts(p->out, ast_str(d, "text"));
		sb_putc(p->out, '\n');
		return;
	}
	if (ast_is(d, "func")) {
		func(p, d, indent, newline);
		return;
	}
	var_decl(p, d, indent);
	if (newline)
		sb_putc(p->out, '\n');
}

void astprint_decl(strbuf *out, const json_t *d, const astprint_hooks *h,
	int indent)
{
	pctx p = { out, h, 0 };
	indent_to(out, indent);
	decl(&p, d, indent, 1);
}

void astprint_decls(strbuf *out, const json_t *doc, const astprint_hooks *h)
{
	size_t i;
	json_t *d;
	ast_array_foreach(ast_arr(doc, "decls"), i, d) {
		if (ast_is(d, "func") && i)
			sb_putc(out, '\n');
		astprint_decl(out, d, h, 0);
	}
}

/* ---- statements (C99 6.8) --------------------------------------------------- */

static int is_decl(const json_t *n)
{
	return ast_is(n, "decl") || ast_is(n, "func") || ast_is(n, "directive");
}

/* a statement under if/while/for: a block on the same line, anything else
 * on its own line one level in */
static void sub(pctx *p, const json_t *s, int indent)
{
	if (ast_is(s, "block")) {
		sb_putc(p->out, ' ');
		stmt(p, s, indent);
	} else {
		sb_putc(p->out, '\n');
		indent_to(p->out, indent + 1);
		stmt(p, s, indent + 1);
	}
}

static void stmt(pctx *p, const json_t *s, int indent)
{
	const char *k = ast_kind(s);
	strbuf *o = p->out;
	if (++p->depth > PRINT_MAX_DEPTH) {
		sb_puts(o, ";/* too deep */\n");
		p->depth--;
		return;
	}
	if (p->h && p->h->stmt && p->h->stmt(p->h->ctx, o, s, indent)) {
		p->depth--;
		return;
	}
	if (is_decl(s)) {
		decl(p, s, indent, 1);
	} else if (ty_streq(k, "block")) {
		size_t i;
		json_t *it;
		sb_puts(o, "{\n");
		ast_array_foreach(ast_arr(s, "items"), i, it) {
			indent_to(o, indent + 1);
			stmt(p, it, indent + 1);
		}
		indent_to(o, indent);
		sb_puts(o, "}\n");
	} else if (ty_streq(k, "expr")) {
		expr(p, ast_get(s, "e"), 1);
		sb_puts(o, ";\n");
	} else if (ty_streq(k, "empty")) {
		sb_puts(o, ";\n");
	} else if (ty_streq(k, "if")) {
		const json_t *then = ast_get(s, "then"), *els = ast_get(s, "else");
		int has_else = els && !json_is_null(els);
		sb_puts(o, "if (");
		expr(p, ast_get(s, "cond"), 1);
		sb_putc(o, ')');
		if (has_else && ast_is(then, "if")) {
			/* C99 6.8.4: keep the else with the outer if */
			sb_puts(o, " {\n");
			indent_to(o, indent + 1);
			stmt(p, then, indent + 1);
			indent_to(o, indent);
			sb_puts(o, "}\n");
		} else {
			sub(p, then, indent);
		}
		if (has_else) {
			indent_to(o, indent);
			sb_puts(o, "else");
			if (ast_is(els, "if")) {
				sb_putc(o, ' ');
				stmt(p, els, indent);
			} else {
				sub(p, els, indent);
			}
		}
	} else if (ty_streq(k, "while") || ty_streq(k, "switch")) {
		sb_printf(o, "%s (", k);
		expr(p, ast_get(s, "cond"), 1);
		sb_putc(o, ')');
		sub(p, ast_get(s, "body"), indent);
	} else if (ty_streq(k, "do")) {
		sb_puts(o, "do");
		sub(p, ast_get(s, "body"), indent);
		indent_to(o, indent);
		sb_puts(o, "while (");
		expr(p, ast_get(s, "cond"), 1);
		sb_puts(o, ");\n");
	} else if (ty_streq(k, "for")) {
		const json_t *init = ast_get(s, "init");
		sb_puts(o, "for (");
		if (is_decl(init)) {
			decl(p, init, indent, 0);
		} else {
			if (init && !json_is_null(init))
				expr(p, init, 1);
			sb_putc(o, ';');
		}
		const json_t *c = ast_get(s, "cond"), *st = ast_get(s, "step");
		if (c && !json_is_null(c)) {
			sb_putc(o, ' ');
			expr(p, c, 1);
		}
		sb_putc(o, ';');
		if (st && !json_is_null(st)) {
			sb_putc(o, ' ');
			expr(p, st, 1);
		}
		sb_putc(o, ')');
		sub(p, ast_get(s, "body"), indent);
	} else if (ty_streq(k, "case") || ty_streq(k, "default")
		|| ty_streq(k, "label")) {
		if (ty_streq(k, "case")) {
			sb_puts(o, "case ");
			expr(p, ast_get(s, "e"), 3);
		} else {
			sb_puts(o, ty_streq(k, "default") ? "default"
				: ast_str(s, "name"));
		}
		sb_puts(o, ":\n");
		indent_to(o, indent);
		stmt(p, ast_get(s, "stmt"), indent);
	} else if (ty_streq(k, "goto")) {
		sb_printf(o, "goto %s;\n", ast_str(s, "label"));
	} else if (ty_streq(k, "break") || ty_streq(k, "continue")) {
		sb_printf(o, "%s;\n", k);
	} else if (ty_streq(k, "return")) {
		const json_t *e = ast_get(s, "e");
		sb_puts(o, "return");
		if (e && !json_is_null(e)) {
			sb_putc(o, ' ');
			expr(p, e, 1);
		}
		sb_puts(o, ";\n");
	} else {
		sb_puts(o, ";/* ? */\n");
	}
	p->depth--;
}

void astprint_stmt(strbuf *out, const json_t *s, const astprint_hooks *h,
	int indent)
{
	pctx p = { out, h, 0 };
	stmt(&p, s, indent);
}
