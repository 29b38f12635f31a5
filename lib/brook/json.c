/* json.c - the JSON values of json.h: objects as arrays of members, with a
 * hash index once they are large; arrays, strings and numbers as jansson
 * has them. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BRJ_NO_JSON_NAMES
#include "brook/json.h"
#include "brook/util.h"

/* more members than this: a hash index */
enum { OBJECT_INDEXED = 12 };

static brj_malloc_t do_malloc = malloc;
static brj_free_t do_free = free;

void brj_set_alloc_funcs(brj_malloc_t m, brj_free_t f)
{
	do_malloc = m;
	do_free = f;
}

void brj_get_alloc_funcs(brj_malloc_t *m, brj_free_t *f)
{
	if (m)
		*m = do_malloc;
	if (f)
		*f = do_free;
}

static void *take(size_t n)
{
	return do_malloc(n);
}

static void give(void *p)
{
	if (p)
		do_free(p);
}

static void *init(void *p, brj_type t)
{
	brj_t *v = p;

	if (v) {
		v->type = t;
		v->refcount = 1;
	}
	return v;
}

static brj_object_t *as_object(const brj_t *v)
{
	return brj_is_object(v) ? (brj_object_t *)v : NULL;
}

static brj_array_t *as_array(const brj_t *v)
{
	return brj_is_array(v) ? (brj_array_t *)v : NULL;
}

/* ---- values -------------------------------------------------------------- */

/* The members O was made with (brj_object_sized): not freed on their
 * own */
static brj_member *inline_members(brj_object_t *o)
{
	return (brj_member *)(o + 1);
}

static brj_t **inline_elements(brj_array_t *a)
{
	return (brj_t **)(a + 1);
}

static int key_is(const brj_member *m, const char *k, size_t n,
	unsigned long long tag);

/* The N items of SIZE bytes at *P moved to a new place with room for CAP;
 * the old one freed unless it is INL, made with its object or array.
 * Returns -1 (nothing moved) where memory ran out. */
static int move_items(void **p, size_t n, size_t cap, size_t size,
	const void *inl)
{
	void *q = take(cap * size);

	if (!q)
		return -1;
	if (n)
		memcpy(q, *p, n * size);
	if (*p != inl)
		give(*p);
	*p = q;
	return 0;
}

brj_t *brj_object_of(const brj_member *m, size_t n, int keys_lent)
{
	brj_object_t *o;

	if (n > OBJECT_INDEXED || !keys_lent) {
		/* each key copied, the index made as members come */
		brj_t *v = brj_object();
		for (size_t i = 0; i < n; i++)
			if (brj_object_setn_new_nocheck(v, m[i].key,
					(uint32_t)m[i].tag, m[i].value) && v) {
				brj_decref(v);
				v = NULL;
			}
		return v;
	}
	o = (brj_object_t *)brj_object_sized((unsigned)n + 1);
	if (!o) {
		for (size_t i = 0; i < n; i++)
			brj_decref(m[i].value);
		return NULL;
	}
	/* a key given twice, looked for only where the bit of its tag's
	   hash is taken already */
	unsigned long long seen = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned long long bit = 1ull << (brj_tag_hash(m[i].tag) >> 58);
		size_t j = o->n;
		if (seen & bit)
			for (j = 0; j < o->n && !key_is(&o->m[j], m[i].key,
					(uint32_t)m[i].tag, m[i].tag); j++)
				;
		seen |= bit;
		if (j < o->n) {
			brj_decref(o->m[j].value);
			o->m[j].value = m[i].value;
		} else {
			o->m[o->n++] = m[i];
		}
	}
	o->lent = o->n;
	return (brj_t *)o;
}

brj_t *brj_object_sized(unsigned cap)
{
	brj_object_t *o = init(take(sizeof *o + cap * sizeof *o->m),
		BRJ_OBJECT);

	if (o) {
		o->m = inline_members(o);
		o->n = o->lent = 0;
		o->cap = cap;
		o->index = NULL;
		o->index_cap = 0;
	}
	return (brj_t *)o;	/* v first: NULL stays NULL */
}

brj_t *brj_object(void)
{
	return brj_object_sized(0);
}

