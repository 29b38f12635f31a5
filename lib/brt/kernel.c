/* kernel.c - brt_run: argument checks (spec 8, Kernel Execution), the
 * execution domain (guide 1.8, domainOffset/domainSize), implicit resize
 * (spec 3.3.2; BrookGPU, Using Stream Shape), views, and the launch on the
 * OpenCL or the CPU backend. Reductions continue in reduce.c.
 *
 * A call that reports an error does not run, with one exception: an input
 * never written runs (the spec: "The results might be undefined") and its
 * outputs carry the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void kreport(brt_launch *L, BRerror code, const char *fmt, va_list ap)
{
	if (L->nout == 0) {
		brt_thread *t = brt_self();
		brt_vfail(NULL, code, fmt, ap);
		if (t)
			t->unseen = 1;
		return;
	}
	for (unsigned i = 0; i < L->nout; i++) {
		va_list aq;
		va_copy(aq, ap);
		brt_vfail(L->outs[i], code, fmt, aq);
		va_end(aq);
	}
}

/* An error on every output of the call (or the thread's last error); the
 * call will not run. */
void brt_kfail(brt_launch *L, BRerror code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kreport(L, code, fmt, ap);
	va_end(ap);
	L->failed = 1;
}

/* An error that lets the call run. */
void brt_kwarn(brt_launch *L, BRerror code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kreport(L, code, fmt, ap);
	va_end(ap);
}

static int is_write(const brt_argdesc *a, const brt_arg *v)
{
	return a->kind == BRT_ARG_OUT || a->kind == BRT_ARG_SCATTER
		|| (a->kind == BRT_ARG_REDUCE && a->reduce_stream && v->s);
}

static int is_read(const brt_argdesc *a)
{
	return a->kind == BRT_ARG_IN || a->kind == BRT_ARG_GATHER;
}

static int is_stream(const brt_argdesc *a)
{
	return a->kind != BRT_ARG_VALUE
		&& (a->kind != BRT_ARG_REDUCE || a->reduce_stream);
}

static int same_dims(const brt_stream *a, const brt_stream *b)
{
	if (a->rank != b->rank)
		return 0;
	for (unsigned i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return 0;
	return 1;
}

/* A gather array declared with its sizes (float g[10][20]) takes a stream
 * of those sizes: an index clamped to another array's edge would read
 * elements the kernel never meant. 1 when it does not. */
static int gather_size(brt_launch *L, const brt_stream *s, unsigned i)
{
	const unsigned *size = L->k->gather_size;
	unsigned k;

	if (!size)
		return 0;
	size += (size_t)i * BRT_MAX_RANK;
	for (k = 0; k < s->rank && k < BRT_MAX_RANK; k++)
		if (size[k] && size[k] != s->dims[k])
			break;
	if (k == s->rank || k == BRT_MAX_RANK)
		return 0;
	brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: gather stream "
		"argument %u has %u elements along dimension %u (x is 1), the "
		"kernel's declaration %u", i, s->dims[k], k + 1, size[k]);
	return 1;
}

/* The checks of each argument on its own. */
static void check_args(brt_launch *L)
{
	const brt_kernel *k = L->k;
	int uninit = 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		const brt_argdesc *a = &k->args[i];
		const brt_arg *v = &L->args[i];
		if (a->kind == BRT_ARG_VALUE) {
			if (!v->value)
				brt_kfail(L, BR_ERROR_INVALID_PARAMATER,
					"Kernel Execution: argument %u of %s "
					"can't be a NULL pointer", i, k->name);
			continue;
		}
		if (a->kind == BRT_ARG_REDUCE
		    && k->kclass != BRT_KERNEL_REDUCE) {
			brt_kfail(L, BR_ERROR_NOT_SUPPORTED, "Kernel Execution: "
				"argument %u of %s is a reduce argument of a "
				"kernel that is not a reduction", i, k->name);
			continue;
		}
		if (a->kind == BRT_ARG_REDUCE && !a->reduce_stream) {
			if (!v->target)
				brt_kfail(L, BR_ERROR_INVALID_PARAMATER,
					"Kernel Execution: argument %u of %s "
					"can't be a NULL pointer", i, k->name);
			continue;
		}
		brt_stream *s = v->s;
		if (is_read(a)) {
			brt_stream_settle(s);	/* its errors propagate */
			if (!s || (s->iter && a->kind == BRT_ARG_GATHER)) {
				brt_kfail(L, BR_ERROR_KERNEL,
					"Kernel Execution: Invalid Input stream");
				continue;
			}
			if (!s->iter && s->dev != L->dev) {	/* an iterator
					   has no buffer: any device */
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Input stream device is different from "
					"current device");
				continue;
			}
			if (s->err != BR_NO_ERROR) {
				for (unsigned j = 0; j < L->nout; j++)
					brt_propagate(L->outs[j], s);
				brt_kfail(L, s->err, "Kernel Execution: Error "
					"with input streams");
				continue;
			}
			if (!s->iter && !s->reg.buf) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Input streams Allocation failed");
				continue;
			}
			if (a->rank && s->rank != a->rank) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"input stream rank doesn't match with "
					"the kernel's declaration (%u, not %u)",
					s->rank, a->rank);
				continue;
			}
			if (a->kind == BRT_ARG_GATHER && gather_size(L, s, i))
				continue;
			if (!s->iter && !s->reg.buf->written)
				uninit = 1;
		} else {
			if (!s || s->iter) {
				brt_kfail(L, BR_ERROR_KERNEL,
					"Kernel Execution: Invalid output stream");
				continue;
			}
			if (s->dev != L->dev) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Output stream device is different from "
					"current device");
				continue;
			}
			if (!s->reg.buf) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Output stream is not allocated");
				continue;
			}
			if (a->rank && s->rank != a->rank)
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"output stream rank doesn't match with "
					"the kernel's declaration (%u, not %u)",
					s->rank, a->rank);
		}
	}
	if (!L->failed && uninit)
		brt_kwarn(L, BR_ERROR_KERNEL, "Kernel Execution: Uninitialized "
			"Input streams. The results might be undefined");
}

/* Guide 1.6.1.1: a stream bound as input and output of one call is an
 * error unless BRT_PERMIT_READ_WRITE_ALIASING is set. Overlapping views
 * of one stream alias too (brt_region_overlap). */

static void check_alias(brt_launch *L)
{
	const brt_kernel *k = L->k;
	if (L->failed || brt_rt()->permit_alias)
		return;
	for (unsigned i = 0; i < k->nargs; i++) {
		if (!is_read(&k->args[i]) || L->args[i].s->iter)
			continue;
		for (unsigned j = 0; j < k->nargs; j++)
			if (is_write(&k->args[j], &L->args[j])
			    && brt_region_overlap(&L->args[j].s->reg,
				    &L->args[i].s->reg)) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Input stream is same as output stream. "
					"Binding kernels read-write is prohibited");
				return;
			}
	}
}

/* The stream whose shape is the domain: the first output of a map or
 * group kernel, the first input of a scatter kernel (guide 1.6.1.3);
 * else the first stream of either kind; NULL when none. */
static brt_stream *domain_stream(const brt_launch *L)
{
	const brt_kernel *k = L->k;
	brt_argkind first = k->kclass == BRT_KERNEL_SCATTER ? BRT_ARG_IN
		: BRT_ARG_OUT;
	brt_argkind second = first == BRT_ARG_IN ? BRT_ARG_OUT : BRT_ARG_IN;
	for (unsigned i = 0; i < k->nargs; i++)
		if (k->args[i].kind == first)
			return L->args[i].s;
	for (unsigned i = 0; i < k->nargs; i++)
		if (k->args[i].kind == second)
			return L->args[i].s;
	return NULL;
}

