/* stream.c - streams (guide 1.7, Stream Management): creation, iterators,
 * read and write (also of a box), fill, assign, domain views, isSync and
 * finish; the element types; the BrookGPU host helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* --- element types ------------------------------------------------------ */
size_t brt_scalar_size(brt_scalar s)
{
	switch (s) {
	case BRT_CHAR: case BRT_UCHAR: return 1;
	case BRT_SHORT: case BRT_USHORT: return 2;
	case BRT_INT: case BRT_UINT: case BRT_FLOAT: return 4;
	case BRT_DOUBLE: case BRT_LONG: case BRT_ULONG: return 8;
	default: return 0;
	}
}

brt_type brt_type_make(brt_scalar scalar, unsigned ncomp)
{
	brt_type t;
	t.scalar = scalar;
	t.ncomp = ncomp;
	t.size = brt_scalar_size(scalar) * ncomp;
	return t;
}

brt_type brt_type_struct(size_t size)
{
	brt_type t;
	t.scalar = BRT_STRUCT;
	t.ncomp = 1;
	t.size = size;
	return t;
}

static const char *scalar_name(brt_scalar s)
{
	static const char *names[] = { "?", "char", "uchar", "short", "ushort",
		"int", "uint", "float", "double", "long", "ulong", "struct" };
	return s >= BRT_CHAR && s <= BRT_STRUCT ? names[s] : "?";
}

const char *brt_type_name(brt_type t, char *buf, size_t len)
{
	if (!buf || !len)
		return "";
	if (t.ncomp > 1)
		snprintf(buf, len, "%s%u", scalar_name(t.scalar), t.ncomp);
	else
		snprintf(buf, len, "%s", scalar_name(t.scalar));
	return buf;
}

static int type_valid(brt_type t)
{
	if (t.scalar == BRT_STRUCT)
		return t.size > 0 && t.ncomp == 1;
	return t.scalar >= BRT_CHAR && t.scalar < BRT_STRUCT && t.ncomp >= 1
		&& t.ncomp <= 4 && t.size == brt_scalar_size(t.scalar) * t.ncomp;
}

/* --- regions ------------------------------------------------------------ */
void brt_region_pitch(const brt_region *r, int64_t pitch[4])
{
	pitch[0] = 1;
	for (int i = 1; i < 4; i++)
		pitch[i] = pitch[i - 1] * r->root[i - 1];
}

/* brt_region_base and brt_region_contig with R's PITCH worked out. */
static int64_t base_at(const brt_region *r, const int64_t pitch[4])
{
	int64_t base = 0;
	for (int i = 0; i < 4; i++)
		base += r->origin[i] * pitch[i];
	return base;
}

static int contig_at(const brt_region *r, const int64_t pitch[4])
{
	int64_t want = 1;
	for (int i = 0; i < 4; i++) {
		if (r->dims[i] > 1 && pitch[i] != want)
			return 0;
		want *= r->dims[i];
	}
	return 1;
}

int64_t brt_region_base(const brt_region *r)
{
	int64_t pitch[4];
	brt_region_pitch(r, pitch);
	return base_at(r, pitch);
}

int brt_region_packed(const brt_region *r)
{
	for (int i = 0; i < 4; i++)
		if (r->origin[i] || r->dims[i] != r->root[i])
			return 0;
	return 1;
}

int brt_region_contig(const brt_region *r)
{
	int64_t pitch[4];
	brt_region_pitch(r, pitch);
	return contig_at(r, pitch);
}

/* one pitch for the base and the test: a view a stream a launch */
void brt_region_view(const brt_region *r, unsigned rank, brt_view *v)
{
	memset(v, 0, sizeof *v);
	brt_region_pitch(r, v->pitch);
	v->base = base_at(r, v->pitch);
	v->map = contig_at(r, v->pitch) ? BRT_MAP_SAME : BRT_MAP_STRIDED;
	for (unsigned i = 0; i < 4; i++) {
		v->dims[i] = r->dims[i];
		if (i >= rank)
			v->pitch[i] = 0;
	}
	v->rank = (int32_t)rank;
}

static void host_pitch(const int64_t dims[4], int64_t pitch[4])
{
	pitch[0] = 1;
	for (int i = 1; i < 4; i++)
		pitch[i] = pitch[i - 1] * dims[i - 1];
}

static char *region_ptr(const brt_region *r)
{
	return r->buf->host + (size_t)brt_region_base(r) * r->esize;
}