brj_t *brj_array_of(brj_t *const *e, size_t n)
{
	brj_array_t *a;

	a = n <= (SIZE_MAX - sizeof *a) / sizeof *e ?
		init(take(sizeof *a + n * sizeof *e), BRJ_ARRAY) : NULL;
	if (!a) {
		for (size_t i = 0; i < n; i++)
			brj_decref(e[i]);
		return NULL;
	}
	a->e = inline_elements(a);
	a->n = a->cap = n;
	if (n)
		memcpy(a->e, e, n * sizeof *e);
	return (brj_t *)a;
}

brj_t *brj_array(void)
{
	return brj_array_of(NULL, 0);
}

/* Whether S (N bytes) is UTF-8 as jansson takes it: no overlong form, no
 * surrogate, nothing above U+10FFFF. */
static int utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;

	while (s < end) {
		unsigned c = *s++;
		size_t k;
		uint32_t u;
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf) {
			k = 1;
			u = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2;
			u = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3;
			u = c & 0x07;
		} else {
			return 0;
		}
		if ((size_t)(end - s) < k)
			return 0;
		for (size_t i = 0; i < k; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			u = u << 6 | (s[i] & 0x3f);
		}
		s += k;
		if ((k == 2 && u < 0x800) || (k == 3 && u < 0x10000) ||
				u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
			return 0;
	}
	return 1;
}

brj_t *brj_stringn_nocheck(const char *s, size_t n)
{
	brj_string_t *v;

	if (!s || n > SIZE_MAX - sizeof *v - 1)
		return NULL;
	v = init(take(sizeof *v + n + 1), BRJ_STRING);
	if (v) {
		v->len = n;
		memcpy(v->s, s, n);
		v->s[n] = '\0';
	}
	return (brj_t *)v;
}

brj_t *brj_string_nocheck(const char *s)
{
	return s ? brj_stringn_nocheck(s, strlen(s)) : NULL;
}

brj_t *brj_stringn(const char *s, size_t n)
{
	return s && utf8_valid(s, n) ? brj_stringn_nocheck(s, n) : NULL;
}

brj_t *brj_string(const char *s)
{
	return s ? brj_stringn(s, strlen(s)) : NULL;
}

brj_t *brj_integer(brj_int_t i)
{
	brj_integer_t *v = init(take(sizeof *v), BRJ_INTEGER);

	if (v)
		v->i = i;
	return (brj_t *)v;
}

brj_t *brj_real(double d)
{
	brj_real_t *v;

	if (!isfinite(d))
		return NULL;	/* NaN and infinities, as jansson */
	v = init(take(sizeof *v), BRJ_REAL);
	if (v)
		v->d = d;
	return (brj_t *)v;
}

static brj_t the_true = { BRJ_TRUE, (size_t)-1 };
static brj_t the_false = { BRJ_FALSE, (size_t)-1 };
static brj_t the_null = { BRJ_NULL, (size_t)-1 };

brj_t *brj_true(void)
{
	return &the_true;
}

brj_t *brj_false(void)
{
	return &the_false;
}

brj_t *brj_null(void)
{
	return &the_null;
}

double brj_real_value(const brj_t *v)
{
	return brj_is_real(v) ? ((const brj_real_t *)v)->d : 0.0;
}

double brj_number_value(const brj_t *v)
{
	if (brj_is_integer(v))
		return (double)((const brj_integer_t *)v)->i;
	return brj_real_value(v);
}

void brj_delete(brj_t *v)
{
	switch (v->type) {
	case BRJ_OBJECT: {
		brj_object_t *o = (brj_object_t *)v;
		for (uint32_t i = 0; i < o->n; i++) {
			brj_decref(o->m[i].value);
			if (i >= o->lent)
				give(o->m[i].key);
		}
		if (o->m != inline_members(o))
			give(o->m);
		give(o->index);
		break;
	}
	case BRJ_ARRAY: {
		brj_array_t *a = (brj_array_t *)v;
		for (size_t i = 0; i < a->n; i++)
			brj_decref(a->e[i]);
		if (a->e != inline_elements(a))
			give(a->e);
		break;
	}
	default:
		break;
	}
	give(v);
}

/* ---- objects ------------------------------------------------------------- */

static int key_is(const brj_member *m, const char *k, size_t n,
	unsigned long long tag)
{
	return m->tag == tag &&
		(n <= 4 || memcmp(m->key + 4, k + 4, n - 4) == 0);
}

