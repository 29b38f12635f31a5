/* resize.c - implicit resize (spec 3.3.2; BrookGPU, Using Stream Shape):
 * the spec's copy examples, downscale 10 -> 5 and upscale 5 -> 10, and the
 * BrookGPU 2D case a<10,20> into b<50,10>. */
#include "kernels.h"

static void copy_1d(unsigned nin, unsigned nout)
{
	float s[10], d[10];
	for (unsigned i = 0; i < nin; i++)
		s[i] = (float)i;
	brt_stream *src = rt_new1(nin), *dst = rt_new1(nout);
	brt_stream_read(src, s, NULL);
	brt_arg args[2] = { { .s = src }, { .s = dst } };
	brt_run(&k_copy, args, NULL);
	brt_stream_write(dst, d, NULL);
	unsigned n = nin > nout ? nin : nout;
	for (unsigned i = 0; i < n; i++) {
		if (i < nin)
			printf("%4.1f ", s[i]);
		else
			printf("     ");
		if (i < nout)
			printf("%4.1f", d[i]);
		puts("");
	}
	brt_stream_free(src);
	brt_stream_free(dst);
}

int main(void)
{
	printf("downscale:\n");
	copy_1d(10, 5);
	printf("upscale:\n");
	copy_1d(5, 10);

	/* float a<10,20>, b<50,10>: x (20 -> 10) keeps every other column,
	 * y (10 -> 50) repeats each row 5 times */
	float a[200], b[500];
	for (int i = 0; i < 200; i++)
		a[i] = (float)(100 * (i / 20) + i % 20);
	brt_stream *sa = rt_new2(20, 10), *sb = rt_new2(10, 50);
	brt_stream_read(sa, a, NULL);
	brt_arg args[2] = { { .s = sa }, { .s = sb } };
	brt_run(&k_copy, args, NULL);
	brt_stream_write(sb, b, NULL);
	for (int y = 0; y < 50; y += 4) {
		printf("row %2d:", y);
		for (int x = 0; x < 10; x++)
			printf(" %4g", b[y * 10 + x]);
		printf("\n");
	}
	rt_errors("b", sb);
	brt_stream_free(sa);
	brt_stream_free(sb);
	return 0;
}
