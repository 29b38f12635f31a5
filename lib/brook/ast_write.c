/* ast_write.c - the compact JSON text of a brast(5) document (ast.h).
 *
 * What json_dumps writes without flags, byte for byte: no white space,
 * members in the object's order, '"', '\\' and the control characters
 * escaped (the short forms where JSON has one, else \u00XX), everything
 * else as it is; reals with 17 significant digits and a '.' or an
 * exponent. json_dumps checks every container for cycles through a hash
 * table keyed by printed pointers, which costs more than reading the
 * tree; the AST has no cycles. A checked AST of 50,000 lines is some 20
 * MB, so each piece reserves its room once and then stores bytes without
 * checks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/util.h"

/* Room for N more bytes after the end of B. */
static void room(strbuf *b, size_t n)
{
	if (b->cap - b->len <= n)
		sb_reserve(b, n);
}

/* The bytes a JSON string cannot hold as they are: the control
 * characters, '"' and '\\'. A table: one load a byte. */
static const unsigned char escape[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1
};

static int needs_escape(unsigned char ch)
{
	return escape[ch];
}

/* The rest of a string from its first byte that needs an escape. */
static void put_escaped(strbuf *b, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *d;

	room(b, 6 * n + 1);
	d = b->s + b->len;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = s[i];
		if (!needs_escape(ch)) {
			*d++ = (char)ch;
			continue;
		}
		*d++ = '\\';
		switch (ch) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '\n': *d++ = 'n'; break;
		case '\t': *d++ = 't'; break;
		case '\r': *d++ = 'r'; break;
		case '\b': *d++ = 'b'; break;
		case '\f': *d++ = 'f'; break;
		default:
			memcpy(d, "u00", 3);
			d[3] = hex[ch >> 4];
			d[4] = hex[ch & 15];
			d += 5;
		}
	}
	*d++ = '"';
	b->len = (size_t)(d - b->s);
}

/* The quoted string S of N bytes at D in B, which has room for N + 2
 * bytes (put_escaped finds more where a byte needs an escape); returns
 * the end. Through a local pointer: stores through b->s could change
 * b->len as far as the compiler knows. */
static char *quote(strbuf *b, char *d, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	*d++ = '"';
	for (; i < n && !needs_escape(u[i]); i++)
		*d++ = (char)u[i];
	if (i < n) {
		b->len = (size_t)(d - b->s);
		put_escaped(b, u + i, n - i);
		return b->s + b->len;
	}
	*d++ = '"';
	return d;
}

static void put_string(strbuf *b, const char *s, size_t n)
{
	room(b, n + 2);
	b->len = (size_t)(quote(b, b->s + b->len, s, n) - b->s);
}

/* SEP ('{' or ','), the quoted key K of N bytes and ':'. */
static void put_key(strbuf *b, char sep, const char *k, size_t n)
{
	room(b, n + 4);
	char *d = b->s + b->len;
	*d++ = sep;
	b->len = (size_t)(quote(b, d, k, n) - b->s);
	room(b, 1);	/* a key that needed an escape took the rest */
	b->s[b->len++] = ':';
}

void ast_write_string(strbuf *b, const char *s, size_t n)
{
	put_string(b, s, n);
	room(b, 0);
	b->s[b->len] = '\0';
}

/* The digits go straight to their place (util_lltoa). */
static void put_int(strbuf *b, json_int_t v)
{
	room(b, UTIL_LL_MAX);
	b->len += util_lltoa(b->s + b->len, (long long)v);
}

static void put_word(strbuf *b, const char *w, size_t n)
{
	room(b, n);
	memcpy(b->s + b->len, w, n);
	b->len += n;
}

static void put_char(strbuf *b, char c)
{
	room(b, 1);
	b->s[b->len++] = c;
}

/* The text already written of each "ty" object, by address: brcheck
 * hangs one type object on many nodes (a variable's type on each use),
 * and ast_read_json shares equal ones, so most "ty" members repeat a
 * text that a copy writes again. The tree does not change while it is
 * written, so an address stands for one text. */
