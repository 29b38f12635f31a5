/* pending.c - kernels launched on inputs whose transfers are still pending
 * (guide 1.13: reads return at once, writes with "async" too), many times
 * over: each command waits for the last command of every buffer it
 * touches, on whichever queue, and no event is waited for after its
 * release. Shapes vary so buffers come and go; one stream is two views
 * bound as input and output at once; a reduction and a copy run on the
 * same pending data. Prints one line per check. */
#include "kernels.h"

#define N 4096
#define ROUNDS 200

int main(void)
{
	static float x[2 * N], y[2 * N], z[2 * N];
	int bad = 0, badsum = 0;
	for (int i = 0; i < 2 * N; i++)
		x[i] = (float)(i % 100);
	float k = 2;
	for (int r = 0; r < ROUNDS; r++) {
		unsigned n = 1 + (unsigned)(r * 37) % N, n2 = 2 * n;
		brt_stream *a = brt_stream_new(rt_float, 1, &n);
		brt_stream *b = brt_stream_new(rt_float, 1, &n);
		brt_stream *c = brt_stream_new(rt_float, 1, &n);
		brt_stream *s = brt_stream_new(rt_float, 1, &n2);
		unsigned lo0 = 0, lo1 = n, hi0 = n, hi1 = n2;
		brt_stream *lo = brt_stream_domain(s, &lo0, &lo1);
		brt_stream *hi = brt_stream_domain(s, &hi0, &hi1);
		/* a: read pending; b: read, then an async write pending */
		brt_stream_read(a, x, NULL);
		brt_stream_read(b, x, NULL);
		brt_stream_write(b, y, "async");
		brt_arg sc[3] = { { .s = a }, { .value = &k }, { .s = c } };
		brt_run(&k_scale, sc, NULL);		/* c = 2a */
		brt_arg ad[3] = { { .s = c }, { .s = b }, { .s = a } };
		brt_run(&k_add, ad, NULL);		/* a = 3x */
		brt_stream_read(s, x, NULL);
		brt_arg cp[2] = { { .s = lo }, { .s = hi } };
		brt_run(&k_copy, cp, NULL);		/* hi = lo */
		brt_stream_write(c, z, "async");
		float sum = 0;
		brt_arg rs[2] = { { .s = a }, { .target = &sum } };
		brt_run(&k_sum_scalar, rs, NULL);
		brt_stream_assign(b, a);
		brt_stream_write(b, z, NULL);
		for (unsigned i = 0; i < n; i++)
			bad += z[i] != 3 * x[i];
		float want = 0;
		for (unsigned i = 0; i < n; i++)
			want += 3 * x[i];
		badsum += sum != want;
		brt_stream_write(hi, z, NULL);
		for (unsigned i = 0; i < n; i++)
			bad += z[i] != x[i];
		if (!brt_stream_isSync(c))
			brt_stream_finish(c);
		for (unsigned i = 0; i < n && r % 10 == 0; i++)
			bad += y[i] != x[i];
		brt_stream *all[] = { a, b, c, lo, hi, s };
		for (int i = 0; i < 6; i++) {
			if (brt_stream_error(all[i]) != BR_NO_ERROR)
				bad++;
			brt_stream_free(all[i]);
		}
	}
	printf("%d rounds: %s\n", ROUNDS, bad ? "wrong" : "ok");
	printf("sums: %s\n", badsum ? "wrong" : "ok");
	return 0;
}
