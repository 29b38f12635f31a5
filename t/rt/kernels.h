/* kernels.h - hand-written kernels for the runtime tests: for each, the
 * OpenCL C that brgen would write (brt.h, Part 2) and a CPU function, so
 * libbrt is tested without the compiler. Included by every test program here. */
#ifndef RT_KERNELS_H
#define RT_KERNELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brt.h"

/* --- addressing, as brt.h's brt_view comment gives it ----------------------- */
#define RT_CL_PRELUDE \
"typedef struct brt_view { long dims[4]; long pitch[4]; long base;\n" \
"  int rank; int map; float lo[4]; float step[4]; } brt_view;\n" \
"long rt_at(const brt_view v, const long4 dom, long i) {\n" \
"  if (v.map == 0) return v.base + i;\n" \
"  long d[4] = { dom.x, dom.y, dom.z, dom.w }, e = v.base;\n" \
"  for (int k = 0; k < 4; k++) {\n" \
"    long c = i % d[k]; i /= d[k];\n" \
"    if (v.map == 2) c = c * v.dims[k] / d[k];\n" \
"    e += c * v.pitch[k];\n" \
"  }\n" \
"  return e;\n" \
"}\n" \
"float rt_iter(const brt_view v, const long4 dom, long i, int j) {\n" \
"  long d[4] = { dom.x, dom.y, dom.z, dom.w }, e[4];\n" \
"  for (int k = 0; k < 4; k++) { e[k] = (i % d[k]) * v.dims[k] / d[k];\n" \
"    i /= d[k]; }\n" \
"  return v.lo[j] + v.step[j] * (float)e[v.rank == 1 ? 0 : j];\n" \
"}\n" \
"#define RT_POINT long i = get_global_id(0); \\\n" \
"  if (i >= dom.x * dom.y * dom.z * dom.w) return;\n"

static inline int64_t rt_at(const brt_view *v, const int64_t dom[4], int64_t i)
{
	if (v->map == BRT_MAP_SAME)
		return v->base + i;
	int64_t e = v->base;
	for (int k = 0; k < 4; k++) {
		int64_t c = i % dom[k];
		i /= dom[k];
		if (v->map == BRT_MAP_RESIZE)
			c = c * v->dims[k] / dom[k];
		e += c * v->pitch[k];
	}
	return e;
}

static inline float rt_iter(const brt_view *v, const int64_t dom[4], int64_t i,
	int j)
{
	int64_t e[4];
	for (int k = 0; k < 4; k++) {
		e[k] = (i % dom[k]) * v->dims[k] / dom[k];
		i /= dom[k];
	}
	return v->lo[j] + v->step[j] * (float)e[v->rank == 1 ? 0 : j];
}

#define F(c, a) ((float *)(c)->data[a])

/* --- the kernels' OpenCL C ------------------------------------------------ */
static const char rt_source[] = RT_CL_PRELUDE
/* kernel void add(float a<>, float b<>, out float c<>) */
"__kernel void add(__global float *a, const brt_view a_v,\n"
"  __global float *b, const brt_view b_v, __global float *c,\n"
"  const brt_view c_v, const long4 dom, const long4 off) {\n"
"  RT_POINT c[rt_at(c_v, dom, i)] = a[rt_at(a_v, dom, i)]\n"
"    + b[rt_at(b_v, dom, i)];\n"
"}\n"
/* kernel void copy(float a<>, out float b<>) */
"__kernel void copy(__global float *a, const brt_view a_v,\n"
"  __global float *b, const brt_view b_v, const long4 dom,\n"
"  const long4 off) {\n"
"  RT_POINT b[rt_at(b_v, dom, i)] = a[rt_at(a_v, dom, i)];\n"
"}\n"
/* kernel void scale(float a<>, float k, out float b<>) */
"__kernel void scale(__global float *a, const brt_view a_v,\n"
"  const float k, __global float *b, const brt_view b_v,\n"
"  const long4 dom, const long4 off) {\n"
"  RT_POINT b[rt_at(b_v, dom, i)] = k * a[rt_at(a_v, dom, i)];\n"
"}\n"
/* its K__packed: this source does not declare brg_pv, so K's parameters
 * (brt.h), four points a work-item, j + k * s */
