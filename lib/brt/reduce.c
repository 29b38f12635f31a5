/* reduce.c - reductions (BrookGPU, Reductions and Multi-dimensional
 * Reductions; spec 4.1.2; DESIGN.md reading 8) on both backends. The input
 * is read once: on the CPU each thread folds large ranges into scratch
 * accumulators that combine() then folds in order; on OpenCL at most two
 * launches of K__reduce, a tree in local memory. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct red {
	brt_launch *L;
	unsigned in, r;		/* the input and the reduce argument */
	brt_stream *src, *dst;	/* dst NULL: a host scalar target */
	int64_t odims[4], block[4];
	unsigned shift;		/* input axes the target lacks (spec 4.1.3) */
	int64_t nout, n;	/* output elements, elements per block */
	size_t esize;
	char **vals;		/* per argument: a VALUE's address, or NULL */
	brt_records *rec;	/* records set (brt.h): the launch's, which
				   every pass and combining step fills */
} red;

/* Spec 8: the target's rank and extents against the input's. */
static int red_shape(red *R)
{
	brt_launch *L = R->L;
	for (int i = 0; i < 4; i++) {
		R->odims[i] = 1;
		R->block[i] = R->src->reg.dims[i];
	}
	if (R->dst) {
		if (R->dst->rank > R->src->rank) {
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Reduction "
				"operation don't allow output rank > input rank");
			return -1;
		}
		/* spec 4.1.3: a target of lower rank lines up with the
		 * input's slowest axes (t<100> from s<100,200> sums 1x200
		 * strips); the axes it lacks fold whole */
		unsigned sh = R->shift = R->src->rank - R->dst->rank;
		for (unsigned a = 0; a < sh; a++)
			R->block[a] = R->src->dims[a];
		for (unsigned j = 0; j < R->dst->rank; j++) {
			unsigned i = j + sh;
			R->odims[i] = R->dst->dims[j];
			if (R->src->dims[i] % R->dst->dims[j]) {
				brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: "
					"Input dimensions should be integral "
					"multiple of output dimensions. The "
					"results might be undefined");
				return -1;
			}
			R->block[i] = R->src->dims[i] / R->dst->dims[j];
		}
	}
	R->nout = R->odims[0] * R->odims[1] * R->odims[2] * R->odims[3];
	R->n = R->block[0] * R->block[1] * R->block[2] * R->block[3];
	return 0;
}

/* *acc = acc (op) *val, by the kernel's combining rule, which may read
 * the call's VALUE arguments (R->vals). */
static void combine(const red *R, const void *val, void *acc)
{
	const brt_kernel *k = R->L->k;
	if (k->combine_call) {
		brt_cpu_call c;
		memset(&c, 0, sizeof c);
		c.data = R->vals;
		c.kernel_data = k->kernel_data;
		c.errors = R->rec;
		k->combine_call(&c, val, acc);
	} else if (k->combine_data) {
		k->combine_data(k->kernel_data, val, acc);
	} else {
		k->combine(val, acc);
	}
}

/* Coordinates of linear index I over extents D, x fastest. */
static void coords(int64_t i, const int64_t d[4], int64_t c[4])
{
	for (int a = 0; a < 4; a++) {
		c[a] = i % d[a];
		i /= d[a];
	}
}

/* Address of output element O of the stream target. */
static char *dst_elem(const red *R, int64_t o)
{
	int64_t c[4], pitch[4];
	brt_region r = R->dst->reg;
	coords(o, R->odims, c);
	brt_region_pitch(&r, pitch);
	int64_t e = brt_region_base(&r);
	for (int a = 0; a + R->shift < 4; a++)
		e += c[a + R->shift] * pitch[a];
	return r.buf->host + (size_t)e * R->esize;
}

/* --- the CPU backend ----------------------------------------------------- */
typedef struct cpu_red {
	red *R;
	int64_t cpo;		/* ranges per output element */
	int64_t per_job;	/* items per job */
	int64_t nitems;
	char *scratch;		/* nitems accumulators, or NULL: the target */
} cpu_red;

/* Job J folds items [J * per_job, ...); item it is range it % cpo of
 * output element it / cpo. */
