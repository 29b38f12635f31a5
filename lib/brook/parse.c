/* parse.c - the parser driver: linemarkers, typedef names and scopes,
 * contextual Brook keywords, syntax errors; and the AST file's reader and
 * writer.
 *
 * Tokens go from the lexer through classify() to the lemon parser. C needs
 * to know which identifiers name types (C99 6.7.7), so names are looked up
 * in a scope table that the grammar's actions fill in (parse_declare).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brook/ast.h"
#include "brook/parse.h"
#include "brook/parse_int.h"
#include "brook/util.h"
#include "grammar.h"

void *parse_lemonAlloc(void *(*mallocProc)(size_t));
void parse_lemonFree(void *p, void (*freeProc)(void *));
void parse_lemon(void *p, int major, lex_token minor, parse_ctx *ctx);
void parse_lemon_settle(void *p, parse_ctx *ctx);
int parse_lemon_accepts(void *p, int code);

/* The C library's typedef names: headers brpp passes through declare
 * them, so the parser must know them without reading the headers. */
static const char *const builtin_typedefs[] = {
	"size_t", "ssize_t", "ptrdiff_t", "wchar_t", "wint_t", "wctype_t",
	"mbstate_t", "FILE", "fpos_t", "va_list", "__builtin_va_list",
	"__gnuc_va_list", "div_t", "ldiv_t", "lldiv_t", "jmp_buf", "sigjmp_buf",
	"sig_atomic_t", "sigset_t", "time_t", "clock_t", "clockid_t", "timer_t",
	"suseconds_t", "useconds_t", "off_t", "off64_t", "pid_t", "uid_t",
	"gid_t", "mode_t", "dev_t", "ino_t", "nlink_t", "blksize_t", "blkcnt_t",
	"socklen_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
	"uint16_t", "uint32_t", "uint64_t", "int_least8_t", "int_least16_t",
	"int_least32_t", "int_least64_t", "uint_least8_t", "uint_least16_t",
	"uint_least32_t", "uint_least64_t", "int_fast8_t", "int_fast16_t",
	"int_fast32_t", "int_fast64_t", "uint_fast8_t", "uint_fast16_t",
	"uint_fast32_t", "uint_fast64_t", "intptr_t", "uintptr_t", "intmax_t",
	"uintmax_t", "max_align_t", "float_t", "double_t", "fenv_t",
	"fexcept_t", "locale_t", "pthread_t", "pthread_mutex_t",
	"pthread_cond_t", "pthread_attr_t", "pthread_once_t", "pthread_key_t",
	"DIR", "regex_t", "regmatch_t", "glob_t", "imaxdiv_t", "char16_t",
	"_Float16", "_Float32", "_Float64", "_Float128", "_Float32x",
	"_Float64x", "_Float128x", "__float128", "__int128_t", "__uint128_t",
	"char32_t", "cl_int", "cl_uint", "cl_float", "cl_mem", "cl_device_id",
	"cl_context", "cl_command_queue", "cl_kernel", "cl_program",
	"cl_platform_id", "cl_event", "cl_bool", "cl_ulong", "cl_long",
};

/* brt(3)'s types, which host code may declare variables of: every
 * program brgen writes includes brt.h (BError is the guide's spelling of
 * BRerror, 1.7.1). */
static const char *const brt_typedefs[] = {
	"BRerror", "BError", "brt_scalar", "brt_type", "brt_stream",
	"brt_device", "brt_kernel", "brt_arg", "brt_exec",
};

/* spec 6.1.1: Brook's scalar type names; a file may still declare them. */
static const char *const brook_scalars[] = {
	"uchar", "ushort", "uint", "ulong", "bool",
};

/* ---- diagnostics -------------------------------------------------------- */

static lex_token *peek(parse_ctx *c, int k);
static int lookup(parse_ctx *c, const char *name, int len);

static const char *file_name(parse_ctx *c, int file)
{
	const char *s = json_string_value(json_array_get(c->files, (size_t)file));
	return s ? s : "<input>";
}

void parse_error_at(parse_ctx *c, const json_t *at, const char *id,
	const char *fmt, ...)
{
	strbuf b = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	int file = (int)json_integer_value(json_array_get(at, 0));
	int line = (int)json_integer_value(json_array_get(at, 1));
	int col = (int)json_integer_value(json_array_get(at, 2));
	diag_report(c->d, DIAG_ERROR, at ? file_name(c, file) : NULL, line, col,
		id, "%s", b.s);
	sb_free(&b);
	c->errors++;
}

