/* parse_build.c - building brast(5) nodes for the grammar's actions.
 *
 * Every function here takes ownership of the json_t values and the
 * declaration specifiers and declarators it is given, so an action hands
 * its right-hand side over and keeps nothing.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/parse_int.h"
#include "brook/util.h"
#include "grammar.h"

/* keys are the program's own literals: no UTF-8 check, no copy (the
 * node borrows the literal), and inline, so that their length is known
 * when the program is compiled */
static inline int set_member(json_t *n, const char *key, json_t *v)
{
	return brj_object_setn_new_lent(n, key, strlen(key), v);
}
#define SET(n, key, v) set_member((n), (key), (v))

/* Small integers and node kinds are shared among the nodes (json.h
 * counts references): a 50,000-line file has millions of them, and
 * allocating each costs more than parsing. Nothing changes them in place. */
static json_t *small_int(parse_ctx *c, int v)
{
	if (v < 0 || v >= PARSE_INT_CACHE)
		return json_integer(v);
	if (!c->ints[v])
		c->ints[v] = json_integer(v);
	return json_incref(c->ints[v]);
}

json_t *pb_at(parse_ctx *c, const lex_token *t)
{
	json_t *e[3];

	e[0] = small_int(c, t->file);
	e[1] = small_int(c, t->line);
	e[2] = small_int(c, t->col);
	return brj_array_of(e, 3);	/* in one piece */
}

/* kind: a string constant; the cache is open-addressed by its address */
json_t *pb_kind(parse_ctx *c, const char *kind)
{
	unsigned h = (unsigned)((uintptr_t)kind >> 3);
	for (int n = 0; n < PARSE_KIND_CACHE; n++, h++) {
		int i = (int)(h % PARSE_KIND_CACHE);
		if (c->kinds[i].name == kind)
			return json_incref(c->kinds[i].j);
		if (!c->kinds[i].name) {
			c->kinds[i].name = kind;
			c->kinds[i].j = json_string(kind);
			return json_incref(c->kinds[i].j);
		}
	}
	return json_string(kind);
}

/* {"t": t}, t a string constant */
static json_t *type_new(parse_ctx *c, const char *t)
{
	json_t *n = json_object();
	SET(n, "t", pb_kind(c, t));
	return n;
}

/* The operator's spelling as a string constant, for pb_kind. */
static const char *op_text(const lex_token *op)
{
	static const char *const ops[] = {
		"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==",
		"!=", "&", "^", "|", "&&", "||", "=", "+=", "-=", "*=", "/=",
		"%=", "<<=", ">>=", "&=", "^=", "|=", "!", "~", "++", "--",
	};
	/* the first character rules out most without a call */
	for (size_t i = 0; op->len > 0 && i < sizeof ops / sizeof ops[0]; i++)
		if (ops[i][0] == op->s[0] && (int)strlen(ops[i]) == op->len &&
				memcmp(ops[i], op->s, (size_t)op->len) == 0)
			return ops[i];
	return "?";
}

json_t *pb_node(parse_ctx *c, const char *kind, json_t *at)
{
	/* most nodes have 3 to 5 members */
	json_t *n = brj_object_sized(5);
	SET(n, "k", pb_kind(c, kind));
	SET(n, "at", at ? at : json_null());
	return n;
}

json_t *pb_name(const lex_token *t)
{
	return pb_text(t->s, (size_t)t->len, PB_NAME);
}

/* The length of the valid UTF-8 sequence at s, or 0 (RFC 3629). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		: s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4
		? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f)
		|| (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

unsigned long pb_utf8_char(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long cp;

	*len = utf8_len(u, n);
	if (*len < 2)
		return *len ? u[0] : 0;
	cp = u[0] & (0x7f >> *len);
	for (size_t i = 1; i < *len; i++)
		cp = cp << 6 | (u[i] & 0x3f);
	return cp;
}

/* Source text as a JSON string, which must be UTF-8. A byte that is not
 * UTF-8 becomes an octal escape (the same char in C) in a PB_LITERAL or a
 * PB_FILE (a file name), and '?' in a PB_NAME; control characters become
 * octal escapes in a PB_LITERAL, spaces in a PB_NAME, and stay as they
 * are in a PB_FILE (a newline in a file name is one). */
json_t *pb_text(const char *s, size_t n, int mode)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;
	while (i < n && u[i] >= 0x20 && u[i] < 0x80)
		i++;
	if (i == n)
		return json_stringn(s, n);
	strbuf b = {0};
	sb_putn(&b, s, i);
	while (i < n) {
		if (u[i] < 0x20 && mode != PB_LITERAL) {
			sb_putc(&b, mode == PB_FILE ? s[i] : ' ');
			i++;
		} else if (u[i] >= 0x20 && (k = utf8_len(u + i, n - i)) > 0) {
			sb_putn(&b, s + i, k);
			i += k;
		} else {
			if (mode != PB_NAME)
				sb_printf(&b, "\\%03o", u[i]);
			else
				sb_putc(&b, '?');
			i++;
		}
	}
	json_t *j = json_stringn(b.s, b.len);
	sb_free(&b);
	return j;
}

/* A reference to n's location, for a node that starts where n starts. */
static json_t *at_of(const json_t *n)
{
	json_t *at = json_object_get(n, "at");
	return at ? json_incref(at) : json_null();
}

static json_t *nn(json_t *x)
{
	return x ? x : json_null();
}

parse_ex pb_ex(parse_ctx *c, json_t *node, int d)
{
	if (d > PARSE_MAX_DEPTH)
		parse_too_deep(c);
	return (parse_ex){ node, d };
}

static int max2(int a, int b)
{
	return a > b ? a : b;
}

/* ---- literals (C99 6.4.4, 6.4.5) --------------------------------------- */

parse_ex pb_id(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "id", pb_at(c, t));
	SET(n, "name", pb_name(t));
	return pb_ex(c, n, 1);
}

/* integer-constant = (decimal | octal | hex | binary) suffix?; the value
 * as a JSON integer, or as decimal digits beyond int64. */