static void cpu_red_job(void *ctx, int64_t j)
{
	cpu_red *C = ctx;
	red *R = C->R;
	brt_launch *L = R->L;
	const brt_kernel *k = L->k;
	unsigned na = k->nargs;
	char **data = calloc(na, sizeof *data);
	brt_view *views = calloc(na, sizeof *views);
	if (!data || !views) {
		free(data);
		free(views);
		return;
	}
	for (unsigned i = 0; i < na; i++) {
		if (k->args[i].kind == BRT_ARG_VALUE)
			data[i] = (char *)L->args[i].value;
		else if (k->args[i].kind == BRT_ARG_IN)
			data[i] = L->args[i].s->reg.buf->host;
	}
	brt_cpu_call c;
	memset(&c, 0, sizeof c);
	c.rank = (int32_t)R->src->rank;
	memcpy(c.dims, R->block, sizeof c.dims);
	memcpy(c.block, R->block, sizeof c.block);
	c.data = data;
	c.views = views;
	c.kernel_data = k->kernel_data;
	c.errors = R->rec;	/* shared: the kernel's code counts atomically */
	int64_t end = (j + 1) * C->per_job;
	if (end > C->nitems)
		end = C->nitems;
	for (int64_t it = j * C->per_job; it < end; it++) {
		int64_t o = it / C->cpo, part = it % C->cpo, oc[4];
		coords(o, R->odims, oc);
		for (unsigned i = 0; i < na; i++) {
			if (k->args[i].kind != BRT_ARG_IN)
				continue;
			brt_region r = L->args[i].s->reg;
			for (int a = 0; a < 4; a++) {
				r.origin[a] += oc[a] * R->block[a];
				r.dims[a] = R->block[a];
			}
			brt_region_view(&r, L->args[i].s->rank, &views[i]);
		}
		data[R->r] = C->scratch ? C->scratch + (size_t)it * R->esize
			: dst_elem(R, o);
		k->cpu(&c, part * R->n / C->cpo, (part + 1) * R->n / C->cpo, 1);
	}
	free(data);
	free(views);
}

/* Folds the scratch accumulators of output O, in order, into ACC. */
static void cpu_combine(const cpu_red *C, int64_t o, char *acc)
{
	const red *R = C->R;
	memcpy(acc, C->scratch + (size_t)(o * C->cpo) * R->esize, R->esize);
	for (int64_t p = 1; p < C->cpo; p++)
		combine(R, C->scratch + (size_t)(o * C->cpo + p)
			* R->esize, acc);
}

static void red_cpu(red *R)
{
	brt_launch *L = R->L;
	const brt_kernel *k = L->k;
	if (!k->cpu || (!k->combine && !k->combine_data && !k->combine_call)) {
		brt_kfail(L, BR_ERROR_NOT_SUPPORTED, "Kernel Execution: Failed "
			"to execute a reduction pass (%s has no CPU code)",
			k->name);
		return;
	}
	if (brt_cpu_lost(L, "Failed to execute a reduction pass"))
		return;
	brt_pool *pool = L->dev->pool;
	int64_t threads = brt_pool_threads(pool);
	cpu_red C;
	memset(&C, 0, sizeof C);
	C.R = R;
	/* enough ranges for every thread, none under 4096 elements */
	C.cpo = 1;
	if (R->nout < threads * 4) {
		C.cpo = (threads * 4 + R->nout - 1) / R->nout;
		if (C.cpo > (R->n + 4095) / 4096)
			C.cpo = (R->n + 4095) / 4096;
		if (C.cpo < 1)
			C.cpo = 1;
	}
	C.nitems = R->nout * C.cpo;
	int scalar = !R->dst;
	if (C.cpo > 1 || scalar) {
		/* counted as a buffer, for BRT_FAIL_ALLOC, as on OpenCL */
		C.scratch = brt_fault_alloc() ? NULL
			: malloc((size_t)C.nitems * R->esize);
		if (!C.scratch) {
			brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Unable "
				"to create temporary stream required for "
				"reduction");
			return;
		}
	}
	int64_t jobs = threads * 4 < C.nitems ? threads * 4 : C.nitems;
	C.per_job = (C.nitems + jobs - 1) / jobs;
	jobs = (C.nitems + C.per_job - 1) / C.per_job;
	brt_pool_run(pool, cpu_red_job, &C, jobs);
	if (C.scratch && !scalar) {
		for (int64_t o = 0; o < R->nout; o++)
			cpu_combine(&C, o, dst_elem(R, o));
	} else if (scalar) {
		char *acc = malloc(R->esize);
		if (acc) {
			cpu_combine(&C, 0, acc);
			if (k->reduce_init == BRT_REDUCE_VALUE)
				combine(R, acc, L->args[R->r].target);
			else
				memcpy(L->args[R->r].target, acc, R->esize);
		}
		free(acc);
	}
	free(C.scratch);
}