"__kernel void scale__packed(__global float *a, const brt_view a_v,\n"
"  const float k, __global float *b, const brt_view b_v,\n"
"  const long4 dom, const long4 off) {\n"
"  long n = dom.x * dom.y * dom.z * dom.w, s = (n + 3) / 4;\n"
"  long j = get_global_id(0);\n"
"  for (int q = 0; q < 4 && j < s; q++)\n"
"    if (j + q * s < n)\n"
"      b[b_v.base + j + q * s] = k * a[a_v.base + j + q * s];\n"
"}\n"
/* kernel void add3(float3 a<>, float3 k, out float3 b<>) */
"__kernel void add3(__global float *a, const brt_view a_v,\n"
"  const float3 k, __global float *b, const brt_view b_v,\n"
"  const long4 dom, const long4 off) {\n"
"  RT_POINT vstore3(vload3(rt_at(a_v, dom, i), a) + k,\n"
"    rt_at(b_v, dom, i), b);\n"
"}\n"
/* kernel void iter2(iter float2 t<>, out float2 o<>) */
"__kernel void iter2(__global float *t, const brt_view t_v,\n"
"  __global float *o, const brt_view o_v, const long4 dom,\n"
"  const long4 off) {\n"
"  RT_POINT long e = rt_at(o_v, dom, i);\n"
"  o[2 * e] = rt_iter(t_v, dom, i, 0);\n"
"  o[2 * e + 1] = rt_iter(t_v, dom, i, 1);\n"
"}\n"
/* kernel void where(out float o<>): o = instance().x + 100 * .y */
"__kernel void where(__global float *o, const brt_view o_v,\n"
"  const long4 dom, const long4 off) {\n"
"  RT_POINT long x = i % dom.x + off.x, y = i / dom.x % dom.y + off.y;\n"
"  o[rt_at(o_v, dom, i)] = (float)(x + 100 * y);\n"
"}\n"
/* kernel void gather(float idx<>, float g[], out float o<>) */
"__kernel void gather(__global float *idx, const brt_view idx_v,\n"
"  __global float *g, const brt_view g_v, __global float *o,\n"
"  const brt_view o_v, const long4 dom, const long4 off) {\n"
"  RT_POINT long k = (long)idx[rt_at(idx_v, dom, i)];\n"
"  o[rt_at(o_v, dom, i)] = g[g_v.base + k * g_v.pitch[0]];\n"
"}\n"
/* kernel void scatter(float idx<>, float a<>, out float s[]) */
"__kernel void scatter(__global float *idx, const brt_view idx_v,\n"
"  __global float *a, const brt_view a_v, __global float *s,\n"
"  const brt_view s_v, const long4 dom, const long4 off) {\n"
"  RT_POINT long k = (long)idx[rt_at(idx_v, dom, i)];\n"
"  s[s_v.base + k * s_v.pitch[0]] = a[rt_at(a_v, dom, i)];\n"
"}\n"
/* kernel void put(float idx<>, float a<>, out float s[]): scatter that
 * drops a write outside s and flags it (brt.h, brt_records) */
"__kernel void put(__global float *idx, const brt_view idx_v,\n"
"  __global float *a, const brt_view a_v, __global float *s,\n"
"  const brt_view s_v, const long4 dom, const long4 off,\n"
"  __global int *rec) {\n"
"  RT_POINT long k = (long)idx[rt_at(idx_v, dom, i)];\n"
"  if (k >= 0 && k < s_v.dims[0])\n"
"    s[s_v.base + k * s_v.pitch[0]] = a[rt_at(a_v, dom, i)];\n"
"  else atomic_or(&rec[1], 1 << s_v.map);\n"
"}\n"
/* kernel void rev4(float a<>, out float b<>), GroupSize(4): reverses each
 * group of 4 through shared memory */
"__kernel void rev4(__global float *a, const brt_view a_v,\n"
"  __global float *b, const brt_view b_v, const long4 dom,\n"
"  const long4 off) {\n"
"  __local float sh[4];\n"
"  long x = get_global_id(0), l = get_local_id(0);\n"
"  if (x < dom.x) sh[l] = a[a_v.base + x * a_v.pitch[0]];\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  if (x < dom.x) b[b_v.base + x * b_v.pitch[0]] = sh[3 - l];\n"
"}\n"
/* reduce void sum(float a<>, reduce float r<>) and max(...): a tree in
 * local memory; `have' marks work-items that got an element */