parse_ex pb_int(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "int", pb_at(c, t));
	SET(n, "text", pb_name(t));
	const char *p = t->s, *end = t->s + t->len;
	while (end > p && strchr("uUlL", end[-1]))
		end--;
	int base = 10;
	if (end - p > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (end - p > 1 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (end - p > 1 && p[0] == '0')
		base = 8, p++;
	uint64_t v = 0;
	int overflow = 0;
	for (; p < end; p++) {
		int dig = *p >= 'a' ? *p - 'a' + 10 : *p >= 'A' ? *p - 'A' + 10
			: *p - '0';
		if (dig >= base) {
			parse_error_at(c, json_object_get(n, "at"), "parse-literal",
				"invalid digit \"%c\" in %s constant", *p,
				base == 8 ? "octal" : base == 2 ? "binary" : "integer");
			break;
		}
		if (v > (UINT64_MAX - (uint64_t)dig) / (uint64_t)base)
			overflow = 1;
		v = v * (uint64_t)base + (uint64_t)dig;
	}
	if (overflow) {
		parse_error_at(c, json_object_get(n, "at"), "parse-literal",
			"integer constant is too large for its type");
		SET(n, "value", json_integer(0));
	} else if (v > (uint64_t)INT64_MAX) {
		char buf[32];
		snprintf(buf, sizeof buf, "%" PRIu64, v);
		SET(n, "value", json_string(buf));
	} else {
		SET(n, "value", json_integer((json_int_t)v));
	}
	return pb_ex(c, n, 1);
}

parse_ex pb_float(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "float", pb_at(c, t));
	SET(n, "text", pb_name(t));
	char buf[128];
	size_t len = (size_t)t->len < sizeof buf - 1 ? (size_t)t->len
		: sizeof buf - 1;
	memcpy(buf, t->s, len);
	buf[len] = 0;
	errno = 0;
	double v = strtod(buf, NULL);
	if (!isfinite(v)) {
		parse_error_at(c, json_object_get(n, "at"), "parse-literal",
			"floating constant exceeds the range of its type");
		v = 0;
	}
	SET(n, "value", json_real(v));
	return pb_ex(c, n, 1);
}

/* The value of hex digit D, or -1. */
static int hex_digit(char d)
{
	return d >= '0' && d <= '9' ? d - '0' : d && strchr("abcdefABCDEF", d) ?
		(d | 32) - 'a' + 10 : -1;
}

/* One character of a character or string literal, escapes decoded
 * (C99 6.4.4.4); advances *p. */
static long long char_value(const char **p, const char *end)
{
	const char *s = *p;
	long long v;
	if (*s != '\\') {
		*p = s + 1;
		return (unsigned char)*s;
	}
	s++;
	switch (*s) {
	case 'n': v = '\n'; s++; break;
	case 't': v = '\t'; s++; break;
	case 'r': v = '\r'; s++; break;
	case 'a': v = '\a'; s++; break;
	case 'b': v = '\b'; s++; break;
	case 'f': v = '\f'; s++; break;
	case 'v': v = '\v'; s++; break;
	case 'e': v = 27; s++; break;
	case 'x':
		v = 0;
		for (s++; s < end && hex_digit(*s) >= 0; s++)
			v = (v << 4 | hex_digit(*s)) & 0xffffffff;
		break;
	case 'u':	/* C99 6.4.3: the code point of \uXXXX, \UXXXXXXXX */
	case 'U': {
		int n = *s == 'u' ? 4 : 8;
		v = 0;
		for (s++; n > 0 && s < end && hex_digit(*s) >= 0; n--, s++)
			v = v << 4 | hex_digit(*s);
		break;
	}
	default:
		if (*s >= '0' && *s <= '7') {
			v = 0;
			for (int i = 0; i < 3 && s < end && *s >= '0' && *s <= '7';
				i++, s++)
				v = v * 8 + (*s - '0');
		} else {
			v = (unsigned char)*s;
			s++;
		}
	}
	*p = s;
	return v;
}

parse_ex pb_char(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "char", pb_at(c, t));
	SET(n, "text", pb_text(t->s, (size_t)t->len, PB_LITERAL));
	const char *p = memchr(t->s, '\'', (size_t)t->len) + 1;
	const char *end = t->s + t->len - 1;
	long long v = 0;
	int plain = t->s[0] == '\'', nbytes = 0;
	while (p < end) {
		int ucn = p[0] == '\\' && (p[1] == 'u' || p[1] == 'U');
		long long ch = char_value(&p, end);
		if (plain && ucn && ch >= 0x80) {
			/* as gcc: the character's UTF-8 bytes, as if written */
			static const int lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
			int n = ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4;
			for (int i = n - 1; i >= 0; i--) {
				long long byte = i == n - 1 ? lead[n] | ch >> 6 * i :
					0x80 | (ch >> 6 * i & 0x3f);
				v = (v << 8 | (byte & 0xff)) & 0xffffffff;
			}
			nbytes += n;
		} else {
			v = plain ? (v << 8 | (ch & 0xff)) & 0xffffffff : ch;
			nbytes++;
		}
	}
	/* as gcc: one char is a signed char here, as on the hosts gcc
	   targets; several make an int of their bytes, the first highest */
	if (plain && nbytes == 1 && v > 127)
		v -= 256;
	else if (plain && v > INT32_MAX)
		v -= 1LL << 32;
	SET(n, "value", json_integer(v));
	return pb_ex(c, n, 1);
}

parse_ex pb_string(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "string", pb_at(c, t));
	SET(n, "text", pb_text(t->s, (size_t)t->len, PB_LITERAL));
	return pb_ex(c, n, 1);
}

/* "ab" "c": the pieces as written, joined by one space */
void pb_string_more(parse_ctx *c, parse_ex *s, const lex_token *t)
{
	(void)c;
	json_t *old = json_object_get(s->j, "text");
	json_t *more = pb_text(t->s, (size_t)t->len, PB_LITERAL);
	strbuf b = {0};
	sb_putn(&b, json_string_value(old), json_string_length(old));
	sb_putc(&b, ' ');
	sb_putn(&b, json_string_value(more), json_string_length(more));
	SET(s->j, "text", json_stringn(b.s, b.len));
	json_decref(more);
	sb_free(&b);
}

/* ---- operators (C99 6.5) ----------------------------------------------- */

parse_ex pb_paren(parse_ctx *c, const lex_token *lp, parse_ex e)
{
	json_t *n = pb_node(c, "paren", pb_at(c, lp));
	SET(n, "e", e.j);
	return pb_ex(c, n, e.d + 1);
}

/* binop, assign and comma: l OP r, located where l starts */
parse_ex pb_binop(parse_ctx *c, const char *kind, const lex_token *op,
	parse_ex l, parse_ex r)
{
	json_t *n = pb_node(c, kind, at_of(l.j));
	if (strcmp(kind, "comma") != 0)
		SET(n, "op", pb_kind(c, op_text(op)));
	SET(n, "l", l.j);
	SET(n, "r", r.j);
	return pb_ex(c, n, max2(l.d, r.d) + 1);
}

/* unop (prefix), postfix and sizeof EXPR */
parse_ex pb_unop(parse_ctx *c, const char *kind, const lex_token *op,
	parse_ex e, int postfix)
{
	json_t *n = pb_node(c, kind, postfix ? at_of(e.j) : pb_at(c, op));
	if (strcmp(kind, "sizeof") != 0)
		SET(n, "op", pb_kind(c, op_text(op)));
	SET(n, "e", e.j);
	return pb_ex(c, n, e.d + 1);
}