/* Guide 1.8, domainOffset without domainSize: the domain runs from the
 * offset to the end of DS. */
static void offset_domain(brt_launch *L, const brt_stream *ds,
	const brt_exec *ex)
{
	for (unsigned i = ds->rank; i < 4; i++)
		if (ex->offset[i]) {
			brt_kfail(L, BR_ERROR_KERNEL, "Exec Domain: domain rank "
				"%u is more than the stream's rank", i + 1);
			return;
		}
	for (unsigned i = 0; i < ds->rank; i++) {
		if (ex->offset[i] >= ds->dims[i]) {
			brt_kfail(L, BR_ERROR_KERNEL, "Exec Domain: Number of "
				"threads must be more than 0");
			return;
		}
		L->off[i] = ex->offset[i];
		L->dom[i] = ds->dims[i] - ex->offset[i];
	}
}

/* The execution domain: DS's shape, or domainSize at domainOffset. */
static void set_domain(brt_launch *L, const brt_stream *ds,
	const brt_exec *ex)
{
	for (int i = 0; i < 4; i++) {
		L->dom[i] = 1;
		L->off[i] = 0;
	}
	L->rank = ds ? ds->rank : 0;
	for (unsigned i = 0; ds && i < ds->rank; i++)
		L->dom[i] = ds->dims[i];
	if (!ex || ex->rank == 0) {
		if (!ds)
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: No "
				"appropriate map technique found (no stream "
				"and no domainSize gives the domain)");
		else if (ex)
			offset_domain(L, ds, ex);
		return;
	}
	/* axes past the stream's rank (past the first without a stream): a
	   size of 1 at offset 0 is the stream's own extent there
	   (domainSize(uint4(6, 1, 1, 1)) of a 2-D stream is 6 by 1) */
	unsigned xr = ex->rank;
	while (xr > (ds ? ds->rank : 1) && xr <= BRT_MAX_RANK &&
			ex->size[xr - 1] == 1 && ex->offset[xr - 1] == 0)
		xr--;
	if (xr > BRT_MAX_RANK || (ds && xr > ds->rank)) {
		brt_kfail(L, BR_ERROR_KERNEL, "Exec Domain: domain rank %u is "
			"more than the stream's rank", ex->rank);
		return;
	}
	for (unsigned i = 0; i < xr; i++) {
		if (ex->size[i] == 0) {
			brt_kfail(L, BR_ERROR_KERNEL, "Exec Domain: Number of "
				"threads must be more than 0");
			return;
		}
		if (ds && (uint64_t)ex->offset[i] + ex->size[i] > ds->dims[i]) {
			brt_kfail(L, BR_ERROR_KERNEL, "Exec Domain: Number of "
				"threads specified more than stream dimension");
			return;
		}
	}
	if (!ds)
		L->rank = xr;
	for (unsigned i = 0; i < L->rank; i++) {
		L->dom[i] = i < xr ? ex->size[i] : ds->dims[i];
		L->off[i] = i < xr ? ex->offset[i] : 0;
	}
}

/* The region of stream S that the call reads or writes at domain point
 * 0 .. dom: with an execution domain, the box at the offset. */
static brt_region domain_region(const brt_launch *L, const brt_stream *s)
{
	brt_region r = s->reg;
	for (int i = 0; i < 4; i++) {
		r.origin[i] += L->off[i];
		r.dims[i] = L->dom[i];
	}
	return r;
}

/* Shapes against the domain stream DS, and the view of every argument. */
static void set_views(brt_launch *L, const brt_stream *ds)
{
	const brt_kernel *k = L->k;
	for (unsigned i = 0; i < k->nargs && !L->failed; i++) {
		const brt_argdesc *a = &k->args[i];
		brt_view *v = &L->views[i];	/* zeroed by brt_run */
		if (!is_stream(a))
			continue;
		brt_stream *s = L->args[i].s;
		int shaped = ds && same_dims(s, ds);
		brt_region r;	/* the region the view shows */
		switch (a->kind) {
		case BRT_ARG_OUT:
			if (ds && s->rank != ds->rank)
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"output stream rank doesn't match with "
					"first output rank. The results might be "
					"undefined");
			else if (ds && !shaped)
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"output stream dimension doesn't match "
					"with first output dimension. The results "
					"might be undefined");
			else if (!ds)
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"No appropriate map technique found");
			r = domain_region(L, s);
			brt_region_view(&r, s->rank, v);
			break;
		case BRT_ARG_IN:
			if (ds && s->rank != ds->rank) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"input stream rank doesn't match with "
					"first output rank");
				break;
			}
			r = shaped ? domain_region(L, s) : s->reg;
			brt_region_view(&r, s->rank, v);
			if (!shaped) {
				v->map = BRT_MAP_RESIZE;
				brt_log("%s: input %u: Input stream dimension "
					"doesn't match with output dimension; "
					"implicit resize", k->name, i);
			}
			if (s->iter) {
				v->map = BRT_MAP_ITER;
				v->base = 0;
				memset(v->pitch, 0, sizeof v->pitch);
				for (unsigned j = 0; j < 4; j++) {
					unsigned ax = s->rank == 1 ? 0 : j;
					v->lo[j] = s->lo[j] + s->step[j]
						* (float)(shaped && ax < 4
						? L->off[ax] : 0);
					v->step[j] = s->step[j];
				}
			}
			break;
		default:	/* gather, scatter, stream reduce target */
			brt_region_view(&s->reg, s->rank, v);
			if (a->kind == BRT_ARG_SCATTER)	/* brt.h, brt_records */
				v->map = (int32_t)i;
			break;
		}
	}
}

/* --- accesses outside their array (brt.h, brt_records) ---------------- */
/* A report line prints once a process, on standard error and in the log:
 * a loop that launches a kernel again and again would repeat its reports.
 * The set holds 64-bit hashes of the lines printed, up to REPORTS_SEEN
 * (past that every line prints); brt_reports_summary says at exit how
 * many were left out. */
#define REPORTS_SEEN 65536
static struct {
	pthread_mutex_t lock;
	uint64_t *h;		/* open addressing, 0 free, cap a power of 2 */
	size_t cap, n;
	unsigned long long held;
} seen = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