/* --- transfers, on either backend ------------------------------------------ */
int brt_xfer_write(const brt_region *r, const void *host, int async,
	int nocopy, brt_str *msg)
{
	(void)async;	/* host to device is always asynchronous */
	if (r->buf->dev->kind == BRT_DEV_OPENCL)
		return brt_ocl_write(r, host, nocopy, msg);
	int64_t rp[4], hp[4];
	brt_region_pitch(r, rp);
	host_pitch(r->dims, hp);
	brt_cpu_copy_box(region_ptr(r), rp, host, hp, r->dims, r->esize);
	return 0;
}

int brt_xfer_read(const brt_region *r, void *host, int async, int nocopy,
	brt_str *msg)
{
	(void)nocopy;	/* the transfer writes into HOST directly anyway */
	if (r->buf->dev->kind == BRT_DEV_OPENCL)
		return brt_ocl_read(r, host, async, msg);
	int64_t rp[4], hp[4];
	brt_region_pitch(r, rp);
	host_pitch(r->dims, hp);
	brt_cpu_copy_box(host, hp, region_ptr(r), rp, r->dims, r->esize);
	return 0;
}

static size_t region_count(const brt_region *r)
{
	return (size_t)(r->dims[0] * r->dims[1] * r->dims[2] * r->dims[3]);
}

int brt_region_overlap(const brt_region *a, const brt_region *b)
{
	if (a->buf != b->buf)
		return 0;
	for (int i = 0; i < 4; i++)
		if (a->origin[i] >= b->origin[i] + b->dims[i]
		    || b->origin[i] >= a->origin[i] + a->dims[i])
			return 0;
	return 1;
}

/* Across devices, and between overlapping boxes of one buffer (as memmove:
 * DST takes SRC as it was before), the data go through host memory; a box
 * onto itself copies nothing. */
int brt_xfer_copy(const brt_region *dst, const brt_region *src, brt_str *msg)
{
	brt_device *dd = dst->buf->dev, *sd = src->buf->dev;
	int overlap = brt_region_overlap(dst, src);
	if (overlap && !memcmp(dst->origin, src->origin, sizeof dst->origin))
		return 0;
	if (dd == sd && !overlap && dd->kind == BRT_DEV_OPENCL)
		return brt_ocl_copy(dst, src, msg);
	if (dd == sd && !overlap) {
		int64_t dp[4], sp[4];
		brt_region_pitch(dst, dp);
		brt_region_pitch(src, sp);
		brt_cpu_copy_box(region_ptr(dst), dp, region_ptr(src), sp,
			dst->dims, dst->esize);
		return 0;
	}
	void *tmp = malloc(region_count(src) * src->esize + 1);
	if (!tmp) {
		brt_str_printf(msg, "out of host memory");
		return -1;
	}
	int r = brt_xfer_read(src, tmp, 0, 0, msg);
	if (r == 0)
		r = brt_xfer_write(dst, tmp, 0, 0, msg);
	free(tmp);
	return r;
}

/* N copies of the element VALUE at DST, by doubling. */
static void fill_elems(char *dst, const void *value, size_t esize, size_t n)
{
	if (n == 0)
		return;
	memcpy(dst, value, esize);
	size_t done = 1;
	while (done < n) {
		size_t k = done < n - done ? done : n - done;
		memcpy(dst + done * esize, dst, k * esize);
		done += k;
	}
}

int brt_xfer_fill(const brt_region *r, const void *value, brt_str *msg)
{
	if (r->buf->dev->kind == BRT_DEV_OPENCL) {
		int done = brt_ocl_fill(r, value, msg);
		if (done <= 0)
			return done;
	}
	size_t n = region_count(r);
	char *tmp = malloc(n * r->esize + 1);
	if (!tmp) {
		brt_str_printf(msg, "out of host memory");
		return -1;
	}
	fill_elems(tmp, value, r->esize, n);
	int res = brt_xfer_write(r, tmp, 0, 0, msg);
	free(tmp);
	return res;
}

int brt_buffer_sync(brt_buffer *b, int wait)
{
	if (b->dev->kind != BRT_DEV_OPENCL)
		return 1;
	int r = brt_ocl_sync(b, wait);
	if (r == 1)
		b->hostio = 0;
	return r;
}

/* --- buffers ------------------------------------------------------------ */
/* A buffer of BYTES on D; NULL when it cannot be had (or BRT_FAIL_ALLOC
 * says so), with the reason in MSG. */