static void error_tok(parse_ctx *c, const lex_token *t, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void error_tok(parse_ctx *c, const lex_token *t, const char *id,
	const char *fmt, ...)
{
	strbuf b = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	if (!c->quiet)
		diag_report(c->d, DIAG_ERROR, file_name(c, t->file), t->line,
			t->col, id, "%s", b.s);
	sb_free(&b);
	c->errors++;
}

/* How a message names a token kind. */
static const char *token_desc(int code)
{
	static const char *const tab[] = {
		[TK_IDENT] = "identifier", [TK_TYPE_NAME] = "type name",
		[TK_SCALARNAME] = "type name", [TK_VECTYPE] = "vector type",
		[TK_CTOR] = "vector constructor", [TK_CTOR_U] = "vector constructor",
		[TK_INTCONST] = "integer constant",
		[TK_FLOATCONST] = "floating constant",
		[TK_CHARCONST] = "character constant",
		[TK_STRING] = "string literal", [TK_DIRECTIVE] = "directive",
		[TK_ELLIPSIS] = "'...'", [TK_SHRASSIGN] = "'>>='",
		[TK_SHLASSIGN] = "'<<='", [TK_ADDASSIGN] = "'+='",
		[TK_SUBASSIGN] = "'-='", [TK_MULASSIGN] = "'*='",
		[TK_DIVASSIGN] = "'/='", [TK_MODASSIGN] = "'%='",
		[TK_ANDASSIGN] = "'&='", [TK_XORASSIGN] = "'^='",
		[TK_ORASSIGN] = "'|='", [TK_SHR] = "'>>'", [TK_SHL] = "'<<'",
		[TK_INC] = "'++'", [TK_DEC] = "'--'", [TK_ARROW] = "'->'",
		[TK_ANDAND] = "'&&'", [TK_OROR] = "'||'", [TK_LE] = "'<='",
		[TK_GE] = "'>='", [TK_EQ] = "'=='", [TK_NE] = "'!='",
		[TK_SEMI] = "';'", [TK_LBRACE] = "'{'", [TK_RBRACE] = "'}'",
		[TK_COMMA] = "','", [TK_COLON] = "':'", [TK_ASSIGN] = "'='",
		[TK_LPAREN] = "'('", [TK_RPAREN] = "')'", [TK_LBRACKET] = "'['",
		[TK_RBRACKET] = "']'", [TK_DOT] = "'.'", [TK_AMP] = "'&'",
		[TK_NOT] = "'!'", [TK_TILDE] = "'~'", [TK_MINUS] = "'-'",
		[TK_PLUS] = "'+'", [TK_STAR] = "'*'", [TK_SLASH] = "'/'",
		[TK_PERCENT] = "'%'", [TK_LT] = "'<'", [TK_GT] = "'>'",
		[TK_CARET] = "'^'", [TK_PIPE] = "'|'", [TK_QUESTION] = "'?'",
	};
	if (code > 0 && code < (int)(sizeof tab / sizeof tab[0]) && tab[code])
		return tab[code];
	return NULL;
}

static int has(const int *v, int n, int code)
{
	for (int i = 0; i < n; i++)
		if (v[i] == code)
			return 1;
	return 0;
}

/* spec 3.2, as C++ template arguments: a '>' outside parentheses closes a
 * stream's dimensions, so "float s<n >= 1>" stops at '>=' (where '>' would
 * do) and "float s<n > 1>" at the '1' after the '>' that closed them. A '>'
 * is no operator only there: one the parser took before a token it could
 * not take ends dimensions, unless an expression should have come next. */
static const char *gt_hint(parse_ctx *c, const lex_token *t,
	const int *expected, int nexpected)
{
	int at_gt = (t->code == TK_GE || t->code == TK_SHR
		|| t->code == TK_SHRASSIGN) && has(expected, nexpected, TK_GT);
	static const int operands[] = {
		TK_IDENT, TK_INTCONST, TK_FLOATCONST, TK_CHARCONST, TK_LPAREN,
	};
	int after_gt = c->last.code == TK_GT && t->s == c->cur.s
		&& !has(expected, nexpected, TK_INTCONST)
		&& has(operands, (int)(sizeof operands / sizeof operands[0]),
		t->code);
	return at_gt || after_gt ? " (outside parentheses, a '>' ends stream "
		"dimensions: parenthesize the expression)" : "";
}

/* Whether a token of CODE is one an operand follows (an operator,
 * "return", '[', '.'), so that a name after it is no type name. */
static int takes_operand(int code)
{
	static const int ops[] = {
		TK_ASSIGN, TK_ADDASSIGN, TK_SUBASSIGN, TK_MULASSIGN,
		TK_DIVASSIGN, TK_MODASSIGN, TK_ANDASSIGN, TK_XORASSIGN,
		TK_ORASSIGN, TK_SHLASSIGN, TK_SHRASSIGN, TK_PLUS, TK_MINUS,
		TK_STAR, TK_SLASH, TK_PERCENT, TK_SHL, TK_SHR, TK_LT, TK_GT,
		TK_LE, TK_GE, TK_EQ, TK_NE, TK_AMP, TK_CARET, TK_PIPE,
		TK_ANDAND, TK_OROR, TK_QUESTION, TK_NOT, TK_TILDE, TK_RETURN,
		TK_LBRACKET, TK_DOT, TK_ARROW, TK_INC, TK_DEC,
	};
	return has(ops, (int)(sizeof ops / sizeof ops[0]), code);
}

/* Whether a token of CODE names a type (so that a name after it is the
 * declarator, as in "float a b"). */
static int names_type(int code)
{
	static const int types[] = {
		TK_VOID, TK_CHAR, TK_SHORT, TK_INT, TK_LONG, TK_FLOAT,
		TK_DOUBLE, TK_SIGNED, TK_UNSIGNED, TK_BOOL, TK_VECTYPE,
		TK_SCALARNAME, TK_TYPE_NAME,
	};
	return has(types, (int)(sizeof types / sizeof types[0]), code);
}

/* "expected ';' before 'x'": what the parser could have taken in the state
 * where it stopped, then what it found. */
void parse_syntax_error(parse_ctx *c, const lex_token *t, const int *expected,
	int nexpected)
{
	strbuf what = {0};
	int nwords = 0;
	c->syntax_errors++;
	/* "struct S { ... } T x": T, a typedef name, taken for the struct's
	 * declarator: the ';' after the '}' is missing */
	if (t->s == c->cur.s && c->before.code == TK_RBRACE
		&& c->before.s == c->tag_end && c->last.code == TK_IDENT
		&& lookup(c, c->last.s, c->last.len) == PARSE_SYM_TYPEDEF) {
		error_tok(c, &c->before, "parse-syntax", "expected ';' after "
			"this struct, union or enum body");
		return;
	}
	/* "T x" where T names no type: most often a typedef of a header that
	 * brpp passed through; not "= a b", where a ';' is missing */
	if (t->code == TK_IDENT && c->last.code == TK_IDENT
		&& t->s == c->cur.s && !has(expected, nexpected, TK_IDENT)
		&& !takes_operand(c->before.code)
		&& !names_type(c->before.code)
		/* nor "struct S { ... } x y" */
		&& !(c->before.code == TK_RBRACE && c->before.s == c->tag_end)) {
		error_tok(c, &c->last, "parse-unknown-type", "unknown type name "
			"'%.*s' (if a header declares it, give --typedef %.*s)",
			c->last.len, c->last.s, c->last.len, c->last.s);
		return;
	}
	if (t->code == 0 && has(expected, nexpected, TK_RBRACE)) {
		sb_puts(&what, "expected '}'");
	} else if (has(expected, nexpected, TK_IDENT) && has(expected, nexpected,
		TK_INTCONST)) {
		sb_puts(&what, "expected expression");
	} else {
		/* punctuation first: "expected ';'" reads better than a list
		 * of keywords */
		const char *words[4];
		for (int i = 0; i < nexpected && nwords < 4; i++) {
			const char *d = token_desc(expected[i]);
			if (d && (d[0] == '\'' || expected[i] == TK_IDENT))
				words[nwords++] = d;
		}
		if (nwords == 0 || nwords == 4) {
			sb_puts(&what, has(expected, nexpected, TK_IDENT)
				? "expected identifier" : "syntax error");
		} else {
			sb_puts(&what, "expected ");
			for (int i = 0; i < nwords; i++) {
				if (i)
					sb_puts(&what, i == nwords - 1 ? " or " : ", ");
				sb_puts(&what, words[i]);
			}
		}
	}
	const char *hint = gt_hint(c, t, expected, nexpected);
	/* OpenCL C's address spaces, CUDA's launch: what Brook+ has for them */
	static const char *const spaces[] = {
		"__global", "global", "__local", "local", "__constant",
		"__private", "private", "__kernel",
	};
	for (size_t i = 0; c->last.code == TK_IDENT && t->s == c->cur.s
		&& i < sizeof spaces / sizeof spaces[0]; i++)
		if ((size_t)c->last.len == strlen(spaces[i])
			&& memcmp(c->last.s, spaces[i], strlen(spaces[i])) == 0)
			hint = " (OpenCL C's address spaces are not Brook+: a kernel"
				" takes streams, float a<>, and gather arrays, float "
				"a[])";
	if (t->code == TK_LT && c->last.code == TK_SHL && t->s == c->cur.s
		&& c->last.s + 2 == t->s)
		hint = " (a kernel is called as k(a, b): it runs once per "
			"element of its output stream)";
	/* guide 1.17: "Attribute[GroupSize(64, 1, 1)]", HLSL's form without
	 * the word */
	const lex_token *n = t->code == TK_LBRACKET && t->s == c->cur.s
		? peek(c, 0) : NULL;
	if (n && n->code == TK_IDENT && n->len == 9
		&& memcmp(n->s, "GroupSize", 9) == 0)
		hint = " (an attribute is written Attribute[GroupSize(x, y, z)])";
	if (t->code == 0)
		error_tok(c, t, "parse-syntax", "%s at end of input", what.s);
	else if (t->len <= 32)
		error_tok(c, t, "parse-syntax", "%s before '%.*s'%s", what.s,
			t->len, t->s, hint);
	else
		error_tok(c, t, "parse-syntax", "%s before %s%s", what.s,
			token_desc(t->code) ? token_desc(t->code) : "this", hint);
	sb_free(&what);
}

void parse_too_deep(parse_ctx *c)
{
	if (c->stop)
		return;
	c->stop = 1;
	error_tok(c, &c->cur, "parse-too-deep",
		"nesting too deep (more than %d levels): simplify the program",
		PARSE_MAX_DEPTH);
}

/* ---- scopes: typedef names and ordinary identifiers (C99 6.2.1) --------- */

static void rehash(parse_ctx *c, int nbuckets)
{
	free(c->buckets);
	c->nbuckets = nbuckets;
	c->buckets = xmalloc((size_t)nbuckets * sizeof *c->buckets);
	for (int i = 0; i < nbuckets; i++)
		c->buckets[i] = -1;
	for (int i = 0; i < c->nsyms; i++) {
		unsigned h = util_fnv1a(c->syms[i].name, (size_t)c->syms[i].len)
			& (unsigned)(nbuckets - 1);
		c->syms[i].next = c->buckets[h];
		c->buckets[h] = i;
	}
}

void parse_declare(parse_ctx *c, const char *name, int len, int kind)
{
	if (!name)
		return;
	if (c->nsyms == c->capsyms) {
		c->capsyms = c->capsyms ? 2 * c->capsyms : 256;
		c->syms = xrealloc(c->syms, (size_t)c->capsyms * sizeof *c->syms);
	}
	parse_sym *s = &c->syms[c->nsyms++];
	s->name = name;
	s->len = len;
	s->level = c->level;
	s->kind = kind;
	if (c->nsyms > 2 * c->nbuckets) {
		rehash(c, 2 * c->nbuckets);
		return;
	}
	unsigned h = util_fnv1a(name, (size_t)len) & (unsigned)(c->nbuckets - 1);
	s->next = c->buckets[h];
	c->buckets[h] = c->nsyms - 1;
}

/* Drops the last binding made when it binds NAME: a K&R definition's
 * parameter declarations (parse_build.c) end with its body. */
void parse_forget(parse_ctx *c, const char *name, size_t len)
{
	if (c->nsyms == 0)
		return;
	parse_sym *s = &c->syms[c->nsyms - 1];
	if ((size_t)s->len != len || memcmp(s->name, name, len) != 0)
		return;
	unsigned h = util_fnv1a(s->name, (size_t)s->len) & (unsigned)(c->nbuckets - 1);
	c->buckets[h] = s->next;
	c->nsyms--;
}

/* Declares an ordinary identifier whose name the scope table owns. */
static void declare_copy(parse_ctx *c, const json_t *name)
{
	if (!json_is_string(name))
		return;
	if (c->nowned == c->capowned) {
		c->capowned = c->capowned ? 2 * c->capowned : 16;
		c->owned = xrealloc(c->owned, (size_t)c->capowned * sizeof *c->owned);
	}
	char *s = xstrndup(json_string_value(name), json_string_length(name));
	c->owned[c->nowned++] = s;
	parse_declare(c, s, (int)json_string_length(name), PARSE_SYM_ORD);
}

/* The kind of the innermost binding of a name, or -1 when unbound. */
static int lookup(parse_ctx *c, const char *name, int len)
{
	unsigned h = util_fnv1a(name, (size_t)len) & (unsigned)(c->nbuckets - 1);
	for (int i = c->buckets[h]; i >= 0; i = c->syms[i].next)
		if (c->syms[i].len == len && memcmp(c->syms[i].name, name,
			(size_t)len) == 0)
			return c->syms[i].kind;
	return -1;
}

static void scope_pop(parse_ctx *c)
{
	if (c->level <= 1)
		return;
	c->level--;
	while (c->nsyms > 0 && c->syms[c->nsyms - 1].level > c->level) {
		parse_sym *s = &c->syms[--c->nsyms];
		unsigned h = util_fnv1a(s->name, (size_t)s->len)
			& (unsigned)(c->nbuckets - 1);
		c->buckets[h] = s->next;
	}
}

/* ---- the token stream ---------------------------------------------------- */

/* The index of a file name in "files", added when new: a newline in it
 * stays one, so the generated code's #line names the file itself; bytes
 * that are not UTF-8 become octal escapes (pb_text). */
static int intern_file(parse_ctx *c, const char *name, size_t len)
{
	size_t i;
	json_t *v, *s = pb_text(name, len, PB_FILE);
	json_array_foreach(c->files, i, v)
		if (json_equal(v, s)) {
			json_decref(s);
			return (int)i;
		}
	json_array_append_new(c->files, s);
	return (int)json_array_size(c->files) - 1;
}

/* # 12 "file" flags | #line 12 "file" | #line 12: the next line is line
 * 12 of file. The name's escapes are undone as GCC's spelling has them
 * (brpp's put_escaped): \\, \", octal for other bytes (\012 a newline),
 * and C's \n \t ... as a #line may spell them. A line beyond 2147483647
 * (C99 6.10.4p3) is an error, the marker ignored. */
static void linemarker(parse_ctx *c, const lex_token *t)
{
	const char *p = t->s + (t->s[0] == '%' ? 2 : 1), *end = t->s + t->len;
	while (p < end && (unsigned char)*p <= ' ')
		p++;
	if (end - p >= 4 && memcmp(p, "line", 4) == 0)
		p += 4;
	while (p < end && (unsigned char)*p <= ' ')
		p++;
	long long line = 0;
	const char *digits = p;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if (line <= INT_MAX)
			line = line * 10 + (*p - '0');
	if (line > INT_MAX) {
		lex_token at = *t;
		if (at.file < 0)
			at.file = intern_file(c, c->pend_name, strlen(c->pend_name));
		error_tok(c, &at, "parse-linemarker", "line number %.*s out of "
			"range (0 to 2147483647)", (int)(p - digits), digits);
		return;
	}
	while (p < end && (unsigned char)*p <= ' ')
		p++;
	if (p < end && *p == '"') {
		strbuf name = {0};
		for (p++; p < end && *p != '"'; p++) {
			const char *esc = "n\nt\tr\ra\ab\bf\fv\v", *e;
			int v = 0, k;
			if (*p != '\\' || p + 1 == end) {
				sb_putc(&name, *p);
				continue;
			}
			p++;
			for (k = 0; k < 3 && p < end && *p >= '0' && *p <= '7';
					k++)
				v = v * 8 + *p++ - '0';
			if (k) {
				p--;
				sb_putc(&name, (char)v);
			} else if ((e = strchr(esc, *p)) && *p &&
					(e - esc) % 2 == 0) {
				sb_putc(&name, e[1]);
			} else {
				sb_putc(&name, *p);
			}
		}
		free(c->pend_owned);
		c->pend_owned = name.s ? name.s : xstrdup("");
		c->pend_name = c->pend_owned;
		c->L.file = -1;
	}
	c->L.line = (int)line - 1;
}

/* GNU extensions that gcc -E output carries and the AST does not keep:
 * __extension__, and __attribute__((...)) / __asm__(...) with their
 * parenthesized arguments. Returns 1 when t is one of them. */
static int gnu_noise(const lex_token *t)
{
	static const char *const names[] = {
		"__extension__", "__attribute__", "__attribute", "__asm__",
		"__asm", "__declspec",
	};
	if (t->code != TK_IDENT || t->len < 5 || t->s[0] != '_')
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((int)strlen(names[i]) == t->len && memcmp(names[i], t->s,
			(size_t)t->len) == 0)
			return i == 0 ? 1 : 2;
	return 0;
}

/* The next token from the lexer, linemarkers applied and lexical errors
 * reported. */
static void raw_next(parse_ctx *c, lex_token *t)
{
	for (;;) {
		lex_next(&c->L, t);
		if (t->code == LEX_LINEMARK) {
			linemarker(c, t);
			continue;
		}
		if (t->file < 0) {
			c->L.file = intern_file(c, c->pend_name, strlen(c->pend_name));
			t->file = c->L.file;
		}
		if (t->code == LEX_ERROR) {
			unsigned char ch = (unsigned char)t->s[0];
			if (strcmp(c->L.errmsg, "stray character in program") != 0)
				error_tok(c, t, "parse-lex", "%s", c->L.errmsg);
			else if (ch > ' ' && ch < 127)
				error_tok(c, t, "parse-lex", "stray '%c' in program", ch);
			else
				error_tok(c, t, "parse-lex", "stray '\\%o' in program", ch);
			continue;
		}
		int g = gnu_noise(t);
		if (g == 1)
			continue;
		if (g == 2) {
			/* skip the balanced parentheses that follow */
			int depth = 0;
			do {
				lex_next(&c->L, t);
				if (t->code == TK_LPAREN)
					depth++;
				else if (t->code == TK_RPAREN)
					depth--;
			} while (t->code != LEX_EOF && depth > 0);
			continue;
		}
		return;
	}
}

static lex_token *peek(parse_ctx *c, int k)
{
	while (c->nlook <= k)
		raw_next(c, &c->look[c->nlook++]);
	return &c->look[k];
}

static int is_typedef_name(parse_ctx *c, const lex_token *t)
{
	if (t->code != TK_IDENT)
		return 0;
	int k = lookup(c, t->s, t->len);
	return k == PARSE_SYM_TYPEDEF || k == PARSE_SYM_BROOKTYPE;
}

/* Can t begin a type (so a Brook qualifier before it is a keyword)? */
static int starts_type(parse_ctx *c, const lex_token *t)
{
	switch (t->code) {
	case TK_VOID: case TK_CHAR: case TK_SHORT: case TK_INT: case TK_LONG:
	case TK_FLOAT: case TK_DOUBLE: case TK_SIGNED: case TK_UNSIGNED:
	case TK_BOOL: case TK_COMPLEX: case TK_IMAGINARY: case TK_VECTYPE:
	case TK_CONST:
	case TK_VOLATILE: case TK_RESTRICT: case TK_STRUCT: case TK_UNION:
	case TK_ENUM: case TK_OUT: case TK_VOUT: case TK_ITER: case TK_SHARED:
	case TK_REDUCE:
	case TK_KERNEL: case TK_STATIC: case TK_EXTERN: case TK_REGISTER:
	case TK_AUTO: case TK_TYPEDEF: case TK_INLINE:
		return 1;
	}
	return is_typedef_name(c, t);
}

/* Does the previous token complete a type specifier, so that a typedef
 * name after it is being declared again ("typedef int T; ... int T;")? */
static int after_type_spec(const parse_ctx *c)
{
	switch (c->prev) {
	case TK_TYPE_NAME: case TK_SCALARNAME: case TK_VECTYPE: case TK_VOID:
	case TK_CHAR: case TK_SHORT: case TK_INT: case TK_LONG: case TK_FLOAT:
	case TK_DOUBLE: case TK_SIGNED: case TK_UNSIGNED: case TK_BOOL:
	case TK_COMPLEX: case TK_IMAGINARY:
		return 1;
	}
	return c->prevtag || c->closed_tag;
}

/* C99 6.4.2.1 lets an identifier hold universal character names (6.4.3)
 * and characters an implementation chooses; brgen writes the names of
 * kernel code into OpenCL C, whose compilers differ on both, and builds
 * its own names of them, so an identifier here is ASCII. One error an
 * identifier, at its first such character. */
static void name_chars(parse_ctx *c, const lex_token *t)
{
	const unsigned char *s = (const unsigned char *)t->s;
	unsigned long cp;
	size_t len;
	int i;

	for (i = 0; i < t->len && s[i] != '\\' && s[i] < 0x80; i++)
		;
	if (i == t->len)
		return;
	lex_token at = *t;
	at.col += i;
	cp = pb_utf8_char(t->s + i, (size_t)(t->len - i), &len);
	if (s[i] == '\\')	/* the lexer took \uXXXX or \UXXXXXXXX */
		error_tok(c, &at, "parse-name-char", "universal character name "
			"'%.*s' in an identifier: not supported, identifiers are "
			"ASCII", s[i + 1] == 'u' ? 6 : 10, t->s + i);
	else if (len)
		error_tok(c, &at, "parse-name-char", "non-ASCII character "
			"U+%04lX in an identifier: not supported, identifiers are "
			"ASCII", cp);
	else
		error_tok(c, &at, "parse-name-char", "non-ASCII byte '\\%o' in "
			"an identifier: not supported, identifiers are ASCII", s[i]);
}

/* Gives the raw token its grammar code: typedef names, Brook's scalar
 * names, vector constructors and the contextual Brook keywords. */
static void classify(parse_ctx *c, lex_token *t)
{
	switch (t->code) {
	case TK_IDENT: {
		/* brgen builds its names from these, in buffers of 160 and
		 * more (C99 5.2.4.1 asks compilers for 63 characters) */
		if (t->len > PARSE_MAX_NAME)
			error_tok(c, t, "parse-name-too-long", "an identifier of "
				"%zu characters: at most %d", (size_t)t->len,
				PARSE_MAX_NAME);
		name_chars(c, t);
		/* OpenCL C's "__kernel void k(...)": said once, and read as
		   Brook's kernel, so the rest parses as meant */
		if (t->len == 8 && memcmp(t->s, "__kernel", 8) == 0
			&& c->nbraces == 0 && starts_type(c, peek(c, 0))) {
			error_tok(c, t, "parse-syntax", "'__kernel' is OpenCL C: "
				"a Brook+ kernel is written kernel void k(float "
				"a<>, out float b<>)");
			t->code = TK_KERNEL;
			break;
		}
		/* a typedef name, unless it is being declared again: after a
		 * type ("int size_t;") or where only a name can stand
		 * ("typedef struct s *T;") */
		int k = lookup(c, t->s, t->len);
		int code = k == PARSE_SYM_TYPEDEF ? TK_TYPE_NAME : TK_SCALARNAME;
		if ((k == PARSE_SYM_TYPEDEF || k == PARSE_SYM_BROOKTYPE)
			&& !after_type_spec(c) && (parse_lemon_accepts(c->parser,
			code) || !parse_lemon_accepts(c->parser, TK_IDENT)))
			t->code = code;
		break;
	}
	case TK_OUT: case TK_VOUT: case TK_ITER: case TK_SHARED: case TK_REDUCE:
		/* spec 6.2: qualifiers where a type follows, or between the type
		 * and the name ("void reduce sum(...)"); names elsewhere */
		if (!starts_type(c, peek(c, 0)) && !(after_type_spec(c)
			&& peek(c, 0)->code == TK_IDENT))
			t->code = TK_IDENT;
		break;
	case TK_KERNEL: case TK_INDEXOF:
		/* keywords before a type or a name ("kernel void f",
		 * "kernel f(", "indexof a", "indexof(a)"); names elsewhere, as
		 * in OpenCL's headers ("cl_kernel kernel") */
		if (!starts_type(c, peek(c, 0)) && peek(c, 0)->code != TK_IDENT
			&& !(t->code == TK_INDEXOF && peek(c, 0)->code == TK_LPAREN))
			t->code = TK_IDENT;
		break;
	case TK_ATTRIBUTE:
		if (peek(c, 0)->code != TK_LBRACKET)
			t->code = TK_IDENT;
		break;
	case TK_VECTYPE:
		/* float4(...) constructs; float4 (*p)(...) declares */
		if (peek(c, 0)->code == TK_LPAREN && peek(c, 1)->code != TK_STAR)
			t->code = TK_CTOR;
		break;
	case TK_LBRACE:
		if (c->nbraces == c->capbraces) {
			c->capbraces = c->capbraces ? 2 * c->capbraces : 64;
			c->braces = xrealloc(c->braces, (size_t)c->capbraces);
		}
		c->braces[c->nbraces] = (char)(c->prevtag || c->prev == TK_STRUCT
			|| c->prev == TK_UNION || c->prev == TK_ENUM
			? PARSE_BRACE_TAG : c->prev == TK_ASSIGN
			|| ((c->prev == TK_LBRACE || c->prev == TK_COMMA)
			&& c->nbraces > 0 && c->braces[c->nbraces - 1]
			== PARSE_BRACE_INIT) ? PARSE_BRACE_INIT
			: PARSE_BRACE_BLOCK);
		c->nbraces++;
		c->level++;
		/* a function body: its parameters shadow typedef names */
		if (c->params && c->prev == TK_RPAREN) {
			size_t i;
			json_t *p;
			json_array_foreach(c->params, i, p)
				declare_copy(c, json_object_get(p, "name"));
		}
		break;
	case TK_RBRACE:
		scope_pop(c);
		break;
	}
	c->closed_tag = t->code == TK_RBRACE && c->nbraces > 0
		&& c->braces[--c->nbraces] == PARSE_BRACE_TAG;
	if (c->closed_tag)
		c->tag_end = t->s;
	json_decref(c->params);
	c->params = NULL;
}

/* Drops look[0], the token now being classified. */
static void shift_look(parse_ctx *c)
{
	memmove(&c->look[0], &c->look[1], (size_t)(c->nlook - 1)
		* sizeof c->look[0]);
	c->nlook--;
}

/* ---- parse_text ---------------------------------------------------------- */

/* Names known before the text: N of them, all of KIND. */
static void declare_names(parse_ctx *c, const char *const *names, size_t n,
	int kind)
{
	for (size_t i = 0; i < n; i++)
		parse_declare(c, names[i], (int)strlen(names[i]), kind);
}

static void ctx_init(parse_ctx *c, const char *text, size_t len,
	const char *name, const parse_options *o, diag_ctx *d)
{
	memset(c, 0, sizeof *c);
	c->d = d;
	c->text = xmalloc(len + 1);
	memcpy(c->text, text, len);
	c->text[len] = 0;
	lex_init(&c->L, c->text, len);
	c->L.file = -1;
	c->pend_name = name;
	c->files = json_array();
	c->decls = json_array();
	rehash(c, 1024);
	declare_names(c, builtin_typedefs, sizeof builtin_typedefs
		/ sizeof *builtin_typedefs, PARSE_SYM_TYPEDEF);
	declare_names(c, brt_typedefs, sizeof brt_typedefs
		/ sizeof *brt_typedefs, PARSE_SYM_TYPEDEF);
	declare_names(c, brook_scalars, sizeof brook_scalars
		/ sizeof *brook_scalars, PARSE_SYM_BROOKTYPE);
	if (o)
		declare_names(c, o->typedefs, (size_t)o->ntypedefs,
			PARSE_SYM_TYPEDEF);
	c->level = 1;
}

static void ctx_free(parse_ctx *c)
{
	for (int i = 0; i < PARSE_INT_CACHE; i++)
		json_decref(c->ints[i]);
	for (int i = 0; i < PARSE_KIND_CACHE; i++)
		json_decref(c->kinds[i].j);
	free(c->text);
	free(c->syms);
	free(c->buckets);
	free(c->pend_owned);
	free(c->braces);
	for (int i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	json_decref(c->params);
	json_decref(c->files);
	json_decref(c->decls);
}

/* "files" once the text is read: the input's own name where no linemarker
 * named one. */
static void files_end(parse_ctx *c)
{
	if (json_array_size(c->files) == 0)
		intern_file(c, c->pend_name, strlen(c->pend_name));
}

/* Where the parser takes up again after a syntax error at brace depth
 * DEPTH: the grammar recovers at a ';' or '}' of the innermost block
 * (items, C99 6.8.2) or at the top level (ext_decl), not inside a struct
 * body or an initializer. Returns that block's depth, 0 for the top. */
static int resync_depth(const parse_ctx *c, int depth)
{
	while (depth > 0 && c->braces[depth - 1] != PARSE_BRACE_BLOCK)
		depth--;
	return depth;
}

/* Whether T, read while skipping after a syntax error to depth TO (brace
 * depth now c->nbraces), ends the skipping: 1 to give T to the parser, 2
 * to give it a ';' in T's place, 0 to drop T. The tokens between the
 * error and that point would be dropped by the parser too, except that
 * it stops at the first ';' or '}' of any depth, and so takes the rest
 * of a body or block whose head had the error (an "if (a > )" or a
 * kernel's parameter list) as declarations of the outer level: one error
 * then brought more, on code that had none. */
static int skip_ends(const parse_ctx *c, const lex_token *t, int to)
{
	if (t->code == LEX_EOF || (t->code == TK_SEMI && c->nbraces == to)
		|| (t->code == TK_RBRACE && c->nbraces < to))
		return 1;
	return t->code == TK_RBRACE && c->nbraces == to ? 2 : 0;
}

/* The parse of C's text; with S, each new declaration of "decls" is
 * written to S while there are no errors, *NEXT counting them. */
static void run(parse_ctx *c, ast_sender *s, size_t *next)
{
	void *p = parse_lemonAlloc(malloc);
	int skip_to = -1;	/* skipping after a syntax error, to a
				   ';' or '}' of this brace depth */
	c->parser = p;
	for (;;) {
		lex_token tok = *peek(c, 0);
		shift_look(c);
		int depth = c->nbraces;
		classify(c, &tok);
		c->prevtag = (tok.code == TK_IDENT || tok.code == TK_TYPE_NAME)
			&& (c->prev == TK_STRUCT || c->prev == TK_UNION
			|| c->prev == TK_ENUM);
		c->prev = tok.code;
		c->before = c->last;
		c->last = c->cur;
		c->cur = tok;
		if (skip_to >= 0) {
			int end = skip_ends(c, &tok, skip_to);
			if (end == 0)
				continue;
			if (tok.code == LEX_EOF) {
				/* end the statement, so that the parser says
				   what the end of the input leaves open */
				lex_token semi = tok;
				semi.code = TK_SEMI;
				if (skip_to == 0 && c->nbraces > 0)
					error_tok(c, &tok, "parse-syntax",
						"expected '}' at end of input");
				parse_lemon(p, TK_SEMI, semi, c);
			}
			skip_to = -1;
			if (end == 2)
				tok.code = TK_SEMI;
		}
		int nsyntax = c->syntax_errors;
		parse_lemon(p, tok.code, tok, c);
		if (c->syntax_errors != nsyntax && tok.code != TK_SEMI
			&& tok.code != TK_RBRACE && tok.code != LEX_EOF)
			skip_to = resync_depth(c, depth);
		/* a declaration is whole once the parser has put it in
		   "decls": it reduces that with the next token in hand */
		if (s && !c->errors)
			while (*next < json_array_size(c->decls))
				ast_send_elem(s, json_array_get(c->decls,
					(*next)++));
		if (tok.code == LEX_EOF || c->stop)
			break;
		parse_lemon_settle(p, c);
	}
	parse_lemonFree(p, free);
	files_end(c);
}

/* A parsed document's members before "decls", with FILES (taken). */
static json_t *parsed_head(json_t *files)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "brast", json_integer(BRAST_VERSION));
	json_object_set_new(doc, "stage", json_string("parsed"));
	json_object_set_new(doc, "files", files);
	return doc;
}

