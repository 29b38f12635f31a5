/* views.c - domain views (guide 1.7.1, Stream::domain), ranged read and
 * write, fill, assign, the execution domain (guide 1.8, domainOffset and
 * domainSize), gather and scatter arrays, a group kernel, streamSwap. */
#include "kernels.h"

int main(void)
{
	float v[48];
	for (int i = 0; i < 48; i++)
		v[i] = (float)i;
	/* a 8x6 stream and the view [2,6)x[1,4) of it */
	brt_stream *s = rt_new2(8, 6);
	brt_stream_read(s, v, NULL);
	unsigned st[2] = { 2, 1 }, en[2] = { 6, 4 };
	brt_stream *d = brt_stream_domain(s, st, en);
	printf("domain view:\n");
	streamPrint(d);
	/* a kernel reads the view and writes another view of S */
	unsigned st2[2] = { 0, 4 }, en2[2] = { 4, 6 };
	brt_stream *d2 = brt_stream_domain(s, st2, en2);
	float k = -1;
	unsigned st4[2] = { 0, 2 }, en4[2] = { 4, 3 };
	brt_stream *d4 = brt_stream_domain(d, st4, en4);
	brt_arg a[3] = { { .s = d4 }, { .value = &k }, { .s = d2 } };
	brt_run(&k_scale, a, NULL);
	printf("after scale(view, -1, other view):\n");
	streamPrint(s);
	rt_errors("disjoint views", d2);
	/* overlapping views of one stream alias */
	brt_arg a2[3] = { { .s = d }, { .value = &k }, { .s = d4 } };
	brt_run(&k_scale, a2, NULL);
	rt_errors("overlapping views", d4);
	/* the error reaches the streams d4 is a view of (brt.3) */
	rt_errors("d, which d4 is a view of", d);
	rt_errors("s, which d is a view of", s);
	/* a view of a view */
	unsigned st3[2] = { 1, 1 }, en3[2] = { 3, 2 };
	brt_stream *d3 = brt_stream_domain(d, st3, en3);
	printf("view of the view:\n");
	streamPrint(d3);

	/* fill, whole and through a view */
	float seven = 7, nine = 9;
	brt_stream_fill(d3, &nine);
	brt_stream *f = rt_new1(5);
	brt_stream_fill(f, &seven);
	printf("fill:\n");
	streamPrint(f);
	streamPrint(s);
	/* float3 fill: 12-byte elements */
	unsigned n3 = 3;
	brt_stream *f3 = brt_stream_new(brt_type_make(BRT_FLOAT, 3), 1, &n3);
	float3 e3 = float3_(1, 2, 3);
	brt_stream_fill(f3, &e3);
	streamPrint(f3);

	/* ranged read and write */
	float r[6] = { 100, 101, 102, 103, 104, 105 }, w[6];
	unsigned rs[2] = { 5, 0 }, re[2] = { 8, 2 };
	brt_stream_read_range(s, rs, re, r, NULL);
	brt_stream_write_range(s, rs, re, w, NULL);
	rt_print("range", w, 6);
	printf("after range read:\n");
	streamPrint(s);

	/* assign: whole streams, and a view into a stream */
	brt_stream *c = rt_new2(8, 6);
	brt_stream_assign(c, s);
	brt_stream *small = rt_new2(4, 3);
	brt_stream_assign(small, d);
	printf("assign:\n");
	streamPrint(small);
	rt_errors("assign", small);

	/* execution domain: where() fills instance().x + 100 * instance().y
	 * over the box [1,4)x[2,4) of a 5x5 stream */
	brt_stream *o = rt_new2(5, 5);
	float zero = 0;
	brt_stream_fill(o, &zero);
	brt_arg ao[1] = { { .s = o } };
	brt_exec ex = { 2, { 1, 2 }, { 3, 2 } };
	brt_run(&k_where, ao, &ex);
	printf("exec domain offset (1,2) size (3,2):\n");
	streamPrint(o);
	rt_errors("exec", o);
	/* domainOffset alone (rank 0): from the offset to the end */
	brt_stream_fill(o, &zero);
	brt_exec eo = { 0, { 3, 2 }, { 0, 0 } };
	brt_run(&k_where, ao, &eo);
	printf("exec domain offset (3,2), no size:\n");
	streamPrint(o);
	rt_errors("exec offset", o);

	/* gather and scatter arrays */
	float idx[5] = { 4, 0, 3, 1, 2 }, tab[5] = { 10, 11, 12, 13, 14 };
	brt_stream *si = rt_new1(5), *sg = rt_new1(5), *so = rt_new1(5);
	brt_stream_read(si, idx, NULL);
	brt_stream_read(sg, tab, NULL);
	brt_arg ag[3] = { { .s = si }, { .s = sg }, { .s = so } };
	brt_run(&k_gather, ag, NULL);
	printf("gather:\n");
	streamPrint(so);
	brt_stream *ss = rt_new1(5);
	brt_stream_fill(ss, &zero);
	brt_arg as[3] = { { .s = si }, { .s = sg }, { .s = ss } };
	brt_run(&k_scatter, as, NULL);
	printf("scatter:\n");
	streamPrint(ss);

	/* a group kernel: reverse each group of 4 through shared memory */
	unsigned n = 12;
	brt_stream *ga = brt_stream_new(rt_float, 1, &n);
	brt_stream *gb = brt_stream_new(rt_float, 1, &n);
	brt_stream_read(ga, v, NULL);
	brt_stream_fill(gb, &zero);
	brt_arg ar[2] = { { .s = ga }, { .s = gb } };
	brt_run(&k_rev4, ar, NULL);
	printf("group rev4:\n");
	streamPrint(gb);

	/* streamSwap */
	brt_stream *x = f, *y = o;
	streamSwap(&x, &y);
	printf("swap: %s\n", x == o && y == f ? "ok" : "wrong");

	brt_stream *all[] = { s, d, d2, d3, d4, f, f3, c, small, o, si, sg, so,
		ss, ga, gb };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		brt_stream_free(all[i]);
	return 0;
}
