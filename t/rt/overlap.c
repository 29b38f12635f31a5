/* overlap.c - brt_stream_assign onto itself and between overlapping views
 * of one stream (brt.3): as memmove, the destination takes the source as
 * it was before; a stream assigned to itself is unchanged, with no error. */
#include "kernels.h"

static brt_stream *view1(brt_stream *s, unsigned lo, unsigned hi)
{
	return brt_stream_domain(s, &lo, &hi);
}

/* DST = SRC, both views freed, then S printed with the errors. */
static void assign(const char *what, brt_stream *s, brt_stream *dst,
	brt_stream *src)
{
	brt_stream_assign(dst, src);
	printf("%s:\n", what);
	rt_errors("  destination", dst);
	if (dst != s)
		brt_stream_free(dst);
	if (src != s)
		brt_stream_free(src);
	streamPrint(s);
	rt_errors("  stream", s);
}

int main(void)
{
	float v[24];
	for (int i = 0; i < 24; i++)
		v[i] = (float)i;
	brt_stream *a = rt_new1(6);
	brt_stream_read(a, v, NULL);
	assign("a = a", a, a, a);
	assign("a[0,6) = a", a, view1(a, 0, 6), a);
	assign("a[0,3) = a[3,6)", a, view1(a, 0, 3), view1(a, 3, 6));
	assign("a[1,4) = a[0,3)", a, view1(a, 1, 4), view1(a, 0, 3));
	assign("a[0,4) = a[2,6)", a, view1(a, 0, 4), view1(a, 2, 6));

	/* 2D: a 6x4 stream, boxes shifted by one along x and y */
	brt_stream *m = rt_new2(6, 4);
	brt_stream_read(m, v, NULL);
	unsigned s0[2] = { 0, 0 }, e0[2] = { 4, 3 }, s1[2] = { 1, 1 },
		e1[2] = { 5, 4 };
	assign("m[1,5)x[1,4) = m[0,4)x[0,3)", m, brt_stream_domain(m, s1, e1),
		brt_stream_domain(m, s0, e0));
	assign("m[0,4)x[0,3) = m[1,5)x[1,4)", m, brt_stream_domain(m, s0, e0),
		brt_stream_domain(m, s1, e1));
	brt_stream_free(a);
	brt_stream_free(m);
	return 0;
}
