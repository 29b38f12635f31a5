/* json.h - the JSON values the tools build, read and walk: the part of
 * jansson's interface the code uses, under jansson's names and with its
 * meanings, over nodes of our own (json.c).
 *
 * An AST is hundreds of thousands of small objects, looked up by key far
 * more often than built. jansson keeps each object in a hash table (a
 * bucket array and lists, and a pair a member), so a lookup hashes the
 * key and follows three pointers: its objects were about a quarter of
 * the front end's instructions (bench/RESULTS.md). Here an object is one
 * array of members, each with its key's length and first bytes beside
 * the value, searched in order; an object of many members (a table of
 * names) gets a hash index besides. The members stay in the order they
 * were first set in.
 *
 * jansson itself still reads JSON text that ast_read_json (ast.h) does
 * not take, with its messages for text that is no JSON, and writes
 * indented text (json_loadb, json_dumps and json_dumpf go through
 * json_jansson.c). The names below map onto brj_ ones so that json.c's
 * symbols and jansson's live side by side in one program; a file that
 * defines BRJ_NO_JSON_NAMES before including this sees only the brj_
 * names and may include <jansson.h> as well. */
#ifndef BROOK_JSON_H
#define BROOK_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>	/* free(), for json_dumps' text */
#include <string.h>

typedef long long brj_int_t;
#define BRJ_INTEGER_FORMAT "lld"

typedef enum {
	BRJ_OBJECT, BRJ_ARRAY, BRJ_STRING, BRJ_INTEGER, BRJ_REAL,
	BRJ_TRUE, BRJ_FALSE, BRJ_NULL
} brj_type;

/* Every value starts so. A reference count of (size_t)-1 marks a value
 * that is never counted nor freed (true, false, null, and what
 * ast_read_json makes to last as long as the arena), as in jansson. */
typedef struct brj_t {
	brj_type type;
	volatile size_t refcount;
} brj_t;

/* json_loadb's error, laid out as jansson's json_error_t */
enum { BRJ_ERROR_TEXT_LENGTH = 160, BRJ_ERROR_SOURCE_LENGTH = 80 };
typedef struct brj_error_t {
	int line;
	int column;
	int position;
	char source[BRJ_ERROR_SOURCE_LENGTH];
	char text[BRJ_ERROR_TEXT_LENGTH];
} brj_error_t;

/* json_dumps' flags: jansson's values, handed on to it */
#define BRJ_INDENT(n) ((n) & 0x1F)
#define BRJ_COMPACT 0x20
#define BRJ_PRESERVE_ORDER 0x100

typedef void *(*brj_malloc_t)(size_t);
typedef void (*brj_free_t)(void *);

/* The values' layouts, for the inline accessors below; outside json.c
 * only through the functions. A member's TAG is its key's length and, in
 * the upper half, its first four bytes, the first lowest (zero after the
 * key's end): most keys are told apart by the tag. */
typedef struct brj_member {
	unsigned long long tag;
	brj_t *value;
	char *key;		/* NUL-terminated: its own allocation, or
				   lent (brj_object_t) */
} brj_member;

typedef struct brj_object_t {
	brj_t v;
	unsigned n, cap;
	brj_member *m;		/* right after the object where it was made
				   in one piece (brj_object_of,
				   brj_object_sized) */
	unsigned *index;	/* index_cap slots: a member's place + 1, or
				   0 for none; NULL while small */
	unsigned index_cap;
	unsigned lent;		/* the first LENT members' keys are not
				   their own (brj_object_of) */
} brj_object_t;

typedef struct brj_array_t {
	brj_t v;
	size_t n, cap;
	brj_t **e;		/* right after the array where it was made in
				   one piece (brj_array_of) */
} brj_array_t;

typedef struct brj_string_t {
	brj_t v;
	size_t len;
	char s[];
} brj_string_t;

typedef struct brj_integer_t {
	brj_t v;
	brj_int_t i;
} brj_integer_t;

typedef struct brj_real_t {
	brj_t v;
	double d;
} brj_real_t;

void brj_delete(brj_t *v);

/* Taking and dropping references: atomic, as brgen's threads share
 * values (as jansson's are where the compiler has the builtins). */
static inline brj_t *brj_incref(brj_t *v)
{
	if (v && v->refcount != (size_t)-1)
		(void)__atomic_add_fetch(&v->refcount, 1, __ATOMIC_ACQUIRE);
	return v;
}