json_t *parse_text(const char *text, size_t len, const char *name,
	const parse_options *o, diag_ctx *d)
{
	parse_ctx c;
	ctx_init(&c, text, len, name ? name : "<stdin>", o, d);
	run(&c, NULL, NULL);
	json_t *doc = NULL;
	if (c.errors == 0) {
		doc = parsed_head(json_incref(c.files));
		json_object_set_new(doc, "decls", json_incref(c.decls));
	}
	ctx_free(&c);
	return doc;
}

/* The end of a document sent to FD while it was written: a newline after
 * the text of B, and what of it is not sent yet (B from byte SENT on),
 * unless a write failed already with errno E. Returns 0, or -1 with a
 * message in ERR. */
static int send_rest(strbuf *b, size_t sent, int fd, int e, char *err,
	size_t errlen)
{
	sb_putc(b, '\n');
	if (!e && util_write_all(fd, b->s + sent, b->len - sent) != 0)
		e = errno ? errno : EIO;
	if (e) {
		snprintf(err, errlen, "<stdout>: %s", strerror(e));
		return -1;
	}
	return 0;
}

/* The "files" that the parse of TEXT will make, read ahead: the tokens
 * alone, through the parse's own reading of them (raw_next), quietly. */
static json_t *files_ahead(const char *text, size_t len, const char *name,
	const parse_options *o)
{
	parse_ctx c;
	lex_token t;
	ctx_init(&c, text, len, name, o, NULL);
	c.quiet = 1;
	do
		raw_next(&c, &t);
	while (t.code != LEX_EOF);
	files_end(&c);
	json_t *files = json_incref(c.files);
	ctx_free(&c);
	return files;
}

