/* type.c - Brook+ types: scalar kinds, vectors, promotion (spec 6.3.3),
 * the operator table (spec 6.3.12) and the built-in functions (spec 5). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/type.h"
#include "brook/util.h"

/* The scalar types, by name (scalar_span below gives where each first
 * letter's names lie); "rank" orders the ones the promotion table of
 * spec 6.3.3 lists. "vec": the vector names exist (ast.h). */
static const struct scalar_info {
	const char *name;
	int rank;	/* spec 6.3.3 promotion order, 0: not in the table */
	int integer;
	int bits;
	int reserved;	/* spec 6.1.2 */
	int vec;
} scalars[] = {
	{"bool", 0, 1, 8, 0, 0},
	{"char", 1, 1, 8, 0, 1},
	{"double", 8, 0, 64, 0, 1},
	{"float", 7, 0, 32, 0, 1},
	{"int", 5, 1, 32, 0, 1},
	{"ldouble", 0, 0, 128, 1, 0},
	{"llong", 0, 1, 128, 1, 0},
	{"long", 0, 1, 64, 1, 1},
	{"schar", 1, 1, 8, 0, 0},
	{"short", 3, 1, 16, 0, 1},
	{"uchar", 2, 1, 8, 0, 1},
	{"uint", 6, 1, 32, 0, 1},
	{"ulong", 0, 1, 64, 1, 1},
	{"ullong", 0, 1, 128, 1, 0},
	{"ushort", 4, 1, 16, 0, 1},
};
#define NSCALARS (sizeof scalars / sizeof scalars[0])

/* Whether NAME is the N first bytes of S (no NUL among them): strncmp
 * inline, for names of a few letters. */
static int name_is(const char *name, const char *s, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (name[j] != s[j] || name[j] == '\0')
			return 0;
	return name[n] == '\0';
}

/* The names of scalars[] that begin with each letter: from the first
 * place to one past the last (none: 0, 0). Kept with the table above. */
static const unsigned char scalar_span[26][2] = {
	['b' - 'a'] = {0, 1}, ['c' - 'a'] = {1, 2}, ['d' - 'a'] = {2, 3},
	['f' - 'a'] = {3, 4}, ['i' - 'a'] = {4, 5}, ['l' - 'a'] = {5, 8},
	['s' - 'a'] = {8, 10}, ['u' - 'a'] = {10, 15}
};
/* a name added to scalars[] needs its place above too */
typedef char scalar_span_covers[NSCALARS == 15 ? 1 : -1];

/* The scalar whose name is the N first bytes of S: only the names of
 * S's first letter are compared (every type question of brcheck and
 * brgen asks this), and of those the second letter rules out all but
 * one without a call (S[1] is there: S is NUL-terminated). */
static const struct scalar_info *scalar_findn(const char *s, size_t n)
{
	if (s[0] < 'a' || s[0] > 'z')
		return NULL;
	const unsigned char *span = scalar_span[s[0] - 'a'];
	for (size_t i = span[0]; i < span[1]; i++)
		if (scalars[i].name[1] == s[1] &&
				name_is(scalars[i].name, s, n))
			return &scalars[i];
	return NULL;
}

static const struct scalar_info *scalar_find(const char *s)
{
	return s ? scalar_findn(s, strlen(s)) : NULL;
}

/* "t" is the first member of the types brparse and brcheck make (ast.h):
 * looking there first spares a search of the members on the questions
 * every expression asks of its type. */
const char *ty_kind(const json_t *t)
{
	void *it = json_object_iter((json_t *)t);
	json_t *v;

	if (brj_object_iter_is(it, "t", 1))
		v = json_object_iter_value(it);
	else
		v = json_object_get(t, "t");
	return json_is_string(v) ? json_string_value(v) : "";
}

/* Splits "float4" into its scalar and count; count 1 for a scalar. */
static const struct scalar_info *split(const char *name, int *n)
{
	size_t len = strlen(name);
	const struct scalar_info *si;

	if (len >= 2 && name[len - 1] >= '2' && name[len - 1] <= '4') {
		si = scalar_findn(name, len - 1);
		if (!si || !si->vec)
			return NULL;
		*n = name[len - 1] - '0';
		return si;
	}
	si = len ? scalar_findn(name, len) : NULL;
	if (si)
		*n = 1;
	return si;
}