"#define RT_REDUCE(NAME, OP) \\\n"
"__kernel void NAME##__reduce(__global const float *in, const brt_view vin,\\\n"
"  __global float *out, const long nout, const long4 block,\\\n"
"  const long chunks, __local float *tmp) {\\\n"
"  __local int have[256];\\\n"
"  long g = get_group_id(0), o = g / chunks, s = g % chunks;\\\n"
"  long bl[4] = { block.x, block.y, block.z, block.w }, oc[4], t = o;\\\n"
"  for (int k = 0; k < 4; k++) { long od = vin.dims[k] / bl[k];\\\n"
"    oc[k] = t % od; t /= od; }\\\n"
"  long n = bl[0] * bl[1] * bl[2] * bl[3];\\\n"
"  long lo = s * n / chunks, hi = (s + 1) * n / chunks;\\\n"
"  int l = get_local_id(0), ok = 0; float acc = 0;\\\n"
"  for (long j = lo + l; j < hi; j += get_local_size(0)) {\\\n"
"    long r = j, e = vin.base;\\\n"
"    for (int k = 0; k < 4; k++) { long c = r % bl[k]; r /= bl[k];\\\n"
"      e += (oc[k] * bl[k] + c) * vin.pitch[k]; }\\\n"
"    float x = in[e]; acc = ok ? OP(acc, x) : x; ok = 1;\\\n"
"  }\\\n"
"  tmp[l] = acc; have[l] = ok;\\\n"
"  for (int w = get_local_size(0) / 2; w > 0; w /= 2) {\\\n"
"    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
"    if (l < w && have[l + w]) {\\\n"
"      tmp[l] = have[l] ? OP(tmp[l], tmp[l + w]) : tmp[l + w];\\\n"
"      have[l] = 1; }\\\n"
"  }\\\n"
"  if (l == 0) out[o * chunks + s] = tmp[0];\\\n"
"}\n"
"#define RT_ADD(a, b) ((a) + (b))\n"
"RT_REDUCE(sum, RT_ADD)\n"
"RT_REDUCE(max, fmax)\n";

static const brt_program rt_program = { "rt.br", rt_source,
	sizeof rt_source - 1, &BRT_ABI_MARK };

/* --- the kernels' CPU functions ------------------------------------------ */
static void add_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	for (int64_t i = b; i < e; i++)
		F(c, 2)[rt_at(&c->views[2], c->dims, i)] =
			F(c, 0)[rt_at(&c->views[0], c->dims, i)]
			+ F(c, 1)[rt_at(&c->views[1], c->dims, i)];
}

static void copy_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	for (int64_t i = b; i < e; i++)
		F(c, 1)[rt_at(&c->views[1], c->dims, i)] =
			F(c, 0)[rt_at(&c->views[0], c->dims, i)];
}

static void scale_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	float k = *F(c, 1);
	for (int64_t i = b; i < e; i++)
		F(c, 2)[rt_at(&c->views[2], c->dims, i)] =
			k * F(c, 0)[rt_at(&c->views[0], c->dims, i)];
}

static void add3_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	const float *k = F(c, 1);
	for (int64_t i = b; i < e; i++) {
		const float *a = F(c, 0) + 3 * rt_at(&c->views[0], c->dims, i);
		float *o = F(c, 2) + 3 * rt_at(&c->views[2], c->dims, i);
		for (int j = 0; j < 3; j++)
			o[j] = a[j] + k[j];
	}
}

static void iter2_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	for (int64_t i = b; i < e; i++) {
		float *o = F(c, 1) + 2 * rt_at(&c->views[1], c->dims, i);
		o[0] = rt_iter(&c->views[0], c->dims, i, 0);
		o[1] = rt_iter(&c->views[0], c->dims, i, 1);
	}
}

static void where_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	for (int64_t i = b; i < e; i++) {
		int64_t x = i % c->dims[0] + c->offset[0];
		int64_t y = i / c->dims[0] % c->dims[1] + c->offset[1];
		F(c, 0)[rt_at(&c->views[0], c->dims, i)] = (float)(x + 100 * y);
	}
}

static void gather_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	const brt_view *g = &c->views[1];
	for (int64_t i = b; i < e; i++) {
		int64_t k = (int64_t)F(c, 0)[rt_at(&c->views[0], c->dims, i)];
		F(c, 2)[rt_at(&c->views[2], c->dims, i)] =
			F(c, 1)[g->base + k * g->pitch[0]];
	}
}

