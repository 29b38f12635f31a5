/* run_args.c - brrun's argument values (run_args.h, brrun(1) "VALUES"). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_args.h"
#include "brook/util.h"

#define VALUE_ID "E-run-value"
#define TYPE_ID "E-run-type"
#define SHAPE_ID "E-run-shape"
#define FILE_ID "E-run-file"

/* dims = number { "x" number }, at most BRT_MAX_RANK of them */
int run_parse_dims(const char *s, size_t *shape, unsigned *ndim)
{
	size_t d[BRT_MAX_RANK];
	unsigned n = 0;
	const char *p = s;
	for (;;) {
		if (!isdigit((unsigned char)*p) || n == BRT_MAX_RANK)
			return -1;
		size_t v = 0;
		while (isdigit((unsigned char)*p)) {
			if (v > (SIZE_MAX / 16 - 9) / 10)
				return -1;
			v = v * 10 + (size_t)(*p++ - '0');
		}
		if (v == 0)
			return -1;
		d[n++] = v;
		if (*p == '\0')
			break;
		if (*p != 'x' && *p != 'X')
			return -1;
		p++;
	}
	for (unsigned i = 0; i < n; i++)
		shape[i] = d[n - 1 - i];
	*ndim = n;
	return 0;
}

int run_is_generator(const char *text)
{
	return strcmp(text, "iota") == 0 || strcmp(text, "zeros") == 0 ||
		strcmp(text, "ones") == 0 || strcmp(text, "rand") == 0 ||
		strncmp(text, "rand:", 5) == 0;
}

int run_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* @file.bin:DIMS - raw packed elements of type ET, DIMS x first. */
static int load_bin(const char *spec, brt_type et, const char *pname,
	run_array *out, diag_ctx *d)
{
	const char *colon = strrchr(spec, ':');
	size_t eshape[BRT_MAX_RANK];
	unsigned erank;
	if (!colon || run_parse_dims(colon + 1, eshape, &erank) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, VALUE_ID,
			"%s: a .bin file needs its dimensions: @FILE.bin:"
			"WIDTHxHEIGHT, not '@%s'", pname, spec);
		return -1;
	}
	char *path = xstrndup(spec, (size_t)(colon - spec));
	char *bytes, err[300];
	size_t len;
	if (util_read_file(path, &bytes, &len, err, sizeof err) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, FILE_ID, "%s", err);
		free(path);
		return -2;
	}
	memset(out, 0, sizeof *out);
	out->scalar = et.scalar;
	out->typed = 1;
	out->ndim = run_full_shape(eshape, erank, et, out->shape);
	/* a struct: the host layout's bytes (run_struct.h) */
	size_t esz = et.scalar == BRT_STRUCT ? et.size :
		run_scalar_size(et.scalar);
	if (run_array_count(out) != 0 || (esz && out->count > SIZE_MAX / esz)) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"%s: %s elements are more than memory can hold", path,
			colon + 1);
		free(bytes);
		free(path);
		return -1;
	}
	size_t want = out->count * esz;
	if (len != want) {
		char tb[48];
		if (et.scalar == BRT_STRUCT)
			snprintf(tb, sizeof tb, "a struct of %zu bytes", et.size);
		else
			snprintf(tb, sizeof tb, "%s", run_scalar_name(et.scalar));
		diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"%s: %zu bytes, but %s elements of %s need %zu", path, len,
			colon + 1, tb, want);
		free(bytes);
		free(path);
		return -1;
	}
	out->data = bytes;
	free(path);
	return 0;
}

int run_load(const char *text, brt_type et, const char *pname,
	run_array *out, diag_ctx *d)
{
	memset(out, 0, sizeof *out);
	if (text[0] != '@')
		return run_literal_parse(text, pname, out, d);
	const char *path = text + 1;
	if (strstr(path, ".bin:") || run_has_suffix(path, ".bin"))
		return load_bin(path, et, pname, out, d);
	char *bytes, err[300];
	size_t len;
	if (util_read_file(path, &bytes, &len, err, sizeof err) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, FILE_ID, "%s", err);
		return -2;
	}
	int r;
	if (run_has_suffix(path, ".npy") || (len >= 6 &&
		memcmp(bytes, "\x93NUMPY", 6) == 0))
		r = run_npy_parse(bytes, len, path, out, d);
	else
		r = run_text_parse(bytes, len, path, out, d);
	free(bytes);
	return r;
}