static inline void brj_decref(brj_t *v)
{
	if (v && v->refcount != (size_t)-1 &&
			__atomic_sub_fetch(&v->refcount, 1, __ATOMIC_RELEASE) == 0)
		brj_delete(v);
}

#define brj_typeof(v) ((v)->type)
#define brj_is_object(v) ((v) && (v)->type == BRJ_OBJECT)
#define brj_is_array(v) ((v) && (v)->type == BRJ_ARRAY)
#define brj_is_string(v) ((v) && (v)->type == BRJ_STRING)
#define brj_is_integer(v) ((v) && (v)->type == BRJ_INTEGER)
#define brj_is_real(v) ((v) && (v)->type == BRJ_REAL)
#define brj_is_true(v) ((v) && (v)->type == BRJ_TRUE)
#define brj_is_false(v) ((v) && (v)->type == BRJ_FALSE)
#define brj_is_null(v) ((v) && (v)->type == BRJ_NULL)

/* the allocator of every value (malloc and free at the start) */
void brj_set_alloc_funcs(brj_malloc_t m, brj_free_t f);
void brj_get_alloc_funcs(brj_malloc_t *m, brj_free_t *f);

/* values (new references; NULL where jansson gives NULL: a string that
 * is not UTF-8, unless _nocheck) */
brj_t *brj_object(void);
brj_t *brj_array(void);
brj_t *brj_string(const char *s);
brj_t *brj_stringn(const char *s, size_t n);
brj_t *brj_string_nocheck(const char *s);
brj_t *brj_stringn_nocheck(const char *s, size_t n);
brj_t *brj_integer(brj_int_t v);
brj_t *brj_real(double v);
brj_t *brj_true(void);
brj_t *brj_false(void);
brj_t *brj_null(void);
#define brj_boolean(b) ((b) ? brj_true() : brj_false())

static inline const char *brj_string_value(const brj_t *v)
{
	return brj_is_string(v) ? ((const brj_string_t *)v)->s : NULL;
}

static inline size_t brj_string_length(const brj_t *v)
{
	return brj_is_string(v) ? ((const brj_string_t *)v)->len : 0;
}

static inline brj_int_t brj_integer_value(const brj_t *v)
{
	return brj_is_integer(v) ? ((const brj_integer_t *)v)->i : 0;
}

double brj_real_value(const brj_t *v);
double brj_number_value(const brj_t *v);

/* objects: members in the order they were first set */
static inline size_t brj_object_size(const brj_t *o)
{
	return brj_is_object(o) ? ((const brj_object_t *)o)->n : 0;
}

/* A member's tag (brj_member) for the key K of N bytes: inline, so that
 * it is a constant for a literal key. Shifts, not bytes stored and read
 * back as a word (which stalls): compilers make one load of the four. */
static inline unsigned long long brj_key_tag(const char *k, size_t n)
{
	const unsigned char *b = (const unsigned char *)k;
	uint32_t u = 0;

	switch (n) {
	default: u |= (uint32_t)b[3] << 24; /* fall through */
	case 3: u |= (uint32_t)b[2] << 16; /* fall through */
	case 2: u |= (uint32_t)b[1] << 8; /* fall through */
	case 1: u |= b[0]; /* fall through */
	case 0: break;
	}
	return (unsigned long long)u << 32 | (uint32_t)n;
}

/* TAG spread over all 64 bits (Fibonacci hashing): its top bits are a
 * hash of the key's length and first bytes */
static inline unsigned long long brj_tag_hash(unsigned long long tag)
{
	return tag * 0x9e3779b97f4a7c15ull;
}

/* O's member with key K of N bytes and tag TAG, or NULL */
brj_member *brj_object_find(const brj_object_t *o, const char *k, size_t n,
	unsigned long long tag);

static inline brj_t *brj_object_getn(const brj_t *o, const char *key,
	size_t n)
{
	brj_member *m;

	if (!brj_is_object(o) || !key)
		return NULL;
	m = brj_object_find((const brj_object_t *)o, key, n,
		brj_key_tag(key, n));
	return m ? m->value : NULL;
}

static inline brj_t *brj_object_get(const brj_t *o, const char *key)
{
	return key ? brj_object_getn(o, key, strlen(key)) : NULL;
}