int ty_ncomp(const json_t *t)
{
	int n;
	return split(ty_kind(t), &n) ? n : 0;
}

const char *ty_scalar(const json_t *t)
{
	int n;
	const struct scalar_info *si = split(ty_kind(t), &n);
	return si ? si->name : NULL;
}

int ty_is_scalar(const json_t *t)
{
	return ty_ncomp(t) == 1;
}

int ty_is_vector(const json_t *t)
{
	return ty_ncomp(t) > 1;
}

int ty_is_arith(const json_t *t)
{
	return ty_ncomp(t) > 0;
}

int ty_is_stream(const json_t *t)
{
	return ty_streq(ty_kind(t), "stream");
}

int ty_is_array(const json_t *t)
{
	return ty_streq(ty_kind(t), "array");
}

int ty_is_ptr(const json_t *t)
{
	return ty_streq(ty_kind(t), "ptr");
}

int ty_is_void(const json_t *t)
{
	return ty_streq(ty_kind(t), "void");
}

int ty_is_unknown(const json_t *t)
{
	const char *k = t ? ty_kind(t) : "unknown";
	return ty_streq(k, "unknown") || ty_streq(k, "typedef");
}

int ty_is_struct(const json_t *t)
{
	return ty_streq(ty_kind(t), "struct") ||
		ty_streq(ty_kind(t), "union");
}

const json_t *ty_elem(const json_t *t)
{
	if (!ty_is_stream(t) && !ty_is_array(t))
		return NULL;
	return json_object_get(t, "of");
}

int ty_rank(const json_t *t)
{
	if (ty_is_stream(t)) {
		json_t *d = json_object_get(t, "dims");
		return json_is_array(d) ? (int)json_array_size(d) : 0;
	}
	int n = 0;
	while (ty_is_array(t)) {
		n++;
		t = json_object_get(t, "of");
	}
	return n;
}

const json_t *ty_base(const json_t *t)
{
	if (ty_is_stream(t))
		t = json_object_get(t, "of");
	while (ty_is_array(t))
		t = json_object_get(t, "of");
	return t;
}

int ty_scalar_is_integer(const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	return si && si->integer;
}

int ty_scalar_is_float(const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	return si && !si->integer;
}

int ty_scalar_is_reserved(const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	return si && si->reserved;
}

int ty_scalar_bits(const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	return si ? si->bits : 0;
}

const char *ty_vector_name(const char *s, int n)
{
	static const char *const names[][4] = {
		{"char", "char2", "char3", "char4"},
		{"uchar", "uchar2", "uchar3", "uchar4"},
		{"short", "short2", "short3", "short4"},
		{"ushort", "ushort2", "ushort3", "ushort4"},
		{"int", "int2", "int3", "int4"},
		{"uint", "uint2", "uint3", "uint4"},
		{"long", "long2", "long3", "long4"},
		{"ulong", "ulong2", "ulong3", "ulong4"},
		{"float", "float2", "float3", "float4"},
		{"double", "double2", "double3", "double4"},
	};
	const struct scalar_info *si = scalar_find(s);
	if (!si || n < 1 || n > 4)
		return NULL;
	if (n == 1)
		return si->name;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i][0][0] == s[0] && strcmp(names[i][0], s) == 0)
			return names[i][n - 1];
	return NULL;
}

int ty_promo_rank(const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	return si ? si->rank : 0;
}

/* spec 6.3.3: the type both operands of a binary operator are brought
 * to: the larger scalar type wins with its component count (brcheck -a:
 * char2 + uchar is a uchar); for one scalar type, the larger count. brgen
 * computes in it what brcheck typed so. */
const json_t *ty_promoted(const json_t *l, const json_t *r)
{
	const char *ls = ty_scalar(l), *rs = ty_scalar(r);
	int ln = ty_ncomp(l), rn = ty_ncomp(r);
	if (strcmp(ls, rs) == 0)
		return ln >= rn ? l : r;
	int lr = ty_promo_rank(ls), rr = ty_promo_rank(rs);
	if (lr == rr)
		lr = ty_scalar_bits(ls), rr = ty_scalar_bits(rs);
	return lr >= rr ? l : r;
}

/* spec 6.3.3: each type of the table promotes to every type after it. */
int ty_promotes(const char *from, const char *to)
{
	int a = ty_promo_rank(from), b = ty_promo_rank(to);
	return a > 0 && b > 0 && a < b;
}

