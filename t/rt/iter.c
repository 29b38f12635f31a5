/* iter.c - iterator streams (BrookGPU, Iterator Streams): the page's value
 * tables in 1D (float, float2) and 2D (float2), read through a kernel and
 * written directly; an iterator resized to its output. */
#include "kernels.h"

static const brt_type f1 = { BRT_FLOAT, 1, 4 }, f2 = { BRT_FLOAT, 2, 8 };

/* The iterator's values through the iter2 kernel, one float2 each. */
static void through_kernel(brt_stream *it, unsigned rank, const unsigned *d)
{
	brt_stream *o = brt_stream_new(f2, rank, d);
	brt_arg args[2] = { { .s = it }, { .s = o } };
	brt_run(&k_iter2, args, NULL);
	streamPrint(o);
	rt_errors("kernel", o);
	brt_stream_free(o);
}

int main(void)
{
	/* iter float s<100> = iter(0.0f, 1.0f): 0.00, 0.01, ..., 0.99 */
	unsigned n = 100;
	float a = 0, b = 1, v[100];
	brt_stream *s = brt_stream_new_iter(f1, 1, &n, &a, &b);
	brt_stream_write(s, v, NULL);
	printf("s<100> = iter(0, 1):");
	for (int i = 0; i < 100; i += 11)
		printf(" %.2f", v[i]);
	printf(" ... %.2f\n", v[99]);
	brt_stream_free(s);

	/* iter float s<10> = iter(2.0f, 7.0f): 2.0, 2.5, ..., 6.5 */
	n = 10;
	a = 2;
	b = 7;
	s = brt_stream_new_iter(f1, 1, &n, &a, &b);
	printf("s<10> = iter(2, 7):\n");
	streamPrint(s);
	brt_stream_free(s);

	/* iter float2 s<10> = iter(float2(0,0), float2(10,5)) */
	float2 lo = float2_(0, 0), hi = float2_(10, 5);
	s = brt_stream_new_iter(f2, 1, &n, &lo, &hi);
	printf("s<10> = iter(float2(0,0), float2(10,5)):\n");
	streamPrint(s);
	through_kernel(s, 1, &n);
	brt_stream_free(s);

	/* iter float2 s<4,4> = iter(float2(0,0), float2(4,10)) */
	unsigned d[2] = { 4, 4 };
	hi = float2_(4, 10);
	s = brt_stream_new_iter(f2, 2, d, &lo, &hi);
	printf("s<4,4> = iter(float2(0,0), float2(4,10)):\n");
	streamPrint(s);
	through_kernel(s, 2, d);

	/* the same iterator read by an 8x2 output: resized */
	unsigned d2[2] = { 8, 2 };
	printf("resized to <2,8>:\n");
	through_kernel(s, 2, d2);

	/* a domain of it starts at its own first value */
	unsigned st[2] = { 1, 2 }, en[2] = { 3, 4 };
	brt_stream *sub = brt_stream_domain(s, st, en);
	printf("domain [1,3)x[2,4):\n");
	streamPrint(sub);
	brt_stream_free(sub);
	brt_stream_free(s);
	return 0;
}