json_t *parse_send(const char *text, size_t len, const char *name,
	const parse_options *o, diag_ctx *d, int fd, int *status, char *err,
	size_t errlen)
{
	parse_ctx c;
	strbuf b = {0};
	size_t next = 0;
	int e = 0;
	json_t *doc = NULL;

	name = name ? name : "<stdin>";
	json_t *head = parsed_head(files_ahead(text, len, name, o));
	util_pipe_grow(fd);
	ctx_init(&c, text, len, name, o, d);
	ast_sender *s = ast_send_begin(&b, fd, head);
	run(&c, s, &next);
	*status = 0;
	if (c.errors) {
		/* what was sent stays a part: the next tool reports that
		   it is not a whole document, as it reports nothing at all */
		ast_send_drop(s);
		*status = 1;
	} else if (!json_equal(c.files, json_object_get(head, "files"))) {
		ast_send_drop(s);
		snprintf(err, errlen, "internal error: the files read ahead "
			"are not those of the parse");
		*status = 2;
	} else {
		size_t sent = ast_send_end(s, NULL, &e);
		if (send_rest(&b, sent, fd, e, err, errlen) != 0)
			*status = 2;
		doc = head;
		json_object_set_new(doc, "decls", json_incref(c.decls));
		head = NULL;
	}
	sb_free(&b);
	json_decref(head);
	ctx_free(&c);
	return doc;
}