parse_ex pb_cond(parse_ctx *c, parse_ex a, parse_ex b, parse_ex f)
{
	json_t *n = pb_node(c, "cond", at_of(a.j));
	SET(n, "c", a.j);
	SET(n, "t", b.j);
	SET(n, "f", f.j);
	return pb_ex(c, n, max2(a.d, max2(b.d, f.d)) + 1);
}

void pb_args_add(parse_ex *args, parse_ex e)
{
	if (!args->j)
		args->j = json_array();
	json_array_append_new(args->j, e.j);
	args->d = max2(args->d, e.d);
}

parse_ex pb_call(parse_ctx *c, parse_ex fn, json_t *args, int argd)
{
	json_t *n = pb_node(c, "call", at_of(fn.j));
	SET(n, "fn", fn.j);
	SET(n, "args", args);
	return pb_ex(c, n, max2(fn.d, argd) + 1);
}

/* guide, vector constructors: float4(...) and float4_(...) */
parse_ex pb_ctor(parse_ctx *c, const lex_token *t, json_t *args, int argd,
	int underscore)
{
	json_t *n = pb_node(c, "ctor", pb_at(c, t));
	json_t *ty = json_object();
	SET(ty, "t", json_stringn(t->s, (size_t)(t->len - underscore)));
	SET(n, "type", ty);
	SET(n, "args", args);
	if (underscore)
		SET(n, "underscore", json_true());
	return pb_ex(c, n, argd + 1);
}

parse_ex pb_index(parse_ctx *c, parse_ex a, parse_ex i)
{
	json_t *n = pb_node(c, "index", at_of(a.j));
	SET(n, "a", a.j);
	SET(n, "i", i.j);
	return pb_ex(c, n, max2(a.d, i.d) + 1);
}

parse_ex pb_member(parse_ctx *c, parse_ex e, const lex_token *name, int arrow)
{
	json_t *n = pb_node(c, "member", at_of(e.j));
	SET(n, "e", e.j);
	SET(n, "name", pb_name(name));
	SET(n, "arrow", json_boolean(arrow));
	return pb_ex(c, n, e.d + 1);
}

parse_ex pb_cast(parse_ctx *c, const lex_token *lp, json_t *type, parse_ex e)
{
	json_t *n = pb_node(c, "cast", pb_at(c, lp));
	SET(n, "type", type);
	SET(n, "e", e.j);
	return pb_ex(c, n, e.d + 1);
}

parse_ex pb_sizeof_type(parse_ctx *c, const lex_token *t, json_t *type)
{
	json_t *n = pb_node(c, "sizeof", pb_at(c, t));
	SET(n, "type", type);
	return pb_ex(c, n, 1);
}

parse_ex pb_compound(parse_ctx *c, const lex_token *lp, json_t *type,
	json_t *init)
{
	json_t *n = pb_node(c, "compound", pb_at(c, lp));
	SET(n, "type", type);
	SET(n, "init", init);
	return pb_ex(c, n, 1);
}

parse_ex pb_indexof(parse_ctx *c, const lex_token *t, parse_ex e)
{
	json_t *n = pb_node(c, "indexof", pb_at(c, t));
	SET(n, "e", e.j);
	return pb_ex(c, n, e.d + 1);
}

/* ---- declaration specifiers (C99 6.7.1-6.7.4, spec 6.2) ----------------- */

void pb_specs_init(parse_ctx *c, parse_specs *s, const lex_token *t)
{
	memset(s, 0, sizeof *s);
	if (t)
		s->at = pb_at(c, t);
}

void pb_specs_free(parse_specs *s)
{
	json_decref(s->at);
	json_decref(s->type);
	json_decref(s->cquals);
	json_decref(s->bquals);
	json_decref(s->attrs);
	memset(s, 0, sizeof *s);
}

static void list_add_str(json_t **l, const char *s)
{
	if (!*l)
		*l = json_array();
	json_array_append_new(*l, json_string(s));
}

/* spec 6.1.1: the vector type names and Brook's scalar names, as the AST
 * spells them; NULL for another name. */