static brt_buffer *buffer_new(brt_device *d, size_t bytes, brt_str *msg)
{
	if (brt_fault_alloc()) {
		brt_str_printf(msg, "BRT_FAIL_ALLOC");
		return NULL;
	}
	brt_buffer *b = calloc(1, sizeof *b);
	if (!b) {
		brt_str_printf(msg, "out of host memory");
		return NULL;
	}
	b->refs = 1;
	b->dev = d;
	b->bytes = bytes;
	if (d->lost) {
		brt_str_printf(msg, "the device was lost");
		free(b);
		return NULL;
	}
	int r = d->kind == BRT_DEV_OPENCL ? brt_ocl_alloc(b, msg)
		: brt_cpu_alloc(b);
	if (r) {
		if (d->kind == BRT_DEV_CPU)
			brt_str_printf(msg, "out of memory");
		free(b);
		return NULL;
	}
	return b;
}

brt_buffer *brt_buffer_new(brt_device *d, size_t bytes)
{
	brt_str msg = {0};
	brt_buffer *b = buffer_new(d, bytes, &msg);
	brt_str_free(&msg);
	return b;
}

void brt_buffer_release(brt_buffer *b)
{
	if (!b || --b->refs > 0)
		return;
	if (b->dev->kind == BRT_DEV_OPENCL)
		brt_ocl_free(b);
	else
		free(b->hostmem);
	free(b);
}

/* --- creation ----------------------------------------------------------- */
/* The product of the extents times ESIZE, or 0 when it overflows size_t
 * (then a BR_ERROR_DECLARATION, never a wrap). */
static size_t shape_bytes(unsigned rank, const unsigned *dims, size_t esize,
	size_t *count)
{
	size_t n = 1;
	for (unsigned i = 0; i < rank; i++) {
		if (dims[i] && n > SIZE_MAX / dims[i])
			return 0;
		n *= dims[i];
	}
	*count = n;
	/* views address elements with int64_t arithmetic */
	if ((esize && n > SIZE_MAX / esize) || n > (size_t)INT64_MAX / 16)
		return 0;
	return n * esize;
}

static brt_stream *stream_alloc(brt_type type, unsigned rank,
	const unsigned *dims)
{
	brt_stream *s = calloc(1, sizeof *s);
	if (!s) {
		brt_set_last(BR_ERROR_DECLARATION,
			"Stream Allocation: Failed to create buffer");
		return NULL;
	}
	s->type = type;
	s->refs = 1;
	s->dev = brt_current();
	s->reg.esize = type.size;
	for (int i = 0; i < 4; i++)
		s->reg.dims[i] = s->reg.root[i] = 1;
	if (rank >= 1 && rank <= BRT_MAX_RANK && dims) {
		s->rank = rank;
		for (unsigned i = 0; i < rank; i++) {
			s->dims[i] = dims[i];
			s->reg.dims[i] = s->reg.root[i] = dims[i];
		}
	}
	return s;
}

/* The checks common to data and iterator streams (spec 8, Stream
 * Allocation); 0 when the shape and type are fine. */
static int stream_check(brt_stream *s, brt_type type, unsigned rank,
	const unsigned *dims, size_t *bytes)
{
	if (!type_valid(type)) {
		brt_fail(s, BR_ERROR_DECLARATION, "Stream Allocation: Stream of "
			"this type not supported on the device");
		return -1;
	}
	int zero = 0;
	for (unsigned i = 0; dims && i < rank && i < BRT_MAX_RANK; i++)
		zero |= dims[i] == 0;
	if (rank == 0 || rank > BRT_MAX_RANK || !dims || zero) {
		brt_fail(s, BR_ERROR_DECLARATION, "Stream Allocation: Rank and "
			"dimension of stream doesn't support this stream type");
		return -1;
	}
	*bytes = shape_bytes(rank, dims, type.size, &s->count);
	if (*bytes == 0) {
		s->count = 0;
		brt_fail(s, BR_ERROR_DECLARATION, "Stream Allocation: This "
			"dimension not supported on underlying hardware");
		return -1;
	}
	if (!s->dev) {
		brt_fail(s, BR_ERROR_DECLARATION,
			"Stream Allocation: Failed to create buffer (no device)");
		return -1;
	}
	if (type.scalar == BRT_DOUBLE && !s->dev->fp64) {
		brt_fail(s, BR_ERROR_NOT_SUPPORTED, "Stream Allocation: Double "
			"precision not supported on underlying hardware");
		return -1;
	}
	return 0;
}