static int fields_equal(const json_t *a, const json_t *b)
{
	size_t n = json_array_size(a);
	if (n != json_array_size(b))
		return 0;
	for (size_t i = 0; i < n; i++) {
		json_t *fa = json_array_get(a, i), *fb = json_array_get(b, i);
		json_t *na = json_object_get(fa, "name");
		json_t *nb = json_object_get(fb, "name");
		if (!json_equal(na, nb) && (na || nb))
			return 0;
		if (!ty_equal(json_object_get(fa, "type"),
			json_object_get(fb, "type")))
			return 0;
	}
	return 1;
}

int ty_equal(const json_t *a, const json_t *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	const char *ta = ty_kind(a), *tb = ty_kind(b);
	if (!ty_streq(ta, tb))
		return 0;
	if (ty_streq(ta, "ptr"))
		return ty_equal(json_object_get(a, "to"), json_object_get(b, "to"));
	if (ty_streq(ta, "array") || ty_streq(ta, "stream"))
		return ty_equal(json_object_get(a, "of"), json_object_get(b, "of"));
	if (ty_streq(ta, "struct") || ty_streq(ta, "union") ||
		ty_streq(ta, "enum")) {
		json_t *ga = json_object_get(a, "tag"), *gb = json_object_get(b, "tag");
		if (json_is_string(ga) || json_is_string(gb))
			return json_equal(ga, gb);
		return fields_equal(json_object_get(a, "fields"),
			json_object_get(b, "fields"));
	}
	if (ty_streq(ta, "typedef"))
		return json_equal(json_object_get(a, "name"),
			json_object_get(b, "name"));
	if (ty_streq(ta, "func"))
		return ty_equal(json_object_get(a, "ret"), json_object_get(b, "ret"));
	return 1;
}

static void name_dims(strbuf *b, const json_t *dims, const char *open,
	const char *close)
{
	size_t i;
	json_t *d;
	sb_puts(b, open);
	json_array_foreach(dims, i, d) {
		if (i)
			sb_putc(b, ',');
		json_t *v = json_object_get(d, "value");
		if (json_is_integer(v))
			sb_printf(b, "%lld", (long long)json_integer_value(v));
	}
	sb_puts(b, close);
}

static void name_to(strbuf *b, const json_t *t)
{
	const char *k = ty_kind(t);
	if (!t || !*k) {
		sb_puts(b, "?");
	} else if (ty_streq(k, "ptr")) {
		name_to(b, json_object_get(t, "to"));
		sb_puts(b, " *");
	} else if (ty_streq(k, "stream")) {
		name_to(b, json_object_get(t, "of"));
		name_dims(b, json_object_get(t, "dims"), "<", ">");
	} else if (ty_streq(k, "array")) {
		const json_t *e = t;
		while (ty_is_array(e))
			e = json_object_get(e, "of");
		name_to(b, e);
		for (e = t; ty_is_array(e); e = json_object_get(e, "of")) {
			json_t *v = json_object_get(json_object_get(e, "size"),
				"value");
			if (json_is_integer(v))
				sb_printf(b, "[%lld]",
					(long long)json_integer_value(v));
			else
				sb_puts(b, "[]");
		}
	} else if (ty_streq(k, "struct") || ty_streq(k, "union") ||
		ty_streq(k, "enum")) {
		json_t *tag = json_object_get(t, "tag");
		sb_printf(b, "%s %s", k,
			json_is_string(tag) ? json_string_value(tag) : "<anonymous>");
	} else if (ty_streq(k, "typedef")) {
		json_t *n = json_object_get(t, "name");
		sb_puts(b, json_is_string(n) ? json_string_value(n) : "?");
	} else if (ty_streq(k, "func")) {
		name_to(b, json_object_get(t, "ret"));
		sb_puts(b, " ()");
	} else {
		sb_puts(b, k);
	}
}

char *ty_name(const json_t *t)
{
	strbuf b = {0};
	name_to(&b, t);
	return sb_take(&b);
}

/* spec 6.3.12, by operator. */
enum { OPS_ARITH, OPS_MOD, OPS_BITS, OPS_LOGIC };