/* Puts member I into O's index (which has room). */
static void index_put(brj_object_t *o, uint32_t i)
{
	uint32_t mask = o->index_cap - 1;
	uint32_t s = util_fnv1a(o->m[i].key, (uint32_t)o->m[i].tag) & mask;

	while (o->index[s])
		s = (s + 1) & mask;
	o->index[s] = i + 1;
}

/* O's index made again for its members (none while O is small). Returns
 * -1 where memory ran out, the index then dropped. */
static int index_make(brj_object_t *o)
{
	uint32_t cap = 64;

	give(o->index);
	o->index = NULL;
	o->index_cap = 0;
	if (o->n <= OBJECT_INDEXED)
		return 0;
	while (cap < 2 * o->n)
		cap *= 2;
	o->index = take(cap * sizeof *o->index);
	if (!o->index)
		return -1;
	memset(o->index, 0, cap * sizeof *o->index);
	o->index_cap = cap;
	for (uint32_t i = 0; i < o->n; i++)
		index_put(o, i);
	return 0;
}

brj_member *brj_object_find(const brj_object_t *o, const char *k, size_t n,
	unsigned long long tag)
{
	if (n >= UINT32_MAX || !o->n)
		return NULL;
	if (o->index) {
		uint32_t mask = o->index_cap - 1;
		for (uint32_t s = util_fnv1a(k, n) & mask; o->index[s];
				s = (s + 1) & mask) {
			brj_member *m = &o->m[o->index[s] - 1];
			if (key_is(m, k, n, tag))
				return m;
		}
		return NULL;
	}
	for (brj_member *m = o->m, *end = m + o->n; m < end; m++)
		if (key_is(m, k, n, tag))
			return m;
	return NULL;
}

/* O's member with key K, or NULL */
static brj_member *member_of(const brj_t *v, const char *k)
{
	size_t n;

	if (!brj_is_object(v) || !k)
		return NULL;
	n = strlen(k);
	return brj_object_find((const brj_object_t *)v, k, n,
		brj_key_tag(k, n));
}

/* Room in O for one more member. */
static int member_room(brj_object_t *o)
{
	if (o->n < o->cap)
		return 0;
	if (o->cap >= UINT32_MAX / 2)
		return -1;
	uint32_t cap = o->cap ? 2 * o->cap : 4;
	void *m = o->m;
	if (move_items(&m, o->n, cap, sizeof *o->m, inline_members(o)))
		return -1;
	o->m = m;
	o->cap = cap;
	return 0;
}

/* json_object_setn_new_nocheck; LEND: KEY lasts as long as the object
 * (brj_object_setn_new_lent) */
static int member_set(brj_t *v, const char *key, size_t n, brj_t *value,
	int lend)
{
	brj_object_t *o = as_object(v);
	brj_member *m;
	char *k;

	if (!value)
		return -1;
	if (!o || !key || v == value || n >= UINT32_MAX)
		goto fail;
	unsigned long long tag = brj_key_tag(key, n);
	if ((m = brj_object_find(o, key, n, tag))) {
		brj_decref(m->value);
		m->value = value;
		return 0;
	}
	if (member_room(o))
		goto fail;
	/* lent keys are the first members' only */
	lend = lend && o->lent == o->n;
	if (lend) {
		k = (char *)key;
	} else {
		if (!(k = take(n + 1)))
			goto fail;
		memcpy(k, key, n);
		k[n] = '\0';
	}
	m = &o->m[o->n++];
	m->tag = tag;
	m->value = value;
	m->key = k;
	if (lend)
		o->lent++;
	if (o->n > OBJECT_INDEXED) {
		/* without an index (no memory for it) lookups still work */
		if (!o->index || 2 * o->n > o->index_cap)
			(void)index_make(o);
		else
			index_put(o, o->n - 1);
	}
	return 0;
fail:
	brj_decref(value);
	return -1;
}

int brj_object_setn_new_nocheck(brj_t *o, const char *key, size_t n,
	brj_t *value)
{
	return member_set(o, key, n, value, 0);
}

int brj_object_setn_new_lent(brj_t *o, const char *key, size_t n,
	brj_t *value)
{
	return member_set(o, key, n, value, 1);
}

int brj_object_setn_new(brj_t *o, const char *key, size_t n, brj_t *value)
{
	if (key && !utf8_valid(key, n)) {
		brj_decref(value);
		return -1;
	}
	return brj_object_setn_new_nocheck(o, key, n, value);
}