static void scatter_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	const brt_view *s = &c->views[2];
	for (int64_t i = b; i < e; i++) {
		int64_t k = (int64_t)F(c, 0)[rt_at(&c->views[0], c->dims, i)];
		F(c, 2)[s->base + k * s->pitch[0]] =
			F(c, 1)[rt_at(&c->views[1], c->dims, i)];
	}
}

static void put_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	const brt_view *s = &c->views[2];
	brt_records *r = c->errors;
	for (int64_t i = b; i < e; i++) {
		int64_t k = (int64_t)F(c, 0)[rt_at(&c->views[0], c->dims, i)];
		if (k >= 0 && k < s->dims[0])
			F(c, 2)[s->base + k * s->pitch[0]] =
				F(c, 1)[rt_at(&c->views[1], c->dims, i)];
		else
			__atomic_fetch_or(&r->dropped, 1 << s->map,
				__ATOMIC_RELAXED);
	}
}

/* groups [b, e) of 4 threads; syncGroup falls between the two loops */
static void rev4_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	const brt_view *av = &c->views[0], *bv = &c->views[1];
	for (int64_t g = b; g < e; g++) {
		float sh[4];
		for (int l = 0; l < 4; l++) {
			int64_t x = g * 4 + l;
			if (x < c->dims[0])
				sh[l] = F(c, 0)[av->base + x * av->pitch[0]];
		}
		for (int l = 0; l < 4; l++) {
			int64_t x = g * 4 + l;
			if (x < c->dims[0])
				F(c, 1)[bv->base + x * bv->pitch[0]] = sh[3 - l];
		}
	}
}

#define RT_CPU_REDUCE(NAME, OP) \
static void NAME##_cpu(const brt_cpu_call *c, int64_t b, int64_t e, \
	int first) \
{ \
	float *acc = F(c, 1); \
	for (int64_t i = b; i < e; i++) { \
		float x = F(c, 0)[rt_at(&c->views[0], c->dims, i)]; \
		*acc = first && i == b ? x : OP(*acc, x); \
	} \
} \
static void NAME##_combine(const void *val, void *acc) \
{ \
	float *a = acc; \
	*a = OP(*a, *(const float *)val); \
}
#define RT_ADD(a, b) ((a) + (b))
#define RT_MAX(a, b) ((a) > (b) ? (a) : (b))
RT_CPU_REDUCE(sum, RT_ADD)
RT_CPU_REDUCE(max, RT_MAX)

/* --- descriptors ------------------------------------------------------------ */
#define T_F { BRT_FLOAT, 1, 4 }
#define T_F2 { BRT_FLOAT, 2, 8 }
#define T_F3 { BRT_FLOAT, 3, 12 }
#define A(kind, t, rank, rs) { kind, t, rank, rs }

static const brt_argdesc add_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_IN, T_F, 0, 0), A(BRT_ARG_OUT, T_F, 0, 0) };
static const brt_argdesc copy_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_OUT, T_F, 0, 0) };
static const brt_argdesc scale_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_VALUE, T_F, 0, 0), A(BRT_ARG_OUT, T_F, 0, 0) };
static const brt_argdesc add3_args[] = { A(BRT_ARG_IN, T_F3, 0, 0),
	A(BRT_ARG_VALUE, T_F3, 0, 0), A(BRT_ARG_OUT, T_F3, 0, 0) };
static const brt_argdesc iter2_args[] = { A(BRT_ARG_IN, T_F2, 0, 0),
	A(BRT_ARG_OUT, T_F2, 0, 0) };
static const brt_argdesc where_args[] = { A(BRT_ARG_OUT, T_F, 0, 0) };
static const brt_argdesc gather_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_GATHER, T_F, 1, 0), A(BRT_ARG_OUT, T_F, 0, 0) };
static const brt_argdesc scatter_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_IN, T_F, 0, 0), A(BRT_ARG_SCATTER, T_F, 1, 0) };
static const brt_argdesc red_stream_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_REDUCE, T_F, 0, 1) };
static const brt_argdesc red_scalar_args[] = { A(BRT_ARG_IN, T_F, 0, 0),
	A(BRT_ARG_REDUCE, T_F, 0, 0) };