/* 1 when TEXT printed before (counted), else 0 (and it is remembered). */
static int seen_before(const char *text)
{
	uint64_t h = 1469598103934665603u;	/* FNV-1a */
	for (const char *c = text; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211u;
	h += !h;
	pthread_mutex_lock(&seen.lock);
	if (seen.n * 2 >= seen.cap && seen.n < REPORTS_SEEN) {
		size_t cap = seen.cap ? seen.cap * 2 : 64;
		uint64_t *t = calloc(cap, sizeof *t);
		for (size_t i = 0; t && i < seen.cap; i++)
			if (seen.h[i]) {
				size_t j = seen.h[i] & (cap - 1);
				while (t[j])
					j = (j + 1) & (cap - 1);
				t[j] = seen.h[i];
			}
		if (t) {
			free(seen.h);
			seen.h = t;
			seen.cap = cap;
		}
	}
	int found = 0;
	if (seen.cap && seen.n * 2 < seen.cap) {
		size_t j = h & (seen.cap - 1);
		while (seen.h[j] && seen.h[j] != h)
			j = (j + 1) & (seen.cap - 1);
		found = seen.h[j] == h;
		if (found)
			seen.held++;
		else {
			seen.h[j] = h;
			seen.n++;
		}
	}
	pthread_mutex_unlock(&seen.lock);
	return found;
}

static void report_line(const char *text)
{
	if (!text || seen_before(text))
		return;
	fprintf(stderr, "%s\n", text);
	brt_log("%s", text);
}

void brt_reports_summary(void)
{
	pthread_mutex_lock(&seen.lock);
	if (seen.held) {
		fprintf(stderr, "brt: %llu --checked report%s the same as one "
			"printed before: each prints once\n", seen.held,
			seen.held == 1 ? " was" : "s were");
		brt_log("%llu --checked report%s the same as one printed "
			"before: each prints once", seen.held, seen.held == 1 ?
			" was" : "s were");
	}
	free(seen.h);
	seen.h = NULL;
	seen.cap = seen.n = 0;
	seen.held = 0;
	pthread_mutex_unlock(&seen.lock);
}

/* A record's array: "b of 4 x 1 x 1 x 1" */
static void print_array(brt_str *m, const char *name, const int64_t d[4])
{
	brt_str_printf(m, "%s of %lld x %lld x %lld x %lld", name,
		(long long)d[0], (long long)d[1], (long long)d[2],
		(long long)d[3]);
}

/* One report of brgen --checked, on standard error and in the log file:
 * "FILE:LINE: kernel K: gather index (x, y, z, w) outside the array A of
 * X x Y x Z x W; reading the nearest element", or for a C array's index
 * "FILE:LINE: kernel K: index 5 outside the array t[4]; using the
 * nearest element", or for a shared element no work-item wrote
 * "FILE:LINE: kernel K: element 2 of the shared array s[4] read before
 * any work-item of its group wrote it; using 0" (brt.h, brt_site). */
static void report_site(const brt_kernel *k, const brt_record *r)
{
	const brt_site *s = r->site >= 0 && (unsigned)r->site < k->nsites
		? &k->sites[r->site] : NULL;
	int kind = s ? s->kind : BRT_SITE_GATHER;
	brt_str m = {0};
	brt_str_printf(&m, "%s:%d: kernel %s: ", s ? s->file : k->src_file ?
		k->src_file : "?", s ? s->line : k->src_line, s ? s->kernel :
		k->name);
	if (kind == BRT_SITE_ARRAY || kind == BRT_SITE_SHARED) {
		brt_str_printf(&m, "index %lld outside the %sarray %s",
			(long long)r->idx[0], kind == BRT_SITE_SHARED ?
			"shared " : "", s->array);
		for (int i = 0; i < 4 && r->dims[i] > 0; i++)
			brt_str_printf(&m, "[%lld]", (long long)r->dims[i]);
		if (r->idx[2] > 1)
			brt_str_printf(&m, " in its dimension %lld",
				(long long)r->idx[1]);
		brt_str_printf(&m, "; using the nearest element");
	} else if (kind == BRT_SITE_UNSET) {
		/* some components of a vector: named, in order */
		int64_t nc = r->dims[1], set = r->idx[1];
		if (nc > 1 && nc <= 4 && set > 0 && set < ((int64_t)1 << nc) - 1) {
			int many = set & (set - 1);
			brt_str_printf(&m, "component%s .", many ? "s" : "");
			for (int c = 0; c < nc; c++)
				if (set & ((int64_t)1 << c))
					brt_str_printf(&m, "%c", "xyzw"[c]);
			brt_str_printf(&m, " of ");
		}
		brt_str_printf(&m, "element %lld of the shared array %s[%lld] "
			"read before any work-item of its group wrote it; "
			"using 0", (long long)r->idx[0], s->array,
			(long long)r->dims[0]);
	} else {
		brt_str_printf(&m, "%s index (%lld, %lld, %lld, %lld) outside "
			"the array ", kind == BRT_SITE_SCATTER ? "scatter" :
			"gather", (long long)r->idx[0], (long long)r->idx[1],
			(long long)r->idx[2], (long long)r->idx[3]);
		print_array(&m, s ? s->array : "?", r->dims);
		brt_str_printf(&m, "%s", kind == BRT_SITE_SCATTER ?
			"; the write is dropped" : "; reading the nearest "
			"element");
	}
	report_line(m.p);
	brt_str_free(&m);
}

/* The order of two reports of K: by place (file, line, kernel, kind,
 * array), then by coordinates in the array's order (w slowest), so that
 * the reports of a launch do not depend on the order its instances ran
 * in. */
static int record_cmp(const brt_kernel *k, const brt_record *a,
	const brt_record *b)
{
	const brt_site *x = a->site >= 0 && (unsigned)a->site < k->nsites ?
		&k->sites[a->site] : NULL;
	const brt_site *y = b->site >= 0 && (unsigned)b->site < k->nsites ?
		&k->sites[b->site] : NULL;
	int c = 0;
	if (x && y) {
		c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
		if (!c)
			c = (x->line > y->line) - (x->line < y->line);
		if (!c)
			c = strcmp(x->kernel ? x->kernel : "", y->kernel ?
				y->kernel : "");
		if (!c)
			c = x->kind - y->kind;
		if (!c)
			c = strcmp(x->array ? x->array : "", y->array ?
				y->array : "");
	} else {
		c = (x != NULL) - (y != NULL);
	}
	for (int i = 3; i >= 0 && !c; i--)
		c = (a->idx[i] > b->idx[i]) - (a->idx[i] < b->idx[i]);
	return c;
}

void brt_records_report(brt_launch *L, const brt_records *r)
{
	const brt_kernel *k = L->k;
	for (unsigned i = 0; i < k->nargs && r->dropped; i++) {
		uint32_t bit = i < 31 ? 1u << i : 1u << 31;
		if (k->args[i].kind != BRT_ARG_SCATTER ||
		    !((uint32_t)r->dropped & bit))
			continue;
		brt_stream *s = L->args[i].s;
		char arg[32];
		snprintf(arg, sizeof arg, "(argument %u)", i);
		brt_str m = {0};
		brt_str_printf(&m, "Kernel Execution: kernel %s: scatter "
			"outside the array ", k->name);
		print_array(&m, k->arg_names ? k->arg_names[i] : arg,
			L->views[i].dims);
		/* once between two synchronisations of the stream: the
		   OpenCL backend reads the records only then */
		if (!m.p || s->synced >= s->log.len
		    || !strstr(s->log.p + s->synced, m.p))
			brt_fail(s, BR_ERROR_KERNEL, "%s; the write is dropped",
				m.p ? m.p : "");
		brt_str_free(&m);
	}
	int n = r->count < BRT_NRECORDS ? r->count : BRT_NRECORDS;
	brt_record sorted[BRT_NRECORDS];
	for (int i = 0; i < n; i++) {	/* insertion: 16 at most */
		int j = i;
		for (; j > 0 && record_cmp(k, &sorted[j - 1], &r->rec[i]) > 0;
		     j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = r->rec[i];
	}
	for (int i = 0; i < n; i++)
		report_site(k, &sorted[i]);
	if (r->count > BRT_NRECORDS) {
		brt_str m = {0};
		/* of any kind: outside an array, a shared element unset */
		brt_str_printf(&m, "kernel %s: %d more --checked reports not "
			"printed", k->name, r->count - BRT_NRECORDS);
		report_line(m.p);
		brt_str_free(&m);
	}
}

/* --- scatter writes that race (brt.h, brt_kernel.owners) -------------- */
/* The scatter argument of K, or -1. */
static int scatter_arg(const brt_kernel *k)
{
	for (unsigned i = 0; i < k->nargs; i++)
		if (k->args[i].kind == BRT_ARG_SCATTER)
			return (int)i;
	return -1;
}

/* The number of write owners after L's brt_records: one per element
 * offset the scatter array's view reaches (brg_k in the kernel); 0 for
 * a kernel without them. */
static size_t owners_len(const brt_launch *L)
{
	int a = L->k->owners ? scatter_arg(L->k) : -1;
	if (a < 0)
		return 0;
	const brt_view *v = &L->views[a];
	int64_t n = v->base + 1;
	for (int i = 0; i < 4; i++) {
		if (v->dims[i] < 1)
			return 0;	/* no element: no write */
		n += (v->dims[i] - 1) * v->pitch[i];
	}
	return n > 0 && (uint64_t)n < SIZE_MAX / 8 ? (size_t)n : 0;
}

/* The lines of the scatter writes whose sites have a bit in BITS (the
 * second owner word, brt.h), ascending and each once, into LINES[8], and
 * the file of the first into *FILE; their number, 0 for none. */
static int race_lines(const brt_kernel *k, uint32_t bits, int lines[8],
	const char **file)
{
	int n = 0;
	for (unsigned i = 0; i < k->nsites && bits; i++) {
		const brt_site *s = &k->sites[i];
		if (s->kind != BRT_SITE_SCATTER || !(bits & (1u << (i % 32))))
			continue;
		int j = 0;
		while (j < n && lines[j] < s->line)
			j++;
		if ((j < n && lines[j] == s->line) || j == 8)
			continue;
		if (n == 8)
			n--;
		memmove(lines + j + 1, lines + j, (size_t)(n - j) *
			sizeof *lines);
		lines[j] = s->line;
		if (j == 0 && s->file)
			*file = s->file;
		n++;
	}
	return n;
}

/* Reports the elements of the scatter array that two instances or more
 * of the launch wrote, from the owners OWN[BRT_OWNER_WORDS N] (brgen
 * --checked; -1 marks them): the first BRT_NRECORDS by offset, then how
 * many more, each at the line of the statement that wrote it, or at the
 * first of them where several did, naming them all (the kernel's line
 * where the descriptor has no sites). The marks are the same on every
 * backend, whatever order the writes ran in. */
static void owners_report(brt_launch *L, const int32_t *own, size_t n)
{
	const brt_kernel *k = L->k;
	int a = scatter_arg(k);
	const brt_view *v = &L->views[a];
	const char *name = k->arg_names ? k->arg_names[a] : "?";
	const char *file = k->src_file ? k->src_file : "?";
	long long shown = 0, more = 0;
	for (size_t i = 0; i < n; i++) {
		if (own[BRT_OWNER_WORDS * i] != -1)
			continue;
		if (shown == BRT_NRECORDS) {
			more++;
			continue;
		}
		int64_t c[4] = {0, 0, 0, 0}, off = (int64_t)i - v->base;
		for (int x = 3; x >= 0; x--)
			if (v->dims[x] > 1 && v->pitch[x] > 0) {
				c[x] = off / v->pitch[x];
				off %= v->pitch[x];
			}
		const char *wfile = file;
		int lines[8] = {k->src_line}, nl = race_lines(k,
			(uint32_t)own[BRT_OWNER_WORDS * i + 1], lines, &wfile);
		brt_str m = {0};
		brt_str_printf(&m, "%s:%d: kernel %s: element (%lld, %lld, %lld, "
			"%lld) of the scatter array ", wfile, lines[0], k->name,
			(long long)c[0], (long long)c[1], (long long)c[2],
			(long long)c[3]);
		print_array(&m, name, v->dims);
		brt_str_printf(&m, " written by more than one instance of the "
			"launch");
		for (int j = 0; nl > 1 && j < nl; j++)
			brt_str_printf(&m, "%s%d", j == 0 ? ", at lines " : j ==
				nl - 1 ? " and " : ", ", lines[j]);
		brt_str_printf(&m, ": the writes race");
		report_line(m.p);
		brt_str_free(&m);
		shown++;
	}
	if (more) {
		brt_str m = {0};
		brt_str_printf(&m, "kernel %s: %lld more elements of %s written "
			"by more than one instance", k->name, more, name);
		report_line(m.p);
		brt_str_free(&m);
	}
}

/* --- the CPU backend -------------------------------------------------- */
/* BRT_FAIL_LAUNCH on the CPU backend: the device is lost as an OpenCL
 * device would be; 1 when so (reported as WHAT). */
int brt_cpu_lost(brt_launch *L, const char *what)
{
	if (!brt_fault_launch())
		return 0;
	L->dev->lost = 1;
	brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: %s (%s: the device "
		"was lost (BRT_FAIL_LAUNCH))", what, L->k->name);
	return 1;
}

static int launch_fits32(const brt_launch *L);

typedef struct cpu_job {
	const brt_kernel *k;
	brt_cpu_call call;
	int64_t total, chunk;
} cpu_job;

static void cpu_chunk(void *ctx, int64_t i)
{
	cpu_job *j = ctx;
	int64_t b = i * j->chunk, e = b + j->chunk;
	j->k->cpu(&j->call, b, e < j->total ? e : j->total, 0);
}

/* Splits the domain (or, for a group kernel, its work-groups) into a few
 * large ranges per thread (brt.h, brt_kernel.loops). */
static void run_cpu(brt_launch *L, char **data)
{
	const brt_kernel *k = L->k;
	cpu_job j;
	memset(&j, 0, sizeof j);
	j.k = k;
	j.call.rank = (int32_t)L->rank;
	memcpy(j.call.dims, L->dom, sizeof j.call.dims);
	memcpy(j.call.offset, L->off, sizeof j.call.offset);
	j.call.data = data;
	j.call.views = L->views;
	j.call.kernel_data = k->kernel_data;
	j.call.index32 = launch_fits32(L) && !brt_rt()->index64;
	j.total = 1;
	for (int i = 0; i < 4; i++) {
		int64_t g = k->kclass == BRT_KERNEL_GROUP && i < 3 && k->group[i]
			? (L->dom[i] + k->group[i] - 1) / k->group[i] : L->dom[i];
		j.total *= g;
	}
	brt_pool *pool = L->dev->pool;
	int64_t threads = brt_pool_threads(pool);
	/* a kernel with a loop in its body: a point may cost thousands of
	   operations (nbody's 4,096 bodies were one range, one thread: 2
	   threads 75 ms, plain C 35) */
	int64_t minchunk = k->kclass == BRT_KERNEL_GROUP ? 1 : k->loops ? 64
		: 4096;
	int64_t n = threads * 4;
	if (n > (j.total + minchunk - 1) / minchunk)
		n = (j.total + minchunk - 1) / minchunk;
	if (n < 1)
		n = 1;
	j.chunk = (j.total + n - 1) / n;
	n = (j.total + j.chunk - 1) / j.chunk;
	brt_records rec, *recp = &rec;
	size_t nown = k->records ? owners_len(L) : 0;
	if (nown && !(recp = calloc(1, sizeof rec + BRT_OWNER_WORDS * nown *
	    sizeof(int32_t)))) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to run "
			"kernel (out of host memory)");
		return;
	}
	if (k->records) {
		if (!nown)
			memset(&rec, 0, sizeof rec);
		j.call.errors = recp;
	}
	brt_pool_run(pool, cpu_chunk, &j, n);
	if (k->records)
		brt_records_report(L, recp);
	if (nown) {
		owners_report(L, (const int32_t *)(recp + 1), nown);
		free(recp);
	}
}

