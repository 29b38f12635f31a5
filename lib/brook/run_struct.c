/* run_struct.c - struct elements (spec 2) in brrun's data: packed into the
 * host layout from numbers, generated, unpacked for printing and written
 * as a structured .npy file (run_struct.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_args.h"
#include "brook/run_struct.h"
#include "brook/util.h"

#define SHAPE_ID "E-run-shape"

static size_t elements(const size_t *eshape, unsigned erank)
{
	size_t n = 1;
	for (unsigned i = 0; i < erank; i++)
		n *= eshape[i];
	return n;
}

/* Copies field F of every element from typed array SRC (F's kind, its
 * components last) into the packed elements at DST. */
static void put_field(const run_param *p, const run_field *f,
	const run_array *src, char *dst, size_t n)
{
	size_t cs = f->type.size / f->type.ncomp;
	for (size_t e = 0; e < n; e++)
		memcpy(dst + e * p->desc.type.size + f->off,
			(const char *)src->data + e * f->type.size, cs *
			f->type.ncomp);
}

/* The kind of number C of an element of P. */
static brt_scalar struct_kind(const run_param *p, unsigned c)
{
	for (unsigned i = 0; i < p->nfields; i++) {
		if (c < p->fields[i].type.ncomp)
			return p->fields[i].type.scalar;
		c -= p->fields[i].type.ncomp;
	}
	return BRT_STRUCT;
}

/* The fields' names, for messages: "n, s.x, s.y, d". */
static void comp_list(const run_param *p, char *buf, size_t len)
{
	size_t o = 0;
	char cn[80];
	buf[0] = '\0';
	for (unsigned c = 0; c < p->ncomp && o + 1 < len; c++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", c ? ", " : "",
			run_comp_name(p, c, cn, sizeof cn));
}

int run_struct_pack(const run_param *p, run_array *a, size_t *eshape,
	unsigned *erank, diag_ctx *d)
{
	char sb[96], list[256];
	if (a->typed && a->scalar == BRT_STRUCT) {
		/* raw .bin: already the host layout */
		*erank = a->ndim;
		memcpy(eshape, a->shape, a->ndim * sizeof *eshape);
		return 0;
	}
	if (a->typed) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-run-type",
			"%s is a struct: give its numbers as text or a literal, "
			"or its bytes as @FILE.bin:DIMS, not %s data", p->name,
			run_scalar_name(a->scalar));
		return -1;
	}
	unsigned r = a->ndim;
	if (p->ncomp > 1) {
		if (r == 0 || a->shape[r - 1] != p->ncomp) {
			comp_list(p, list, sizeof list);
			diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
				"%s is a struct of %u numbers (%s): the data's last "
				"axis must have %u, its shape is %s", p->name,
				p->ncomp, list, p->ncomp, run_shape_str(a->shape,
				a->ndim, sb, sizeof sb));
			return -1;
		}
		r--;
	}
	for (unsigned c = 0; a->kinds && c < p->ncomp; c++) {
		/* a structured .npy: each field of the parameter's type */
		brt_scalar want = struct_kind(p, c);
		if (a->kinds[c] != want) {
			char cn[80];
			diag_report(d, DIAG_ERROR, NULL, 0, 0, "E-run-type",
				"%s.%s is %s, the data's field is %s", p->name,
				run_comp_name(p, c, cn, sizeof cn),
				run_scalar_name(want), run_scalar_name(a->kinds[c]));
			return -1;
		}
	}
	size_t es[BRT_MAX_RANK];
	unsigned er = 0;
	size_t n = a->count / p->ncomp, size = p->desc.type.size;
	char *packed = xcalloc(n ? n * size : 1, 1);
	unsigned c0 = 0;
	for (unsigned i = 0; i < p->nfields; i++) {
		/* the field's numbers of every element, checked and converted
		 * as a parameter of its type */
		const run_field *f = &p->fields[i];
		run_array fa = {0};
		char fname[200];
		fa.scalar = BRT_DOUBLE;
		fa.ndim = run_full_shape(a->shape, r, f->type, fa.shape);
		fa.count = n * f->type.ncomp;
		fa.data = xcalloc(fa.count ? fa.count : 1, sizeof(double));
		for (size_t e = 0; e < n; e++)
			for (unsigned c = 0; c < f->type.ncomp; c++)
				((double *)fa.data)[e * f->type.ncomp + c] =
					run_get(a, e * p->ncomp + c0 + c);
		snprintf(fname, sizeof fname, "%s.%s", p->name, f->name);
		int bad = run_to_elements(&fa, f->type, fname, es, &er, d);
		if (!bad)
			put_field(p, f, &fa, packed, n);
		run_array_free(&fa);
		if (bad) {
			free(packed);
			return -1;
		}
		c0 += f->type.ncomp;
	}
	free(a->data);
	free(a->kinds);
	a->kinds = NULL;
	a->nkinds = 0;
	a->data = packed;
	a->scalar = BRT_STRUCT;
	a->typed = 1;
	a->ndim = r;
	a->count = n;
	*erank = r;
	memcpy(eshape, a->shape, r * sizeof *eshape);
	return 0;
}