/* designated initializers: fields added to brt_kernel later stay 0 */
#define KMAP(N, CLASS) { .name = #N, .program = &rt_program, \
	.kclass = CLASS, .nargs = sizeof N##_args / sizeof N##_args[0], \
	.args = N##_args, .cpu = N##_cpu, .src_file = "rt.br", \
	.src_line = __LINE__ }
static const brt_kernel k_add = KMAP(add, BRT_KERNEL_MAP);
static const brt_kernel k_copy = KMAP(copy, BRT_KERNEL_MAP);
static const brt_kernel k_scale = KMAP(scale, BRT_KERNEL_MAP);
static const brt_kernel k_add3 = KMAP(add3, BRT_KERNEL_MAP);
static const brt_kernel k_iter2 = KMAP(iter2, BRT_KERNEL_MAP);
static const brt_kernel k_where = KMAP(where, BRT_KERNEL_MAP);
static const brt_kernel k_gather = KMAP(gather, BRT_KERNEL_MAP);
static const brt_kernel k_scatter = KMAP(scatter, BRT_KERNEL_SCATTER);
static const brt_kernel k_put = { .name = "put", .program = &rt_program,
	.kclass = BRT_KERNEL_SCATTER, .nargs = 3, .args = scatter_args,
	.cpu = put_cpu, .records = 1, .src_file = "rt.br",
	.src_line = __LINE__ };
static const brt_kernel k_rev4 = { .name = "rev4", .program = &rt_program,
	.kclass = BRT_KERNEL_GROUP, .nargs = 2, .args = copy_args,
	.cpu = rev4_cpu, .group = { 4, 1, 1 }, .shared_bytes = 4 * sizeof(float),
	.src_file = "rt.br", .src_line = __LINE__ };
#define KRED(N, ARGS, INIT) { .name = #N, .program = &rt_program, \
	.kclass = BRT_KERNEL_REDUCE, .nargs = 2, .args = ARGS, .cpu = N##_cpu, \
	.combine = N##_combine, .reduce_init = INIT, .src_file = "rt.br", \
	.src_line = __LINE__ }
static const brt_kernel k_sum = KRED(sum, red_stream_args, BRT_REDUCE_FIRST);
static const brt_kernel k_sum_scalar = KRED(sum, red_scalar_args,
	BRT_REDUCE_FIRST);
static const brt_kernel k_sum_value = KRED(sum, red_scalar_args,
	BRT_REDUCE_VALUE);
static const brt_kernel k_max = KRED(max, red_stream_args, BRT_REDUCE_FIRST);
static const brt_kernel k_max_scalar = KRED(max, red_scalar_args,
	BRT_REDUCE_FIRST);

/* --- helpers ---------------------------------------------------------------- */
static const brt_type rt_float = T_F;

static inline brt_stream *rt_new1(unsigned n)
{
	return brt_stream_new(rt_float, 1, &n);
}

static inline brt_stream *rt_new2(unsigned x, unsigned y)
{
	unsigned d[2] = { x, y };
	return brt_stream_new(rt_float, 2, d);
}

/* Copies 1 2 3 with k_copy on the current device and prints the result
 * (streamPrint): a kernel runs there. */
static inline void rt_copy123(void)
{
	brt_stream *a = rt_new1(3), *b = rt_new1(3);
	float in[3] = { 1, 2, 3 };
	brt_stream_read(a, in, NULL);
	brt_arg args[2] = { { .s = a }, { .s = b } };
	brt_run(&k_copy, args, NULL);
	streamPrint(b);
	brt_stream_free(a);
	brt_stream_free(b);
}

static inline void rt_print(const char *label, const float *v, size_t n)
{
	printf("%s:", label);
	for (size_t i = 0; i < n; i++)
		printf(" %g", v[i]);
	printf("\n");
}

/* Prints the stream's error code and log, one line each. */
static inline void rt_errors(const char *label, brt_stream *s)
{
	const char *log = brt_stream_errorLog(s);
	printf("%s: error %d\n", label, (int)brt_stream_error(s));
	while (*log) {
		size_t n = strcspn(log, "\n");
		printf("  %.*s\n", (int)n, log);
		log += n + (log[n] == '\n');
	}
}

static inline void rt_last(const char *label)
{
	const char *msg;
	BRerror e = brt_lastError(&msg);
	printf("%s: last error %d: %s\n", label, (int)e, msg);
}

#endif /* RT_KERNELS_H */