/* --- the OpenCL backend ------------------------------------------------ */
static size_t pow2_below(size_t n)
{
	size_t p = 1;
	while (p * 2 <= n)
		p *= 2;
	return p;
}

/* One launch of K__reduce: IN (view VIN) into OUT; brt.h gives the
 * parameters. */
static int red_pass(red *R, brt_clkernel *ck, const brt_buffer *in,
	const brt_view *vin, const brt_buffer *out, const int64_t block[4],
	int64_t chunks, size_t lsz, brt_waits *w, brt_str *msg)
{
	brt_launch *L = R->L;
	const brt_kernel *k = L->k;
	size_t tsz = brt_cl_size(R->src->type) * lsz;
	unsigned n = 7;
	/* only what changed since the last launch of CK is set again */
	int bad = brt_ocl_setmem(ck, 0, in, msg)
		|| brt_ocl_setview(ck, 1, vin, msg)
		|| brt_ocl_setmem(ck, 2, out, msg)
		|| brt_ocl_setidx(ck, 3, &R->nout, 1, msg)
		|| brt_ocl_setidx(ck, 4, block, 4, msg)
		|| brt_ocl_setidx(ck, 5, &chunks, 1, msg)
		|| brt_ocl_setlocal(ck, 6, tsz, msg);
	for (unsigned i = 0; i < k->nargs && !bad; i++) {
		if (k->args[i].kind != BRT_ARG_VALUE)
			continue;
		bad = brt_ocl_setvalue(ck, n++, k->args[i].type,
			L->args[i].value, msg);
	}
	cl_mem rec;
	if (!bad && k->records)	/* brt.h, REDUCE: after the VALUEs */
		bad = brt_ocl_records(L->dev, &rec, msg)
			|| brt_ocl_setarg(ck, n, sizeof rec, &rec, 1, msg);
	if (bad) {
		brt_ocl_waits_done(w);
		return -1;
	}
	size_t global = (size_t)(R->nout * chunks) * lsz;
	return brt_ocl_enqueue(L->dev, ck, 1, &global, &lsz, w, NULL, msg);
}

/* A temporary of at least BYTES: the one kept in SLOT (with the kernel
 * object, so that a reduction called again allocates nothing), else a new
 * one kept there. The caller releases its reference. */
static brt_buffer *red_temp(brt_device *d, brt_buffer **slot, size_t bytes)
{
	if (*slot && (*slot)->bytes >= bytes) {
		(*slot)->refs++;
		return *slot;
	}
	brt_buffer *b = brt_buffer_new(d, bytes);
	if (!b)
		return NULL;
	if (*slot)	/* idle before it goes: no driver reuses it early */
		brt_buffer_sync(*slot, 1);
	brt_buffer_release(*slot);
	b->refs++;
	*slot = b;
	return b;
}