/* --- the OpenCL backend ----------------------------------------------- */
/* Whether every index of the launch fits the 32-bit variant (brt.h): the
 * domain, each buffer's elements, and for resized and iterator views the
 * products coordinate * extent their addressing forms; and every gather's
 * extents are at most 2^24, which that variant's code takes as given
 * (BRG_D24, brgen's gen_cl.c). */
static int launch_fits32(const brt_launch *L)
{
	const brt_kernel *k = L->k;
	int64_t total = L->dom[0] * L->dom[1] * L->dom[2] * L->dom[3];
	if (!brt_ocl_fits32(total + L->off[0] + L->off[1] + L->off[2]
		    + L->off[3]))
		return 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		if (!is_stream(&k->args[i]))
			continue;
		const brt_stream *s = L->args[i].s;
		const brt_view *v = &L->views[i];
		if (s->reg.buf && !brt_ocl_fits32((int64_t)(s->reg.buf->bytes
			    / (s->reg.esize ? s->reg.esize : 1))))
			return 0;
		for (int a = 0; a < 4 && k->args[i].kind == BRT_ARG_GATHER;
		     a++)
			if (v->dims[a] > BRT_GATHER32_MAX)
				return 0;
		int scaled = k->args[i].kind == BRT_ARG_IN && (v->map ==
			BRT_MAP_RESIZE || v->map == BRT_MAP_ITER);
		for (int a = 0; a < 4 && scaled; a++)
			if (!brt_ocl_fits32(v->dims[a] * (L->dom[a] + 1)))
				return 0;
	}
	return 1;
}