int run_struct_generate(const char *text, const run_param *p,
	const size_t *eshape, unsigned erank, run_array *out, diag_ctx *d)
{
	size_t n = elements(eshape, erank);
	memset(out, 0, sizeof *out);
	out->scalar = BRT_STRUCT;
	out->typed = 1;
	out->ndim = erank;
	memcpy(out->shape, eshape, erank * sizeof *eshape);
	out->count = n;
	out->data = xcalloc(n ? n * p->desc.type.size : 1, 1);
	for (unsigned i = 0; i < p->nfields; i++) {
		run_array fa;
		if (run_generate(text, p->fields[i].type, eshape, erank, &fa,
			d) != 0) {
			run_array_free(out);
			return -1;
		}
		put_field(p, &p->fields[i], &fa, out->data, n);
		run_array_free(&fa);
	}
	return 0;
}

void run_struct_unpack(const run_param *p, const void *bytes,
	const size_t *eshape, unsigned erank, run_array *out)
{
	size_t n = elements(eshape, erank);
	memset(out, 0, sizeof *out);
	out->scalar = BRT_DOUBLE;
	out->typed = 1;
	memcpy(out->shape, eshape, erank * sizeof *eshape);
	out->ndim = erank;
	if (p->ncomp > 1)
		out->shape[out->ndim++] = p->ncomp;
	out->count = n * p->ncomp;
	out->data = xcalloc(out->count ? out->count : 1, sizeof(double));
	out->kinds = xcalloc(p->ncomp, sizeof *out->kinds);
	out->nkinds = p->ncomp;
	unsigned c0 = 0;
	for (unsigned i = 0; i < p->nfields; i++) {
		const run_field *f = &p->fields[i];
		run_array one = {0};
		one.scalar = f->type.scalar;
		for (unsigned c = 0; c < f->type.ncomp; c++)
			out->kinds[c0 + c] = f->type.scalar;
		for (size_t e = 0; e < n; e++) {
			one.data = (char *)bytes + e * p->desc.type.size + f->off;
			for (unsigned c = 0; c < f->type.ncomp; c++)
				((double *)out->data)[e * p->ncomp + c0 + c] =
					run_get(&one, c);
		}
		c0 += f->type.ncomp;
	}
}

void run_struct_npy(const run_param *p, const run_array *packed,
	char **bytes, size_t *len)
{
	strbuf descr = {0};
	size_t o = 0;
	sb_putc(&descr, '[');
	for (unsigned i = 0; i <= p->nfields; i++) {
		size_t at = i < p->nfields ? p->fields[i].off : p->desc.type.size;
		if (at > o)	/* padding: numpy's unnamed void field */
			sb_printf(&descr, "('', '|V%zu'), ", at - o);
		if (i == p->nfields)
			break;
		const run_field *f = &p->fields[i];
		sb_printf(&descr, "('%s', '%s'", f->name,
			run_npy_dtype(f->type.scalar));
		if (f->type.ncomp > 1)
			sb_printf(&descr, ", (%u,)", f->type.ncomp);
		sb_puts(&descr, "), ");
		o = at + f->type.size;
	}
	sb_putc(&descr, ']');
	run_npy_format_descr(descr.s, packed->shape, packed->ndim, packed->data,
		packed->count * p->desc.type.size, bytes, len);
	sb_free(&descr);
}