static void red_ocl(red *R)
{
	brt_launch *L = R->L;
	brt_device *d = L->dev;
	brt_str msg = {0};
	brt_buffer *part = NULL, *target = NULL;
	pthread_mutex_lock(&d->lock);
	/* 32-bit indices (brt.h) when the input and the partial results
	 * (at most 1024 per output element) fit */
	int fits = brt_ocl_fits32((int64_t)(R->src->reg.buf->bytes
		/ R->src->reg.esize)) && brt_ocl_fits32(R->nout * 1024);
	brt_clkernel *ck = brt_ocl_kernel(d, L->k, BRT_ENTRY_REDUCE, fits,
		&msg);
	if (!ck) {
		brt_kfail(L, BR_ERROR_KERNEL, "%s", msg.p);
		goto out;
	}
	/* a CPU device (PoCL) runs a work-group's work-items in turn on one
	 * thread, each striding through its block as a GPU's would in
	 * step, so that four of them read each cache line in turn: there,
	 * groups of one work-item, 64 of them a compute unit, each folding
	 * its share in order (gen_entry.c, cl_reduce_runs). PoCL on 2 cores,
	 * 2^24 floats to a host scalar: 12.97 ms with 8 groups of 256,
	 * 3.2-3.6 with 128 groups of 64 (rows of 4,096, rowsum: 5.8-5.9);
	 * in eight alternating rounds, 128 groups of one work-item with one
	 * accumulator 2.31-2.44 (rowsum 2.32-2.39, one round of each 1.3),
	 * with eight 1.88-2.02 (rowsum 1.89-2.18) */
	size_t most = d->cpu ? 1 : 256;
	size_t lsz = pow2_below(ck->wgsize < most ? ck->wgsize : most);
	/* a small block, such as a row of a partial reduction, to fewer
	 * work-items: at least 64 elements each (16 vector loads), for more
	 * loads in flight and a shorter tree (H100, rows of 4,096: 0.039 ms
	 * with 256 work-items, 0.036 with 64) */
	while (lsz > 32 && R->n / (int64_t)lsz < 64)
		lsz /= 2;
	/* first pass: enough work-groups to fill the device */
	int64_t want = (int64_t)(d->units ? d->units : 1) * (d->cpu ? 64 : 16);
	int64_t chunks = (want + R->nout - 1) / R->nout;
	if (chunks > (R->n + (int64_t)lsz - 1) / (int64_t)lsz)
		chunks = (R->n + (int64_t)lsz - 1) / (int64_t)lsz;
	if (chunks > 1024)
		chunks = 1024;
	if (chunks < 1)
		chunks = 1;
	int direct = R->dst && brt_region_packed(&R->dst->reg);
	if (!direct)
		target = red_temp(d, &ck->target, (size_t)R->nout * R->esize);
	if (chunks > 1)
		part = red_temp(d, &ck->part, (size_t)(R->nout * chunks)
			* R->esize);
	if ((!direct && !target) || (chunks > 1 && !part)) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Unable to "
			"create temporary stream required for reduction");
		goto out;
	}
	brt_buffer *out = direct ? R->dst->reg.buf : target;
	brt_view vin;
	brt_region_view(&R->src->reg, R->src->rank, &vin);
	brt_waits w = { .n = 0, .q = d->queue };
	brt_ocl_wait(&w, R->src->reg.buf);
	brt_ocl_wait(&w, out);
	brt_ocl_wait(&w, part);
	/* no events, as for a map kernel: the passes go to the in-order
	   compute queue, which needs none, and their buffers are marked
	   pending below (brt_ocl_mark), so that whatever else waits for
	   them gets a marker then; a host scalar's read below waits for
	   the passes. A launch without an event is flushed by the queue's
	   policy (brt_ocl_enqueue). H100, 2^26 floats to a scalar, medians
	   of 5 runs: 0.119 -> 0.117 ms (hand-written: 0.112); rows of 4,096
	   floats in runs of 16 calls: 0.0268 ms a call when each waited
	   for the last one's event, 0.0258 without (hand-written 0.0256 -
	   0.0258) */
	int sync = !R->dst;
	if (red_pass(R, ck, R->src->reg.buf, &vin, chunks > 1 ? part : out,
		    R->block, chunks, lsz, &w, &msg))
		goto fail;
	if (!sync) {	/* now, should the second pass fail */
		brt_ocl_mark(R->src->reg.buf, NULL);
		brt_ocl_mark(part, NULL);
		brt_ocl_mark(out, NULL);
	}
	if (chunks > 1) {
		/* its own kernel object, whose arguments stay set: a call
		   like the last sets none again. H100, 2^26 floats to a host
		   scalar: 0.113 -> 0.109-0.111 ms (hand-written 0.108-0.109,
		   which sets its arguments once). Folding the partial results
		   on the host instead of this pass was slower: 0.122 ms, the
		   1,024 calls of the CPU combine cost more than the launch */
		brt_clkernel *ck2 = brt_ocl_kernel(d, L->k, BRT_ENTRY_REDUCE2,
			fits, &msg);
		if (!ck2)
			goto fail;
		brt_view vp;
		memset(&vp, 0, sizeof vp);
		int64_t pb[4] = { chunks, 1, 1, 1 };
		vp.dims[0] = chunks;
		vp.dims[1] = R->nout;
		vp.dims[2] = vp.dims[3] = 1;
		vp.pitch[0] = 1;
		vp.pitch[1] = chunks;
		vp.rank = 2;
		vp.map = BRT_MAP_PARTIAL;
		size_t l2 = pow2_below((size_t)chunks < lsz ? (size_t)chunks
			: lsz);
		if (red_pass(R, ck2, part, &vp, out, pb, 1, l2, NULL, &msg))
			goto fail;
	}
	/* waits for the passes: the cost of checked accesses (brt.3) */
	if (R->rec && brt_ocl_records_read(d, R->rec, &msg))
		goto fail;
	if (!direct && !sync) {
		brt_region tr = R->dst->reg;
		memset(tr.origin, 0, sizeof tr.origin);
		memcpy(tr.root, tr.dims, sizeof tr.root);
		tr.buf = target;
		if (brt_ocl_copy(&R->dst->reg, &tr, &msg))
			goto fail;
	} else if (sync) {
		char *acc = malloc(R->esize);
		if (!acc) {
			brt_str_printf(&msg, "out of host memory");
			goto fail;
		}
		/* same queue as the passes: in order after them */
		int bad = brt_ocl_read_small(d, out->mem, R->esize, acc, &msg);
		if (!bad && L->k->reduce_init == BRT_REDUCE_VALUE
		    && (L->k->combine || L->k->combine_data
			|| L->k->combine_call))
			combine(R, acc, L->args[R->r].target);
		else if (!bad)
			memcpy(L->args[R->r].target, acc, R->esize);
		free(acc);
		if (bad)
			goto fail;
	}
	goto out;