/* ---- the AST file ----------------------------------------------------------- */

int brast_failed_input(const char *text, size_t len, const char *name,
	diag_ctx *d)
{
	if (!util_failed_text(text, len))
		return 0;
	if (strcmp(name, "<stdin>") != 0 || !util_is_pipe(0))
		diag_report(d, DIAG_ERROR, name, 0, 0, "input-failed",
			"the tool that wrote this input failed: it ends with "
			"the line \"" UTIL_FAILED_LINE "\"");
	return 1;
}

/* brast_load, DOC the tree ast_read_json made of TEXT or NULL */
static json_t *load(json_t *doc, const char *text, size_t len,
	const char *name, diag_ctx *d)
{
	json_error_t err;
	if (!doc && brast_failed_input(text, len, name, d))
		return NULL;
	if (!doc)
		doc = json_loadb(text, len, 0, &err);
	if (!doc) {
		diag_report(d, DIAG_ERROR, name, err.line > 0 ? err.line : 0,
			err.column > 0 ? err.column : 0, "brast-json",
			"not an AST file: %s", err.text);
		return NULL;
	}
	json_t *v = json_object_get(doc, "brast");
	if (!json_is_object(doc) || !v) {
		diag_report(d, DIAG_ERROR, name, 0, 0, "brast-json",
			"not an AST file: no \"brast\" version");
	} else if (!json_is_integer(v) || json_integer_value(v) != BRAST_VERSION) {
		diag_report(d, DIAG_ERROR, name, 0, 0, "brast-version",
			"AST file of an unknown version (this reads version %d)",
			BRAST_VERSION);
	} else if (!json_is_array(json_object_get(doc, "decls"))
		|| !json_is_array(json_object_get(doc, "files"))) {
		diag_report(d, DIAG_ERROR, name, 0, 0, "brast-json",
			"not an AST file: \"files\" or \"decls\" is missing");
	} else {
		/* the digest is of the text, which the tree no longer is */
		json_object_del(doc, "digest");
		return doc;
	}
	json_decref(doc);
	return NULL;
}