/* Guide 1.7.1: if creation fails, the stream's error state is
 * BR_ERROR_DECLARATION; the stream still exists, to be freed. */
brt_stream *brt_stream_new(brt_type type, unsigned rank, const unsigned *dims)
{
	brt_stream *s = stream_alloc(type, rank, dims);
	size_t bytes;
	if (!s || stream_check(s, type, rank, dims, &bytes))
		return s;
	brt_str msg = {0};
	s->reg.buf = buffer_new(s->dev, bytes, &msg);
	if (!s->reg.buf)
		brt_fail(s, BR_ERROR_DECLARATION, "Stream Allocation: Failed to "
			"create buffer (%zu bytes: %s)", bytes, msg.p ? msg.p : "");
	brt_str_free(&msg);
	return s;
}

/* BrookGPU, iterator streams: iter(a, b) over n elements steps by
 * (b - a) / n; a 1D iterator steps every component along x, a 2D one .x
 * along x and .y along y (see brt_view in brt.h). */
brt_stream *brt_stream_new_iter(brt_type type, unsigned rank,
	const unsigned *dims, const void *start, const void *end)
{
	brt_stream *s = stream_alloc(type, rank, dims);
	size_t bytes;
	if (!s)
		return NULL;
	s->iter = 1;
	if (type.scalar == BRT_STRUCT) {
		brt_fail(s, BR_ERROR_DECLARATION, "Stream Allocation: Struct "
			"streams doesn't support this stream type");
		return s;
	}
	if (stream_check(s, type, rank, dims, &bytes))
		return s;
	if (type.scalar != BRT_FLOAT) {
		brt_fail(s, BR_ERROR_NOT_SUPPORTED, "Stream Allocation: Stream "
			"of this type not supported on the device (iterators "
			"are float, float2, float3 or float4)");
		return s;
	}
	if (!start || !end) {
		brt_fail(s, BR_ERROR_INVALID_PARAMATER, "Stream Allocation: "
			"iterator start and end can't be NULL");
		return s;
	}
	const float *a = start, *b = end;
	for (unsigned j = 0; j < type.ncomp; j++) {
		unsigned axis = rank == 1 ? 0 : j;
		s->lo[j] = a[j];
		s->step[j] = axis < rank ? (b[j] - a[j]) / (float)dims[axis] : 0;
	}
	return s;
}

/* Frees S once its views are freed, then releases the stream it is a
 * view of. */
static void stream_release(brt_stream *s)
{
	while (s && --s->refs == 0) {
		brt_stream *of = s->of;
		brt_buffer_release(s->reg.buf);
		brt_str_free(&s->log);
		free(s);
		s = of;
	}
}

/* Guide 1.13: a transfer that still uses the caller's array (an async
 * write, a nocopy read) is finished first, so that the array may go once
 * the stream has; at exit the runtime finished every queue already. */
void brt_stream_free(brt_stream *s)
{
	if (!s)
		return;
	brt_stream_settle(s);
	if (s->reg.buf && s->reg.buf->hostio && !brt_rt()->down)
		brt_buffer_sync(s->reg.buf, 1);
	brt_report_unchecked(s);
	stream_release(s);
}

/* --- flags ------------------------------------------------------------ */
/* FLAGS: words "async" and "nocopy" separated by spaces (guide 1.13,
 * 1.14); -1 for an unknown word, reported on S by OP. */
static int parse_flags(brt_stream *s, const char *op, BRerror code,
	const char *flags, int *async, int *nocopy)
{
	*async = *nocopy = 0;
	for (const char *p = flags; p && *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n == 5 && !strncmp(p, "async", 5))
			*async = 1;
		else if (n == 6 && !strncmp(p, "nocopy", 6))
			*nocopy = 1;
		else if (n) {
			brt_fail(s, code, "%s: unknown flag \"%.*s\"", op, (int)n,
				p);
			return -1;
		}
		p += n;
	}
	return 0;
}

/* --- read and write ----------------------------------------------------- */
/* The box [start, end) of S as a region; -1 (reported as OP) when it is not
 * inside S. NULL START and END: all of S. */