static const char *named_type(const char *s, int len)
{
	static const char *const names[] = {
		"float2", "float3", "float4", "double2", "double3", "double4",
		"int2", "int3", "int4", "uint2", "uint3", "uint4",
		"char2", "char3", "char4", "uchar2", "uchar3", "uchar4",
		"short2", "short3", "short4", "ushort2", "ushort3", "ushort4",
		"long2", "long3", "long4", "ulong2", "ulong3", "ulong4",
		"uchar", "ushort", "uint", "ulong", "bool",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((int)strlen(names[i]) == len && memcmp(names[i], s,
			(size_t)len) == 0)
			return names[i];
	return NULL;
}

/* " (...)" where A or B is a struct, union or enum with its body, the
 * most common cause of two types: "struct S { ... }" and a declaration
 * after it with no ';' between; else "". */
static const char *body_hint(const json_t *a, const json_t *b)
{
	const json_t *ty[2] = {a, b};
	for (int i = 0; i < 2; i++)
		if (json_object_get(ty[i], "fields") || json_object_get(ty[i],
			"items"))
			return " (is the ';' after a struct, union or enum "
				"body missing?)";
	return "";
}

void pb_specs_token(parse_ctx *c, parse_specs *s, const lex_token *t)
{
	static const struct { int code; unsigned bit; const char *name; } kw[] = {
		{TK_VOID, PS_VOID, "void"}, {TK_CHAR, PS_CHAR, "char"},
		{TK_SHORT, PS_SHORT, "short"}, {TK_INT, PS_INT, "int"},
		{TK_FLOAT, PS_FLOAT, "float"}, {TK_DOUBLE, PS_DOUBLE, "double"},
		{TK_SIGNED, PS_SIGNED, "signed"},
		{TK_UNSIGNED, PS_UNSIGNED, "unsigned"},
		{TK_BOOL, PS_BOOL, "_Bool"}, {TK_COMPLEX, PS_COMPLEX, "_Complex"},
		{TK_IMAGINARY, PS_IMAGINARY, "_Imaginary"},
	};
	if (!s->at)
		s->at = pb_at(c, t);
	switch (t->code) {
	case TK_TYPEDEF: case TK_EXTERN: case TK_STATIC: case TK_AUTO:
	case TK_REGISTER: {
		static const char *const st[] = {"typedef", "extern", "static",
			"auto", "register"};
		const char *name = st[t->code == TK_TYPEDEF ? 0 : t->code ==
			TK_EXTERN ? 1 : t->code == TK_STATIC ? 2 : t->code ==
			TK_AUTO ? 3 : 4];
		if (s->storage) {
			json_t *at = pb_at(c, t);
			parse_error_at(c, at, "parse-type",
				"multiple storage classes in declaration specifiers");
			json_decref(at);
		}
		s->storage = name;
		return;
	}
	case TK_LONG:
		if (++s->nlong > 2) {
			json_t *at = pb_at(c, t);
			parse_error_at(c, at, "parse-type", "'long long long' is too long");
			json_decref(at);
			s->nlong = 2;
		}
		return;
	case TK_VECTYPE: case TK_SCALARNAME:
		if (s->named || s->type) {
			json_t *at = pb_at(c, t);
			parse_error_at(c, at, "parse-type", "two or more data "
				"types in declaration specifiers%s",
				body_hint(s->type, NULL));
			json_decref(at);
		}
		s->named = named_type(t->s, t->len);
		return;
	case TK_TYPE_NAME: {
		json_t *ty = json_object();
		SET(ty, "t", json_string("typedef"));
		SET(ty, "name", pb_name(t));
		pb_specs_type(c, s, ty);
		return;
	}
	case TK_CONST: list_add_str(&s->cquals, "const"); return;
	case TK_VOLATILE: list_add_str(&s->cquals, "volatile"); return;
	case TK_RESTRICT: list_add_str(&s->cquals, "restrict"); return;
	case TK_INLINE: s->inl = 1; return;
	case TK_KERNEL: s->kernel = 1; return;
	case TK_REDUCE: s->reduce = 1; return;
	case TK_OUT: list_add_str(&s->bquals, "out"); return;
	case TK_VOUT: list_add_str(&s->bquals, "vout"); return;
	case TK_ITER: list_add_str(&s->bquals, "iter"); return;
	case TK_SHARED: list_add_str(&s->bquals, "shared"); return;
	}
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (kw[i].code == t->code) {
			if (s->kw & kw[i].bit) {
				json_t *at = pb_at(c, t);
				parse_error_at(c, at, "parse-type", "duplicate '%s'",
					kw[i].name);
				json_decref(at);
			}
			s->kw |= kw[i].bit;
			return;
		}
}

/* a struct, union, enum or typedef type */
void pb_specs_type(parse_ctx *c, parse_specs *s, json_t *type)
{
	if (!s->at)
		s->at = at_of(type);
	if (s->type || s->named) {
		parse_error_at(c, s->at, "parse-type", "two or more data types "
			"in declaration specifiers%s", body_hint(s->type, type));
		json_decref(type);
		return;
	}
	s->type = type;
}

void pb_specs_attrs(parse_ctx *c, parse_specs *s, json_t *attrs)
{
	(void)c;
	if (!s->at && json_array_size(attrs))
		s->at = at_of(json_array_get(attrs, 0));
	if (!s->attrs)
		s->attrs = json_array();
	json_array_extend(s->attrs, attrs);
	json_decref(attrs);
}

json_t *pb_attr(parse_ctx *c, const lex_token *name, json_t *args)
{
	json_t *n = pb_node(c, "attr", pb_at(c, name));
	SET(n, "name", pb_name(name));
	SET(n, "args", args ? args : json_array());
	return n;
}

/* The type named by the basic type keywords (C99 6.7.2's list of valid
 * combinations); NULL when the combination is not one of them. */
static const char *basic_type(const parse_specs *s)
{
	static const struct { unsigned kw; int nlong; const char *t; } tab[] = {
		{PS_VOID, 0, "void"}, {PS_BOOL, 0, "bool"},
		{PS_CHAR, 0, "char"}, {PS_SIGNED | PS_CHAR, 0, "schar"},
		{PS_UNSIGNED | PS_CHAR, 0, "uchar"},
		{PS_SHORT, 0, "short"}, {PS_SHORT | PS_INT, 0, "short"},
		{PS_SIGNED | PS_SHORT, 0, "short"},
		{PS_SIGNED | PS_SHORT | PS_INT, 0, "short"},
		{PS_UNSIGNED | PS_SHORT, 0, "ushort"},
		{PS_UNSIGNED | PS_SHORT | PS_INT, 0, "ushort"},
		{PS_INT, 0, "int"}, {PS_SIGNED, 0, "int"},
		{PS_SIGNED | PS_INT, 0, "int"},
		{PS_UNSIGNED, 0, "uint"}, {PS_UNSIGNED | PS_INT, 0, "uint"},
		{0, 1, "long"}, {PS_INT, 1, "long"}, {PS_SIGNED, 1, "long"},
		{PS_SIGNED | PS_INT, 1, "long"},
		{PS_UNSIGNED, 1, "ulong"}, {PS_UNSIGNED | PS_INT, 1, "ulong"},
		{0, 2, "llong"}, {PS_INT, 2, "llong"}, {PS_SIGNED, 2, "llong"},
		{PS_SIGNED | PS_INT, 2, "llong"},
		{PS_UNSIGNED, 2, "ullong"}, {PS_UNSIGNED | PS_INT, 2, "ullong"},
		{PS_FLOAT, 0, "float"}, {PS_DOUBLE, 0, "double"},
		{PS_DOUBLE, 1, "ldouble"},
		/* C99 6.7.2: float _Complex and the like, in any order */
		{PS_FLOAT | PS_COMPLEX, 0, "cfloat"},
		{PS_DOUBLE | PS_COMPLEX, 0, "cdouble"},
		{PS_DOUBLE | PS_COMPLEX, 1, "cldouble"},
		{PS_FLOAT | PS_IMAGINARY, 0, "ifloat"},
		{PS_DOUBLE | PS_IMAGINARY, 0, "idouble"},
		{PS_DOUBLE | PS_IMAGINARY, 1, "ildouble"},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (tab[i].kw == s->kw && tab[i].nlong == s->nlong)
			return tab[i].t;
	return NULL;
}

/* The base type of a declaration: what its specifiers name, with their C
 * qualifiers. *noret is set when no type was written at all (a kernel with
 * no return type, spec 7; old C's implicit int elsewhere). */
json_t *pb_specs_base(parse_ctx *c, parse_specs *s, int *noret)
{
	json_t *ty = NULL;
	*noret = 0;
	if (s->type) {
		if (s->kw || s->nlong)
			parse_error_at(c, s->at, "parse-type", "two or more data "
				"types in declaration specifiers%s",
				body_hint(s->type, NULL));
		ty = json_incref(s->type);
	} else if (s->named) {
		/* spec 6.1.1: "unsigned int4" is uint4, "unsigned char2" uchar2 */
		const char *name = s->named;
		char buf[16];
		if (s->kw == PS_UNSIGNED && s->nlong == 0 && name[0] != 'u'
			&& strncmp(name, "float", 5) != 0 && strncmp(name, "double",
			6) != 0 && strcmp(name, "bool") != 0) {
			snprintf(buf, sizeof buf, "u%s", name);
			name = buf;
		} else if (s->kw || s->nlong) {
			parse_error_at(c, s->at, "parse-type",
				"two or more data types in declaration specifiers");
		}
		ty = name == buf ? ast_type(name) : type_new(c, name);
	} else if (s->kw == 0 && s->nlong == 0) {
		*noret = 1;
		ty = type_new(c, "int");
	} else {
		const char *t = basic_type(s);
		if (!t)
			parse_error_at(c, s->at, "parse-type", "%s",
				s->kw & (PS_COMPLEX | PS_IMAGINARY)
				? "_Complex and _Imaginary go with float, double or "
				"long double only" : "invalid combination of type "
				"specifiers");
		ty = type_new(c, t ? t : "int");
	}
	if (s->cquals) {
		if (json_object_get(ty, "quals")) {
			/* a typedef or tagged type shared with other uses: copy */
			json_t *cp = json_copy(ty);
			json_decref(ty);
			ty = cp;
		}
		json_t *q = json_object_get(ty, "quals");
		if (q)
			json_array_extend(q, s->cquals);
		else
			SET(ty, "quals", json_copy(s->cquals));
	}
	return ty;
}

/* ---- struct, union, enum (C99 6.7.2.1-3) -------------------------------- */

json_t *pb_struct(parse_ctx *c, const lex_token *kw, const lex_token *tag,
	json_t *fields)
{
	json_t *ty = type_new(c, kw->code == TK_UNION ? "union" : "struct");
	SET(ty, "at", pb_at(c, kw));
	SET(ty, "tag", tag ? pb_name(tag) : json_null());
	if (fields)
		SET(ty, "fields", fields);
	return ty;
}

json_t *pb_enum(parse_ctx *c, const lex_token *tag, json_t *items)
{
	json_t *ty = type_new(c, "enum");
	if (tag)
		SET(ty, "at", pb_at(c, tag));
	else if (json_array_size(items))
		SET(ty, "at", at_of(json_array_get(items, 0)));
	SET(ty, "tag", tag ? pb_name(tag) : json_null());
	if (items)
		SET(ty, "items", items);
	return ty;
}

json_t *pb_enumitem(parse_ctx *c, const lex_token *name, json_t *value)
{
	json_t *n = json_object();
	SET(n, "at", pb_at(c, name));
	SET(n, "name", pb_name(name));
	SET(n, "value", nn(value));
	parse_declare(c, name->s, name->len, PARSE_SYM_ORD);
	return n;
}

/* ---- declarators (C99 6.7.5, spec 3.2) ---------------------------------- */

void pb_decltor_name(parse_ctx *c, parse_decltor *d, const lex_token *t)
{
	memset(d, 0, sizeof *d);
	d->at = pb_at(c, t);
	d->name = t->s;
	d->namelen = t->len;
}

void pb_decltor_empty(parse_ctx *c, parse_decltor *d, const lex_token *t)
{
	memset(d, 0, sizeof *d);
	d->at = pb_at(c, t);
}

void pb_decltor_free(parse_decltor *d)
{
	json_decref(d->at);
	json_decref(d->top);
	json_decref(d->args);
	memset(d, 0, sizeof *d);
}

/* Puts derived type t where the base type would go: "a[3]" makes a an
 * array of 3 of what the rest of the declaration says. */
void pb_decltor_derive(parse_ctx *c, parse_decltor *d, json_t *t,
	const char *key)
{
	if (d->inner)
		SET(d->inner, d->key, t);
	else
		d->top = t;
	d->inner = t;
	d->key = key;
	if (++d->depth > PARSE_MAX_DEPTH)
		parse_too_deep(c);
}

void pb_decltor_array(parse_ctx *c, parse_decltor *d, json_t *size)
{
	json_t *t = type_new(c, "array");
	SET(t, "of", json_null());
	SET(t, "size", nn(size));
	pb_decltor_derive(c, d, t, "of");
}

/* What a parameter's array declarator may hold besides the size (C99
 * 6.7.5.2): an object {"quals": [...], "static": true, "star": true} whose
 * members go into the array type. */
json_t *pb_array_mods(json_t *quals)
{
	json_t *m = json_object();
	SET(m, "quals", quals);
	return m;
}

json_t *pb_array_static(json_t *quals)
{
	json_t *m = quals ? pb_array_mods(quals) : json_object();
	SET(m, "static", json_true());
	return m;
}

json_t *pb_array_star(void)
{
	json_t *m = json_object();
	SET(m, "star", json_true());
	return m;
}

void pb_decltor_array_mods(parse_ctx *c, parse_decltor *d, json_t *size,
	json_t *mods)
{
	pb_decltor_array(c, d, size);
	json_object_update(d->inner, mods);
	json_decref(mods);
}

/* T f(void) has no parameters, and a prototype */
static int void_params(json_t *params)
{
	json_t *p = json_array_get(params, 0);
	json_t *t = json_object_get(p, "type");
	return json_array_size(params) == 1 && json_is_null(json_object_get(p,
		"name")) && strcmp(ast_str(t, "t"), "void") == 0
		&& !json_object_get(t, "quals");
}

void pb_decltor_func(parse_ctx *c, parse_decltor *d, json_t *params,
	int variadic, int proto)
{
	json_t *t = type_new(c, "func");
	SET(t, "ret", json_null());
	if (!params)
		params = json_array();
	if (void_params(params))
		json_array_clear(params);
	SET(t, "params", params);
	json_decref(c->params);
	c->params = json_incref(params);
	SET(t, "variadic", json_boolean(variadic));
	SET(t, "proto", json_boolean(proto));
	pb_decltor_derive(c, d, t, "ret");
}

/* Expressions in a declarator's parentheses where no parameter
 * declaration fits: the reading C++ gives "float4 a(x)" (a declaration
 * with an initializer), or the identifier list of a K&R definition (C99
 * 6.7.5.3p3: an identifier list only where the function is defined).
 * Reports one that is neither. */
static int args_misplaced(parse_ctx *c, parse_decltor *d)
{
	if (!d->args)
		return 0;
	parse_error_at(c, json_object_get(json_array_get(d->args, 0), "at"),
		"parse-syntax", "expected parameter declarations, not "
		"expressions, in the parentheses after '%.*s'", d->namelen,
		d->name ? d->name : "");
	return 1;
}

/* D(a, b): a function type whose parameters the K&R declaration list
 * gives later (pb_funcdef), or a constructor-style initializer (pb_decl). */
void pb_decltor_args(parse_ctx *c, parse_decltor *d, json_t *args)
{
	if (d->args) {
		json_t *first = d->args;
		d->args = args;
		args_misplaced(c, d);
		d->args = first;
		json_decref(args);
		return;
	}
	pb_decltor_func(c, d, NULL, 0, 0);
	d->args = args;
	d->argsfn = d->inner;
	/* a body right after "f(a, b)" sees a and b (parse.c, classify) */
	json_t *names = json_array();
	size_t i;
	json_t *a;
	json_array_foreach(args, i, a)
		if (ast_is(a, "id")) {
			json_t *o = json_object();
			SET(o, "name", json_incref(json_object_get(a, "name")));
			json_array_append_new(names, o);
		}
	json_decref(c->params);
	c->params = names;
}

void pb_decltor_stream(parse_ctx *c, parse_decltor *d, json_t *dims)
{
	json_t *t = type_new(c, "stream");
	SET(t, "of", json_null());
	SET(t, "dims", dims);
	pb_decltor_derive(c, d, t, "of");
}

void pb_pointer(parse_ctx *c, parse_decltor *d, const lex_token *star,
	json_t *quals)
{
	(void)star;
	json_t *t = type_new(c, "ptr");
	SET(t, "to", json_null());
	if (quals)
		SET(t, "quals", quals);
	pb_decltor_derive(c, d, t, "to");
}

/* declarator = pointer direct-declarator: the pointers apply to what the
 * direct declarator's innermost type is made of. */
void pb_decltor_wrap(parse_ctx *c, parse_decltor *d, parse_decltor *ptr)
{
	if (ptr->top) {
		json_t *top = ptr->top, *inner = ptr->inner;
		if (d->inner)
			SET(d->inner, d->key, top);
		else
			d->top = top;
		d->inner = inner;
		d->key = ptr->key;
		d->depth += ptr->depth;
		if (d->depth > PARSE_MAX_DEPTH)
			parse_too_deep(c);
		ptr->top = NULL;
	}
	if (!d->name && !d->at) {
		d->at = ptr->at;
		ptr->at = NULL;
	}
	pb_decltor_free(ptr);
}

/* The full type: base put in the declarator's innermost place. */
json_t *pb_apply(parse_decltor *d, json_t *base)
{
	if (!d || !d->inner)
		return json_incref(base);
	SET(d->inner, d->key, json_incref(base));
	d->inner = NULL;
	return json_incref(d->top);
}

json_t *pb_typename(parse_ctx *c, parse_specs *s, parse_decltor *d)
{
	int noret;
	json_t *base = pb_specs_base(c, s, &noret);
	json_t *t = pb_apply(d, base);
	json_decref(base);
	pb_specs_free(s);
	if (d)
		pb_decltor_free(d);
	return t;
}

static json_t *name_of(const parse_decltor *d)
{
	return d && d->name ? json_stringn(d->name, (size_t)d->namelen)
		: json_null();
}

/* The Brook qualifiers of a parameter or variable: out, iter, shared,
 * reduce (spec 6.2); "const" too for parameters (ast.h's PARAM). */
static json_t *brook_quals(const parse_specs *s, int param)
{
	json_t *q = s->bquals ? json_copy(s->bquals) : json_array();
	if (s->reduce)
		json_array_append_new(q, json_string("reduce"));
	if (param && s->cquals) {
		size_t i;
		json_t *v;
		json_array_foreach(s->cquals, i, v)
			if (strcmp(json_string_value(v), "const") == 0) {
				json_array_append_new(q, json_string("const"));
				break;
			}
	}
	return q;
}

json_t *pb_param(parse_ctx *c, parse_specs *s, parse_decltor *d)
{
	int noret;
	json_t *base = pb_specs_base(c, s, &noret);
	json_t *n = pb_node(c, "param", d && d->name ? json_incref(d->at)
		: json_incref(s->at));
	SET(n, "name", name_of(d));
	SET(n, "type", pb_apply(d, base));
	SET(n, "quals", brook_quals(s, 1));
	json_decref(base);
	if (d)
		args_misplaced(c, d);
	if (s->kernel || s->storage || s->inl || s->attrs)
		parse_error_at(c, s->at, "parse-type",
			"%s not allowed on a parameter", s->kernel ? "'kernel'"
			: s->attrs ? "Attribute" : s->inl ? "'inline'"
			: "storage class");
	pb_specs_free(s);
	if (d)
		pb_decltor_free(d);
	return n;
}

json_t *pb_fields(parse_ctx *c, parse_specs *s, parse_dlist *l)
{
	int noret;
	json_t *base = pb_specs_base(c, s, &noret);
	json_t *fields = json_array();
	if (!l) {
		/* an unnamed struct or union member */
		json_t *f = pb_node(c, "field", json_incref(s->at));
		SET(f, "name", json_null());
		SET(f, "type", json_incref(base));
		SET(f, "bits", json_null());
		json_array_append_new(fields, f);
	}
	for (int i = 0; l && i < l->n; i++) {
		parse_dinit *di = &l->v[i];
		args_misplaced(c, &di->d);
		json_t *f = pb_node(c, "field", json_incref(di->has_decltor &&
			di->d.name ? di->d.at : s->at));
		SET(f, "name", name_of(&di->d));
		SET(f, "type", pb_apply(&di->d, base));
		SET(f, "bits", nn(di->init));
		di->init = NULL;
		json_array_append_new(fields, f);
	}
	json_decref(base);
	pb_specs_free(s);
	pb_dlist_free(l);
	return fields;
}

void pb_dlist_add(parse_dlist **l, parse_dinit *di)
{
	if (!*l)
		*l = xcalloc(1, sizeof **l);
	parse_dlist *p = *l;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4;
		p->v = xrealloc(p->v, (size_t)p->cap * sizeof *p->v);
	}
	p->v[p->n++] = *di;
}

void pb_dlist_free(parse_dlist *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++) {
		pb_decltor_free(&l->v[i].d);
		json_decref(l->v[i].init);
	}
	free(l->v);
	free(l);
}