json_t *brast_load(const char *text, size_t len, const char *name,
	diag_ctx *d)
{
	return load(ast_read_json(text, len), text, len, name, d);
}

int brast_read(const char *path, strbuf *text, json_t **doc, diag_ctx *d,
	char *err, size_t errlen)
{
	return brast_read_each(path, text, doc, d, err, errlen, NULL, NULL);
}

int brast_read_each(const char *path, strbuf *text, json_t **doc,
	diag_ctx *d, char *err, size_t errlen, ast_each_fn *each, void *arg)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	json_t *tree;
	int fd = util_open_read(path, err, errlen);

	*doc = NULL;
	if (fd < 0)
		return -1;
	int r = ast_read_fd_each(fd, text, &tree, each, arg);
	if (r != 0)
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
	if (fd != 0)
		close(fd);
	if (r != 0)
		return -1;
	*doc = load(tree, text->s, text->len, name, d);
	return 0;
}

char *brast_dump(const json_t *doc)
{
	strbuf b = {0};
	sb_reserve(&b, 1 << 16);
	ast_write_json(&b, doc);	/* ast_write.c */
	sb_putc(&b, '\n');
	return sb_take(&b);
}

/* The digest member, with the closing brace: ,"digest":"<16 hex>"} */
#define DIGEST_KEY ",\"digest\":\""
enum { DIGEST_LEN = sizeof DIGEST_KEY - 1 + 16 + 2 };

