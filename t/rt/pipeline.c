/* pipeline.c [TILE [ITERS]] - the guide's tiled example (1.13.2): four
 * tiles, where the transfer of one tile overlaps the kernel of another.
 * With BRT_PROFILE=1 and BRT_LOG_FILE, the log shows each command's
 * queue and times (brt(3)); on a GPU the transfers and kernels overlap. */
#include "kernels.h"

#define PARTS 4

/* kernel void poly(float a<>, int n, out float b<>): n steps of
 * x = x * 0.5 + 1, enough arithmetic to last as long as a transfer */
static const char poly_source[] = RT_CL_PRELUDE
"__kernel void poly(__global float *a, const brt_view a_v, const int n,\n"
"  __global float *b, const brt_view b_v, const long4 dom,\n"
"  const long4 off) {\n"
"  RT_POINT float x = a[rt_at(a_v, dom, i)];\n"
"  for (int k = 0; k < n; k++) x = x * 0.5f + 1.0f;\n"
"  b[rt_at(b_v, dom, i)] = x;\n"
"}\n";
static const brt_program poly_program = { "pipeline.br", poly_source,
	sizeof poly_source - 1, &BRT_ABI_MARK };

static void poly_cpu(const brt_cpu_call *c, int64_t b, int64_t e, int first)
{
	(void)first;
	int n = *(const int *)c->data[1];
	for (int64_t i = b; i < e; i++) {
		float x = F(c, 0)[rt_at(&c->views[0], c->dims, i)];
		for (int k = 0; k < n; k++)
			x = x * 0.5f + 1.0f;
		F(c, 2)[rt_at(&c->views[2], c->dims, i)] = x;
	}
}

static const brt_argdesc poly_args[] = {
	{ BRT_ARG_IN, { BRT_FLOAT, 1, 4 }, 0, 0 },
	{ BRT_ARG_VALUE, { BRT_INT, 1, 4 }, 0, 0 },
	{ BRT_ARG_OUT, { BRT_FLOAT, 1, 4 }, 0, 0 } };
static const brt_kernel k_poly = { .name = "poly", .program = &poly_program,
	.kclass = BRT_KERNEL_MAP, .nargs = 3, .args = poly_args,
	.cpu = poly_cpu };

static int iters;

static void kernel_call(brt_stream *in, brt_stream *out)
{
	brt_arg a[3] = { { .s = in }, { .value = &iters }, { .s = out } };
	brt_run(&k_poly, a, NULL);
}

int main(int argc, char **argv)
{
	unsigned t = argc > 1 ? (unsigned)atol(argv[1]) : 4096;
	iters = argc > 2 ? atoi(argv[2]) : 8;
	float *in = brmalloc((size_t)t * PARTS * sizeof *in);
	float *out = brmalloc((size_t)t * PARTS * sizeof *out);
	for (size_t i = 0; i < (size_t)t * PARTS; i++)
		in[i] = (float)(i % 64);
	brt_stream *is[PARTS], *os[PARTS];
	float *ti[PARTS], *to[PARTS];
	for (int p = 0; p < PARTS; p++) {
		is[p] = brt_stream_new(rt_float, 1, &t);
		os[p] = brt_stream_new(rt_float, 1, &t);
		ti[p] = in + (size_t)p * t;
		to[p] = out + (size_t)p * t;
	}
	for (int round = 0; round < 2; round++) {	/* 2nd: compiled */
		brt_stream_read(is[0], ti[0], "nocopy");
		kernel_call(is[0], os[0]);
		brt_stream_read(is[1], ti[1], "nocopy");
		brt_stream_write(os[0], to[0], "async nocopy");
		kernel_call(is[1], os[1]);
		brt_stream_read(is[2], ti[2], "nocopy");
		brt_stream_finish(os[0]);
		brt_stream_write(os[1], to[1], "async nocopy");
		kernel_call(is[2], os[2]);
		brt_stream_read(is[3], ti[3], "nocopy");
		brt_stream_finish(os[1]);
		brt_stream_write(os[2], to[2], "async nocopy");
		kernel_call(is[3], os[3]);
		brt_stream_finish(os[2]);
		brt_stream_write(os[3], to[3], "nocopy");
	}
	size_t bad = 0;
	for (size_t i = 0; i < (size_t)t * PARTS; i++) {
		float x = in[i];
		for (int k = 0; k < iters; k++)
			x = x * 0.5f + 1.0f;
		bad += out[i] != x;
	}
	printf("pipeline of %d tiles of %u: %s\n", PARTS, t,
		bad ? "wrong" : "ok");
	for (int p = 0; p < PARTS; p++) {
		rt_errors("out", os[p]);
		brt_stream_free(is[p]);
		brt_stream_free(os[p]);
	}
	brfree(in);
	brfree(out);
	return 0;
}