static int box_region(brt_stream *s, const char *op, BRerror code,
	const unsigned *start, const unsigned *end, brt_region *r)
{
	*r = s->reg;
	if (!start && !end)
		return 0;
	if (!start || !end) {
		brt_fail(s, code, "%s: range %s point can't be NULL", op,
			start ? "end" : "start");
		return -1;
	}
	for (unsigned i = 0; i < s->rank; i++) {
		if (start[i] >= end[i] || end[i] > s->dims[i]) {
			brt_fail(s, code, "%s: range [%u, %u) of dimension %u is "
				"outside the stream's extent %u", op, start[i],
				end[i], i, s->dims[i]);
			return -1;
		}
		r->origin[i] += start[i];
		r->dims[i] = end[i] - start[i];
	}
	return 0;
}

static void stream_read(brt_stream *s, const unsigned *start,
	const unsigned *end, const void *ptr, const char *flags)
{
	int async, nocopy;
	brt_region r;
	if (!s) {
		brt_set_last(BR_ERROR_READ, "Stream Read: NULL stream");
		return;
	}
	if (!ptr) {
		brt_fail(s, BR_ERROR_READ,
			"Stream Read: Stream can't read from a NULL pointer");
		return;
	}
	if (parse_flags(s, "Stream Read", BR_ERROR_READ, flags, &async,
		    &nocopy))
		return;
	if (s->iter) {
		brt_fail(s, BR_ERROR_NOT_SUPPORTED,
			"Stream Read: an iterator stream can't be read");
		return;
	}
	if (!s->reg.buf) {
		brt_fail(s, BR_ERROR_READ, "Internal buffer is not initialized");
		return;
	}
	if (box_region(s, "Stream Read", BR_ERROR_READ, start, end, &r))
		return;
	brt_str msg = {0};
	if (s->dev->lost || brt_xfer_write(&r, ptr, async, nocopy, &msg))
		brt_fail(s, BR_ERROR_READ, "Stream Read: Failed to Initiate DMA "
			"(%s)", msg.p ? msg.p : "the device was lost");
	else
		s->reg.buf->written = 1;
	brt_str_free(&msg);
}

void brt_stream_read(brt_stream *s, const void *ptr, const char *flags)
{
	stream_read(s, NULL, NULL, ptr, flags);
}

void brt_stream_read_range(brt_stream *s, const unsigned *start,
	const unsigned *end, const void *ptr, const char *flags)
{
	if (s && (!start || !end)) {
		brt_fail(s, BR_ERROR_READ, "Stream Read: range %s point can't "
			"be NULL", start ? "end" : "start");
		return;
	}
	stream_read(s, start, end, ptr, flags);
}

/* Component J of element (coordinates E) of an iterator, as kernels compute
 * it (brt.h, BRT_MAP_ITER). */
static float iter_comp(const brt_stream *s, const int64_t e[4], unsigned j)
{
	return s->lo[j] + s->step[j] * (float)e[s->rank == 1 ? 0 : j];
}

/* Writes the values of the iterator S over box R into HOST, packed. */
static void iter_write(const brt_stream *s, const brt_region *r, char *host)
{
	int64_t e[4];
	float *out = (float *)host;
	for (e[3] = 0; e[3] < r->dims[3]; e[3]++)
		for (e[2] = 0; e[2] < r->dims[2]; e[2]++)
			for (e[1] = 0; e[1] < r->dims[1]; e[1]++)
				for (e[0] = 0; e[0] < r->dims[0]; e[0]++) {
					int64_t g[4];
					for (int i = 0; i < 4; i++)
						g[i] = e[i] + r->origin[i];
					for (unsigned j = 0; j < s->type.ncomp; j++)
						*out++ = iter_comp(s, g, j);
				}
}