int brj_object_del(brj_t *v, const char *key)
{
	brj_member *m = member_of(v, key);
	brj_object_t *o = (brj_object_t *)v;

	if (!m)
		return -1;
	brj_decref(m->value);
	if (m - o->m < (long)o->lent)
		o->lent--;
	else
		give(m->key);
	memmove(m, m + 1, (size_t)(o->m + o->n - (m + 1)) * sizeof *m);
	o->n--;
	if (o->index)
		(void)index_make(o);
	return 0;
}

int brj_object_clear(brj_t *v)
{
	brj_object_t *o = as_object(v);

	if (!o)
		return -1;
	for (uint32_t i = 0; i < o->n; i++) {
		brj_decref(o->m[i].value);
		if (i >= o->lent)
			give(o->m[i].key);
	}
	o->n = o->lent = 0;
	(void)index_make(o);
	return 0;
}

int brj_object_update(brj_t *v, brj_t *other)
{
	brj_object_t *o = as_object(v), *p = as_object(other);

	if (!o || !p)
		return -1;
	/* the count first: O may be OTHER */
	for (uint32_t i = 0, n = p->n; i < n; i++)
		if (brj_object_setn_new_nocheck(v, p->m[i].key,
				(uint32_t)p->m[i].tag, brj_incref(p->m[i].value)))
			return -1;
	return 0;
}

void *brj_object_iter_at(brj_t *v, const char *key)
{
	return member_of(v, key);
}

/* ---- arrays -------------------------------------------------------------- */

/* Room in A for N more elements. */
static int element_room(brj_array_t *a, size_t n)
{
	if (a->cap - a->n >= n)
		return 0;
	size_t cap = a->cap ? a->cap : 4;
	while (cap - a->n < n) {
		if (cap > SIZE_MAX / 2 / sizeof *a->e)
			return -1;
		cap *= 2;
	}
	void *e = a->e;
	if (move_items(&e, a->n, cap, sizeof *a->e, inline_elements(a)))
		return -1;
	a->e = e;
	a->cap = cap;
	return 0;
}

int brj_array_append_new(brj_t *v, brj_t *value)
{
	brj_array_t *a = as_array(v);

	if (!value)
		return -1;
	if (!a || v == value || element_room(a, 1)) {
		brj_decref(value);
		return -1;
	}
	a->e[a->n++] = value;
	return 0;
}

int brj_array_append(brj_t *a, brj_t *value)
{
	return brj_array_append_new(a, brj_incref(value));
}

int brj_array_extend(brj_t *v, brj_t *other)
{
	brj_array_t *a = as_array(v), *b = as_array(other);

	if (!a || !b)
		return -1;
	size_t n = b->n;	/* A may be B */
	if (element_room(a, n))
		return -1;
	for (size_t i = 0; i < n; i++)
		a->e[a->n++] = brj_incref(b->e[i]);
	return 0;
}

int brj_array_clear(brj_t *v)
{
	brj_array_t *a = as_array(v);

	if (!a)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		brj_decref(a->e[i]);
	a->n = 0;
	return 0;
}

/* ---- equality, copies, json_pack ----------------------------------------- */

int brj_equal(const brj_t *a, const brj_t *b)
{
	if (!a || !b)
		return 0;
	if (a == b)
		return 1;
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case BRJ_OBJECT: {
		const brj_object_t *o = (const brj_object_t *)a;
		if (o->n != brj_object_size(b))
			return 0;
		for (uint32_t i = 0; i < o->n; i++)
			if (!brj_equal(o->m[i].value, brj_object_getn(b,
					o->m[i].key, (uint32_t)o->m[i].tag)))
				return 0;
		return 1;
	}
	case BRJ_ARRAY: {
		size_t n = brj_array_size(a);
		if (n != brj_array_size(b))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!brj_equal(brj_array_get(a, i), brj_array_get(b, i)))
				return 0;
		return 1;
	}
	case BRJ_STRING:
		return brj_string_length(a) == brj_string_length(b) &&
			memcmp(brj_string_value(a), brj_string_value(b),
				brj_string_length(a)) == 0;
	case BRJ_INTEGER:
		return brj_integer_value(a) == brj_integer_value(b);
	case BRJ_REAL:
		return brj_real_value(a) == brj_real_value(b);
	default:
		return 0;	/* true, false and null are single values */
	}
}