/* brt.h, "Launch geometry": a map or scatter kernel whose input and
 * output streams are all packed in the domain's shape runs its K__packed
 * (four points a work-item) or K__grid (the domain's coordinates as the
 * NDRange's) where the program has one; else NULL, and K itself runs. */
static brt_clkernel *packed_entry(const brt_launch *L, int want32)
{
	const brt_kernel *k = L->k;
	if (k->kclass == BRT_KERNEL_GROUP)
		return NULL;
	for (unsigned i = 0; i < k->nargs; i++)
		if ((k->args[i].kind == BRT_ARG_IN
			|| k->args[i].kind == BRT_ARG_OUT)
		    && L->views[i].map != BRT_MAP_SAME)
			return NULL;
	brt_clkernel *ck = brt_ocl_kernel(L->dev, k, BRT_ENTRY_PACKED, want32,
		NULL);
	if (!ck && L->dom[3] == 1)
		ck = brt_ocl_kernel(L->dev, k, BRT_ENTRY_GRID, want32, NULL);
	return ck;
}

/* The smallest power of two at least N, at most CAP. */
static size_t pow2_up(int64_t n, size_t cap)
{
	size_t p = 1;
	while (p < cap && (int64_t)p < n)
		p *= 2;
	return p;
}

/* The NDRange of entry CK over the domain (brt.h, "Launch geometry"):
 * its dimensions, and GLOBAL, LOCAL. */
static unsigned geometry(const brt_launch *L, const brt_clkernel *ck,
	size_t global[3], size_t local[3])
{
	const brt_kernel *k = L->k;
	size_t most = ck->wgsize < 256 ? ck->wgsize : 256;
	if (ck->entry == BRT_ENTRY_ROWS) {
		/* a row a work-item, up to 16 a group while there are 4
		   groups a compute unit */
		int64_t rows = L->dom[1] * L->dom[2];
		int64_t want = 4 * (int64_t)(L->dev->units ? L->dev->units : 1);
		local[0] = most < 16 ? most : 16;
		while (local[0] > 1 && rows < (int64_t)local[0] * want)
			local[0] /= 2;
		global[0] = ((size_t)rows + local[0] - 1) / local[0] * local[0];
		return 1;
	}
	if (k->kclass == BRT_KERNEL_GROUP || ck->entry == BRT_ENTRY_GRID
	    || ck->entry == BRT_ENTRY_GRIDX) {
		if (k->kclass == BRT_KERNEL_GROUP) {
			for (int i = 0; i < 3; i++)
				local[i] = k->group[i] ? k->group[i] : 1;
		} else {
			/* rows of up to 64 work-items (a whole group in
			   one dimension), then as many rows and slices as
			   fit the group (H100, 8192 x 8192 stencil: 0.303
			   ms with rows of 32, 0.295 with 64) */
			local[0] = pow2_up(L->dom[0], L->dom[1] > 1
				&& most > 64 ? 64 : most);
			local[1] = pow2_up(L->dom[1], most / local[0]);
			local[2] = pow2_up(L->dom[2], most / local[0]
				/ local[1]);
		}
		for (int i = 0; i < 3; i++)
			global[i] = ((size_t)L->dom[i] + local[i] - 1) / local[i]
				* local[i];
		return 3;
	}
	size_t total = (size_t)(L->dom[0] * L->dom[1] * L->dom[2]
		* L->dom[3]);
	/* K__packed: four points a work-item, or one on a CPU device where
	   the program allows it (brt.h; gen_entry.c has the figures) */
	int one = ck->entry == BRT_ENTRY_PACKED && L->dev->pack1 && ck->pk1;
	if (ck->entry == BRT_ENTRY_PACKED && !one)
		total = (total + 3) / 4;
	/* one point a work-item: groups of 1,024, as many work-items as four
	   lanes' 256 take (PoCL on 16 cores, six alternating rounds: the
	   bench's chain 55.9-59.6 ms with groups of 256, 43.2-48.4 with
	   1,024, raw 55.4-60.8; saxpy of 2^24 floats 1.59-2.14 and
	   1.66-2.02, raw 1.78-2.04; on 2 cores, the chain 4.15 and 3.88 ms,
	   medians of 12 rounds, raw 3.67) */
	local[0] = one ? (ck->wgsize < 1024 ? ck->wgsize : 1024) : most;
	global[0] = (total + local[0] - 1) / local[0] * local[0];
	return 1;
}

/* Whether CK's NDRange (geometry) is the domain itself. */
static int grid_exact(const brt_launch *L, const brt_clkernel *ck)
{
	size_t global[3], local[3];
	geometry(L, ck, global, local);
	for (int i = 0; i < 3; i++)
		if ((int64_t)global[i] != L->dom[i])
			return 0;
	return 1;
}

/* K__gridx in place of K__grid CK where the program has it and the
 * NDRange is the domain itself (brt.h, "Launch geometry"), else CK. Its
 * own work-group limit may give it other local sizes: tested again. */
static brt_clkernel *exact_grid(const brt_launch *L, brt_clkernel *ck,
	int want32)
{
	if (!grid_exact(L, ck))
		return ck;
	brt_clkernel *x = brt_ocl_kernel(L->dev, L->k, BRT_ENTRY_GRIDX,
		want32, NULL);
	return x && grid_exact(L, x) ? x : ck;
}

/* On a CPU device, K__rows in place of K__grid or K__gridx CK where the
 * program has it (brt.h, "Launch geometry"): such a device runs a
 * work-group's work-items in turn, and runs a row's interior faster in
 * one work-item's loop than point by point. */
static brt_clkernel *rows_entry(const brt_launch *L, brt_clkernel *ck,
	int want32)
{
	/* rows enough for 4 a compute unit: a 1D domain is one row (PoCL on
	   2 cores, nbody's 4,096 bodies: 18.6 ms by K__gridx, 36.8 in one
	   work-item) */
	int64_t units = L->dev->units ? L->dev->units : 1;
	if (!L->dev->cpu || L->dom[1] * L->dom[2] < 4 * units)
		return ck;
	brt_clkernel *r = brt_ocl_kernel(L->dev, L->k, BRT_ENTRY_ROWS, want32,
		NULL);
	return r ? r : ck;
}

