/* run_npy.c - the NumPy .npy file format, versions 1.0 to 3.0
 * (numpy.lib.format): magic "\x93NUMPY", major and minor version bytes, the
 * header length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0),
 * then a Python dict literal
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and a newline, then the data in C order. A structured
 * dtype's descr is a list of fields, [('a', '<f4'), ('b', '<i2', (2,)),
 * ('', '|V2')], packed one after the other (an unnamed void field is
 * padding); brrun reads it as its numbers (run_struct.h). */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_data.h"
#include "brook/util.h"

#define NPY_ID "E-run-npy"
#define NPY_MAX_FIELDS 64

/* A field of a structured dtype: COUNT numbers of kind K at OFF, or
 * padding (COUNT 0). */
typedef struct npy_field {
	brt_scalar k;
	unsigned count;
	size_t off, size;
} npy_field;

typedef struct npy_hdr {
	const char *p, *end;	/* the dict text */
	const char *name;
	diag_ctx *d;
	char descr[16];
	int have_descr, have_order, have_shape;
	int fortran;
	unsigned ndim;
	size_t shape[RUN_MAX_AXES];
	unsigned nfields;	/* a structured dtype: its fields */
	npy_field fields[NPY_MAX_FIELDS];
	size_t itemsize;
	unsigned ncomp;		/* numbers an element */
} npy_hdr;

static int npy_fail(npy_hdr *h, const char *what)
{
	diag_report(h->d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
		"%s: malformed .npy header: %s", h->name, what);
	return -1;
}

static void npy_space(npy_hdr *h)
{
	while (h->p < h->end && isspace((unsigned char)*h->p))
		h->p++;
}

static int npy_expect(npy_hdr *h, char c)
{
	npy_space(h);
	if (h->p >= h->end || *h->p != c)
		return -1;
	h->p++;
	return 0;
}

