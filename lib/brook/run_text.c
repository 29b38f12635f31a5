/* run_text.c - brrun's text data: number files, [..] literals, and the
 * text form of results (brrun(1), "DATA FORMATS"). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_data.h"
#include "brook/util.h"

#define TEXT_ID "E-run-text"
#define LIT_ID "E-run-value"

/* A growable array of doubles. */
typedef struct dvec {
	double *v;
	size_t n, cap;
} dvec;

static void dvec_push(dvec *a, double x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = x;
}

/* One number at *P (strtod's syntax: decimal, hex, inf, nan); advances *P.
 * Returns 0, or -1 when there is no number or it does not end at a
 * separator (one of SEPS, or the end). */
static int scan_number(const char **p, const char *end, const char *seps,
	double *v)
{
	char buf[128];
	size_t n = 0;
	const char *s = *p;
	while (s + n < end && n + 1 < sizeof buf && !strchr(seps, s[n]) &&
		s[n] != '\0')
		n++;
	if (n == 0 || (s + n < end && n + 1 >= sizeof buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *e;
	errno = 0;
	*v = strtod(buf, &e);
	if (e == buf || *e != '\0')
		return -1;
	*p = s + n;
	return 0;
}

int run_text_parse(const char *text, size_t len, const char *name,
	run_array *out, diag_ctx *d)
{
	dvec vals = {0};
	size_t rows = 0, width = 0, width_line = 0;
	int line = 1;
	const char *p = text, *end = text + len, *bol = text;
	memset(out, 0, sizeof *out);
	while (p < end) {
		size_t before = vals.n;
		/* one line: numbers separated by blanks and commas */
		while (p < end && *p != '\n') {
			if (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r') {
				p++;
				continue;
			}
			if (*p == '#') {
				while (p < end && *p != '\n')
					p++;
				break;
			}
			double v;
			if (scan_number(&p, end, " \t,\r\n#", &v) != 0) {
				const char *e = p;
				while (e < end && e - p < 20 && !strchr(" \t,\r\n", *e))
					e++;
				diag_report(d, DIAG_ERROR, name, line,
					(int)(p - bol) + 1, TEXT_ID,
					"not a number: '%.*s'", (int)(e - p), p);
				free(vals.v);
				return -1;
			}
			dvec_push(&vals, v);
		}
		size_t w = vals.n - before;
		if (w > 0) {
			if (rows == 0) {
				width = w;
				width_line = (size_t)line;
			} else if (w != width) {
				diag_report(d, DIAG_ERROR, name, line, 1, TEXT_ID,
					"this row has %zu numbers, the row on line "
					"%zu has %zu", w, width_line, width);
				free(vals.v);
				return -1;
			}
			rows++;
		}
		if (p < end) {		/* the newline */
			p++;
			line++;
			bol = p;
		}
	}
	if (vals.n == 0) {
		diag_report(d, DIAG_ERROR, name, 0, 0, TEXT_ID,
			"no numbers in the file");
		free(vals.v);
		return -1;
	}
	out->scalar = BRT_DOUBLE;
	if (rows > 1 && width > 1) {
		out->ndim = 2;
		out->shape[0] = rows;
		out->shape[1] = width;
	} else {
		out->ndim = 1;
		out->shape[0] = vals.n;
	}
	out->count = vals.n;
	out->data = vals.v;
	return 0;
}

/* The state of a literal parse. */
typedef struct lit_ctx {
	const char *s, *p;
	const char *name;
	diag_ctx *d;
	dvec vals;
	int ndim;		/* depth of the numbers; -1 until the first */
	size_t shape[RUN_MAX_AXES];
	int seen[RUN_MAX_AXES];
} lit_ctx;

static int lit_fail(lit_ctx *c, const char *what)
{
	diag_report(c->d, DIAG_ERROR, NULL, 0, 0, LIT_ID,
		"%s: bad value '%s': %s at column %d", c->name, c->s, what,
		(int)(c->p - c->s) + 1);
	return -1;
}

static void lit_space(lit_ctx *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n')
		c->p++;
}

/* lit = number | "[" [ lit { "," lit } [ "," ] ] "]"  (depth DEPTH) */
static int lit_value(lit_ctx *c, int depth)
{
	lit_space(c);
	if (*c->p != '[') {
		double v;
		if (scan_number(&c->p, c->p + strlen(c->p), " \t\n,]", &v) != 0)
			return lit_fail(c, "not a number");
		if (c->ndim < 0)
			c->ndim = depth;
		else if (c->ndim != depth)
			return lit_fail(c, "nesting differs between elements");
		dvec_push(&c->vals, v);
		return 0;
	}
	if (depth == RUN_MAX_AXES)
		return lit_fail(c, "nested more than 5 deep");
	c->p++;
	size_t n = 0;
	lit_space(c);
	while (*c->p != ']') {
		if (lit_value(c, depth + 1) != 0)
			return -1;
		n++;
		lit_space(c);
		if (*c->p == ',') {
			c->p++;
			lit_space(c);
		} else if (*c->p != ']') {
			return lit_fail(c, "expected ',' or ']'");
		}
	}
	c->p++;
	if (n == 0) {
		if (c->ndim >= 0 && c->ndim != depth + 1)
			return lit_fail(c, "nesting differs between elements");
		c->ndim = depth + 1;
	}
	if (!c->seen[depth]) {
		c->seen[depth] = 1;
		c->shape[depth] = n;
	} else if (c->shape[depth] != n) {
		return lit_fail(c, "rows of different lengths");
	}
	return 0;
}

int run_literal_parse(const char *text, const char *name, run_array *out,
	diag_ctx *d)
{
	lit_ctx c = {0};
	c.s = c.p = text;
	c.name = name;
	c.d = d;
	c.ndim = -1;
	memset(out, 0, sizeof *out);
	if (lit_value(&c, 0) != 0) {
		free(c.vals.v);
		return -1;
	}
	lit_space(&c);
	if (*c.p != '\0') {
		free(c.vals.v);
		/* 1,2,3: a list without its brackets */
		return lit_fail(&c, c.ndim == 0 && *c.p == ',' ?
			"text after the value (a list is written in "
			"brackets, [1,2,3])" : "text after the value");
	}
	out->scalar = BRT_DOUBLE;
	out->ndim = (unsigned)c.ndim;
	memcpy(out->shape, c.shape, sizeof c.shape);
	out->count = c.vals.n;
	out->data = c.vals.v ? (void *)c.vals.v : xmalloc(sizeof(double));
	return 0;
}

int run_format_number(const run_array *a, size_t i, char *buf, size_t len)
{
	const char *p = a->data;
	if (a->kinds && a->nkinds) {
		/* a struct's field: the number as its field's type */
		uint64_t one;
		run_array f = {0};
		f.scalar = a->kinds[i % a->nkinds];
		f.data = &one;
		run_put(f.scalar, &one, 0, run_get(a, i));
		return run_format_number(&f, 0, buf, len);
	}
	switch (a->scalar) {
	case BRT_FLOAT:
	case BRT_DOUBLE: {
		/* NaN as "nan": its sign bit is the backend's (glibc prints
		   "-nan" for the CPU's, PoCL's has none) */
		double v = a->scalar == BRT_FLOAT ?
			(double)((const float *)p)[i] : ((const double *)p)[i];
		return v != v ? snprintf(buf, len, "nan") :
			snprintf(buf, len, "%g", v);
	}
	case BRT_LONG:
		return snprintf(buf, len, "%" PRId64, ((const int64_t *)p)[i]);
	case BRT_ULONG:
		return snprintf(buf, len, "%" PRIu64, ((const uint64_t *)p)[i]);
	case BRT_UINT:
		return snprintf(buf, len, "%" PRIu32, ((const uint32_t *)p)[i]);
	default:
		return snprintf(buf, len, "%.0f", run_get(a, i));
	}
}

void run_text_format(const run_array *a, unsigned ncomp, char **text,
	size_t *len)
{
	strbuf o = {0};
	unsigned edim = a->ndim - (ncomp > 1 && a->ndim > 0 ? 1 : 0);
	size_t rowlen = edim >= 1 ? a->shape[edim - 1] : 1;
	size_t plane = edim >= 2 ? rowlen * a->shape[edim - 2] : 0;
	size_t nelem = ncomp > 1 ? a->count / ncomp : a->count;
	unsigned nc = ncomp > 1 ? ncomp : 1;
	char buf[64];
	for (size_t e = 0; e < nelem; e++) {
		if (e > 0 && plane && e % plane == 0)
			sb_putc(&o, '\n');
		for (unsigned c = 0; c < nc; c++) {
			if (c)
				sb_putc(&o, ',');
			run_format_number(a, e * nc + c, buf, sizeof buf);
			sb_puts(&o, buf);
		}
		sb_putc(&o, rowlen && (e + 1) % rowlen == 0 ? '\n' : ' ');
	}
	if (nelem == 0)
		sb_putc(&o, '\n');
	*len = o.len;
	*text = sb_take(&o);
}