/* ---- declarations and function definitions (C99 6.7, 6.9.1) ------------ */

static int is_func(const json_t *t)
{
	return strcmp(ast_str(t, "t"), "func") == 0;
}

/* A function declarator with its specifiers: {"k":"func", ...}. */
static json_t *func_node(parse_ctx *c, parse_specs *s, parse_decltor *d,
	json_t *type, int noret, json_t *body)
{
	json_t *n = pb_node(c, "func", json_incref(s && s->at ? s->at : d->at));
	SET(n, "name", name_of(d));
	SET(n, "storage", s && s->storage ? json_string(s->storage)
		: json_null());
	SET(n, "inline", json_boolean(s && s->inl));
	SET(n, "kernel", json_boolean(s && s->kernel));
	SET(n, "reduce", json_boolean(s && s->reduce));
	SET(n, "attrs", s && s->attrs ? json_incref(s->attrs) : json_array());
	SET(n, "type", type);
	SET(n, "body", nn(body));
	if (noret && s && s->kernel) {
		SET(n, "noret", json_true());
		SET(type, "ret", type_new(c, "void"));
	}
	if (s && s->bquals)
		parse_error_at(c, s->at, "parse-type", "'%s' not allowed on a "
			"function", json_string_value(json_array_get(s->bquals, 0)));
	if (s && s->storage && (strcmp(s->storage, "typedef") == 0 ||
		strcmp(s->storage, "auto") == 0 || strcmp(s->storage,
		"register") == 0) && body)
		parse_error_at(c, s->at, "parse-type",
			"storage class '%s' on a function definition", s->storage);
	return n;
}