/* --- launches repeated (brt(3), BACKENDS) --------------------------------
 * A chain of small kernels costs the host's work a launch: PoCL on 2
 * cores runs bench/'s raw chain as fast as it enqueues, and libbrt's
 * checks, views, choice of entry and arguments came to 2,540 instructions
 * a launch (callgrind) beside PoCL's 4,500.
 * A launch on an OpenCL device whose kernel, domainOffset and domainSize,
 * and every stream's buffer, region, rank and sizes are those of a
 * launch the device keeps takes that launch's checked shapes, views,
 * entry and NDRange again: each is a function of those alone (check_args,
 * check_alias, set_domain and set_views read nothing else of a stream
 * but what memo_run tests each time), whichever stream objects name
 * them, so views made anew at the same places are found again wherever
 * malloc puts them. What may change between the two is tested every
 * time: a NULL value argument, an input's error or unwritten buffer
 * (after brt_stream_settle, as check_args), the device lost. Where no
 * argument of the kernel object it ran has been set since
 * (brt_clinst.sets), the streams' arguments stand and only the values
 * are set (set_cached compares them); else all are (brt_ocl_pick). Waits
 * and marks are as in any launch. Reductions, kernels with records,
 * iterators and resized inputs (whose launches log a line) go the whole
 * way each time.
 * The device keeps BRT_MEMOS launches, found by their hash through
 * BRT_MEMO_BUCKETS chains; the clock algorithm picks the one to replace.
 * Each holds its arguments' places and views in arrays of its own, grown
 * to the most arguments a kernel kept there had (256 bytes each); with
 * them, a device's launches kept take 56 KiB and 256 bytes an argument.
 * libbrt's instructions a launch (callgrind, PoCL; bench/br/chain.br and
 * bench/probe/memo.br): the chain 1,380; ten kernels whose streams change
 * places every other launch (20 launches in a loop) 1,490, where 16 kept
 * and looked at one by one found none of them (3,240; nothing kept:
 * 2,630); views at 50 places in turn 2,420 (3,510 with 16 kept); at 200
 * places 2,500 (3,510 with 64 kept); views at 3,000 places, never
 * repeated, 3,550 (nothing kept: 2,900): what the lookup and the keeping
 * cost. A kernel of 12 arguments 4,700-5,300, where it was never kept
 * at first (8,650). */
enum { BRT_MEMOS = 256, BRT_MEMO_BUCKETS = 256 };

typedef uint16_t brt_memo_ix;	/* an entry j as j + 1, 0: none */

typedef struct brt_memo_arg {
	uint64_t serial;	/* its buffer's (reg.buf: compared, never
				   followed) */
	brt_region reg;
	unsigned rank, dims[4];
} brt_memo_arg;

typedef struct brt_memo_one {
	const brt_kernel *k;	/* NULL: free */
	int has_ex;		/* 0: no domain, ex unset */
	brt_exec ex;
	unsigned cap;		/* a[] and views[] hold as many */
	brt_memo_arg *a;
	brt_view *views;
	unsigned rank;
	int64_t dom[4], off[4];
	brt_clkernel *ck;
	int want32;
	unsigned dims;
	size_t global[3], local[3];
	unsigned inst;		/* ck's kernel object it ran ... */
	uint64_t sets;		/* ... and that object's sets then */
} brt_memo_one;

typedef struct brt_memo {
	unsigned hash[BRT_MEMOS];	/* one[j]'s memo_hash, 0: free */
	unsigned char ref[BRT_MEMOS];	/* one[j] found since the hand
					   passed it */
	brt_memo_ix next[BRT_MEMOS];	/* the next of one[j]'s chain, as
					   head[] */
	brt_memo_ix head[BRT_MEMO_BUCKETS];	/* each chain's first: j + 1,
						   0: none */
	unsigned hand;		/* the next to replace, unless found since
				   (the clock algorithm: about the least
				   recently used) */
	brt_memo_one one[BRT_MEMOS];
} brt_memo;

/* The chain of the launches whose memo_hash is H (its low bit always 1) */
static brt_memo_ix *memo_chain(brt_memo *mm, unsigned h)
{
	return &mm->head[(h >> 1) % BRT_MEMO_BUCKETS];
}

/* A hash of launch L's kernel, execution domain and streams (buffers and
 * the regions' places), which a lookup compares before the rest: views
 * of one stream at other places differ in it. */
static unsigned memo_hash(const brt_launch *L)
{
	const uint64_t mul = 0x9e3779b97f4a7c15u;
	uint64_t h = (uintptr_t)L->k * mul;
	if (L->exec)
		for (unsigned i = 0; i < 4; i++)
			h = (h ^ (L->exec->offset[i] + 8191u * L->exec->size[i]))
				* mul;
	for (unsigned i = 0; i < L->k->nargs; i++) {
		if (L->k->args[i].kind == BRT_ARG_VALUE)
			continue;
		const brt_stream *s = L->args[i].s;
		const int64_t *o = s->reg.origin;
		h = (h ^ (uintptr_t)s->reg.buf) * mul;
		h = (h ^ (uint64_t)(o[0] + 131 * o[1] + 8191 * o[2]
			+ 524287 * o[3] + s->reg.dims[0])) * mul;
	}
	return (unsigned)(h >> 32);
}

static int memo_kernel(const brt_kernel *k)
{
	return k->kclass != BRT_KERNEL_REDUCE && !k->records;
}

static int memo_same(const brt_memo_one *m, const brt_launch *L)
{
	const brt_kernel *k = L->k;
	if (m->k != k || m->has_ex != (L->exec != NULL) || (L->exec
	    && memcmp(&m->ex, L->exec, sizeof m->ex)))
		return 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		if (k->args[i].kind == BRT_ARG_VALUE)
			continue;
		const brt_memo_arg *x = &m->a[i];
		const brt_stream *s = L->args[i].s;
		if (x->serial != s->reg.buf->serial
		    || x->rank != s->rank
		    || memcmp(x->dims, s->dims, sizeof x->dims)
		    || memcmp(&x->reg, &s->reg, sizeof x->reg))
			return 0;
	}
	return 1;
}

/* After launch L (d->lock held): kept for the next launches when it may
 * be repeated. L->memo set means memo_run found its kernel and streams
 * fit to keep (and none like it kept). */
static void memo_put(const brt_launch *L, brt_clkernel *ck, int want32,
	unsigned dims, const size_t global[3], const size_t local[3])
{
	const brt_kernel *k = L->k;
	brt_device *d = L->dev;
	if (L->failed || !L->memo)
		return;
	for (unsigned i = 0; i < k->nargs; i++)
		if (L->views[i].map == BRT_MAP_RESIZE)	/* logs a line */
			return;
	if (!d->memo && !(d->memo = calloc(1, sizeof *d->memo)))
		return;		/* no memo: every launch the whole way */
	brt_memo *mm = d->memo;
	while (mm->ref[mm->hand]) {
		mm->ref[mm->hand] = 0;
		mm->hand = (mm->hand + 1) % BRT_MEMOS;
	}
	unsigned j = mm->hand;
	brt_memo_one *m = &mm->one[j];
	if (m->cap < k->nargs) {	/* else kept as it was */
		brt_memo_arg *a = realloc(m->a, k->nargs * sizeof *a);
		if (a)
			m->a = a;
		brt_view *v = a ? realloc(m->views, k->nargs * sizeof *v)
			: NULL;
		if (!v)
			return;
		m->views = v;
		m->cap = k->nargs;
	}
	mm->hand = (j + 1) % BRT_MEMOS;
	if (mm->hash[j]) {	/* out of its chain */
		brt_memo_ix *p = memo_chain(mm, mm->hash[j]);
		while (*p != j + 1)
			p = &mm->next[*p - 1];
		*p = mm->next[j];
	}
	brt_memo_ix *c = memo_chain(mm, L->memo);
	mm->hash[j] = L->memo;
	mm->next[j] = *c;
	*c = (brt_memo_ix)(j + 1);
	m->k = k;
	m->has_ex = L->exec != NULL;
	if (L->exec)
		m->ex = *L->exec;
	for (unsigned i = 0; i < k->nargs; i++) {
		m->views[i] = L->views[i];
		if (k->args[i].kind == BRT_ARG_VALUE)
			continue;	/* memo_same passes its a[i] by */
		const brt_stream *s = L->args[i].s;
		m->a[i].serial = s->reg.buf->serial;
		m->a[i].reg = s->reg;
		m->a[i].rank = s->rank;
		memcpy(m->a[i].dims, s->dims, sizeof m->a[i].dims);
	}
	m->rank = L->rank;
	memcpy(m->dom, L->dom, sizeof m->dom);
	memcpy(m->off, L->off, sizeof m->off);
	m->ck = ck;
	m->want32 = want32;
	m->dims = dims;
	memcpy(m->global, global, sizeof m->global);
	memcpy(m->local, local, sizeof m->local);
	m->inst = ck->cur;
	m->sets = ck->inst[ck->cur].sets;
}