fail:
	brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to execute a "
		"reduction pass (%s: %s)", L->k->name, msg.p ? msg.p : "");
out:
	brt_buffer_release(part);
	brt_buffer_release(target);
	pthread_mutex_unlock(&d->lock);
	brt_str_free(&msg);
}

/* A REDUCE kernel: its first IN argument folded into its REDUCE argument
 * (a stream, whose shape sets the blocks, or a host scalar). */
void brt_reduce(brt_launch *L)
{
	const brt_kernel *k = L->k;
	red R;
	memset(&R, 0, sizeof R);
	R.L = L;
	int hasin = 0, hasr = 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		if (k->args[i].kind == BRT_ARG_IN && !hasin) {
			R.in = i;
			hasin = 1;
		} else if (k->args[i].kind == BRT_ARG_REDUCE && !hasr) {
			R.r = i;
			hasr = 1;
		}
	}
	if (!hasin || !hasr) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to "
			"execute a reduction pass (%s needs an input stream and "
			"a reduce argument)", k->name);
		return;
	}
	R.src = L->args[R.in].s;
	R.dst = k->args[R.r].reduce_stream ? L->args[R.r].s : NULL;
	R.esize = R.src->type.size;
	if (R.src->iter) {
		brt_kfail(L, BR_ERROR_NOT_SUPPORTED, "Kernel Execution: Failed "
			"to execute a reduction pass (the input is an iterator)");
		return;
	}
	if (R.dst && R.dst->type.size != R.esize) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to "
			"execute a reduction pass (input and target types differ)");
		return;
	}
	if (red_shape(&R))
		return;
	if (L->dev->lost) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to "
			"execute a reduction pass (%s: the device was lost)",
			k->name);
		return;
	}
	R.vals = calloc(k->nargs + 1, sizeof *R.vals);
	if (!R.vals) {
		brt_kfail(L, BR_ERROR_KERNEL, "Kernel Execution: Failed to "
			"execute a reduction pass (out of host memory)");
		return;
	}
	for (unsigned i = 0; i < k->nargs; i++)
		if (k->args[i].kind == BRT_ARG_VALUE)
			R.vals[i] = (char *)L->args[i].value;
	brt_records rec;
	if (k->records) {
		memset(&rec, 0, sizeof rec);
		R.rec = &rec;
	}
	if (L->dev->kind == BRT_DEV_OPENCL)
		red_ocl(&R);
	else
		red_cpu(&R);
	if (R.rec)
		brt_records_report(L, R.rec);
	free(R.vals);
}