static json_t *var_node(parse_ctx *c, parse_specs *s, parse_dinit *di,
	json_t *base)
{
	(void)c;
	json_t *n = pb_node(c, "var", json_incref(di->d.at));
	SET(n, "name", name_of(&di->d));
	SET(n, "type", pb_apply(&di->d, base));
	SET(n, "init", nn(di->init));
	di->init = NULL;
	SET(n, "quals", brook_quals(s, 0));
	return n;
}

static json_t *decl_node(parse_ctx *c, parse_specs *s, json_t *base)
{
	json_t *n = pb_node(c, "decl", json_incref(s->at));
	SET(n, "storage", s->storage ? json_string(s->storage) : json_null());
	SET(n, "type", json_incref(base));
	SET(n, "vars", json_array());
	return n;
}

/* BrookGPU's "float4 a(0.2f, 1.0f, 3.2f, 1.0f)": several values make
 * the vector type's constructor (float4(...)); one value is the
 * initializer itself ("float4 c(b)" is "float4 c = b", "int n(5)" is
 * "int n = 5"), as C++ reads them. */
static json_t *ctor_init(parse_ctx *c, const json_t *base, parse_decltor *d)
{
	const char *t = ast_str(base, "t");
	size_t len = strlen(t);
	json_t *args = d->args, *init;
	d->args = NULL;
	if (json_array_size(args) > 1 && named_type(t, (int)len)
		&& t[len - 1] >= '2' && t[len - 1] <= '4') {
		init = pb_node(c, "ctor", json_incref(d->at));
		SET(init, "type", type_new(c, t));
		SET(init, "args", args);
		return init;
	}
	if (json_array_size(args) != 1)
		parse_error_at(c, d->at, "parse-type", "'%.*s' is given %zu values "
			"in parentheses: only a vector type takes several",
			d->namelen, d->name ? d->name : "", json_array_size(args));
	init = json_incref(json_array_get(args, 0));
	json_decref(args);
	return init;
}