/* B holds a document's text, which ends with its closing brace: the
 * digest member takes the brace's place. */
static void seal(strbuf *b)
{
	char tail[DIGEST_LEN + 1];

	if (b->len < 1 || b->s[b->len - 1] != '}')
		return;
	b->len--;
	snprintf(tail, sizeof tail, DIGEST_KEY "%016" PRIx64 "\"}",
		util_digest(b->s, b->len));
	sb_puts(b, tail);
}

char *brast_dump_sealed(const json_t *doc)
{
	strbuf b = {0};
	sb_reserve(&b, 1 << 16);
	ast_write_json(&b, doc);
	seal(&b);
	sb_putc(&b, '\n');
	return sb_take(&b);
}

int brast_write(const char *path, const json_t *doc, int sealed, char *err,
	size_t errlen)
{
	if (strcmp(path, "-") != 0) {
		char *text = sealed ? brast_dump_sealed(doc) : brast_dump(doc);
		int r = util_write_file(path, text, strlen(text), err, errlen);
		free(text);
		return r;
	}
	strbuf b = {0};
	int e = 0;

	util_pipe_grow(1);
	size_t sent = ast_write_json_fd(&b, doc, 1, &e);
	/* the closing brace is never sent: the digest can take its place */
	if (sealed && sent < b.len)
		seal(&b);
	int r = send_rest(&b, sent, 1, e, err, errlen);
	sb_free(&b);
	return r;
}

