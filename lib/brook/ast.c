/* ast.c - accessors and constructors of brast(5) nodes (see ast.h). */
#define _DEFAULT_SOURCE	/* madvise */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "brook/ast.h"
#include "brook/util.h"

/* "k" is the first member of every node brparse makes, and brast_load
 * keeps the order of the text: looking there first spares a search of
 * the members on the tree walks that ask every node its kind. */
const char *ast_kind(const json_t *n)
{
	void *it = json_object_iter((json_t *)n);

	if (brj_object_iter_is(it, "k", 1)) {
		const char *s = json_string_value(json_object_iter_value(it));
		return s ? s : "";
	}
	return ast_str(n, "k");
}

int ast_is_literal(const json_t *n)
{
	for (;;) {
		const char *k = ast_kind(n);
		if (strcmp(k, "paren") == 0 || (strcmp(k, "unop") == 0 &&
				(strcmp(ast_str(n, "op"), "-") == 0 ||
				strcmp(ast_str(n, "op"), "+") == 0)))
			n = ast_get(n, "e");
		else
			return strcmp(k, "int") == 0 ||
				strcmp(k, "float") == 0 || strcmp(k, "char") == 0;
	}
}

const json_t *ast_args_type(const json_t *args)
{
	const json_t *t = NULL;
	size_t i, n = json_array_size(args);

	for (i = 0; i < n; i++) {
		const json_t *a = json_array_get(args, i);
		if (!ast_is_literal(a))
			return ast_get(a, "ty");
		if (!t)
			t = ast_get(a, "ty");
	}
	return t;
}

const json_t *ast_find(const json_t *n,
	int (*pred)(const json_t *node, const void *ctx), const void *ctx)
{
	const json_t *found;

	if (json_is_object(n)) {
		const char *key;
		json_t *v;
		if (pred(n, ctx))
			return n;
		json_object_foreach((json_t *)n, key, v)
			if (ast_walks(key) && (found = ast_find(v, pred, ctx)))
				return found;
	} else if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v)
			if ((found = ast_find(v, pred, ctx)))
				return found;
	}
	return NULL;
}

int ast_at(const json_t *doc, const json_t *n, const char **file, int *line,
	int *col)
{
	json_t *at = ast_arr(n, "at");
	if (!at || json_array_size(at) != 3)
		return -1;
	json_int_t fi = json_integer_value(json_array_get(at, 0));
	json_int_t ln = json_integer_value(json_array_get(at, 1));
	json_int_t cl = json_integer_value(json_array_get(at, 2));
	/* an edited AST may point outside its file table or its lines: no
	 * location rather than a wrong one (fuzz/FINDINGS.md, F9) */
	if (fi < 0 || (size_t)fi >= json_array_size(ast_arr(doc, "files")) ||
		ln < 1 || ln > INT_MAX || cl < 0 || cl > INT_MAX)
		return -1;
	const char *f = json_string_value(json_array_get(ast_arr(doc, "files"),
		(size_t)fi));
	if (file)
		*file = f ? f : "<input>";
	if (line)
		*line = (int)ln;
	if (col)
		*col = (int)cl;
	return 0;
}

json_t *ast_node(const char *kind, int file, int line, int col)
{
	json_t *n = json_object();
	json_object_set_new(n, "k", json_string(kind));
	json_t *at = json_array();
	json_array_append_new(at, json_integer(file));
	json_array_append_new(at, json_integer(line));
	json_array_append_new(at, json_integer(col));
	json_object_set_new(n, "at", at);
	return n;
}

json_t *ast_type(const char *t)
{
	json_t *n = json_object();
	json_object_set_new(n, "t", json_string(t));
	return n;
}

/* ---- reading brast(5) text ----------------------------------------------------
 * json_loadb reads a byte at a time through a callback, checks UTF-8 on
 * every byte and copies every token into a growing buffer; on an AST of
 * a few megabytes that costs more than all of brgen's work. This reader
 * walks the text in place and makes finished keys and values. It
 * accepts a subset of what json_loadb accepts (RFC 8259 JSON with an
 * object or array at the top, as jansson without flags) and builds the
 * same tree; whatever it does not accept (any error, \u0000, surrogate
 * escapes, bytes above 0x7f, integers out of range, deep nesting) makes
 * it return NULL, so that the caller reads the text again with json_loadb
 * for the tree or the exact message. */
/* brcheck gives every expression its type, "ty": 14,000 objects in a
 * program of 4,000 lines, nearly all one of a few ({"t":"float"},
 * {"t":"int"}). The reader makes one object of each short "ty" text and
 * hands out references to it (json_incref): no stage writes into a "ty"
 * object or tells two of them apart by address. Declared types ("type")
 * stay apart: astprint prints declarators whose base types are one
 * object as one declaration. Small integers (lines, columns, ids) and
 * short strings (kinds, names, operators) are shared alike: nothing
 * changes a JSON integer or string once made. */