/* A declarator whose parentheses hold expressions: the object it declares
 * with its initializer, when the parentheses follow the name alone. */
static void args_to_init(parse_ctx *c, parse_dinit *di, const json_t *base,
	int is_typedef)
{
	parse_decltor *d = &di->d;
	if (!d->args)
		return;
	if (d->argsfn != d->top || d->depth != 1 || is_typedef || di->init) {
		args_misplaced(c, d);
		return;
	}
	di->init = ctor_init(c, base, d);
	json_decref(d->top);
	d->top = d->inner = d->argsfn = NULL;
	d->key = NULL;
	d->depth = 0;
}

/* declaration = decl-specs init-declarator-list? ";". A declarator of
 * function type (not a typedef) becomes a prototype, {"k":"func", "body":
 * null}; the others stay together in "decl" nodes. Returns one node, or an
 * array of nodes when prototypes and variables are mixed. */
json_t *pb_decl(parse_ctx *c, parse_specs *s, parse_dlist *l)
{
	int noret;
	json_t *base = pb_specs_base(c, s, &noret);
	int is_typedef = s->storage && strcmp(s->storage, "typedef") == 0;
	json_t *out = json_array(), *cur = NULL;
	if (!l)
		json_array_append_new(out, decl_node(c, s, base));
	for (int i = 0; l && i < l->n; i++) {
		parse_dinit *di = &l->v[i];
		parse_declare(c, di->d.name, di->d.namelen, is_typedef
			? PARSE_SYM_TYPEDEF : PARSE_SYM_ORD);
		args_to_init(c, di, base, is_typedef);
		if (!is_typedef && di->d.top && is_func(di->d.top)) {
			if (di->init)
				parse_error_at(c, di->d.at, "parse-type",
					"function '%.*s' is initialized like a variable",
					di->d.namelen, di->d.name);
			json_t *t = pb_apply(&di->d, base);
			json_array_append_new(out, func_node(c, s, &di->d, t, noret,
				NULL));
			cur = NULL;
			continue;
		}
		if (!cur) {
			cur = decl_node(c, s, base);
			json_array_append_new(out, cur);
		}
		json_array_append_new(json_object_get(cur, "vars"),
			var_node(c, s, di, base));
	}
	if (cur && (s->kernel || s->attrs || s->inl))
		parse_error_at(c, s->at, "parse-type", "%s applies to functions only",
			s->kernel ? "'kernel'" : s->attrs ? "Attribute" : "'inline'");
	json_decref(base);
	pb_specs_free(s);
	pb_dlist_free(l);
	if (json_array_size(out) == 1) {
		json_t *n = json_incref(json_array_get(out, 0));
		json_decref(out);
		return n;
	}
	return out;
}

/* One declaration of K&R's list gives parameter NAME its TYPE (C99
 * 6.9.1p6): the param node is then as a prototype would have made it. */
static void knr_declare(parse_ctx *c, json_t *params, const json_t *var,
	const json_t *spec)
{
	const char *name = ast_str(var, "name");
	json_t *p = NULL;
	for (size_t i = 0; !p && i < json_array_size(params); i++)
		if (strcmp(ast_str(json_array_get(params, i), "name"), name) == 0)
			p = json_array_get(params, i);
	json_t *at = json_object_get(var, "at");
	if (!p) {
		parse_error_at(c, at, "parse-type", "declaration for parameter "
			"'%s' but no such parameter", name);
		return;
	}
	if (json_object_get(p, "declared")) {
		parse_error_at(c, at, "parse-type", "parameter '%s' is declared "
			"twice", name);
		return;
	}
	json_t *init = json_object_get(var, "init");
	if (init && !json_is_null(init))
		parse_error_at(c, at, "parse-type", "parameter '%s' is "
			"initialized", name);
	json_t *q = json_copy(json_object_get(var, "quals"));
	if (!q)
		q = json_array();
	size_t j;
	json_t *v;
	json_array_foreach(json_object_get(spec, "quals"), j, v)
		if (strcmp(json_string_value(v), "const") == 0) {
			json_array_append_new(q, json_string("const"));
			break;
		}
	SET(p, "at", json_incref(at));
	SET(p, "type", json_incref(json_object_get(var, "type")));
	SET(p, "quals", q);
	SET(p, "declared", json_true());
}