static int op_class(const char *op)
{
	static const struct { const char *op; int cls; } tab[] = {
		{"%", OPS_MOD}, {"%=", OPS_MOD},
		{"&", OPS_BITS}, {"|", OPS_BITS}, {"^", OPS_BITS}, {"~", OPS_BITS},
		{"<<", OPS_BITS}, {">>", OPS_BITS}, {"&=", OPS_BITS},
		{"|=", OPS_BITS}, {"^=", OPS_BITS}, {"<<=", OPS_BITS},
		{">>=", OPS_BITS},
		{"&&", OPS_LOGIC}, {"||", OPS_LOGIC}, {"!", OPS_LOGIC},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (tab[i].op[0] == op[0] && strcmp(tab[i].op, op) == 0)
			return tab[i].cls;
	return OPS_ARITH;
}

int ty_op_accepts(const char *op, const char *s)
{
	const struct scalar_info *si = scalar_find(s);
	if (!si)
		return 0;
	if (ty_streq(s, "bool"))
		return 1;
	switch (op_class(op)) {
	case OPS_MOD:
	case OPS_LOGIC:
		return si->integer;
	case OPS_BITS:
		return ty_streq(s, "int") || ty_streq(s, "uint");
	default:
		return 1;
	}
}

int ty_op_of_kind(const char *op, const char *kind)
{
	static const struct { const char *kind, *ops[20]; } tab[] = {
		{"binop", {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=",
			">=", "==", "!=", "&", "^", "|", "&&", "||", NULL}},
		{"assign", {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=",
			"^=", "|=", NULL}},
		{"unop", {"-", "+", "!", "~", "*", "&", "++", "--", NULL}},
		{"postfix", {"++", "--", NULL}},
	};
	if (!op || !kind)
		return 0;
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
		if (strcmp(tab[i].kind, kind) != 0)
			continue;
		for (size_t j = 0; tab[i].ops[j]; j++)
			if (tab[i].ops[j][0] == op[0] && strcmp(tab[i].ops[j], op) == 0)
				return 1;
	}
	return 0;
}

const char *ty_op_needs(const char *op)
{
	return op_class(op) == OPS_ARITH ? "Arithmetic" : "Integer";
}

/* spec 5, plus the common functions of the same family that OpenCL C
 * offers under the same names (ceil, tan, atan, atan2, log2, exp2, length,
 * distance). */
static const ty_builtin builtins[] = {
	{"abs", TY_B_NUM1, 1},
	{"acos", TY_B_FLOAT1, 1},
	{"asin", TY_B_FLOAT1, 1},
	{"atan", TY_B_FLOAT1, 1},
	{"atan2", TY_B_FLOAT2, 2},
	{"ceil", TY_B_FLOAT1, 1},
	{"clamp", TY_B_NUM3, 3},
	{"cos", TY_B_FLOAT1, 1},
	{"cross", TY_B_CROSS, 2},
	{"distance", TY_B_DOT, 2},
	{"dot", TY_B_DOT, 2},
	{"exp", TY_B_FLOAT1, 1},
	{"exp2", TY_B_FLOAT1, 1},
	{"floor", TY_B_FLOAT1, 1},
	{"fmod", TY_B_FLOAT2, 2},
	{"frac", TY_B_FLOAT1, 1},
	{"isfinite", TY_B_PRED, 1},
	{"isinf", TY_B_PRED, 1},
	{"isnan", TY_B_PRED, 1},
	{"length", TY_B_LENGTH, 1},
	{"lerp", TY_B_FLOAT3, 3},
	{"log", TY_B_FLOAT1, 1},
	{"log2", TY_B_FLOAT1, 1},
	{"max", TY_B_NUM2, 2},
	{"min", TY_B_NUM2, 2},
	{"normalize", TY_B_FLOAT1, 1},
	{"pow", TY_B_FLOAT2, 2},
	{"round", TY_B_FLOAT1, 1},
	{"rsqrt", TY_B_FLOAT1, 1},
	{"sign", TY_B_NUM1, 1},
	{"sin", TY_B_FLOAT1, 1},
	{"sqrt", TY_B_FLOAT1, 1},
	{"tan", TY_B_FLOAT1, 1},
	{NULL, 0, 0}
};

const ty_builtin *ty_builtin_find(const char *name)
{
	if (!name)
		return NULL;
	for (const ty_builtin *b = builtins; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

const ty_builtin *ty_builtins(void)
{
	return builtins;
}