typedef struct ast_shared {
	const char *text;	/* a copy of it ("ty"), or the string's own */
	size_t n;
	json_t *v;		/* NULL: a free slot */
} ast_shared;

enum {
	AST_SHARED_SLOTS = 1024,	/* half of them used at most */
	AST_SHARED_TEXT = 128,		/* longer texts are not shared */
	AST_SHARED_INTS = 4096,		/* and integers 0 .. this - 1 */
	AST_SHARED_STRS = 4096,		/* slots for strings, half used */
	AST_SHARED_STR = 24,		/* longer strings are not shared */
	AST_KEY_SLOTS = 1024		/* half of them used at most */
};

/* A key of the reader's table, found by its tag (json.h) */
typedef struct ast_key {
	unsigned long long tag;
	const char *text;	/* NULL: a free slot */
} ast_key;

typedef struct ast_reader {
	const char *p, *end;
	int depth;
	strbuf tmp;	/* a string with escapes, decoded */
	ast_shared *shared;	/* AST_SHARED_SLOTS, open addressing */
	size_t nshared;
	json_t **ints;		/* AST_SHARED_INTS, made when first read */
	ast_shared *strs;	/* AST_SHARED_STRS, open addressing */
	size_t nstrs;
	int lasting;		/* the values last as long as the arena
				   (reader_lasting) */
	ast_key *keys;		/* AST_KEY_SLOTS, the keys read: each text
				   once, lent to the objects while lasting */
	size_t nkeys;
	brj_member *members;	/* the members of the objects being read,
				   innermost last */
	size_t nmembers, members_cap;
	json_t **elements;	/* and of the arrays */
	size_t nelements, elements_cap;
} ast_reader;

enum { AST_READ_DEPTH = 1024 };	/* jansson stops at 2048 */

static void skip_space(ast_reader *r)
{
	static const unsigned char space[256] = {
		[' '] = 1, ['\n'] = 1, ['\t'] = 1, ['\r'] = 1
	};

	while (r->p < r->end && space[(unsigned char)*r->p])
		r->p++;
}

/* Steps over C when it is the next character. */
static int eat(ast_reader *r, char c)
{
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return 1;
	}
	return 0;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The bytes a string holds as they are: 0x20 to 0x7f but '"' and '\\'.
 * A table (rows of 16 from 0x20): one load a byte. */
static const unsigned char plain[256] = {
	[0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* string = '"' chars '"' (r->p on the opening quote). On success *s and
 * *n are the contents: in the text itself when nothing is escaped, else
 * in r->tmp. */
static int read_string(ast_reader *r, const char **s, size_t *n)
{
	const char *p = ++r->p, *start = p;

	while (p < r->end && plain[(unsigned char)*p])
		p++;
	if (p < r->end && *p == '"') {
		*s = start;
		*n = (size_t)(p - start);
		r->p = p + 1;
		return 0;
	}
	r->tmp.len = 0;
	sb_putn(&r->tmp, start, (size_t)(p - start));
	while (p < r->end && *p != '"') {
		unsigned char c = (unsigned char)*p++;
		if (c < 0x20 || c >= 0x80)
			return -1;
		if (c != '\\') {
			sb_putc(&r->tmp, c);
			continue;
		}
		if (p >= r->end)
			return -1;
		switch (*p++) {
		case '"': sb_putc(&r->tmp, '"'); break;
		case '\\': sb_putc(&r->tmp, '\\'); break;
		case '/': sb_putc(&r->tmp, '/'); break;
		case 'b': sb_putc(&r->tmp, '\b'); break;
		case 'f': sb_putc(&r->tmp, '\f'); break;
		case 'n': sb_putc(&r->tmp, '\n'); break;
		case 'r': sb_putc(&r->tmp, '\r'); break;
		case 't': sb_putc(&r->tmp, '\t'); break;
		case 'u': {
			int u = 0;
			for (int i = 0; i < 4; i++) {
				int h = p < r->end ? hex_digit(*p++) : -1;
				if (h < 0)
					return -1;
				u = u * 16 + h;
			}
			if (u == 0 || (u >= 0xd800 && u <= 0xdfff))
				return -1;
			if (u < 0x80) {
				sb_putc(&r->tmp, u);
			} else if (u < 0x800) {
				sb_putc(&r->tmp, 0xc0 | u >> 6);
				sb_putc(&r->tmp, 0x80 | (u & 0x3f));
			} else {
				sb_putc(&r->tmp, 0xe0 | u >> 12);
				sb_putc(&r->tmp, 0x80 | (u >> 6 & 0x3f));
				sb_putc(&r->tmp, 0x80 | (u & 0x3f));
			}
			break;
		}
		default:
			return -1;
		}
	}
	if (p >= r->end)
		return -1;
	r->p = p + 1;
	*s = r->tmp.s ? r->tmp.s : "";
	*n = r->tmp.len;
	return 0;
}

static int is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/* number = ["-"] ("0" | [1-9][0-9]*) ["." [0-9]+] [("e"|"E") ["+"|"-"]
 * [0-9]+]: an integer when it has neither fraction nor exponent */
static json_t *read_number(ast_reader *r)
{
	const char *p = r->p, *end = r->end, *start = p;
	int neg = 0, real = 0;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (!is_digit(p, end))
		return NULL;
	if (*p == '0') {
		p++;
		if (is_digit(p, end))
			return NULL;
	} else {
		while (is_digit(p, end))
			p++;
	}
	if (p < end && *p == '.') {
		real = 1;
		if (!is_digit(++p, end))
			return NULL;
		while (is_digit(p, end))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, end))
			return NULL;
		while (is_digit(p, end))
			p++;
	}
	r->p = p;
	if (!real) {
		/* 18 digits cannot overflow; longer ones go to json_loadb */
		if (p - start - neg > 18)
			return NULL;
		json_int_t v = 0;
		for (const char *q = start + neg; q < p; q++)
			v = v * 10 + (*q - '0');
		if (neg || v >= AST_SHARED_INTS)
			return json_integer(neg ? -v : v);
		if (!r->ints)
			r->ints = xcalloc(AST_SHARED_INTS, sizeof *r->ints);
		if (!r->ints[v])
			r->ints[v] = json_integer(v);
		return json_incref(r->ints[v]);
	}
	char buf[64];
	if ((size_t)(p - start) >= sizeof buf)
		return NULL;
	memcpy(buf, start, (size_t)(p - start));
	buf[p - start] = '\0';
	errno = 0;
	double d = strtod(buf, NULL);
	if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
		return NULL;
	return json_real(d);
}