/* str = "'" chars "'" | '"' chars '"' ; copied into BUF */
static int npy_string(npy_hdr *h, char *buf, size_t len)
{
	npy_space(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return -1;
	char q = *h->p++;
	size_t n = 0;
	while (h->p < h->end && *h->p != q) {
		if (n + 1 >= len)
			return -1;
		buf[n++] = *h->p++;
	}
	if (h->p >= h->end)
		return -1;
	h->p++;
	buf[n] = '\0';
	return 0;
}

/* tuple = "(" [ int { "," int } [ "," ] ] ")", into SHAPE and *NDIM */
static int npy_tuple(npy_hdr *h, size_t *shape, unsigned *ndim)
{
	if (npy_expect(h, '(') != 0)
		return npy_fail(h, "'shape' is not a tuple");
	*ndim = 0;
	for (;;) {
		npy_space(h);
		if (h->p < h->end && *h->p == ')') {
			h->p++;
			return 0;
		}
		if (h->p >= h->end || !isdigit((unsigned char)*h->p))
			return npy_fail(h, "bad number in 'shape'");
		size_t v = 0;
		while (h->p < h->end && isdigit((unsigned char)*h->p)) {
			if (v > (SIZE_MAX - 9) / 10)
				return npy_fail(h, "dimension too large");
			v = v * 10 + (size_t)(*h->p++ - '0');
		}
		if (h->p < h->end && *h->p == 'L')	/* Python 2 long */
			h->p++;
		if (*ndim == RUN_MAX_AXES)
			return npy_fail(h, "more than 5 axes");
		shape[(*ndim)++] = v;
		npy_space(h);
		if (h->p < h->end && *h->p == ',')
			h->p++;
		else if (h->p >= h->end || *h->p != ')')
			return npy_fail(h, "'shape' tuple not closed");
	}
}

static int npy_fields(npy_hdr *h);

/* dict = "{" [ item { "," item } [ "," ] ] "}"
 * item = str ":" ( str | "True" | "False" | tuple ) */
static int npy_dict(npy_hdr *h)
{
	if (npy_expect(h, '{') != 0)
		return npy_fail(h, "no dict");
	for (;;) {
		npy_space(h);
		if (h->p < h->end && *h->p == '}')
			break;
		char key[32];
		if (npy_string(h, key, sizeof key) != 0)
			return npy_fail(h, "bad key");
		if (npy_expect(h, ':') != 0)
			return npy_fail(h, "no ':' after a key");
		npy_space(h);
		if (strcmp(key, "descr") == 0) {
			if (h->p < h->end && *h->p == '[') {
				if (npy_fields(h) != 0)
					return -1;
			} else if (npy_string(h, h->descr, sizeof h->descr) != 0) {
				return npy_fail(h, "'descr' is neither a dtype "
					"string nor a list of fields");
			}
			h->have_descr = 1;
		} else if (strcmp(key, "fortran_order") == 0) {
			size_t rest = (size_t)(h->end - h->p);
			if (rest >= 4 && memcmp(h->p, "True", 4) == 0) {
				h->fortran = 1;
				h->p += 4;
			} else if (rest >= 5 && memcmp(h->p, "False", 5) == 0) {
				h->p += 5;
			} else {
				return npy_fail(h, "'fortran_order' is not a bool");
			}
			h->have_order = 1;
		} else if (strcmp(key, "shape") == 0) {
			if (npy_tuple(h, h->shape, &h->ndim) != 0)
				return -1;
			h->have_shape = 1;
		} else {
			return npy_fail(h, "unknown key");
		}
		npy_space(h);
		if (h->p < h->end && *h->p == ',')
			h->p++;
		else if (h->p >= h->end || *h->p != '}')
			return npy_fail(h, "dict not closed");
	}
	if (!h->have_descr || !h->have_order || !h->have_shape)
		return npy_fail(h, "'descr', 'fortran_order' or 'shape' missing");
	return 0;
}

/* The scalar kind of dtype string S; -1 for one Brook has no type for.
 * With BIG, big-endian data of more than one byte sets *BIG (to swap);
 * without, it is refused. */
static int npy_kind(npy_hdr *h, const char *descr, brt_scalar *k, int *big)
{
	const char *s = descr;
	if (s[0] == '>' && !(s[1] && s[2] == '1' && !s[3])) {
		if (!big) {
			diag_report(h->d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
				"%s: big-endian fields ('%s') are not supported "
				"in a structured dtype", h->name, s);
			return -1;
		}
		*big = 1;
	}
	if (s[0] == '<' || s[0] == '|' || s[0] == '=' || s[0] == '>')
		s++;
	static const struct { const char *code; brt_scalar k; } tab[] = {
		{"i1", BRT_CHAR}, {"u1", BRT_UCHAR}, {"b1", BRT_UCHAR},
		{"i2", BRT_SHORT}, {"u2", BRT_USHORT}, {"i4", BRT_INT},
		{"u4", BRT_UINT}, {"f4", BRT_FLOAT}, {"f8", BRT_DOUBLE},
		{"i8", BRT_LONG}, {"u8", BRT_ULONG},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcmp(s, tab[i].code) == 0) {
			*k = tab[i].k;
			return 0;
		}
	diag_report(h->d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
		"%s: dtype '%s' has no Brook type (use i1 u1 i2 u2 i4 u4 i8 u8 "
		"f4 or f8)", h->name, descr);
	return -1;
}

/* fields = "[" field { "," field } [ "," ] "]"
 * field  = "(" str "," str [ "," tuple ] [ "," ] ")"
 * A field of a nested dtype (a list in place of the string) is refused. */
static int npy_fields(npy_hdr *h)
{
	h->p++;
	for (;;) {
		npy_space(h);
		if (h->p < h->end && *h->p == ']') {
			h->p++;
			break;
		}
		char name[128], code[16];
		size_t shape[RUN_MAX_AXES];
		unsigned nd = 0;
		if (h->nfields == NPY_MAX_FIELDS)
			return npy_fail(h, "more than 64 fields");
		if (npy_expect(h, '(') != 0 || npy_string(h, name,
			sizeof name) != 0 || npy_expect(h, ',') != 0)
			return npy_fail(h, "a field is not ('name', 'dtype')");
		if (npy_string(h, code, sizeof code) != 0)
			return npy_fail(h, "a field's dtype is not a string "
				"(nested structured dtypes are not supported)");
		npy_space(h);
		if (h->p < h->end && *h->p == ',') {
			h->p++;
			npy_space(h);
			if (h->p < h->end && *h->p == '(' &&
				npy_tuple(h, shape, &nd) != 0)
				return -1;
		}
		if (npy_expect(h, ')') != 0)
			return npy_fail(h, "a field is not closed");
		npy_field *f = &h->fields[h->nfields++];
		size_t n = 1;
		for (unsigned i = 0; i < nd; i++)
			n *= shape[i];
		f->off = h->itemsize;
		const char *v = code + (code[0] == '|' || code[0] == '<');
		if (!name[0] && v[0] == 'V') {
			/* padding: an unnamed void field */
			char *e;
			unsigned long long pad = strtoull(v + 1, &e, 10);
			if (e == v + 1 || *e || pad > 1u << 20)
				return npy_fail(h, "bad padding field");
			f->count = 0;
			f->size = (size_t)pad;
		} else {
			if (nd > 1 || n < 1 || n > 4)
				return npy_fail(h, "a field's shape is not (2,) "
					"to (4,)");
			if (npy_kind(h, code, &f->k, NULL) != 0)
				return -1;
			f->count = (unsigned)n;
			f->size = n * run_scalar_size(f->k);
			h->ncomp += f->count;
		}
		h->itemsize += f->size;
		npy_space(h);
		if (h->p < h->end && *h->p == ',')
			h->p++;
		else if (h->p >= h->end || *h->p != ']')
			return npy_fail(h, "the list of fields is not closed");
	}
	if (!h->ncomp)
		return npy_fail(h, "a structured dtype without fields");
	return 0;
}

/* DATA, N elements of ES bytes in Fortran order (the first axis fastest)
 * of SHAPE, in C order (the last axis fastest), as NumPy's
 * ascontiguousarray makes them: a new buffer. */
static char *npy_c_order(const char *data, size_t n, size_t es,
	const size_t *shape, unsigned ndim)
{
	size_t bytes = n * es;
	char *c = xmalloc(bytes ? bytes : 1);
	size_t idx[RUN_MAX_AXES] = {0}, stride[RUN_MAX_AXES], f = 0;
	stride[0] = 1;
	for (unsigned k = 1; k < ndim; k++)
		stride[k] = stride[k - 1] * shape[k - 1];
	for (size_t i = 0; i < n; i++) {
		memcpy(c + i * es, data + f * es, es);
		/* the next index in C order, and its place in DATA */
		for (unsigned k = ndim; k-- > 0;) {
			if (++idx[k] < shape[k]) {
				f += stride[k];
				break;
			}
			f -= (shape[k] - 1) * stride[k];
			idx[k] = 0;
		}
	}
	return c;
}

/* The elements of a structured dtype as their numbers: doubles, the
 * fields' numbers on the last axis, KINDS saying each one's dtype. */
static int npy_structured(npy_hdr *h, const char *data, size_t have,
	run_array *out)
{
	out->scalar = BRT_DOUBLE;
	out->ndim = h->ndim;
	memcpy(out->shape, h->shape, sizeof h->shape);
	if (h->ncomp > 1 && h->ndim == RUN_MAX_AXES)
		return npy_fail(h, "more than 4 axes of structs");
	if (h->ncomp > 1)
		out->shape[out->ndim++] = h->ncomp;
	if (run_array_count(out) != 0)
		return npy_fail(h, "shape too large");
	size_t n = out->count / h->ncomp;
	if (h->itemsize && n > SIZE_MAX / h->itemsize)
		return npy_fail(h, "shape too large");
	if (have != n * h->itemsize) {
		char sb[96];
		diag_report(h->d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: %s .npy file: shape %s of %zu-byte elements needs "
			"%zu data bytes, %zu there", h->name, have < n *
			h->itemsize ? "truncated" : "malformed",
			run_shape_str(h->shape, h->ndim, sb, sizeof sb),
			h->itemsize, n * h->itemsize, have);
		return -1;
	}
	char *c_order = h->fortran ? npy_c_order(data, n, h->itemsize,
		h->shape, h->ndim) : NULL;
	if (c_order)
		data = c_order;
	double *v = xcalloc(out->count ? out->count : 1, sizeof *v);
	out->kinds = xcalloc(h->ncomp, sizeof *out->kinds);
	out->nkinds = h->ncomp;
	unsigned c0 = 0;
	for (unsigned i = 0; i < h->nfields; i++) {
		const npy_field *f = &h->fields[i];
		size_t cs = run_scalar_size(f->k);
		for (unsigned c = 0; c < f->count; c++) {
			run_array one = {0};
			uint64_t x = 0;
			one.scalar = f->k;
			one.data = &x;
			out->kinds[c0 + c] = f->k;
			for (size_t e = 0; e < n; e++) {
				memcpy(&x, data + e * h->itemsize + f->off + c * cs,
					cs);
				v[e * h->ncomp + c0 + c] = run_get(&one, 0);
			}
		}
		c0 += f->count;
	}
	free(c_order);
	out->data = v;
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		(uint32_t)p[3] << 24;
}

int run_npy_parse(const char *bytes, size_t len, const char *name,
	run_array *out, diag_ctx *d)
{
	const unsigned char *b = (const unsigned char *)bytes;
	npy_hdr h = {0};
	h.name = name;
	h.d = d;
	memset(out, 0, sizeof *out);
	if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: not a .npy file (no \\x93NUMPY magic)", name);
		return -1;
	}
	unsigned major = b[6];
	size_t hlen, start;
	if (major == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		start = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			return npy_fail(&h, "truncated");
		hlen = le32(b + 8);
		start = 12;
	} else {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: .npy version %u.%u is not supported (1.0 to 3.0 are)",
			name, major, b[7]);
		return -1;
	}
	if (hlen > len - start) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: truncated .npy file: header of %zu bytes, %zu there",
			name, hlen, len - start);
		return -1;
	}
	h.p = bytes + start;
	h.end = h.p + hlen;
	if (npy_dict(&h) != 0)
		return -1;
	if (h.nfields)
		return npy_structured(&h, bytes + start + hlen,
			len - start - hlen, out);
	brt_scalar k;
	int big = 0;
	if (npy_kind(&h, h.descr, &k, &big) != 0)
		return -1;
	out->scalar = k;
	out->typed = 1;
	out->ndim = h.ndim;
	memcpy(out->shape, h.shape, sizeof h.shape);
	size_t es = run_scalar_size(k);
	if (run_array_count(out) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: shape too large", name);
		return -1;
	}
	size_t want = out->count * es, have = len - start - hlen;
	if (have != want) {
		char sb[96];
		diag_report(d, DIAG_ERROR, NULL, 0, 0, NPY_ID,
			"%s: %s .npy file: shape %s of %s needs %zu data bytes, "
			"%zu there", name, have < want ? "truncated" : "malformed",
			run_shape_str(out->shape, out->ndim, sb, sizeof sb),
			run_scalar_name(k), want, have);
		return -1;
	}
	if (h.fortran) {
		out->data = npy_c_order(bytes + start + hlen, out->count, es,
			h.shape, h.ndim);
	} else {
		out->data = xmalloc(want ? want : 1);
		memcpy(out->data, bytes + start + hlen, want);
	}
	/* big-endian numbers to the host's order (little-endian: brrun
	 * writes '<' data) */
	for (size_t i = 0; big && i < out->count; i++) {
		unsigned char *e = (unsigned char *)out->data + i * es;
		for (size_t j = 0; j < es / 2; j++) {
			unsigned char t = e[j];
			e[j] = e[es - 1 - j];
			e[es - 1 - j] = t;
		}
	}
	return 0;
}

