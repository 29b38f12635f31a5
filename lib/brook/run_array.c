/* run_array.c - brrun's host arrays: element access and conversion. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/run_data.h"
#include "brook/util.h"

void run_array_free(run_array *a)
{
	free(a->data);
	free(a->kinds);
	memset(a, 0, sizeof *a);
}

int run_array_count(run_array *a)
{
	size_t n = 1;
	for (unsigned i = 0; i < a->ndim; i++) {
		if (a->shape[i] && n > SIZE_MAX / 16 / a->shape[i])
			return -1;
		n *= a->shape[i];
	}
	a->count = n;
	return 0;
}

const char *run_shape_str(const size_t *shape, unsigned ndim, char *buf,
	size_t len)
{
	size_t o = 0;
	o += (size_t)snprintf(buf, len, "(");
	for (unsigned i = 0; i < ndim && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%zu",
			i ? ", " : "", shape[i]);
	if (o < len)
		snprintf(buf + o, len - o, ndim == 1 ? ",)" : ")");
	return buf;
}

const char *run_scalar_name(brt_scalar k)
{
	switch (k) {
	case BRT_CHAR: return "int8";
	case BRT_UCHAR: return "uint8";
	case BRT_SHORT: return "int16";
	case BRT_USHORT: return "uint16";
	case BRT_INT: return "int32";
	case BRT_UINT: return "uint32";
	case BRT_FLOAT: return "float32";
	case BRT_DOUBLE: return "float64";
	case BRT_LONG: return "int64";
	case BRT_ULONG: return "uint64";
	case BRT_STRUCT: break;
	}
	return "struct";
}

size_t run_scalar_size(brt_scalar k)
{
	switch (k) {
	case BRT_CHAR: case BRT_UCHAR: return 1;
	case BRT_SHORT: case BRT_USHORT: return 2;
	case BRT_INT: case BRT_UINT: case BRT_FLOAT: return 4;
	case BRT_DOUBLE: case BRT_LONG: case BRT_ULONG: return 8;
	case BRT_STRUCT: break;
	}
	return 0;
}

const char *run_npy_dtype(brt_scalar k)
{
	switch (k) {
	case BRT_CHAR: return "|i1";
	case BRT_UCHAR: return "|u1";
	case BRT_SHORT: return "<i2";
	case BRT_USHORT: return "<u2";
	case BRT_INT: return "<i4";
	case BRT_UINT: return "<u4";
	case BRT_FLOAT: return "<f4";
	case BRT_DOUBLE: return "<f8";
	case BRT_LONG: return "<i8";
	case BRT_ULONG: return "<u8";
	case BRT_STRUCT: break;
	}
	return NULL;
}

double run_get(const run_array *a, size_t i)
{
	const char *p = a->data;
	switch (a->scalar) {
	case BRT_CHAR: return ((const int8_t *)p)[i];
	case BRT_UCHAR: return ((const uint8_t *)p)[i];
	case BRT_SHORT: return ((const int16_t *)p)[i];
	case BRT_USHORT: return ((const uint16_t *)p)[i];
	case BRT_INT: return ((const int32_t *)p)[i];
	case BRT_UINT: return ((const uint32_t *)p)[i];
	case BRT_FLOAT: return ((const float *)p)[i];
	case BRT_DOUBLE: return ((const double *)p)[i];
	case BRT_LONG: return (double)((const int64_t *)p)[i];
	case BRT_ULONG: return (double)((const uint64_t *)p)[i];
	case BRT_STRUCT: break;
	}
	return 0;
}

/* V saturated to [LO, HI] and truncated toward zero; NaN gives 0. */
static double sat(double v, double lo, double hi)
{
	if (isnan(v))
		return 0;
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return trunc(v);
}

void run_put(brt_scalar k, void *data, size_t i, double v)
{
	char *p = data;
	switch (k) {
	case BRT_CHAR: ((int8_t *)p)[i] = (int8_t)sat(v, INT8_MIN, INT8_MAX); break;
	case BRT_UCHAR: ((uint8_t *)p)[i] = (uint8_t)sat(v, 0, UINT8_MAX); break;
	case BRT_SHORT: ((int16_t *)p)[i] = (int16_t)sat(v, INT16_MIN, INT16_MAX); break;
	case BRT_USHORT: ((uint16_t *)p)[i] = (uint16_t)sat(v, 0, UINT16_MAX); break;
	case BRT_INT: ((int32_t *)p)[i] = (int32_t)sat(v, INT32_MIN, INT32_MAX); break;
	case BRT_UINT: ((uint32_t *)p)[i] = (uint32_t)sat(v, 0, UINT32_MAX); break;
	case BRT_FLOAT: ((float *)p)[i] = (float)v; break;
	case BRT_DOUBLE: ((double *)p)[i] = v; break;
	/* the bounds as doubles: 2^63 and 2^64 are exact, the largest
	 * integers below them are not, so stay one step inside */
	case BRT_LONG: ((int64_t *)p)[i] = (int64_t)sat(v, -9223372036854775808.0,
		9223372036854774784.0); break;
	case BRT_ULONG: ((uint64_t *)p)[i] = (uint64_t)sat(v, 0,
		18446744073709549568.0); break;
	case BRT_STRUCT: break;
	}
}

void run_array_convert(run_array *a, brt_scalar k)
{
	if (a->scalar == k)
		return;
	void *nd = xcalloc(a->count, run_scalar_size(k));
	for (size_t i = 0; i < a->count; i++)
		run_put(k, nd, i, run_get(a, i));
	free(a->data);
	a->data = nd;
	a->scalar = k;
}