/* The K&R definition's parameters (C99 6.9.1): the identifier list, typed
 * by the declaration list KNR, int where none declares them. The
 * declarations' names leave the scope with the function. */
static void knr_params(parse_ctx *c, parse_decltor *d, json_t *knr)
{
	json_t *params = json_object_get(d->argsfn, "params");
	size_t i, j;
	json_t *a, *n, *v;
	json_array_foreach(d->args, i, a) {
		if (!ast_is(a, "id")) {
			parse_error_at(c, json_object_get(a, "at"), "parse-syntax",
				"expected an identifier in the parameter list of "
				"'%.*s'", d->namelen, d->name ? d->name : "");
			continue;
		}
		for (j = 0; j < json_array_size(params); j++)
			if (strcmp(ast_str(json_array_get(params, j), "name"),
				ast_str(a, "name")) == 0)
				parse_error_at(c, json_object_get(a, "at"),
					"parse-type", "parameter '%s' is listed twice",
					ast_str(a, "name"));
		json_t *p = pb_node(c, "param", at_of(a));
		SET(p, "name", json_incref(json_object_get(a, "name")));
		SET(p, "type", type_new(c, "int"));
		SET(p, "quals", json_array());
		json_array_append_new(params, p);
	}
	json_array_foreach(knr, i, n) {
		const char *st = ast_str(n, "storage");
		if (*st && strcmp(st, "register") != 0)
			parse_error_at(c, json_object_get(n, "at"), "parse-type",
				"storage class '%s' on a parameter", st);
		if (ast_is(n, "func"))
			knr_declare(c, params, n, NULL);
		json_array_foreach(json_object_get(n, "vars"), j, v)
			knr_declare(c, params, v, json_object_get(n, "type"));
	}
	json_array_foreach(params, i, a)
		json_object_del(a, "declared");
	for (i = json_array_size(knr); i-- > 0;) {
		n = json_array_get(knr, i);
		if (ast_is(n, "func"))
			parse_forget(c, ast_str(n, "name"), strlen(ast_str(n,
				"name")));
		for (j = json_array_size(json_object_get(n, "vars")); j-- > 0;) {
			v = json_array_get(json_object_get(n, "vars"), j);
			parse_forget(c, ast_str(v, "name"), strlen(ast_str(v,
				"name")));
		}
	}
}

json_t *pb_funcdef(parse_ctx *c, parse_specs *s, parse_decltor *d,
	json_t *knr, json_t *body)
{
	int noret = 1;
	json_t *base;
	if (s)
		base = pb_specs_base(c, s, &noret);
	else
		base = type_new(c, "int");
	json_t *t = pb_apply(d, base);
	json_decref(base);
	json_t *n;
	if (!is_func(t)) {
		parse_error_at(c, d->at, "parse-syntax",
			"expected '=', ',' or ';' before '{'");
		json_decref(t);
		json_decref(body);
		n = NULL;
	} else {
		if (d->args && d->argsfn == d->top)
			knr_params(c, d, knr);
		else if (!args_misplaced(c, d) && knr)
			parse_error_at(c, json_object_get(json_array_get(knr, 0),
				"at"), "parse-syntax", "old-style parameter "
				"declarations in a prototyped definition");
		n = func_node(c, s, d, t, noret, body);
	}
	json_decref(knr);
	parse_declare(c, d->name, d->namelen, PARSE_SYM_ORD);
	if (s)
		pb_specs_free(s);
	pb_decltor_free(d);
	return n;
}

/* ---- statements (C99 6.8) ----------------------------------------------- */

json_t *pb_directive(parse_ctx *c, const lex_token *t)
{
	json_t *n = pb_node(c, "directive", pb_at(c, t));
	if (t->len >= 2 && t->s[0] == '%') {
		/* C99 6.4.6p3: the digraph %: is #; the AST spells it # */
		strbuf b = {0};
		sb_putc(&b, '#');
		sb_putn(&b, t->s + 2, (size_t)t->len - 2);
		SET(n, "text", pb_text(b.s, b.len, PB_NAME));
		sb_free(&b);
	} else {
		SET(n, "text", pb_name(t));
	}
	return n;
}

json_t *pb_stmt(parse_ctx *c, const char *kind, const lex_token *t)
{
	return pb_node(c, kind, pb_at(c, t));
}

json_t *pb_block(parse_ctx *c, const lex_token *t, json_t *items)
{
	json_t *n = pb_node(c, "block", pb_at(c, t));
	SET(n, "items", items ? items : json_array());
	return n;
}

json_t *pb_expr_stmt(parse_ctx *c, parse_ex e)
{
	(void)c;
	json_t *n = pb_node(c, "expr", at_of(e.j));
	SET(n, "e", e.j);
	return n;
}

json_t *pb_desig(parse_ctx *c, const lex_token *t, const char *kind,
	json_t *v)
{
	json_t *n = pb_node(c, kind, pb_at(c, t));
	SET(n, strcmp(kind, "desig_field") == 0 ? "name" : "index", v);
	return n;
}

json_t *pb_inititem(parse_ctx *c, json_t *desig, json_t *value)
{
	(void)c;
	json_t *n = pb_node(c, "inititem", at_of(desig ? json_array_get(desig, 0)
		: value));
	SET(n, "desig", desig ? desig : json_array());
	SET(n, "value", value);
	return n;
}

json_t *pb_initlist(parse_ctx *c, const lex_token *t, json_t *items)
{
	json_t *n = pb_node(c, "initlist", pb_at(c, t));
	SET(n, "items", items ? items : json_array());
	return n;
}

/* Appends item (a node, or an array of nodes from pb_decl) to *list. */
void pb_list_add(json_t **list, json_t *item)
{
	if (!*list)
		*list = json_array();
	if (!item)
		return;
	if (json_is_array(item)) {
		json_array_extend(*list, item);
		json_decref(item);
	} else {
		json_array_append_new(*list, item);
	}
}

/* for (DECL; ...): C99 6.8.5 allows objects only there. */
json_t *pb_for_init(parse_ctx *c, json_t *decl)
{
	if (decl && !ast_is(decl, "decl")) {
		json_t *first = json_is_array(decl) ? json_array_get(decl, 0) : decl;
		parse_error_at(c, json_object_get(first, "at"), "parse-type",
			"a for loop may declare only variables");
		json_decref(decl);
		return NULL;
	}
	return decl;
}