static json_t *read_value(ast_reader *r);

/* The slot of table T (CAP slots, a power of two) that holds the text S
 * of N bytes, or the free one where it would go. */
static size_t shared_slot(const ast_shared *t, size_t cap, const char *s,
	size_t n)
{
	size_t i;

	for (i = util_fnv1a(s, n) & (cap - 1); t[i].v; i = (i + 1) & (cap - 1))
		if (t[i].n == n && memcmp(t[i].text, s, n) == 0)
			break;
	return i;
}

/* The string S of N bytes: one made before of the same bytes again, when
 * short. */
static json_t *shared_string(ast_reader *r, const char *s, size_t n)
{
	size_t i;

	if (n > AST_SHARED_STR)
		return json_stringn_nocheck(s, n);
	if (!r->strs)
		r->strs = xcalloc(AST_SHARED_STRS, sizeof *r->strs);
	i = shared_slot(r->strs, AST_SHARED_STRS, s, n);
	if (r->strs[i].v)
		return json_incref(r->strs[i].v);
	json_t *v = json_stringn_nocheck(s, n);
	if (v && r->nstrs < AST_SHARED_STRS / 2) {
		/* the text of the string itself: S may lie in r->tmp */
		r->strs[i].text = json_string_value(v);
		r->strs[i].n = n;
		r->strs[i].v = json_incref(v);
		r->nstrs++;
	}
	return v;
}

/* The length of the text of the object at r->p up to its closing brace,
 * when it is short and has no escapes; else 0. */