typedef struct {
	util_map at;		/* address -> its index in span */
	size_t (*span)[2];	/* where in the buffer its text lies */
	size_t n, cap;
} ty_texts;

typedef struct {
	strbuf *b;
	ty_texts ty;
	int fd;			/* -1: the text stays in B */
	int depth;		/* of the object or array being written */
	size_t sent;		/* the bytes of B gone to FD */
	int err;		/* errno of a failed write, else 0 */
} writer;

/* ast_write_json_fd sends the text on in pieces of this many bytes: a
 * sixteenth of the pipe util_pipe_grow asks for, so that the reader has
 * the next pieces while it reads one. The reader reads the last piece
 * after the writer is done, on the pipeline's critical path: 64 KiB
 * gained 2.4-2.6 ms on bench/gen-big.sh's program over 256 KiB, and
 * pieces of 16 and 32 KiB no more (bench/RESULTS.md, 2026-11-29): the
 * extra write() calls of smaller pieces are in those times. */
enum { AST_WRITE_PIECE = 64 << 10 };

/* The new text of B to the writer's FD once there is a piece of it. */
static void send_piece(writer *w)
{
	size_t n = w->b->len - w->sent;

	if (n < AST_WRITE_PIECE || w->err)
		return;
	if (util_write_all(w->fd, w->b->s + w->sent, n) != 0)
		w->err = errno ? errno : EIO;
	else
		w->sent += n;
}

static void put_value(writer *w, const json_t *v);

/* Strings and integers, most of the values of an AST, are written here
 * without a call to put_value. */
static void put_member(writer *w, const json_t *v)
{
	strbuf *b = w->b;
	if (json_is_string(v))
		put_string(b, json_string_value(v), json_string_length(v));
	else if (json_is_integer(v))
		put_int(b, json_integer_value(v));
	else
		put_value(w, v);
}

/* The value of a "ty" member: a copy of its text where it was written. */
static void put_ty(writer *w, const json_t *v)
{
	strbuf *b = w->b;
	ty_texts *t = &w->ty;
	const uint64_t *k;
	size_t off;

	if (!json_is_object(v)) {
		put_member(w, v);
		return;
	}
	if ((k = util_map_get(&t->at, (uint64_t)(uintptr_t)v))) {
		size_t n = t->span[*k][1];
		room(b, n);
		memcpy(b->s + b->len, b->s + t->span[*k][0], n);
		b->len += n;
		return;
	}
	off = b->len;
	put_value(w, v);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->span = xrealloc(t->span, t->cap * sizeof *t->span);
	}
	t->span[t->n][0] = off;
	t->span[t->n][1] = b->len - off;
	util_map_put(&t->at, (uint64_t)(uintptr_t)v, t->n++);
}