void brt_memo_free(brt_device *d)
{
	if (!d->memo)
		return;
	for (unsigned j = 0; j < BRT_MEMOS; j++) {
		free(d->memo->one[j].a);
		free(d->memo->one[j].views);
	}
	free(d->memo);
	d->memo = NULL;
}

static void run_ocl(brt_launch *L, brt_memo_one *kept);

/* Launch L as a launch the device keeps (above), if it is one; 0 when
 * it is not, and L must go the whole way. */
static int memo_run(brt_launch *L)
{
	const brt_kernel *k = L->k;
	brt_device *d = L->dev;
	if (!d || d->kind != BRT_DEV_OPENCL || !memo_kernel(k))
		return 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		const brt_argdesc *a = &k->args[i];
		brt_stream *s = L->args[i].s;
		if (a->kind == BRT_ARG_VALUE) {
			if (!L->args[i].value)
				return 0;
			continue;
		}
		if (a->kind == BRT_ARG_REDUCE || !s || s->iter || !s->reg.buf
		    || s->dev != d)
			return 0;
		if (is_read(a)) {
			brt_stream_settle(s);	/* its errors propagate */
			if (s->err != BR_NO_ERROR || !s->reg.buf->written)
				return 0;
		}
	}
	unsigned h = L->memo = memo_hash(L) | 1u;	/* 0: none */
	pthread_mutex_lock(&d->lock);
	brt_memo *mm = d->lost ? NULL : d->memo;
	brt_memo_one *m = NULL;
	d->memo_looked++;
	for (unsigned e = mm ? *memo_chain(mm, h) : 0; e && !m;
	     e = mm->next[e - 1])
		if (mm->hash[e - 1] == h && memo_same(&mm->one[e - 1], L)) {
			m = &mm->one[e - 1];
			mm->ref[e - 1] = 1;
		}
	if (!m) {
		pthread_mutex_unlock(&d->lock);
		return 0;
	}
	d->memo_found++;
	memcpy(L->views, m->views, k->nargs * sizeof *L->views);
	L->rank = m->rank;
	memcpy(L->dom, m->dom, sizeof L->dom);
	memcpy(L->off, m->off, sizeof L->off);
	run_ocl(L, m);		/* unlocks */
	return 1;
}

/* Sets the arguments of a map, scatter or group kernel (brt.h, "OpenCL
 * kernel names and parameters") and launches it. With KEPT, a launch the
 * device keeps (memo_run, d->lock held), its entry and NDRange are
 * KEPT's. */
static void run_ocl(brt_launch *L, brt_memo_one *kept)
{
	const brt_kernel *k = L->k;
	brt_device *d = L->dev;
	brt_str msg = {0};
	cl_mem wrec = NULL;	/* the launch's records and write owners */
	int want32;
	brt_clkernel *ck;
	if (kept) {
		want32 = kept->want32;
		ck = kept->ck;
	} else {
		pthread_mutex_lock(&d->lock);
		want32 = launch_fits32(L);
		/* K itself only where no other entry runs: one lookup a
		   launch */
		ck = packed_entry(L, want32);
		if (ck && ck->entry == BRT_ENTRY_GRID)
			ck = rows_entry(L, exact_grid(L, ck, want32), want32);
		if (!ck)
			ck = brt_ocl_kernel(d, k, BRT_ENTRY_MAIN, want32, &msg);
		if (!ck) {
			brt_kfail(L, BR_ERROR_KERNEL, "%s", msg.p);
			goto out;
		}
	}
	unsigned n = 0;
	int bad = 0;
	/* K__packed of brgen's since brg_pv: an input or output stream's
	   buffer alone, then the number of points and their bases (brt.h) */
	int pk = ck->entry == BRT_ENTRY_PACKED && ck->pk;
	/* a launch kept whose kernel object has had no argument set since:
	   the streams' arguments stand (memo_run), the packed bases too */
	int same = kept && kept->inst < ck->ninst
		&& ck->inst[kept->inst].sets == kept->sets;
	int64_t pks[16], *pkv = pks;
	unsigned npk = 1;
	if (pk && !same && k->nargs >= 16 && !(pkv = malloc((k->nargs + 1)
			* sizeof *pkv))) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to run "
			"kernel (out of host memory)");
		goto out;
	}
	if (same) {
		ck->cur = kept->inst;
		ck->inst[kept->inst].used = ++ck->clock;
	} else {
		/* the kernel object whose buffers are set already
		   (brt_ocl_pick): the arguments' positions as the loop below
		   sets them */
		unsigned pidx[16];
		const brt_buffer *pbuf[16];
		unsigned np = 0;
		for (unsigned i = 0, at = 0; i < k->nargs && np < 16; i++) {
			const brt_argdesc *a = &k->args[i];
			if (a->kind == BRT_ARG_VALUE) {
				at++;
				continue;
			}
			pidx[np] = at;
			pbuf[np++] = L->args[i].s->reg.buf;
			at += pk && (a->kind == BRT_ARG_IN
				|| a->kind == BRT_ARG_OUT) ? 1 : 2;
		}
		brt_ocl_pick(ck, pidx, pbuf, np);
	}
	for (unsigned i = 0; i < k->nargs && !bad; i++) {
		const brt_argdesc *a = &k->args[i];
		if (a->kind == BRT_ARG_VALUE) {
			bad = brt_ocl_setvalue(ck, n++, a->type,
				L->args[i].value, &msg);
			continue;
		}
		brt_stream *s = L->args[i].s;
		if (!same)
			bad = brt_ocl_setmem(ck, n, s->reg.buf, &msg);
		n++;
		if (pk && (a->kind == BRT_ARG_IN || a->kind == BRT_ARG_OUT)) {
			if (!same)
				pkv[npk++] = L->views[i].base;
		} else if (!bad && !same)
			bad = brt_ocl_setview(ck, n++, &L->views[i], &msg);
		else
			n++;
	}
	if (!bad && pk) {
		if (!same) {
			pkv[0] = L->dom[0] * L->dom[1] * L->dom[2] * L->dom[3];
			if (npk == 1)
				pkv[npk++] = 0;	/* brgen's one base at least */
			bad = brt_ocl_setidx(ck, n, pkv, npk, &msg);
		}
		n++;
	} else if (!bad && !same) {
		bad = brt_ocl_setidx(ck, n++, L->dom, 4, &msg)
			|| brt_ocl_setidx(ck, n++, L->off, 4, &msg);
	} else if (!bad) {
		n += 2;
	}
	if (pkv != pks)
		free(pkv);
	cl_mem rec = NULL;
	brt_recslot *slot = NULL;
	size_t nown = k->records ? owners_len(L) : 0;
	size_t recbytes = sizeof(brt_records) + BRT_OWNER_WORDS * nown *
		sizeof(int32_t);
	if (!bad && nown)	/* this launch's records and write owners */
		bad = brt_ocl_records_owners(d, recbytes, &wrec, &msg)
			|| brt_ocl_setarg(ck, n++, sizeof wrec, &wrec, 1, &msg);
	else if (!bad && k->records && !k->nsites && scatter_arg(k) >= 0)
		/* read later, when a scatter stream is used: no wait */
		bad = !(slot = brt_ocl_recslot(L, &msg))
			|| brt_ocl_setarg(ck, n++, sizeof slot->mem, &slot->mem,
				1, &msg);
	else if (!bad && k->records)
		bad = brt_ocl_records(d, &rec, &msg)
			|| brt_ocl_setarg(ck, n++, sizeof rec, &rec, 1, &msg);
	if (bad) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to bind "
			"constant buffer (%s: %s)", k->name, msg.p);
		goto out;
	}
	size_t global[3], local[3];
	unsigned dims;
	if (kept) {
		dims = kept->dims;
		memcpy(global, kept->global, sizeof global);
		memcpy(local, kept->local, sizeof local);
	} else {
		dims = geometry(L, ck, global, local);
	}
	brt_waits w;	/* ev[] unset: zeroing it cost a found launch 25
			   instructions (callgrind, bench/RESULTS.md) */
	w.n = 0;
	w.q = d->queue;
	for (unsigned i = 0; i < k->nargs; i++)
		if (is_stream(&k->args[i]))
			brt_ocl_wait(&w, L->args[i].s->reg.buf);
	if (brt_ocl_enqueue(d, ck, dims, global, local, &w, NULL, &msg)) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to run "
			"kernel (%s: %s)", k->name, msg.p);
		goto out;
	}
	for (unsigned i = 0; i < k->nargs; i++)
		if (is_stream(&k->args[i]) && L->args[i].s->reg.buf)
			brt_ocl_mark(L->args[i].s->reg.buf, NULL);
	if (!kept)
		memo_put(L, ck, want32, dims, global, local);
	else if (!L->failed) {	/* its values may have been set */
		kept->inst = ck->cur;
		kept->sets = ck->inst[ck->cur].sets;
	}
	if (nown) {
		brt_records *r = malloc(recbytes);
		cl_mem m = wrec;
		wrec = NULL;
		if (brt_ocl_records_take(d, m, r, recbytes, &msg))
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed "
				"to run kernel (%s: %s)", k->name, msg.p);
		else if (!r)
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed "
				"to run kernel (out of host memory)");
		else {
			brt_records_report(L, r);
			owners_report(L, (const int32_t *)(r + 1), nown);
		}
		free(r);
	} else if (k->records && !slot) {
		/* waits for the kernel: the cost of a kernel with checked
		   accesses (brt.3, Accesses outside their array) */
		brt_records r;
		if (brt_ocl_records_read(d, &r, &msg))
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed "
				"to run kernel (%s: %s)", k->name, msg.p);
		else
			brt_records_report(L, &r);
	}