static size_t shared_span(const ast_reader *r)
{
	const char *p = r->p, *end = r->end;
	int depth = 0, str = 0;

	if (end - p > AST_SHARED_TEXT)
		end = p + AST_SHARED_TEXT;
	for (; p < end; p++) {
		if (str) {
			if (*p == '"')
				str = 0;
			else if (*p == '\\')
				return 0;
		} else if (*p == '"') {
			str = 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if ((*p == '}' || *p == ']') && --depth == 0) {
			return (size_t)(p + 1 - r->p);
		}
	}
	return 0;
}

/* value, the value of a "ty" member: an object read before under the
 * same text is that object again. Not inlined into read_object, which
 * then costs brcheck (no "ty" in its input) more than this saves. */
static __attribute__((noinline)) json_t *read_shared(ast_reader *r)
{
	size_t n, i;

	skip_space(r);
	if (r->p >= r->end || *r->p != '{' ||
			r->depth + AST_SHARED_TEXT >= AST_READ_DEPTH ||
			!(n = shared_span(r)))
		return read_value(r);
	if (!r->shared)
		r->shared = xcalloc(AST_SHARED_SLOTS, sizeof *r->shared);
	i = shared_slot(r->shared, AST_SHARED_SLOTS, r->p, n);
	if (r->shared[i].v) {
		r->p += n;
		return json_incref(r->shared[i].v);
	}
	const char *text = r->p;
	json_t *v = read_value(r);
	if (v && r->p == text + n && r->nshared < AST_SHARED_SLOTS / 2) {
		/* the slot again: a "ty" inside V may have taken slot I. A
		   reference of the table's own: the object V goes into may
		   drop it (a second "ty" member replaces the first) */
		i = shared_slot(r->shared, AST_SHARED_SLOTS, text, n);
		if (!r->shared[i].v) {
			/* a copy: the text of a stream moves as it grows */
			r->shared[i].text = xstrndup(text, n);
			r->shared[i].n = n;
			r->shared[i].v = json_incref(v);
			r->nshared++;
		}
	}
	return v;
}

static json_malloc_t json_malloc_now(void);

/* The key K of N bytes (tag TAG) as the reader's table has it: a copy
 * made once for all the objects that have it (in the arena while the
 * values last, which then lend it: brj_object_of), or NULL where the
 * table is full (a document of more keys than an AST has, which then
 * goes to json_loadb). A key of four bytes or less is its tag. */
static const char *reader_key(ast_reader *r, const char *k, size_t n,
	unsigned long long tag)
{
	size_t i, mask = AST_KEY_SLOTS - 1;
	ast_key *t;

	if (!r->keys)
		r->keys = xcalloc(AST_KEY_SLOTS, sizeof *r->keys);
	t = r->keys;
	for (i = (size_t)(brj_tag_hash(tag) >> 40) & mask;
			t[i].text; i = (i + 1) & mask)
		if (t[i].tag == tag && (n <= 4 ||
				memcmp(t[i].text + 4, k + 4, n - 4) == 0))
			return t[i].text;
	if (r->nkeys >= AST_KEY_SLOTS / 2)
		return NULL;
	char *c = r->lasting ? json_malloc_now()(n + 1) : xmalloc(n + 1);
	if (!c)
		return NULL;
	memcpy(c, k, n);
	c[n] = '\0';
	t[i].tag = tag;
	t[i].text = c;
	r->nkeys++;
	return c;
}

/* object = "{" [string ":" value {"," string ":" value}] "}"
 * The members wait on the reader's stack until the object is read, which
 * is then made in one piece (brj_object_of), its keys lent from the
 * reader's table while the values last. */
static json_t *read_object(ast_reader *r)
{
	size_t base = r->nmembers;
	const char *k;
	size_t n;

	r->p++;
	skip_space(r);
	if (eat(r, '}'))
		return json_object();
	for (;;) {
		if (r->p >= r->end || *r->p != '"' || read_string(r, &k, &n))
			break;
		skip_space(r);
		if (!eat(r, ':'))
			break;
		/* the key before read_value reuses r->tmp */
		unsigned long long tag = brj_key_tag(k, n);
		const char *key = reader_key(r, k, n, tag);
		if (!key)
			break;
		json_t *v = n == 2 && key[0] == 't' && key[1] == 'y' ?
			read_shared(r) : read_value(r);
		if (!v)
			break;
		if (r->nmembers == r->members_cap) {
			r->members_cap = r->members_cap ? 2 * r->members_cap
				: 64;
			r->members = xrealloc(r->members, r->members_cap *
				sizeof *r->members);
		}
		brj_member *m = &r->members[r->nmembers++];
		m->tag = tag;
		m->key = (char *)key;
		m->value = v;
		skip_space(r);
		if (eat(r, ',')) {
			skip_space(r);
			continue;
		}
		if (eat(r, '}')) {
			json_t *o = brj_object_of(r->members + base,
				r->nmembers - base, r->lasting);
			r->nmembers = base;
			return o;
		}
		break;
	}
	while (r->nmembers > base)
		json_decref(r->members[--r->nmembers].value);
	return NULL;
}

/* array = "[" [value {"," value}] "]", made in one piece as objects are */
static json_t *read_array(ast_reader *r)
{
	size_t base = r->nelements;

	r->p++;
	skip_space(r);
	if (eat(r, ']'))
		return json_array();
	for (;;) {
		json_t *v = read_value(r);
		if (!v)
			break;
		if (r->nelements == r->elements_cap) {
			r->elements_cap = r->elements_cap ?
				2 * r->elements_cap : 256;
			r->elements = xrealloc(r->elements, r->elements_cap *
				sizeof *r->elements);
		}
		r->elements[r->nelements++] = v;
		skip_space(r);
		if (eat(r, ','))
			continue;
		if (eat(r, ']')) {
			json_t *a = brj_array_of(r->elements + base,
				r->nelements - base);
			r->nelements = base;
			return a;
		}
		break;
	}
	while (r->nelements > base)
		json_decref(r->elements[--r->nelements]);
	return NULL;
}

static int read_word(ast_reader *r, const char *w, size_t n)
{
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return 0;
	r->p += n;
	return 1;
}

/* value = object | array | string | number | "true" | "false" | "null" */
/* V, made to last where R's values do (reader_lasting). */
static json_t *lasting(const ast_reader *r, json_t *v)
{
	if (v && r->lasting)
		v->refcount = (size_t)-1;
	return v;
}

static json_t *read_value(ast_reader *r)
{
	json_t *v = NULL;
	const char *s;
	size_t n;

	skip_space(r);
	if (r->p >= r->end || r->depth >= AST_READ_DEPTH)
		return NULL;
	r->depth++;
	switch (*r->p) {
	case '{': v = read_object(r); break;
	case '[': v = read_array(r); break;
	case '"':
		if (read_string(r, &s, &n) == 0)
			v = shared_string(r, s, n);
		break;
	case 't': v = read_word(r, "true", 4) ? json_true() : NULL; break;
	case 'f': v = read_word(r, "false", 5) ? json_false() : NULL; break;
	case 'n': v = read_word(r, "null", 4) ? json_null() : NULL; break;
	default: v = read_number(r); break;
	}
	r->depth--;
	return lasting(r, v);
}

static void reader_free(ast_reader *r)
{
	sb_free(&r->tmp);
	if (r->shared)
		for (size_t i = 0; i < AST_SHARED_SLOTS; i++) {
			json_decref(r->shared[i].v);
			free((char *)r->shared[i].text);
		}
	free(r->shared);
	if (r->ints)
		for (size_t i = 0; i < AST_SHARED_INTS; i++)
			json_decref(r->ints[i]);
	free(r->ints);
	if (r->strs)
		for (size_t i = 0; i < AST_SHARED_STRS; i++)
			json_decref(r->strs[i].v);
	free(r->strs);
	if (r->keys && !r->lasting)
		for (size_t i = 0; i < AST_KEY_SLOTS; i++)
			free((char *)r->keys[i].text);
	free(r->keys);
	free(r->members);
	free(r->elements);
}

static void *arena_alloc(size_t n);
static void *arena_alloc_shared(size_t n);

/* json.h's allocator now: arena_alloc, arena_alloc_shared (the arena,
 * shared by threads) or another (no arena). */
static json_malloc_t json_malloc_now(void)
{
	json_malloc_t m;
	json_free_t f;

	json_get_alloc_funcs(&m, &f);
	return m;
}

/* Whether the values R reads last as long as the arena, which frees none
 * before its end (ast_arena_begin): then they are made so that nothing
 * counts their references, as nothing counts those of true, false and
 * null (a reference count of (size_t)-1, json.h's mark of a value that
 * lasts), and their objects borrow their keys from the reader's table.
 * Taking and dropping a reference is then a test, not an atomic write to
 * memory that brgen's threads share. */
static int reader_lasting(void)
{
	json_malloc_t m = json_malloc_now();

	return m == arena_alloc || m == arena_alloc_shared;
}

json_t *ast_read_json(const char *text, size_t len)
{
	ast_reader r;
	json_t *doc = NULL;

	memset(&r, 0, sizeof r);
	r.p = text;
	r.end = text + len;
	r.lasting = reader_lasting();

	skip_space(&r);
	if (r.p < r.end && (*r.p == '{' || *r.p == '['))
		doc = read_value(&r);
	skip_space(&r);
	if (doc && r.p != r.end) {
		json_decref(doc);
		doc = NULL;
	}
	reader_free(&r);
	return doc;
}

/* ---- reading as the text arrives ---------------------------------------------
 * In a pipe, brcheck and brgen would wait for the last byte before reading
 * the first, while the tool before them writes: ast_read_fd reads the
 * document while it arrives. It takes the text a unit at a time: the
 * opening brace, one member of the document, one element of its "decls"
 * array. A unit is read from the text in hand, and counts only when a
 * byte follows it there (so a number or word cut off at the end of what
 * has arrived is not taken for a whole one); otherwise it is read again
 * from its start once more text has come: twice as much of it as at the
 * last try, so that a large unit costs at most about twice its reading.
 * The tree is the one ast_read_json makes of the whole text: where a
 * unit cannot be read even from all of it (an error, or no object at the
 * top), the whole goes to ast_read_json, which decides. */
typedef struct ast_stream {
	ast_reader r;
	int fd;
	int pipe;		/* FD is a pipe: wait_for_text looks, then
				   naps */
	strbuf *buf;		/* the text so far */
	int eof;
	int err;		/* errno of a failed read, else 0 */
	ast_each_fn *each;	/* called for each element of "decls" */
	void *arg;
} ast_stream;

/* Waiting for the next text of a pipe. Its writer wakes a reader asleep in
 * read() as the kernel wakes a process that the waker hands its work to:
 * on the writer's own processor, where the writer is about to sleep. The
 * writers here (brparse, brcheck) go on writing, and the reader, which has
 * work of its own for each piece, then takes turns with its writer on one
 * processor while another one idles. So while the text comes through a
 * pipe the reader does not sleep on the pipe: it looks whether there is
 * text or an end (poll with no timeout, which does not wait) and naps
 * AST_NAP_NS on a timer between looks, from which the kernel wakes it
 * where a processor is free. After AST_NAPS naps in a row (0.1 s) with
 * nothing come, it sleeps in read() again: a writer that slow gains
 * nothing from this. (bench/RESULTS.md, the front end at 10:37: 2 ms of
 * the four tools' 40.) */
enum { AST_NAP_NS = 200000, AST_NAPS = 500 };

static void wait_for_text(const ast_stream *s)
{
	struct pollfd p;

	for (int naps = 0; naps < AST_NAPS; naps++) {
		p.fd = s->fd;
		p.events = POLLIN;
		p.revents = 0;
		int n = poll(&p, 1, 0);
		if (n > 0 || (n < 0 && errno != EINTR))
			return;	/* text, an end or an error: read() says */
		struct timespec nap = {0, AST_NAP_NS};
		nanosleep(&nap, NULL);
	}
}

static size_t read_limit;	/* ast_read_fd_limit */

void ast_read_fd_limit(size_t n)
{
	read_limit = n;
}

/* Reads what the descriptor has next onto the text (0 at its end). */
static void stream_read(ast_stream *s)
{
	size_t at = (size_t)(s->r.p - s->buf->s);

	sb_reserve(s->buf, 64 << 10);
	if (s->pipe)
		wait_for_text(s);
	for (;;) {
		size_t room = s->buf->cap - s->buf->len - 1;
		if (read_limit && room > read_limit)
			room = read_limit;
		ssize_t n = read(s->fd, s->buf->s + s->buf->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			s->err = errno;
		if (n <= 0)
			s->eof = 1;
		else
			s->buf->len += (size_t)n;
		break;
	}
	s->buf->s[s->buf->len] = '\0';
	s->r.p = s->buf->s + at;
	s->r.end = s->buf->s + s->buf->len;
}

enum {
	UNIT_OPEN,	/* '{' */
	UNIT_MEMBER,	/* a member of the document, and ',' or '}' */
	UNIT_ELEMENT,	/* an element of "decls", and ',' or ']' */
	UNIT_AFTER	/* ',' or '}' after "decls" */
};

/* Reads one unit of kind KIND at r->p into *key and *v (NULL where it
 * has none); FIRST: the first member or element, where the object or
 * array may end at once. Returns the character that ended it (',', '}',
 * ']'; '[' for the "decls" member, whose value is read a unit at a time
 * after; '{' for UNIT_OPEN), or 0 where the text in hand does not hold
 * it. */
static int read_unit(ast_reader *r, int kind, int first, char **key,
	json_t **v)
{
	const char *k;
	size_t n;

	*key = NULL;
	*v = NULL;
	skip_space(r);
	switch (kind) {
	case UNIT_OPEN:
		return eat(r, '{') ? '{' : 0;
	case UNIT_AFTER:
		return eat(r, ',') ? ',' : eat(r, '}') ? '}' : 0;
	case UNIT_MEMBER:
		if (first && eat(r, '}'))
			return '}';
		if (r->p >= r->end || *r->p != '"' || read_string(r, &k, &n))
			return 0;
		*key = xstrndup(k, n);
		skip_space(r);
		if (!eat(r, ':'))
			return 0;
		skip_space(r);
		if (n == 5 && memcmp(*key, "decls", 5) == 0 &&
				r->p < r->end && *r->p == '[') {
			r->p++;
			return '[';
		}
		r->depth = 1;
		*v = read_value(r);
		break;
	default:
		if (first && eat(r, ']'))
			return ']';
		r->depth = 2;
		*v = read_value(r);
		break;
	}
	if (!*v)
		return 0;
	skip_space(r);
	if (r->p >= r->end)
		return 0;	/* nothing after it yet: maybe cut off */
	if (eat(r, ','))
		return ',';
	if (eat(r, kind == UNIT_MEMBER ? '}' : ']'))
		return kind == UNIT_MEMBER ? '}' : ']';
	return 0;
}

/* read_unit, again as more text arrives, until it reads the unit or the
 * text has ended. */
static int stream_unit(ast_stream *s, int kind, int first, char **key,
	json_t **v)
{
	size_t start = (size_t)(s->r.p - s->buf->s), tried;

	for (;;) {
		int c = read_unit(&s->r, kind, first, key, v);
		if (c)
			return c;
		free(*key);
		json_decref(*v);
		*key = NULL;
		*v = NULL;
		if (s->eof)
			return 0;
		/* twice as much text as this try had, or all of it */
		tried = s->buf->len - start;
		while (!s->eof && s->buf->len - start < 2 * tried + 1)
			stream_read(s);
		s->r.p = s->buf->s + start;
	}
}

/* The document of brast(5) from S, a unit at a time; NULL where it is not
 * one ast_read_json reads. */
static json_t *stream_doc(ast_stream *s)
{
	json_t *doc = json_object(), *decls = NULL, *v;
	char *key;
	int c, first = 1;

	lasting(&s->r, doc);

	if (stream_unit(s, UNIT_OPEN, 0, &key, &v) != '{')
		goto fail;
	for (;;) {
		c = stream_unit(s, UNIT_MEMBER, first, &key, &v);
		first = 0;
		if (c == '[') {
			/* "decls": its elements, then ',' or '}' */
			free(key);
			decls = lasting(&s->r, json_array());
			for (int f = 1; c != ']'; f = 0) {
				c = stream_unit(s, UNIT_ELEMENT, f, &key, &v);
				if (!c)
					goto fail;
				if (v) {
					json_array_append_new(decls, v);
					if (s->each)
						s->each(s->arg, v,
							json_array_size(decls)
							- 1);
				}
			}
			json_object_setn_new_nocheck(doc, "decls", 5, decls);
			decls = NULL;
			c = stream_unit(s, UNIT_AFTER, 0, &key, &v);
		} else if (c && v) {
			json_object_setn_new_nocheck(doc, key, strlen(key), v);
		}
		free(key);
		if (c != ',')
			break;
	}
	if (c != '}')
		goto fail;
	/* white space to the end, as ast_read_json allows */
	for (;;) {
		skip_space(&s->r);
		if (s->r.p < s->r.end || s->eof)
			break;
		stream_read(s);
	}
	if (s->r.p == s->r.end && !s->err)
		return doc;
fail:
	json_decref(decls);
	json_decref(doc);
	return NULL;
}

int ast_read_fd(int fd, strbuf *text, json_t **doc)
{
	return ast_read_fd_each(fd, text, doc, NULL, NULL);
}

int ast_read_fd_each(int fd, strbuf *text, json_t **doc, ast_each_fn *each,
	void *arg)
{
	ast_stream s;

	memset(&s, 0, sizeof s);
	s.fd = fd;
	s.each = each;
	s.arg = arg;
	s.pipe = util_pipe_grow(fd);
	s.buf = text;
	text->len = 0;
	sb_reserve(text, 64 << 10);
	s.r.p = s.r.end = text->s;
	s.r.lasting = reader_lasting();
	stream_read(&s);
	*doc = stream_doc(&s);
	while (!s.eof)
		stream_read(&s);
	reader_free(&s.r);
	/* a top that is no object, or text no reader takes: whatever
	   ast_read_json makes of the whole */
	if (!*doc && !s.err)
		*doc = ast_read_json(text->s, text->len);
	if (s.err) {
		json_decref(*doc);
		*doc = NULL;
		errno = s.err;
		return -1;
	}
	return 0;
}

/* ---- the AST's memory ------------------------------------------------------
 * One arena for a tool's run, handed back at once at the end (STYLE.md:
 * arenas per compilation). An AST of a few thousand lines is hundreds of
 * thousands of small JSON values; allocating and freeing each on its own
 * costs more than reading or writing them. json.h's allocator hooks take
 * no context, so the arena (with the threads' arenas while it is shared)
 * is static; only main() installs it (ast_arena_begin) and releases it
 * (ast_arena_end). */
typedef union arena_align {
	long double ld;
	long long ll;
	void *p;
} arena_align;

typedef struct arena_chunk {
	struct arena_chunk *next;
	size_t cap;
	arena_align data[];
} arena_chunk;

typedef struct arena {
	arena_chunk *chunks;	/* the newest first */
	char *next, *end;	/* the free part of the newest */
	struct arena *link;	/* the list of the threads' arenas */
} arena;

static arena ast_arena;		/* main()'s */

/* While the arena is shared (ast_arena_share), each thread that entered
 * it allocates from an arena of its own, found by this key. */
static struct {
	pthread_once_t once;
	int made;		/* the key exists */
	pthread_key_t key;
	pthread_mutex_t lock;	/* for the list below */
	arena *threads;		/* the threads' arenas, freed by
				   ast_arena_end */
} arena_shared = { PTHREAD_ONCE_INIT, 0, 0, PTHREAD_MUTEX_INITIALIZER, NULL };

/* A chunk of at least N bytes. Chunks are whole huge pages where the
 * system has them (2 MiB on x86-64 Linux, used when asked for with
 * MADV_HUGEPAGE): an AST of a few thousand lines fills tens of megabytes,
 * and taking them a 4 KiB page fault at a time costs as much as building
 * the tree. But a huge page is cleared whole at its first touch, so where
 * little is expected (SMALL: the first chunk of a thread's arena, which
 * brgen's second thread fills to about 150 KB of gen-big's program) the
 * chunk is ARENA_SMALL bytes of ordinary pages, cleared as they are
 * touched. */
enum { ARENA_HUGE = 2u << 20, ARENA_SMALL = 256u << 10 };

static arena_chunk *arena_chunk_new(size_t n, int small)
{
	size_t unit = small ? ARENA_SMALL : ARENA_HUGE;
	size_t cap = (n + sizeof(arena_chunk) + unit - 1) / unit * unit;
	void *p;

	if (posix_memalign(&p, unit, cap) != 0)
		p = xmalloc(cap);
#ifdef MADV_HUGEPAGE
	if (!small)
		(void)madvise(p, cap, MADV_HUGEPAGE);
#endif
	arena_chunk *c = p;
	c->cap = cap - sizeof *c;
	return c;
}

/* A new chunk for A, of at least N bytes. Out of line, so that
 * arena_take's few instructions are inlined where every value is
 * allocated (with this inside they were not: brparse took 1% more
 * instructions) */
static __attribute__((noinline)) void arena_grow(arena *a, size_t n)
{
	arena_chunk *c = arena_chunk_new(n, !a->chunks && a != &ast_arena);

	c->next = a->chunks;
	a->chunks = c;
	a->next = (char *)c->data;
	a->end = a->next + c->cap;
}

static void *arena_take(arena *a, size_t n)
{
	n = (n + sizeof(arena_align) - 1) & ~(sizeof(arena_align) - 1);
	if ((size_t)(a->end - a->next) < n)
		arena_grow(a, n);
	void *p = a->next;
	a->next += n;
	return p;
}

static void *arena_alloc(size_t n)
{
	return arena_take(&ast_arena, n);
}

/* ... while shared: the calling thread's arena, main()'s for a thread
 * that did not enter */
static void *arena_alloc_shared(size_t n)
{
	arena *a = pthread_getspecific(arena_shared.key);

	return arena_take(a ? a : &ast_arena, n);
}

static void arena_free(void *p)
{
	(void)p;
}

static void arena_free_chunks(arena *a)
{
	while (a->chunks) {
		arena_chunk *next = a->chunks->next;
		free(a->chunks);
		a->chunks = next;
	}
	a->next = a->end = NULL;
}

void ast_arena_begin(void)
{
	json_set_alloc_funcs(arena_alloc, arena_free);
}

static void arena_make_key(void)
{
	arena_shared.made = pthread_key_create(&arena_shared.key, NULL) == 0;
}

int ast_arena_share(void)
{
	if (json_malloc_now() != arena_alloc)
		return 0;	/* no arena: malloc serves threads */
	if (pthread_once(&arena_shared.once, arena_make_key) != 0 ||
			!arena_shared.made)
		return -1;
	json_set_alloc_funcs(arena_alloc_shared, arena_free);
	return 0;
}

int ast_arena_enter(void)
{
	arena *a;

	if (json_malloc_now() != arena_alloc_shared)
		return 0;
	a = xcalloc(1, sizeof *a);
	if (pthread_setspecific(arena_shared.key, a) != 0) {
		free(a);
		return -1;
	}
	pthread_mutex_lock(&arena_shared.lock);
	a->link = arena_shared.threads;
	arena_shared.threads = a;
	pthread_mutex_unlock(&arena_shared.lock);
	return 0;
}

void ast_arena_unshare(void)
{
	if (json_malloc_now() == arena_alloc_shared)
		json_set_alloc_funcs(arena_alloc, arena_free);
}

void ast_arena_end(void)
{
	json_set_alloc_funcs(malloc, free);
	arena_free_chunks(&ast_arena);
	while (arena_shared.threads) {
		arena *next = arena_shared.threads->link;
		arena_free_chunks(arena_shared.threads);
		free(arena_shared.threads);
		arena_shared.threads = next;
	}
}
