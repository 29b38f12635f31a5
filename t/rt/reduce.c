/* reduce.c - reductions (BrookGPU, Reductions; Multi-dimensional
 * Reductions): to a scalar, to streams of smaller shape, a reduce
 * variable that starts from the caller's value, a large input (two
 * launches on OpenCL), and the shape errors of spec 8. */
#include "kernels.h"

static void reduce_to(const brt_kernel *k, brt_stream *s, unsigned x,
	unsigned y)
{
	brt_stream *t = rt_new2(x, y);
	brt_arg args[2] = { { .s = s }, { .s = t } };
	brt_run(k, args, NULL);
	printf("%s to <%u,%u>:\n", k->name, y, x);
	if (x * y <= 40)
		streamPrint(t);
	else {
		float *v = malloc(x * y * sizeof *v);
		brt_stream_write(t, v, NULL);
		double sum = 0;
		for (unsigned i = 0; i < x * y; i++)
			sum += v[i];
		printf("  %u elements, first %g last %g, total %.0f\n", x * y,
			v[0], v[x * y - 1], sum);
		free(v);
	}
	rt_errors("target", t);
	brt_stream_free(t);
}

int main(void)
{
	/* float s<100,200>: element (y, x) = x + y */
	static float a[100 * 200];
	for (int y = 0; y < 100; y++)
		for (int x = 0; x < 200; x++)
			a[y * 200 + x] = (float)(x + y);
	brt_stream *s = rt_new2(200, 100);
	brt_stream_read(s, a, NULL);

	float t = -1;
	brt_arg args[2] = { { .s = s }, { .target = &t } };
	brt_run(&k_sum_scalar, args, NULL);
	printf("sum(s, t): %.0f\n", t);
	brt_run(&k_max_scalar, args, NULL);
	printf("max(s, t): %.0f\n", t);
	t = 1000;
	brt_run(&k_sum_value, args, NULL);
	printf("t = 1000; t += sum: %.0f\n", t);

	reduce_to(&k_sum, s, 1, 100);	/* t<100,1>: across the 200 */
	reduce_to(&k_sum, s, 200, 1);	/* t<1,200>: across the 100 */
	reduce_to(&k_sum, s, 20, 50);	/* t<50,20>: 2x10 tiles */
	reduce_to(&k_max, s, 4, 5);
	reduce_to(&k_sum, s, 1, 1);

	/* errors: 7 does not divide 200; a 3D target of a 2D input */
	reduce_to(&k_sum, s, 7, 1);
	unsigned d3[3] = { 1, 1, 1 };
	brt_stream *t3 = brt_stream_new(rt_float, 3, d3);
	brt_arg a3[2] = { { .s = s }, { .s = t3 } };
	brt_run(&k_sum, a3, NULL);
	rt_errors("3D target", t3);
	brt_stream_free(t3);

	/* 1D, large, not a power of two, in a domain view */
	unsigned n = 3000017;
	float *big = malloc(n * sizeof *big);
	for (unsigned i = 0; i < n; i++)
		big[i] = (float)(i % 7);
	brt_stream *b = brt_stream_new(rt_float, 1, &n);
	brt_stream_read(b, big, NULL);
	brt_arg ab[2] = { { .s = b }, { .target = &t } };
	brt_run(&k_sum_scalar, ab, NULL);
	printf("sum of %u elements: %.0f\n", n, t);
	brt_run(&k_max_scalar, ab, NULL);
	printf("max: %.0f\n", t);
	unsigned st = 5, en = 12;
	brt_stream *v = brt_stream_domain(b, &st, &en);
	brt_arg av[2] = { { .s = v }, { .target = &t } };
	brt_run(&k_sum_scalar, av, NULL);
	printf("sum of elements [5, 12): %.0f\n", t);
	brt_stream_free(v);
	free(big);
	brt_stream_free(b);
	brt_stream_free(s);
	return 0;
}