out:
	if (wrec)
		brt_ocl_records_take(d, wrec, NULL, 0, &msg);
	pthread_mutex_unlock(&d->lock);
	brt_str_free(&msg);
}

static void launch(brt_launch *L)
{
	const brt_kernel *k = L->k;
	if (L->dev->lost) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to run "
			"kernel (%s: the device was lost)", k->name);
		return;
	}
	if (k->kclass == BRT_KERNEL_GROUP && L->dom[3] > 1) {
		brt_kfail(L, BR_ERROR_NOT_SUPPORTED, "Kernel Execution: a group "
			"kernel's domain has at most 3 dimensions");
		return;
	}
	if (L->dev->kind == BRT_DEV_OPENCL) {
		run_ocl(L, NULL);
		return;
	}
	if (!k->cpu) {
		brt_kfail(L, BR_ERROR_NOT_SUPPORTED, "Kernel Execution: Failed "
			"to run kernel (%s has no CPU code)", k->name);
		return;
	}
	if (brt_cpu_lost(L, "Failed to run kernel"))
		return;
	char **data = calloc(k->nargs + 1, sizeof *data);
	if (!data) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to run "
			"kernel (out of host memory)");
		return;
	}
	for (unsigned i = 0; i < k->nargs; i++) {
		const brt_argdesc *a = &k->args[i];
		if (a->kind == BRT_ARG_VALUE)
			data[i] = (char *)L->args[i].value;
		else if (L->args[i].s->reg.buf)
			data[i] = L->args[i].s->reg.buf->host;
	}
	run_cpu(L, data);
	free(data);
}

/* Guide 1.8 and brt.h: runs K on the calling thread's device. */
void brt_run(const brt_kernel *k, const brt_arg *args, const brt_exec *exec)
{
	brt_launch L;
	memset(&L, 0, sizeof L);
	if (!k || (k->nargs && (!args || !k->args))) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER, "Kernel Execution: "
			"NULL kernel or arguments");
		return;
	}
	L.k = k;
	L.args = args;
	L.dev = brt_current();
	if (brt_rt()->timing)	/* brt_lastKernelTime: this run's commands */
		brt_ocl_timing_clear(brt_self());
	/* the per-argument arrays: on the stack for kernels of up to
	 * BRT_STACK_ARGS - 1 arguments, else one zeroed block; calloc and
	 * free were a seventh of libbrt's own work in a launch of a chain of
	 * small kernels (callgrind, PoCL, the benchmark's static build: 529
	 * of 3,520 instructions). The views on the stack are zeroed only
	 * where memo_run does not take the launch (it copies them), the
	 * outputs never (L.nout of them are read) */
	enum { BRT_STACK_ARGS = 8 };
	brt_view sviews[BRT_STACK_ARGS];
	brt_stream *souts[BRT_STACK_ARGS];
	size_t na = (size_t)k->nargs + 1;
	char *block = NULL;
	if (na <= BRT_STACK_ARGS) {
		L.views = sviews;
		L.outs = souts;
	} else {
		block = calloc(na, sizeof *L.views + sizeof *L.outs);
		if (!block) {
			brt_set_last(BR_ERROR_KERNEL, "Kernel Execution: Failed "
				"to run kernel (out of host memory)");
			return;
		}
		L.views = (brt_view *)block;
		L.outs = (brt_stream **)(block + na * sizeof *L.views);
	}
	for (unsigned i = 0; i < k->nargs; i++)
		if (is_write(&k->args[i], &args[i]) && args[i].s)
			L.outs[L.nout++] = args[i].s;
	if (!L.dev) {
		brt_kfail(&L, BR_ERROR_KERNEL, "Kernel Execution: no device");
		goto out;
	}
	/* the memo's key: a domain of rank 0 at offset 0 is no domain
	   (set_domain) */
	L.exec = exec;
	if (exec && !exec->rank && !(exec->offset[0] | exec->offset[1]
	    | exec->offset[2] | exec->offset[3]))
		L.exec = NULL;
	if (memo_run(&L))
		goto done;
	if (!block)
		memset(sviews, 0, na * sizeof *sviews);
	check_args(&L);
	check_alias(&L);
	if (L.failed)
		goto out;
	if (k->kclass == BRT_KERNEL_REDUCE) {
		brt_reduce(&L);
	} else {
		brt_stream *ds = domain_stream(&L);
		set_domain(&L, ds, exec);
		if (!L.failed)
			set_views(&L, ds);
		if (!L.failed)
			launch(&L);
	}
done:
	if (!L.failed)
		for (unsigned i = 0; i < L.nout; i++)
			L.outs[i]->reg.buf->written = 1;
out:
	free(block);
}