void run_npy_format_descr(const char *descr, const size_t *shape,
	unsigned ndim, const void *data, size_t dlen, char **bytes, size_t *len)
{
	strbuf h = {0};
	char sb[128];
	sb_printf(&h, "{'descr': %s, 'fortran_order': False, 'shape': %s, }",
		descr, run_shape_str(shape, ndim, sb, sizeof sb));
	/* numpy.lib.format: the data starts at a multiple of 64 bytes */
	while ((10 + h.len + 1) % 64 != 0)
		sb_putc(&h, ' ');
	sb_putc(&h, '\n');
	strbuf o = {0};
	sb_putn(&o, "\x93NUMPY\x01\x00", 8);
	sb_putc(&o, (int)(h.len & 0xff));
	sb_putc(&o, (int)(h.len >> 8));
	sb_putn(&o, h.s, h.len);
	if (dlen)
		sb_putn(&o, data, dlen);
	sb_free(&h);
	*len = o.len;
	*bytes = sb_take(&o);
}

void run_npy_format(const run_array *a, char **bytes, size_t *len)
{
	char descr[16];
	snprintf(descr, sizeof descr, "'%s'", run_npy_dtype(a->scalar));
	run_npy_format_descr(descr, a->shape, a->ndim, a->data,
		a->count * run_scalar_size(a->scalar), bytes, len);
}