brj_t *brj_copy(brj_t *v)
{
	brj_t *c;

	if (!v)
		return NULL;
	switch (v->type) {
	case BRJ_OBJECT: {
		brj_object_t *o = (brj_object_t *)v;
		c = brj_object();
		for (uint32_t i = 0; c && i < o->n; i++)
			if (brj_object_setn_new_nocheck(c, o->m[i].key,
					(uint32_t)o->m[i].tag,
					brj_incref(o->m[i].value))) {
				brj_decref(c);
				c = NULL;
			}
		return c;
	}
	case BRJ_ARRAY:
		c = brj_array();
		if (c && brj_array_extend(c, v)) {
			brj_decref(c);
			c = NULL;
		}
		return c;
	case BRJ_STRING:
		return brj_stringn_nocheck(brj_string_value(v),
			brj_string_length(v));
	case BRJ_INTEGER:
		return brj_integer(brj_integer_value(v));
	case BRJ_REAL:
		return brj_real(brj_real_value(v));
	default:
		return v;
	}
}

typedef struct packer {
	const char *f;
	va_list ap;
	int failed;
	int broken;	/* a format no value can be read from: no more
			   arguments are taken */
	int star;	/* the last value read was "o*" or "O*" */
} packer;

static void pack_skip(packer *p)
{
	while (*p->f == ' ' || *p->f == '\t' || *p->f == '\n' ||
			*p->f == ',' || *p->f == ':')
		p->f++;
}

/* value = "{" {"s" value} "}" | "[" {value} "]" | "s" | "i" | "I" | "f"
 *       | "b" | "n" | ("o" | "O") ["*"]
 * Every argument is taken even after a value fails, so that each "o"
 * value is dropped; NULL for a value left out ("O*" with NULL), or a
 * failure. */
static brj_t *pack_value(packer *p)
{
	brj_t *v = NULL, *e;
	int star = 0;
	char c;

	pack_skip(p);
	if (p->broken || !(c = *p->f)) {
		p->failed = p->broken = 1;
		return NULL;
	}
	p->f++;
	switch (c) {
	case '{':
	case '[': {
		/* the members (a key, then a value) or the elements */
		char end = c == '{' ? '}' : ']';
		v = c == '{' ? brj_object() : brj_array();
		for (;;) {
			const char *k = NULL;
			pack_skip(p);
			if (p->broken || !*p->f || *p->f == end)
				break;
			if (c == '{') {
				if (*p->f++ != 's') {
					p->failed = p->broken = 1;
					break;
				}
				if (!(k = va_arg(p->ap, const char *)))
					p->failed = 1;
			}
			e = pack_value(p);
			if (!e) {
				if (!p->star)
					p->failed = 1;
			} else if (p->failed) {
				brj_decref(e);
			} else if (c == '{' ? brj_object_set_new(v, k, e) :
					brj_array_append_new(v, e)) {
				p->failed = 1;
			}
		}
		if (!p->broken && *p->f == end)
			p->f++;
		else
			p->failed = 1;
		break;
	}
	case 's':
		v = brj_string(va_arg(p->ap, const char *));
		break;
	case 'i':
		v = brj_integer(va_arg(p->ap, int));
		break;
	case 'I':
		v = brj_integer(va_arg(p->ap, brj_int_t));
		break;
	case 'f':
		v = brj_real(va_arg(p->ap, double));
		break;
	case 'b':
		v = brj_boolean(va_arg(p->ap, int));
		break;
	case 'n':
		v = brj_null();
		break;
	case 'o':
	case 'O':
		v = va_arg(p->ap, brj_t *);
		if (c == 'O')
			v = brj_incref(v);
		if (*p->f == '*') {
			p->f++;
			star = 1;
		}
		break;
	default:
		p->failed = p->broken = 1;
		return NULL;
	}
	p->star = star;
	if (!v && !star)
		p->failed = 1;
	return v;
}

brj_t *brj_pack(const char *fmt, ...)
{
	packer p;
	brj_t *v;

	p.f = fmt;
	p.failed = p.broken = p.star = 0;
	va_start(p.ap, fmt);
	v = pack_value(&p);
	pack_skip(&p);
	if (*p.f)
		p.failed = 1;
	va_end(p.ap);
	if (p.failed) {
		brj_decref(v);
		return NULL;
	}
	return v;
}