static void put_value(writer *w, const json_t *v)
{
	strbuf *b = w->b;
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		char sep = '{';
		w->depth++;
		for (void *it = json_object_iter((json_t *)v); it;
			it = json_object_iter_next((json_t *)v, it)) {
			const char *k = json_object_iter_key(it);
			size_t kn = json_object_iter_key_len(it);
			put_key(b, sep, k, kn);
			sep = ',';
			if (kn == 2 && k[0] == 't' && k[1] == 'y')
				put_ty(w, json_object_iter_value(it));
			else
				put_member(w, json_object_iter_value(it));
		}
		room(b, 2);
		if (sep == '{')
			b->s[b->len++] = '{';
		b->s[b->len++] = '}';
		w->depth--;
		break;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		put_char(b, '[');
		w->depth++;
		for (size_t i = 0; i < n; i++) {
			if (i) {
				put_char(b, ',');
				/* between two elements of an array of the
				   document ("decls"), the comma sent: a
				   reader has whole elements and sees where
				   each ends */
				if (w->fd >= 0 && w->depth == 2)
					send_piece(w);
			}
			put_member(w, json_array_get(v, i));
		}
		w->depth--;
		put_char(b, ']');
		break;
	}
	case JSON_STRING:
	case JSON_INTEGER:
		put_member(w, v);
		break;
	case JSON_REAL: {
		/* as jansson writes reals: 17 digits, and a '.' or exponent;
		 * a whole number (1.0f, most reals of a program) the way %.17g
		 * writes it, without printf's cost */
		char buf[40];
		double r = json_real_value(v);
		if (fabs(r) < 1e15 && r == (double)(long long)r &&
			!signbit(r)) {
			put_int(b, (json_int_t)r);
			put_word(b, ".0", 2);
			break;
		}
		snprintf(buf, sizeof buf, "%.17g", r);
		put_word(b, buf, strlen(buf));
		if (!strpbrk(buf, ".eEn"))
			put_word(b, ".0", 2);
		break;
	}
	case JSON_TRUE: put_word(b, "true", 4); break;
	case JSON_FALSE: put_word(b, "false", 5); break;
	case JSON_NULL: put_word(b, "null", 4); break;
	}
}

/* Ends W's text: NUL-terminated in its buffer, W's tables freed; *ERR
 * (when ERR is not NULL) the errno of a failed write. Returns the bytes
 * sent. */
static size_t writer_end(writer *w, int *err)
{
	util_map_free(&w->ty.at);
	free(w->ty.span);
	room(w->b, 0);
	w->b->s[w->b->len] = '\0';
	if (err)
		*err = w->err;
	return w->sent;
}

static size_t write_json(strbuf *b, const json_t *v, int fd, int *err)
{
	writer w = { b, { { NULL, NULL, NULL, 0, 0 }, NULL, 0, 0 }, fd, 0, 0,
		0 };

	put_value(&w, v);
	return writer_end(&w, err);
}

void ast_write_json(strbuf *b, const json_t *v)
{
	write_json(b, v, -1, NULL);
}

size_t ast_write_json_fd(strbuf *b, const json_t *v, int fd, int *err)
{
	b->len = 0;
	return write_json(b, v, fd, err);
}

/* ---- a document sent while it is made ------------------------------------ */
struct ast_sender {
	writer w;
	size_t n;		/* the elements written */
};

ast_sender *ast_send_begin(strbuf *b, int fd, const json_t *head)
{
	ast_sender *s = xcalloc(1, sizeof *s);
	char sep = '{';

	b->len = 0;
	s->w.b = b;
	s->w.fd = fd;
	/* as put_value writes an object and then an array in it */
	s->w.depth = 1;
	for (void *it = json_object_iter((json_t *)head); it;
			it = json_object_iter_next((json_t *)head, it)) {
		put_key(b, sep, json_object_iter_key(it),
			json_object_iter_key_len(it));
		sep = ',';
		put_member(&s->w, json_object_iter_value(it));
	}
	put_key(b, sep, "decls", 5);
	put_char(b, '[');
	s->w.depth = 2;
	return s;
}

void ast_send_elem(ast_sender *s, const json_t *v)
{
	if (s->n++) {
		put_char(s->w.b, ',');
		if (s->w.fd >= 0)
			send_piece(&s->w);
	}
	put_member(&s->w, v);
}

size_t ast_send_end(ast_sender *s, const json_t *tail, int *err)
{
	put_char(s->w.b, ']');
	for (void *it = json_object_iter((json_t *)tail); it;
			it = json_object_iter_next((json_t *)tail, it)) {
		put_key(s->w.b, ',', json_object_iter_key(it),
			json_object_iter_key_len(it));
		put_member(&s->w, json_object_iter_value(it));
	}
	put_char(s->w.b, '}');
	size_t sent = writer_end(&s->w, err);
	free(s);
	return sent;
}

void ast_send_drop(ast_sender *s)
{
	if (!s)
		return;
	(void)writer_end(&s->w, NULL);
	free(s);
}