static void stream_write(brt_stream *s, const unsigned *start,
	const unsigned *end, void *ptr, const char *flags)
{
	int async, nocopy;
	brt_region r;
	if (!s) {
		brt_set_last(BR_ERROR_WRITE, "Stream Write: NULL stream");
		return;
	}
	brt_stream_settle(s);
	if (!ptr) {
		brt_fail(s, BR_ERROR_WRITE,
			"Stream Write: Stream can't write to a NULL pointer");
		return;
	}
	if (parse_flags(s, "Stream Write", BR_ERROR_WRITE, flags, &async,
		    &nocopy))
		return;
	if (s->iter) {
		if (s->count && box_region(s, "Stream Write", BR_ERROR_WRITE,
			    start, end, &r) == 0)
			iter_write(s, &r, ptr);
		else if (!s->count)
			brt_fail(s, BR_ERROR_WRITE,
				"Internal buffer is not initialized");
		return;
	}
	if (!s->reg.buf) {
		brt_fail(s, BR_ERROR_WRITE, "Internal buffer is not initialized");
		return;
	}
	if (box_region(s, "Stream Write", BR_ERROR_WRITE, start, end, &r))
		return;
	if (!s->reg.buf->written) {
		brt_fail(s, BR_ERROR_WRITE, "Stream Write: Uninitialized stream");
		return;
	}
	brt_str msg = {0};
	if (s->dev->lost || brt_xfer_read(&r, ptr, async, nocopy, &msg))
		brt_fail(s, BR_ERROR_WRITE, "Stream Write: Failed to Initiate "
			"DMA (%s)", msg.p ? msg.p : "the device was lost");
	brt_str_free(&msg);
}

void brt_stream_write(brt_stream *s, void *ptr, const char *flags)
{
	stream_write(s, NULL, NULL, ptr, flags);
}

void brt_stream_write_range(brt_stream *s, const unsigned *start,
	const unsigned *end, void *ptr, const char *flags)
{
	if (s && (!start || !end)) {
		brt_fail(s, BR_ERROR_WRITE, "Stream Write: range %s point "
			"can't be NULL", start ? "end" : "start");
		return;
	}
	stream_write(s, start, end, ptr, flags);
}

/* --- fill and assign -------------------------------------------------------- */
void brt_stream_fill(brt_stream *s, const void *value)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Stream Fill: NULL stream");
		return;
	}
	if (!value) {
		brt_fail(s, BR_ERROR_INVALID_PARAMATER,
			"Stream Fill: Stream can't fill from a NULL pointer");
		return;
	}
	if (s->iter) {
		brt_fail(s, BR_ERROR_NOT_SUPPORTED,
			"Stream Fill: an iterator stream can't be filled");
		return;
	}
	if (!s->reg.buf) {
		brt_fail(s, BR_ERROR_INVALID_PARAMATER,
			"Internal buffer is not initialized");
		return;
	}
	brt_str msg = {0};
	if (s->dev->lost || brt_xfer_fill(&s->reg, value, &msg))
		brt_fail(s, BR_ERROR_INVALID_PARAMATER, "Stream Fill: Failed to "
			"Initiate DMA (%s)", msg.p ? msg.p : "the device was lost");
	else
		s->reg.buf->written = 1;
	brt_str_free(&msg);
}

static int same_type(brt_type a, brt_type b)
{
	return a.scalar == b.scalar && a.ncomp == b.ncomp && a.size == b.size;
}

/* Guide 1.7.1 and 1.16.2: DST = SRC, on one device or across two. */
void brt_stream_assign(brt_stream *dst, brt_stream *src)
{
	const BRerror code = BR_ERROR_INVALID_PARAMATER;
	if (!dst) {
		brt_set_last(code, "Stream Assign: Invalid destination stream");
		return;
	}
	if (!src || (!src->iter && !src->reg.buf)) {
		brt_fail(dst, code, "Stream Assign: Invalid input stream");
		return;
	}
	if (dst->iter || !dst->reg.buf) {
		brt_fail(dst, code, "Stream Assign: Destination Internal buffer "
			"is not initialized");
		return;
	}
	int same = src->rank == dst->rank;
	for (unsigned i = 0; same && i < dst->rank; i++)
		same = src->dims[i] == dst->dims[i];
	if (!same) {
		brt_fail(dst, code, "Stream Assign: Input stream rank and "
			"dimension doesn't match with destination");
		return;
	}
	if (!same_type(src->type, dst->type)) {
		brt_fail(dst, code, "Stream Assign: Input stream type doesn't "
			"match with destination");
		return;
	}
	if (!src->iter && !src->reg.buf->written) {
		brt_fail(dst, code, "Stream Assign: Uninitialized input stream");
		return;
	}
	brt_stream_settle(src);
	if (src->err != BR_NO_ERROR)
		brt_propagate(dst, src);
	brt_str msg = {0};
	int r;
	if (src->iter) {
		char *tmp = malloc(src->count * src->type.size + 1);
		r = tmp ? 0 : -1;
		if (tmp) {
			iter_write(src, &src->reg, tmp);
			r = brt_xfer_write(&dst->reg, tmp, 0, 0, &msg);
		}
		free(tmp);
	} else if (src->dev->lost || dst->dev->lost) {
		r = -1;
	} else {
		r = brt_xfer_copy(&dst->reg, &src->reg, &msg);
	}
	if (r)
		brt_fail(dst, code, "Assign: Could not flush previous events (%s)",
			msg.p ? msg.p : "the device was lost");
	else
		dst->reg.buf->written = 1;
	brt_str_free(&msg);
}