int run_is_iter(const char *text)
{
	return strncmp(text, "iter(", 5) == 0;
}

/* One end of an iterator: ET's components, a number widened to all. */
static int iter_end(const char *text, brt_type et, const char *pname,
	float *v, diag_ctx *d)
{
	run_array a;
	if (run_literal_parse(text, pname, &a, d) != 0)
		return -1;
	int ok = a.count == 1 || (a.ndim == 1 && a.count == et.ncomp);
	if (!ok) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, VALUE_ID,
			"%s: an end of iter() has 1 or %u numbers, not '%s'", pname,
			et.ncomp, text);
		run_array_free(&a);
		return -1;
	}
	for (unsigned c = 0; c < et.ncomp; c++)
		v[c] = (float)run_get(&a, a.count == 1 ? 0 : c);
	run_array_free(&a);
	return 0;
}

/* iter = "iter(" literal "," literal ")" (BrookGPU's iterator streams) */
int run_parse_iter(const char *text, brt_type et, const char *pname,
	float *lo, float *hi, diag_ctx *d)
{
	size_t n = strlen(text);
	if (et.scalar != BRT_FLOAT) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, TYPE_ID,
			"%s: iterators are float, float2, float3 or float4 streams",
			pname);
		return -1;
	}
	/* the comma between the ends: outside brackets */
	const char *comma = NULL;
	int depth = 0;
	for (const char *p = text + 5; *p; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		else if (*p == ',' && depth == 0 && !comma)
			comma = p;
	}
	if (n < 7 || text[n - 1] != ')' || !comma) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, VALUE_ID,
			"%s: write an iterator as iter(START, END), not '%s'",
			pname, text);
		return -1;
	}
	char *a = xstrndup(text + 5, (size_t)(comma - text - 5));
	char *b = xstrndup(comma + 1, (size_t)(text + n - 1 - comma - 1));
	int r = iter_end(a, et, pname, lo, d) == 0 &&
		iter_end(b, et, pname, hi, d) == 0 ? 0 : -1;
	free(a);
	free(b);
	return r;
}

/* A small, fixed generator (splitmix64), so rand:SEED gives the same
 * numbers on every machine. */
static uint64_t mix_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int run_generate(const char *text, brt_type et, const size_t *eshape,
	unsigned erank, run_array *out, diag_ctx *d)
{
	memset(out, 0, sizeof *out);
	out->scalar = et.scalar;
	out->typed = 1;
	out->ndim = run_full_shape(eshape, erank, et, out->shape);
	if (run_array_count(out) != 0) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"shape too large");
		return -1;
	}
	uint64_t seed = 1;
	if (strncmp(text, "rand:", 5) == 0) {
		char *e;
		seed = strtoull(text + 5, &e, 10);
		if (e == text + 5 || *e != '\0') {
			diag_report(d, DIAG_ERROR, NULL, 0, 0, VALUE_ID,
				"bad seed in '%s': rand:SEED takes a number", text);
			return -1;
		}
	}
	out->data = xcalloc(out->count ? out->count : 1,
		run_scalar_size(et.scalar));
	int flt = et.scalar == BRT_FLOAT || et.scalar == BRT_DOUBLE;
	unsigned nc = et.ncomp ? et.ncomp : 1;
	for (size_t i = 0; i < out->count; i++) {
		double v;
		switch (text[0]) {
		case 'i': v = (double)(i / nc); break;	/* iota: element index */
		case 'z': v = 0; break;
		case 'o': v = 1; break;
		default: {
			uint64_t r = mix_next(&seed);
			/* rand: uniform in [0, 1) for floats, 0..99 for integers */
			v = flt ? (double)(r >> 11) * (1.0 / 9007199254740992.0) :
				(double)(r % 100);
			break;
		}
		}
		run_put(et.scalar, out->data, i, v);
	}
	return 0;
}

unsigned run_full_shape(const size_t *eshape, unsigned erank, brt_type et,
	size_t *shape)
{
	for (unsigned i = 0; i < erank; i++)
		shape[i] = eshape[i];
	if (et.ncomp > 1)
		shape[erank++] = et.ncomp;
	return erank;
}