/* Setting a member: 0, or -1 with the value (a new reference) dropped,
 * as jansson's. Inline, so that the length of a literal key is a
 * constant. The _nocheck forms take the key as UTF-8 without looking. */
int brj_object_setn_new_nocheck(brj_t *o, const char *key, size_t n,
	brj_t *v);
int brj_object_setn_new(brj_t *o, const char *key, size_t n, brj_t *v);
/* ... where KEY, N bytes and a NUL, lasts as long as the object (a
 * string literal): the member borrows it rather than a copy, where the
 * members before it have borrowed theirs. Not in jansson. */
int brj_object_setn_new_lent(brj_t *o, const char *key, size_t n,
	brj_t *v);

static inline int brj_object_set_new_nocheck(brj_t *o, const char *key,
	brj_t *v)
{
	return key ? brj_object_setn_new_nocheck(o, key, strlen(key), v) :
		brj_object_setn_new_nocheck(o, NULL, 0, v);
}

static inline int brj_object_set_new(brj_t *o, const char *key, brj_t *v)
{
	return key ? brj_object_setn_new(o, key, strlen(key), v) :
		brj_object_setn_new_nocheck(o, NULL, 0, v);
}

static inline int brj_object_set(brj_t *o, const char *key, brj_t *v)
{
	return brj_object_set_new(o, key, brj_incref(v));
}

static inline int brj_object_set_nocheck(brj_t *o, const char *key,
	brj_t *v)
{
	return brj_object_set_new_nocheck(o, key, brj_incref(v));
}

int brj_object_del(brj_t *o, const char *key);
int brj_object_clear(brj_t *o);
int brj_object_update(brj_t *o, brj_t *other);

/* An iterator is a member's place; setting a new key in the object may
 * move the places (not the keys), so no member is added while one is
 * held. */
static inline void *brj_object_iter(brj_t *o)
{
	return brj_object_size(o) ? ((brj_object_t *)o)->m : NULL;
}

void *brj_object_iter_at(brj_t *o, const char *key);

static inline void *brj_object_iter_next(brj_t *o, void *iter)
{
	brj_member *m = iter;

	if (!m || !brj_is_object(o) ||
			m + 1 >= ((brj_object_t *)o)->m + ((brj_object_t *)o)->n)
		return NULL;
	return m + 1;
}

static inline const char *brj_object_iter_key(void *iter)
{
	return iter ? ((brj_member *)iter)->key : NULL;
}

static inline size_t brj_object_iter_key_len(void *iter)
{
	return iter ? (uint32_t)((brj_member *)iter)->tag : 0;
}

static inline brj_t *brj_object_iter_value(void *iter)
{
	return iter ? ((brj_member *)iter)->value : NULL;
}

/* Whether the member at ITER has the key K of N bytes: for a literal key
 * of four bytes or less one comparison. Not in jansson. */
static inline int brj_object_iter_is(void *iter, const char *k, size_t n)
{
	const brj_member *m = iter;

	return m && m->tag == brj_key_tag(k, n) &&
		(n <= 4 || memcmp(m->key + 4, k + 4, n - 4) == 0);
}

/* arrays */
static inline size_t brj_array_size(const brj_t *a)
{
	return brj_is_array(a) ? ((const brj_array_t *)a)->n : 0;
}

static inline brj_t *brj_array_get(const brj_t *a, size_t i)
{
	return i < brj_array_size(a) ? ((const brj_array_t *)a)->e[i] : NULL;
}

int brj_array_append_new(brj_t *a, brj_t *v);
int brj_array_append(brj_t *a, brj_t *v);
int brj_array_extend(brj_t *a, brj_t *other);
int brj_array_clear(brj_t *a);

/* equality in value (objects in any order), a copy one level deep, and
 * jansson's json_pack for the formats { } [ ] s i I f b n o O and O*
 * (a member or element left out when its value is NULL) */
int brj_equal(const brj_t *a, const brj_t *b);
brj_t *brj_copy(brj_t *v);
brj_t *brj_pack(const char *fmt, ...);

/* For readers (ast.c), values made in one piece, which is faster to make
 * and to walk than member by member. An object of the N members M (their
 * tags and values set, the values' references taken), with room for one
 * more; a key given twice keeps its first place and its last value. With
 * KEYS_LENT the keys are not copied: they must last as long as the
 * object (a reader's table of keys in an arena). And an array of the N
 * elements E (their references taken). */