/* --- domain views ----------------------------------------------------------- */
/* Guide 1.7.1, Stream::domain: the box [start, end) of S; it shares S's
 * buffer, so writes through it reach S at once. */
brt_stream *brt_stream_domain(brt_stream *s, const unsigned *start,
	const unsigned *end)
{
	if (!s) {
		brt_set_last(BR_ERROR_DOMAIN,
			"Domain Operator: Failed to create domain stream");
		return NULL;
	}
	brt_stream_settle(s);	/* its errors propagate */
	brt_stream *v = calloc(1, sizeof *v);
	if (!v) {
		brt_set_last(BR_ERROR_DOMAIN,
			"Domain Operator: Failed to create domain stream");
		return NULL;
	}
	*v = *s;
	memset(&v->log, 0, sizeof v->log);
	v->err = BR_NO_ERROR;
	v->recs = 0;
	v->synced = 0;
	v->reg.buf = NULL;
	v->of = s;	/* takes the view's errors (brt.3) */
	v->refs = 1;
	s->refs++;
	const char *why = NULL;
	if (!start)
		why = "Domain Operator: Domain start point can't be NULL";
	else if (!end)
		why = "Domain Operator: Domain end point can't be NULL";
	for (unsigned i = 0; !why && i < s->rank; i++)
		if (start[i] > end[i])
			why = "Domain Operator: Start point is more than end "
				"point, failed to create domain stream";
		else if (end[i] > s->dims[i])
			why = "Domain Operator: Domain dimensions are bigger "
				"than original stream, failed to create domain "
				"stream";
		else if (start[i] == end[i])
			why = "Domain Operator: Failed to create domain stream";
	if (!why && !s->iter && !s->reg.buf)
		why = "Domain Operator: Failed to create domain stream";
	if (why) {
		brt_fail(v, BR_ERROR_DOMAIN, "%s", why);
		v->count = 0;
		return v;
	}
	v->count = 1;
	for (unsigned i = 0; i < s->rank; i++) {
		v->dims[i] = end[i] - start[i];
		v->reg.dims[i] = v->dims[i];
		v->reg.origin[i] += start[i];
		v->count *= v->dims[i];
	}
	if (s->iter) {
		for (unsigned j = 0; j < s->type.ncomp; j++)
			v->lo[j] = iter_comp(s, v->reg.origin, j);
		memset(v->reg.origin, 0, sizeof v->reg.origin);
		for (unsigned i = 0; i < 4; i++)
			v->reg.root[i] = v->reg.dims[i];
	} else {
		v->reg.buf = s->reg.buf;
		v->reg.buf->refs++;
	}
	if (s->err != BR_NO_ERROR)
		brt_propagate(v, s);
	return v;
}

/* --- synchronization ------------------------------------------------------- */
/* OpenCL: the scatters a kernel dropped are read back not after each
 * launch but here (brt.3, Accesses outside their array). */
void brt_stream_settle(brt_stream *s)
{
	if (!s)
		return;
	if (s->recs) {
		pthread_mutex_lock(&s->dev->lock);
		brt_ocl_settle(s->dev, 0);
		pthread_mutex_unlock(&s->dev->lock);
	}
	s->synced = s->log.len;
}

static int stream_sync(brt_stream *s, int wait, const char *op)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER, "%s: NULL stream", op);
		return wait ? 0 : 1;
	}
	if (!s->reg.buf)
		return 1;
	/* a lost device runs nothing more: its commands failed */
	int r = s->dev->lost ? -1 : brt_buffer_sync(s->reg.buf, wait);
	if (r < 0) {
		brt_fail(s, BR_ERROR_KERNEL, "%s: Could not flush previous "
			"events (the device was lost)", op);
		return wait ? 0 : 1;
	}
	if (r)	/* its kernels are done: their records are there */
		brt_stream_settle(s);
	return r;
}

int brt_stream_isSync(brt_stream *s)
{
	return stream_sync(s, 0, "Stream isSync");
}

