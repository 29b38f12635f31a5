/* basic.c - map kernels on 1D and 2D streams, a value argument, packed
 * float3 elements, streamPrint, the accessors. */
#include "kernels.h"

int main(void)
{
	/* outputs zeroed: a run whose kernels fail (t/rt.bats,
	   BRT_CL_OPTIONS) writes nothing into them, and prints them */
	float a[12], b[12], c[12] = { 0 };
	for (int i = 0; i < 12; i++) {
		a[i] = (float)i;
		b[i] = (float)(100 * i);
	}
	brt_stream *sa = rt_new1(12), *sb = rt_new1(12), *sc = rt_new1(12);
	brt_stream_read(sa, a, NULL);
	brt_stream_read(sb, b, NULL);
	brt_arg args[3] = { { .s = sa }, { .s = sb }, { .s = sc } };
	brt_run(&k_add, args, NULL);
	brt_stream_write(sc, c, NULL);
	rt_print("add", c, 12);

	/* 2D: 4 wide, 3 high */
	brt_stream *ta = rt_new2(4, 3), *tc = rt_new2(4, 3);
	brt_stream_read(ta, a, NULL);
	float k = 0.5f;
	brt_arg sargs[3] = { { .s = ta }, { .value = &k }, { .s = tc } };
	brt_run(&k_scale, sargs, NULL);
	printf("scale 2D:\n");
	streamPrint(tc);
	printf("rank %u dims %u %u %u count %zu\n", brt_stream_rank(tc),
		brt_stream_dim(tc, 0), brt_stream_dim(tc, 1),
		brt_stream_dim(tc, 2), brt_stream_count(tc));

	/* float3, packed: 12 bytes an element */
	brt_type f3 = brt_type_make(BRT_FLOAT, 3);
	char name[16];
	printf("type %s size %zu\n", brt_type_name(f3, name, sizeof name),
		f3.size);
	unsigned n = 4;
	brt_stream *p = brt_stream_new(f3, 1, &n), *q = brt_stream_new(f3, 1, &n);
	float3 in[4], out[4], off = float3_(0.5f, 10, 100);
	for (int i = 0; i < 4; i++) {
		in[i] = float3_((float)i, (float)(2 * i), (float)(3 * i));
		out[i] = float3_(0, 0, 0);
	}
	brt_stream_read(p, in, NULL);
	brt_arg a3[3] = { { .s = p }, { .value = &off }, { .s = q } };
	brt_run(&k_add3, a3, NULL);
	brt_stream_write(q, out, NULL);
	printf("add3:");
	for (int i = 0; i < 4; i++)
		printf(" (%g %g %g)", out[i].x, out[i].y, out[i].z);
	printf("\nstreamPrint float3:\n");
	streamPrint(q);
	printf("errors %d %d %d\n", (int)brt_stream_error(sc),
		(int)brt_stream_error(tc), (int)brt_stream_error(q));

	/* a big stream: many chunks, every thread */
	unsigned big = 1000003;
	float *x = malloc(big * sizeof *x), *y = calloc(big, sizeof *y);
	for (unsigned i = 0; i < big; i++)
		x[i] = (float)(i % 1000);
	brt_stream *bx = brt_stream_new(rt_float, 1, &big);
	brt_stream *by = brt_stream_new(rt_float, 1, &big);
	brt_stream_read(bx, x, NULL);
	brt_arg bargs[3] = { { .s = bx }, { .value = &k }, { .s = by } };
	brt_run(&k_scale, bargs, NULL);
	brt_stream_write(by, y, NULL);
	int bad = 0;
	for (unsigned i = 0; i < big; i++)
		bad += y[i] != 0.5f * (float)(i % 1000);
	printf("big: %d wrong\n", bad);
	free(x);
	free(y);
	brt_stream *all[] = { sa, sb, sc, ta, tc, p, q, bx, by };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		brt_stream_free(all[i]);
	return 0;
}