brj_t *brj_object_of(const brj_member *m, size_t n, int keys_lent);
brj_t *brj_array_of(brj_t *const *e, size_t n);
/* An empty object made in one piece with room for CAP members, for a
 * builder that knows about how many it will set. */
brj_t *brj_object_sized(unsigned cap);

/* json_jansson.c: through jansson */
brj_t *brj_loadb(const char *text, size_t n, size_t flags, brj_error_t *err);
char *brj_dumps(const brj_t *v, size_t flags);		/* free() it */
int brj_dumpf(const brj_t *v, FILE *f, size_t flags);

#define brj_array_foreach(a, i, v) \
	for ((i) = 0; (i) < brj_array_size(a) && \
		((v) = brj_array_get((a), (i))); (i)++)
#define brj_object_foreach(o, k, v) \
	for (void *brj_it_ = brj_object_iter(o); \
		((k) = brj_object_iter_key(brj_it_)) && \
		((v) = brj_object_iter_value(brj_it_), 1); \
		brj_it_ = brj_object_iter_next((o), brj_it_))

#ifndef BRJ_NO_JSON_NAMES
#define json_t brj_t
#define json_type brj_type
#define json_int_t brj_int_t
#define json_error_t brj_error_t
#define json_malloc_t brj_malloc_t
#define json_free_t brj_free_t
#define JSON_INTEGER_FORMAT BRJ_INTEGER_FORMAT
#define JSON_OBJECT BRJ_OBJECT
#define JSON_ARRAY BRJ_ARRAY
#define JSON_STRING BRJ_STRING
#define JSON_INTEGER BRJ_INTEGER
#define JSON_REAL BRJ_REAL
#define JSON_TRUE BRJ_TRUE
#define JSON_FALSE BRJ_FALSE
#define JSON_NULL BRJ_NULL
#define JSON_INDENT BRJ_INDENT
#define JSON_COMPACT BRJ_COMPACT
#define JSON_PRESERVE_ORDER BRJ_PRESERVE_ORDER
#define json_incref brj_incref
#define json_decref brj_decref
#define json_typeof brj_typeof
#define json_is_object brj_is_object
#define json_is_array brj_is_array
#define json_is_string brj_is_string
#define json_is_integer brj_is_integer
#define json_is_real brj_is_real
#define json_is_true brj_is_true
#define json_is_false brj_is_false
#define json_is_null brj_is_null
#define json_set_alloc_funcs brj_set_alloc_funcs
#define json_get_alloc_funcs brj_get_alloc_funcs
#define json_object brj_object
#define json_array brj_array
#define json_string brj_string
#define json_stringn brj_stringn
#define json_string_nocheck brj_string_nocheck
#define json_stringn_nocheck brj_stringn_nocheck
#define json_integer brj_integer
#define json_real brj_real
#define json_true brj_true
#define json_false brj_false
#define json_null brj_null
#define json_boolean brj_boolean
#define json_string_value brj_string_value
#define json_string_length brj_string_length
#define json_integer_value brj_integer_value
#define json_real_value brj_real_value
#define json_number_value brj_number_value
#define json_object_size brj_object_size
#define json_object_get brj_object_get
#define json_object_getn brj_object_getn
#define json_object_set_new brj_object_set_new
#define json_object_set_new_nocheck brj_object_set_new_nocheck
#define json_object_setn_new_nocheck brj_object_setn_new_nocheck
#define json_object_set brj_object_set
#define json_object_set_nocheck brj_object_set_nocheck
#define json_object_del brj_object_del
#define json_object_clear brj_object_clear
#define json_object_update brj_object_update
#define json_object_iter brj_object_iter
#define json_object_iter_at brj_object_iter_at
#define json_object_iter_next brj_object_iter_next
#define json_object_iter_key brj_object_iter_key
#define json_object_iter_key_len brj_object_iter_key_len
#define json_object_iter_value brj_object_iter_value
#define json_array_size brj_array_size
#define json_array_get brj_array_get
#define json_array_append_new brj_array_append_new
#define json_array_append brj_array_append
#define json_array_extend brj_array_extend
#define json_array_clear brj_array_clear
#define json_equal brj_equal
#define json_copy brj_copy
#define json_pack brj_pack
#define json_loadb brj_loadb
#define json_dumps brj_dumps
#define json_dumpf brj_dumpf
#define json_array_foreach brj_array_foreach
#define json_object_foreach brj_object_foreach
#endif

#endif