int brt_stream_finish(brt_stream *s)
{
	return stream_sync(s, 1, "Stream Finish");
}

/* --- accessors ------------------------------------------------------------- */
unsigned brt_stream_rank(const brt_stream *s)
{
	return s ? s->rank : 0;
}

unsigned brt_stream_dim(const brt_stream *s, unsigned i)
{
	return s && i < s->rank ? s->dims[i] : s && i < BRT_MAX_RANK ? 1 : 0;
}

size_t brt_stream_count(const brt_stream *s)
{
	return s ? s->count : 0;
}

brt_type brt_stream_type(const brt_stream *s)
{
	brt_type none = { BRT_FLOAT, 0, 0 };
	return s ? s->type : none;
}

/* --- BrookGPU host helpers ------------------------------------------------- */
/* Guide 1.14.2: 256-byte alignment lets "nocopy" use the array itself. */
void *brmalloc(size_t n)
{
	void *p = NULL;
	return posix_memalign(&p, 256, n ? n : 1) ? NULL : p;
}

void brfree(void *p)
{
	free(p);
}

void streamSwap(brt_stream **a, brt_stream **b)
{
	if (!a || !b) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"streamSwap: NULL pointer");
		return;
	}
	if (*a && *b && !same_type((*a)->type, (*b)->type)) {
		char ta[32], tb[32];
		brt_type_name((*a)->type, ta, sizeof ta);
		brt_type_name((*b)->type, tb, sizeof tb);
		for (int i = 0; i < 2; i++)
			brt_fail(i ? *b : *a, BR_ERROR_INVALID_PARAMATER,
				"streamSwap: Stream types don't match (%s and "
				"%s)", ta, tb);
		return;
	}
	brt_stream *t = *a;
	*a = *b;
	*b = t;
}

static void print_scalar(brt_scalar k, const unsigned char *p)
{
	switch (k) {
	case BRT_CHAR: { signed char v; memcpy(&v, p, 1); printf("%d", v); break; }
	case BRT_UCHAR: printf("%u", *p); break;
	case BRT_SHORT: { short v; memcpy(&v, p, 2); printf("%d", v); break; }
	case BRT_USHORT: { unsigned short v; memcpy(&v, p, 2); printf("%u", v);
		break; }
	case BRT_INT: { int v; memcpy(&v, p, 4); printf("%d", v); break; }
	case BRT_UINT: { unsigned v; memcpy(&v, p, 4); printf("%u", v); break; }
	case BRT_FLOAT: { float v; memcpy(&v, p, 4); printf("%g", v); break; }
	case BRT_DOUBLE: { double v; memcpy(&v, p, 8); printf("%g", v); break; }
	case BRT_LONG: { long long v; memcpy(&v, p, 8); printf("%lld", v);
		break; }
	case BRT_ULONG: { unsigned long long v; memcpy(&v, p, 8);
		printf("%llu", v); break; }
	default: printf("%02x", *p); break;
	}
}

/* One element: a scalar as a number, a vector as (x, y, ...), a struct as
 * its bytes in hex. */
static void print_elem(brt_type t, const unsigned char *p)
{
	if (t.scalar == BRT_STRUCT) {
		for (size_t i = 0; i < t.size; i++)
			printf("%02x", p[i]);
		return;
	}
	size_t cs = brt_scalar_size(t.scalar);
	if (t.ncomp > 1)
		putchar('(');
	for (unsigned j = 0; j < t.ncomp; j++) {
		if (j)
			printf(", ");
		print_scalar(t.scalar, p + j * cs);
	}
	if (t.ncomp > 1)
		putchar(')');
}

/* Prints S to stdout, a row (x) a line, elements separated by spaces. */
void streamPrint(brt_stream *s)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"streamPrint: NULL stream");
		return;
	}
	if (!s->count)
		return;
	unsigned char *tmp = malloc(s->count * s->type.size);
	if (!tmp) {
		brt_fail(s, BR_ERROR_WRITE, "streamPrint: out of host memory");
		return;
	}
	brt_stream_settle(s);
	size_t loglen = s->log.len;
	brt_stream_write(s, tmp, NULL);
	if (s->log.len == loglen) {
		size_t row = s->dims[0] ? s->dims[0] : 1;
		for (size_t i = 0; i < s->count; i++) {
			print_elem(s->type, tmp + i * s->type.size);
			putchar((i + 1) % row ? ' ' : '\n');
		}
	}
	free(tmp);
}