/* ---- a sealed document sent while it is checked ------------------------ */
struct brast_sender {
	strbuf b;
	ast_sender *s;
};

/* DOC's members before "decls" (HEAD) or after it (TAIL), in order. */
static json_t *doc_part(const json_t *doc, int tail)
{
	json_t *part = json_object();
	int after = 0;

	for (void *it = json_object_iter((json_t *)doc); it;
			it = json_object_iter_next((json_t *)doc, it)) {
		const char *k = json_object_iter_key(it);
		if (strcmp(k, "decls") == 0)
			after = 1;
		else if (after == tail)
			json_object_set_nocheck(part, k,
				json_object_iter_value(it));
	}
	return part;
}

brast_sender *brast_send_begin(const json_t *doc)
{
	brast_sender *o = xcalloc(1, sizeof *o);
	json_t *head = doc_part(doc, 0);

	util_pipe_grow(1);
	o->s = ast_send_begin(&o->b, 1, head);
	json_decref(head);
	return o;
}

void brast_send_decl(brast_sender *o, const json_t *decl)
{
	ast_send_elem(o->s, decl);
}

int brast_send_end(brast_sender *o, const json_t *doc, char *err,
	size_t errlen)
{
	json_t *tail = doc_part(doc, 1);
	int e = 0;
	size_t sent = ast_send_end(o->s, tail, &e);

	json_decref(tail);
	/* the closing brace is never sent: the digest takes its place */
	if (sent < o->b.len)
		seal(&o->b);
	int r = send_rest(&o->b, sent, 1, e, err, errlen);
	sb_free(&o->b);
	free(o);
	return r;
}

void brast_send_drop(brast_sender *o)
{
	if (!o)
		return;
	ast_send_drop(o->s);
	sb_free(&o->b);
	free(o);
}

int brast_sealed(const char *text, size_t len)
{
	char want[DIGEST_LEN + 1];

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ' ||
		text[len - 1] == '\t' || text[len - 1] == '\r'))
		len--;
	if (len < DIGEST_LEN)
		return 0;
	len -= DIGEST_LEN;
	snprintf(want, sizeof want, DIGEST_KEY "%016" PRIx64 "\"}",
		util_digest(text, len));
	return memcmp(text + len, want, DIGEST_LEN) == 0;
}

/* One value of the indented form: what fits in 64 columns on one line,
 * the rest one member a line. */
static void pretty(strbuf *b, const json_t *v, int indent)
{
	strbuf flat = {0};
	ast_write_json(&flat, v);
	if (flat.len + (size_t)indent <= 64 || (!json_is_object(v)
		&& !json_is_array(v))) {
		sb_putn(b, flat.s, flat.len);
		sb_free(&flat);
		return;
	}
	sb_free(&flat);
	int obj = json_is_object(v);
	sb_putc(b, obj ? '{' : '[');
	size_t i = 0, count = obj ? json_object_size(v) : json_array_size(v);
	const char *k;
	json_t *x;
	void *it = obj ? json_object_iter((json_t *)v) : NULL;
	for (i = 0; i < count; i++) {
		sb_putc(b, '\n');
		for (int j = 0; j < indent + 1; j++)
			sb_putc(b, ' ');
		if (obj) {
			k = json_object_iter_key(it);
			x = json_object_iter_value(it);
			it = json_object_iter_next((json_t *)v, it);
			ast_write_string(b, k, strlen(k));
			sb_puts(b, ": ");
		} else {
			x = json_array_get(v, i);
		}
		pretty(b, x, indent + 1);
		if (i + 1 < count)
			sb_putc(b, ',');
	}
	sb_putc(b, '\n');
	for (int j = 0; j < indent; j++)
		sb_putc(b, ' ');
	sb_putc(b, obj ? '}' : ']');
}

char *brast_dump_pretty(const json_t *doc)
{
	strbuf b = {0};
	pretty(&b, doc, 0);
	sb_putc(&b, '\n');
	return sb_take(&b);
}

json_t *brast_strip_locations(const json_t *doc)
{
	if (json_is_object(doc)) {
		json_t *r = json_object();
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)doc, k, v)
			if (strcmp(k, "at") != 0)
				json_object_set_new(r, k, brast_strip_locations(v));
		return r;
	}
	if (json_is_array(doc)) {
		json_t *r = json_array();
		size_t i;
		json_t *v;
		json_array_foreach(doc, i, v)
			json_array_append_new(r, brast_strip_locations(v));
		return r;
	}
	return json_copy((json_t *)doc);
}