int run_to_elements(run_array *a, brt_type et, const char *pname,
	size_t *eshape, unsigned *erank, diag_ctx *d)
{
	char tb[32], sb[96];
	unsigned r = a->ndim;
	if (et.ncomp > 1) {
		if (r == 0 || a->shape[r - 1] != et.ncomp) {
			diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
				"%s is %s: the data's last axis must have %u "
				"components, its shape is %s", pname,
				brt_type_name(et, tb, sizeof tb), et.ncomp,
				run_shape_str(a->shape, a->ndim, sb, sizeof sb));
			return -1;
		}
		r--;
	}
	if (a->kinds) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, TYPE_ID,
			"%s is %s, the data is a structured array", pname,
			brt_type_name(et, tb, sizeof tb));
		return -1;
	}
	if (r > BRT_MAX_RANK) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"%s: shape %s has more than %d axes", pname,
			run_shape_str(a->shape, a->ndim, sb, sizeof sb),
			BRT_MAX_RANK);
		return -1;
	}
	if (a->typed && a->scalar != et.scalar) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, TYPE_ID,
			"%s is %s, the data is %s (convert it, e.g. "
			"numpy's astype(numpy.%s))", pname,
			brt_type_name(et, tb, sizeof tb), run_scalar_name(a->scalar),
			run_scalar_name(et.scalar));
		return -1;
	}
	if (!a->typed && et.scalar != BRT_FLOAT && et.scalar != BRT_DOUBLE) {
		for (size_t i = 0; i < a->count; i++) {
			double v = run_get(a, i);
			double lo = et.scalar == BRT_CHAR ? -128 :
				et.scalar == BRT_SHORT ? -32768 :
				et.scalar == BRT_INT ? -2147483648.0 :
				et.scalar == BRT_LONG ? -9223372036854775808.0 : 0;
			double hi = et.scalar == BRT_CHAR ? 127 :
				et.scalar == BRT_UCHAR ? 255 :
				et.scalar == BRT_SHORT ? 32767 :
				et.scalar == BRT_USHORT ? 65535 :
				et.scalar == BRT_INT ? 2147483647.0 :
				et.scalar == BRT_UINT ? 4294967295.0 :
				18446744073709551615.0;
			if (v != floor(v) || v < lo || v > hi) {
				diag_report(d, DIAG_ERROR, NULL, 0, 0, TYPE_ID,
					"%s is %s: %.15g is not a value of that type",
					pname, brt_type_name(et, tb, sizeof tb), v);
				return -1;
			}
		}
	}
	run_array_convert(a, et.scalar);
	a->typed = 1;
	for (unsigned i = 0; i < r; i++)
		eshape[i] = a->shape[i];
	*erank = r;
	return 0;
}

/* The state of a --flops expression. */
typedef struct fx {
	const char *p;
	double n;
	int depth;
	int bad;
} fx;

static double fx_expr(fx *x);

static void fx_space(fx *x)
{
	while (*x->p == ' ')
		x->p++;
}

/* factor = number | "n" | "(" expr ")" | "-" factor */
static double fx_factor(fx *x)
{
	fx_space(x);
	if (++x->depth > 100) {
		x->bad = 1;
		return 0;
	}
	double v = 0;
	if (*x->p == '(') {
		x->p++;
		v = fx_expr(x);
		fx_space(x);
		if (*x->p != ')')
			x->bad = 1;
		else
			x->p++;
	} else if (*x->p == '-') {
		x->p++;
		v = -fx_factor(x);
	} else if (*x->p == 'n' && !isalnum((unsigned char)x->p[1])) {
		x->p++;
		v = x->n;
	} else {
		char *e;
		v = strtod(x->p, &e);
		if (e == x->p)
			x->bad = 1;
		x->p = e;
	}
	x->depth--;
	return v;
}

/* term = factor { ("*" | "/") factor } */
static double fx_term(fx *x)
{
	double v = fx_factor(x);
	for (;;) {
		fx_space(x);
		if (*x->p == '*' || *x->p == '/') {
			char op = *x->p++;
			double r = fx_factor(x);
			v = op == '*' ? v * r : v / r;
		} else {
			return v;
		}
	}
}

/* expr = term { ("+" | "-") term } */
static double fx_expr(fx *x)
{
	double v = fx_term(x);
	for (;;) {
		fx_space(x);
		if (*x->p == '+' || *x->p == '-') {
			char op = *x->p++;
			double r = fx_term(x);
			v = op == '+' ? v + r : v - r;
		} else {
			return v;
		}
	}
}

int run_flops_eval(const char *expr, double n, double *out)
{
	fx x = {expr, n, 0, 0};
	*out = fx_expr(&x);
	fx_space(&x);
	return x.bad || *x.p != '\0' ? -1 : 0;
}
