/* opencl.c - the OpenCL backend: libOpenCL loaded with dlopen (so a machine
 * without it still runs programs on the CPU backend), devices ordered by
 * type (GPUs first, never the platforms' order), one context and one
 * in-order queue per device, buffers, transfers, and the kernel objects of
 * each device. Every call may fail without a platform; none aborts. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *brt_cl_error(cl_int e)
{
	switch (e) {
#define E(c) case c: return #c;
	E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
	E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
	E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
	E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE)
	E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_MEM_OBJECT)
	E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
	E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
	E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL)
	E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
	E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
	E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
	E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
	E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT)
	E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE)
	E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_MEM_COPY_OVERLAP)
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
	E(CL_INVALID_PLATFORM) E(CL_INVALID_COMMAND_QUEUE)
#undef E
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "an OpenCL error";
	}
}

/* --- loading and discovery ------------------------------------------------ */
static int cl_load(brt_cl *cl)
{
	const char *names[] = { "libOpenCL.so.1", "libOpenCL.so" };
	for (size_t i = 0; i < 2 && !cl->lib; i++)
		cl->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!cl->lib) {
		brt_log("libOpenCL not loaded: %s", dlerror());
		return -1;
	}
	/* POSIX: a function pointer is read through its object form. */
#define BRT_CL_LOAD(f) \
	*(void **)&cl->f = dlsym(cl->lib, #f); \
	if (!cl->f) { brt_log("libOpenCL lacks %s", #f); return -1; }
	BRT_CL_FUNCS(BRT_CL_LOAD)
#undef BRT_CL_LOAD
	return 0;
}

static void info_str(brt_cl *cl, cl_device_id id, cl_device_info what,
	char *buf, size_t len)
{
	buf[0] = '\0';
	if (cl->clGetDeviceInfo(id, what, len, buf, NULL) != CL_SUCCESS)
		buf[0] = '\0';
	buf[len - 1] = '\0';
}

/* Type rank for ordering: GPUs, accelerators, others, CPUs. */
static int type_rank(cl_device_type t)
{
	if (t & CL_DEVICE_TYPE_GPU)
		return 0;
	if (t & CL_DEVICE_TYPE_ACCELERATOR)
		return 1;
	if (t & CL_DEVICE_TYPE_CPU)
		return 3;
	return 2;
}

/* The build options of device D's programs (brt.3, "OpenCL build
 * options"): -DBRG_CPU on a CPU device, for the code that only such a
 * device runs (brt.h); NVIDIA's compiler (cl_nv_compiler_options) may
 * give each work-item up to 128 registers; then BRT_CL_OPTIONS. Left
 * alone, NVIDIA's compiler held nbody's kernel to 32 registers, two
 * loads in flight instead of four (H100, 65,536 bodies: 6.75 ms; 4.42
 * with the option; the hand-written kernel 5.19). The guide's
 * optimized_matmult at 2048 and 4096, by the cap: none 0.85 and 6.69
 * ms, 64: 0.90 and 7.03, 80: 1.18 and 7.42, 96: 0.83 and 6.52, 128:
 * 0.74 and 5.71, 255: 1.13 and 10.8; the other bench cases alike with
 * each. */
/* OPT after D's build options, a space between */
static void add_option(brt_device *d, const char *opt)
{
	size_t k = strlen(d->options);
	snprintf(d->options + k, sizeof d->options - k, "%s%s", k ? " " : "",
		opt);
}

/* Whether OPTS, build options as the driver takes them, define macro
 * NAME: -DNAME, -DNAME=V, or -D and NAME as the next word (OpenCL's
 * preprocessor options are -D and -I). The generated kernels test such
 * macros with #if defined, so the host reads them as the compiler will. */
static int options_define(const char *opts, const char *name)
{
	size_t n = strlen(name);
	int lone = 0;	/* the word before was a lone -D */

	for (;;) {
		size_t len;
		opts += strspn(opts, " \t\n");
		len = strcspn(opts, " \t\n");
		if (!len)
			return 0;
		const char *m = lone ? opts : opts[0] == '-' && opts[1] == 'D'
			? opts + 2 : NULL;
		size_t mlen = lone ? len : m ? len - 2 : 0;
		lone = !lone && len == 2 && m;
		if (m && mlen >= n && strncmp(m, name, n) == 0 &&
				(mlen == n || m[n] == '='))
			return 1;
		opts += len;
	}
}

static void device_options(brt_cl *cl, cl_device_id id, brt_device *d)
{
	size_t n = 0;
	char *ext = NULL;
	const char *user = getenv("BRT_CL_OPTIONS");
	if (cl->clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &n)
		== CL_SUCCESS && n && (ext = malloc(n + 1)) != NULL
	    && cl->clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, n, ext, NULL)
		== CL_SUCCESS) {
		ext[n] = '\0';
		if (strstr(ext, "cl_nv_compiler_options"))
			add_option(d, "-cl-nv-maxrregcount=128");
	}
	free(ext);
	if (d->cpu) {
		cl_ulong local = 0;
		char opt[64];
		add_option(d, "-DBRG_CPU");
		if (cl->clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE,
			sizeof local, &local, NULL) == CL_SUCCESS && local) {
			snprintf(opt, sizeof opt, "-DBRG_LOCAL_MEM=%llu",
				(unsigned long long)local);
			add_option(d, opt);
		}
	}
	/* no warnings: the program is brgen's, and PoCL's compiler prints
	   its count ("3 warnings generated.") on the program's standard
	   error where the warnings themselves are not shown */
	add_option(d, "-w");
	if (user && *user)
		add_option(d, user);
	/* float division and sqrt as the CPU backend rounds them, where
	   the device can (OpenCL allows them 2.5 and 3 ulp: floor(-2996.0f /
	   7.0f) was -429 on an H200); cache.c asks for it program by program */
	cl_device_fp_config fp = 0;
	d->crdiv = cl->clGetDeviceInfo(id, CL_DEVICE_SINGLE_FP_CONFIG,
		sizeof fp, &fp, NULL) == CL_SUCCESS &&
		(fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
	/* K__packed one point a work-item on such a device, unless
	   BRT_CL_OPTIONS asks for four (brt.h, brt.3) */
	d->pack1 = d->cpu && !(user && options_define(user, "BRG_PACK4"));
}

/* A device's record from what the driver tells of it; no context yet
 * (brt_ocl_start). */
static brt_device *device_probe(brt_runtime *rt, cl_platform_id pid,
	cl_device_id id, cl_device_type type)
{
	brt_cl *cl = &rt->cl;
	brt_device *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->kind = BRT_DEV_OPENCL;
	d->id = id;
	d->pid = pid;
	d->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
	d->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
	info_str(cl, id, CL_DEVICE_NAME, d->name, sizeof d->name);
	char drv[120], ver[120];
	info_str(cl, id, CL_DRIVER_VERSION, drv, sizeof drv);
	info_str(cl, id, CL_DEVICE_VERSION, ver, sizeof ver);
	snprintf(d->version, sizeof d->version, "%s; %s", drv, ver);
	if (cl->clGetPlatformInfo(pid, CL_PLATFORM_NAME, sizeof d->platform,
		    d->platform, NULL) != CL_SUCCESS)
		d->platform[0] = '\0';
	d->platform[sizeof d->platform - 1] = '\0';
	cl_ulong mem = 0;
	cl_uint units = 0;
	cl_device_fp_config fp = 0;
	cl->clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem,
		NULL);
	cl->clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
		&units, NULL);
	if (cl->clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp,
		    NULL) != CL_SUCCESS)
		fp = 0;
	d->memory = mem;
	d->units = units;
	d->fp64 = fp != 0;
	device_options(cl, id, d);
	const char *prof = getenv("BRT_PROFILE");
	d->profile = prof && *prof && strcmp(prof, "0");
	d->flush_at = 1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->stage_lock, NULL);
	return d;
}

/* Opens D (its context and its two queues) the first time a thread is to
 * use it: the default device when the runtime starts, any other when
 * brt_useDevices picks it, so that a device a program never uses (PoCL's
 * CPU device beside a GPU, say) holds no context, queues or driver
 * threads of it. Start time did not move measurably with it (H100,
 * alternating starts, medians of 9: 283 ms opening every device, 286
 * opening the GPU alone, the host's noise +-30 ms); most of what PoCL
 * costs a GPU program's start is the ICD loader loading it, which every
 * OpenCL program pays (251 ms against 211 with PoCL's ICD hidden). Returns
 * 0, or -1 with the reason in MSG when the driver refuses, after which
 * the device stays lost. RT is passed in: runtime_init, inside brt_rt's
 * pthread_once, opens the default device. */
int brt_ocl_start(brt_runtime *rt, brt_device *d, brt_str *msg)
{
	brt_cl *cl = &rt->cl;
	int rc = 0;
	pthread_mutex_lock(&d->lock);
	if (d->queue || d->kind != BRT_DEV_OPENCL)
		goto out;
	if (d->lost) {
		brt_str_printf(msg, "the device could not be opened before");
		rc = -1;
		goto out;
	}
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)d->pid, 0 };
	cl_int err;
	if (brt_fault_open()) {
		brt_str_printf(msg, "no context: BRT_FAIL_OPEN");
		goto fail;
	}
	d->ctx = cl->clCreateContext(props, 1, &d->id, NULL, NULL, &err);
	if (!d->ctx) {
		brt_str_printf(msg, "no context: %s", brt_cl_error(err));
		goto fail;
	}
	cl_command_queue_properties qp = rt->timing	/* or d->profile */
		? CL_QUEUE_PROFILING_ENABLE : 0;
	cl_command_queue q = cl->clCreateCommandQueue(d->ctx, d->id, qp, &err);
	cl_command_queue x = q ? cl->clCreateCommandQueue(d->ctx, d->id, qp,
		&err) : NULL;
	if (!x) {
		brt_str_printf(msg, "no queue: %s", brt_cl_error(err));
		if (q)
			cl->clReleaseCommandQueue(q);
		cl->clReleaseContext(d->ctx);
		d->ctx = NULL;
		goto fail;
	}
	d->xfer = x;
	d->queue = q;
	brt_log("OpenCL device %u: %s opened", d->index, d->name);
	goto out;
fail:
	d->lost = 1;
	brt_log("device %s: %s", d->name, msg && msg->p ? msg->p : "");
	rc = -1;
out:
	pthread_mutex_unlock(&d->lock);
	return rc;
}

typedef struct found {
	cl_platform_id pid;
	cl_device_id id;
	cl_device_type type;
} found;

static int found_cmp(const void *a, const void *b)
{
	const found *x = a, *y = b;
	return type_rank(x->type) - type_rank(y->type);
}

/* Fills rt->all[0 .. nopencl) with the OpenCL devices, GPUs first. */
void brt_ocl_discover(brt_runtime *rt)
{
	brt_cl *cl = &rt->cl;
	rt->nopencl = 0;
	if (cl_load(cl))
		return;
	rt->have_cl = 1;
	cl_uint np = 0;
	cl_int err = cl->clGetPlatformIDs(0, NULL, &np);
	if (err != CL_SUCCESS || np == 0) {
		brt_log("no OpenCL platform (%s)", err == CL_SUCCESS
			? "none" : brt_cl_error(err));
		return;
	}
	cl_platform_id *pids = calloc(np, sizeof *pids);
	found *f = NULL;
	size_t nf = 0;
	if (!pids || cl->clGetPlatformIDs(np, pids, NULL) != CL_SUCCESS)
		np = 0;
	for (cl_uint p = 0; p < np; p++) {
		cl_uint nd = 0;
		if (cl->clGetDeviceIDs(pids[p], CL_DEVICE_TYPE_ALL, 0, NULL,
			    &nd) != CL_SUCCESS || nd == 0)
			continue;
		cl_device_id *ids = calloc(nd, sizeof *ids);
		found *g = realloc(f, (nf + nd) * sizeof *f);
		if (!ids || !g) {
			free(ids);
			if (g)
				f = g;
			break;
		}
		f = g;
		if (cl->clGetDeviceIDs(pids[p], CL_DEVICE_TYPE_ALL, nd, ids,
			    NULL) == CL_SUCCESS)
			for (cl_uint i = 0; i < nd; i++) {
				f[nf].pid = pids[p];
				f[nf].id = ids[i];
				f[nf].type = 0;
				cl->clGetDeviceInfo(ids[i], CL_DEVICE_TYPE,
					sizeof f[nf].type, &f[nf].type, NULL);
				nf++;
			}
		free(ids);
	}
	free(pids);
	/* qsort is not stable; the index breaks ties in discovery order */
	for (size_t i = 1; i < nf; i++)
		for (size_t j = i; j > 0 && found_cmp(&f[j - 1], &f[j]) > 0; j--) {
			found t = f[j];
			f[j] = f[j - 1];
			f[j - 1] = t;
		}
	rt->all = calloc(nf + 1, sizeof *rt->all);
	for (size_t i = 0; rt->all && i < nf; i++) {
		brt_device *d = device_probe(rt, f[i].pid, f[i].id, f[i].type);
		if (!d)
			continue;
		d->index = rt->nopencl;
		rt->all[rt->nopencl++] = d;
		brt_log("OpenCL device %u: %s (%s; %s)", d->index, d->name,
			d->platform, d->version);
	}
	free(f);
}

static void stage_shutdown(brt_cl *cl, brt_device *d);

struct brt_prof {
	char what[64];
	int xfer;
	cl_event ev;
};

void brt_ocl_profile(brt_device *d, const char *what, int xfer, cl_event ev)
{
	if (!d->profile || !ev)
		return;
	brt_runtime *rt = brt_rt();
	pthread_mutex_lock(&rt->lock);
	if (d->nprof == d->capprof) {
		size_t cap = d->capprof ? 2 * d->capprof : 64;
		struct brt_prof *p = realloc(d->prof, cap * sizeof *p);
		if (!p) {
			pthread_mutex_unlock(&rt->lock);
			return;
		}
		d->prof = p;
		d->capprof = cap;
	}
	struct brt_prof *p = &d->prof[d->nprof++];
	snprintf(p->what, sizeof p->what, "%s", what);
	p->xfer = xfer;
	p->ev = ev;
	rt->cl.clRetainEvent(ev);
	pthread_mutex_unlock(&rt->lock);
}

/* One log line per recorded command: its queue and its start and end,
 * in ms from the first start (BRT_PROFILE, brt(3)). */
static void profile_dump(brt_cl *cl, brt_device *d)
{
	cl_ulong t0 = 0;
	for (size_t i = 0; i < d->nprof; i++) {
		cl_ulong t = 0;
		cl->clGetEventProfilingInfo(d->prof[i].ev,
			CL_PROFILING_COMMAND_START, sizeof t, &t, NULL);
		if (t && (!t0 || t < t0))
			t0 = t;
	}
	for (size_t i = 0; i < d->nprof; i++) {
		cl_ulong a = 0, b = 0;
		cl->clGetEventProfilingInfo(d->prof[i].ev,
			CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
		cl->clGetEventProfilingInfo(d->prof[i].ev,
			CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
		brt_log("profile: %s queue=%s start=%.3f end=%.3f ms",
			d->prof[i].what, d->prof[i].xfer ? "transfer" : "compute",
			a >= t0 ? (a - t0) / 1e6 : 0.0,
			b >= t0 ? (b - t0) / 1e6 : 0.0);
		cl->clReleaseEvent(d->prof[i].ev);
	}
	free(d->prof);
	d->prof = NULL;
	d->nprof = 0;
}

/* Instance I of CK takes kernel object KERN (released on failure) and
 * room for its arguments' last values. */
static int inst_init(brt_clkernel *ck, unsigned i, cl_kernel kern)
{
	brt_clinst *x = &ck->inst[i];
	memset(x, 0, sizeof *x);
	x->kernel = kern;
	if (ck->nset) {
		x->last = calloc(ck->nset, sizeof *x->last);
		x->lastsize = calloc(ck->nset, sizeof *x->lastsize);
		if (!x->last || !x->lastsize) {
			free(x->last);
			free(x->lastsize);
			memset(x, 0, sizeof *x);
			brt_rt()->cl.clReleaseKernel(kern);
			return -1;
		}
	}
	return 0;
}

/* Releases CK with its kernel objects. */
static void clkernel_free(brt_cl *cl, brt_clkernel *ck)
{
	for (unsigned i = 0; i < BRT_CL_INSTS; i++) {
		if (ck->inst[i].kernel)
			cl->clReleaseKernel(ck->inst[i].kernel);
		free(ck->inst[i].last);
		free(ck->inst[i].lastsize);
	}
	free(ck->name);
	free(ck);
}

void brt_ocl_shutdown(brt_runtime *rt, brt_device *d)
{
	brt_cl *cl = &rt->cl;
	if (!d->queue)
		return;		/* never opened */
	cl->clFinish(d->queue);
	cl->clFinish(d->xfer);
	profile_dump(cl, d);
	stage_shutdown(cl, d);
	for (brt_clkernel *k = d->kernels, *next; k; k = next) {
		next = k->next;
		for (int i = 0; i < 2; i++) {
			brt_buffer *t = i ? k->target : k->part;
			if (!t)
				continue;
			if (t->last)
				cl->clReleaseEvent(t->last);
			cl->clReleaseMemObject(t->mem);
			free(t);
		}
		clkernel_free(cl, k);
	}
	for (brt_clprog *p = d->progs, *next; p; p = next) {
		next = p->next;
		if (p->program)
			cl->clReleaseProgram(p->program);
		free(p->blog);
		free(p);
	}
	if (d->records)
		cl->clReleaseMemObject(d->records);
	d->records = NULL;
	brt_ocl_settle(d, 1);
	for (unsigned i = 0; i < BRT_RECSLOTS; i++) {
		if (d->recs[i].mem)
			cl->clReleaseMemObject(d->recs[i].mem);
		d->recs[i].mem = NULL;
	}
	d->kernels = NULL;
	d->progs = NULL;
	if (d->memo_looked)
		brt_log("launches kept on %s: %llu of %llu found again",
			d->name, (unsigned long long)d->memo_found,
			(unsigned long long)d->memo_looked);
	brt_memo_free(d);	/* it points at the kernels */
	cl->clReleaseCommandQueue(d->queue);
	cl->clReleaseCommandQueue(d->xfer);
	cl->clReleaseContext(d->ctx);
}

/* --- buffers and transfers ------------------------------------------------
 * Kernels go to the device's compute queue, transfers to its transfer
 * queue, so that they overlap (guide 1.13.2). Each command waits for the
 * last command of every buffer it touches, then becomes that command. A
 * map kernel keeps no event: its buffers are marked pending, which the
 * compute queue (in order) need not wait for, and anything else waiting
 * for them gets a marker event then (materialize). */
static int cl_failed(brt_device *d, cl_int err, brt_str *msg);

void brt_ocl_flushed(brt_device *d)
{
	d->unflushed = 0;
	d->flush_at = 1;
}

/* B's last command as an event: for kernels that kept none (pending), a
 * marker after them on the in-order compute queue, flushed so that other
 * queues and the host can wait for it. */
static void materialize(brt_buffer *b)
{
	brt_cl *cl = &brt_rt()->cl;
	brt_device *d = b->dev;
	cl_event ev = NULL;
	if (!b->pending)
		return;
	b->pending = 0;
	if (cl->clEnqueueMarkerWithWaitList(d->queue, 0, NULL, &ev)
	    != CL_SUCCESS) {
		cl->clFinish(d->queue);	/* no marker: wait for all */
		ev = NULL;
	}
	cl->clFlush(d->queue);
	brt_ocl_flushed(d);
	brt_ocl_set_last(b, ev);
}

void brt_ocl_mark(brt_buffer *b, cl_event ev)
{
	if (!b)
		return;
	if (ev) {
		brt_ocl_touch(b, ev);
		return;
	}
	/* every command of LAST came before the kernel (its wait list) */
	brt_ocl_set_last(b, NULL);
	b->pending = 1;
}

/* Adds the last command of B to the wait list W, once: two buffers (an
 * input and an output of one kernel, the two ends of a copy) may share
 * their last command. W holds a reference to each event until the command
 * is enqueued (brt_ocl_waits_done), so that none is released, and its
 * memory reused for the new command's own event, in between. */
void brt_ocl_wait(brt_waits *w, const brt_buffer *b)
{
	if (b && b->pending && !(w->q && w->q == b->dev->queue))
		materialize((brt_buffer *)b);
	if (!b || !b->last)
		return;
	brt_cl *cl = &brt_rt()->cl;
	for (cl_uint i = 0; i < w->n; i++)
		if (w->ev[i] == b->last)
			return;
	if (w->n == sizeof w->ev / sizeof w->ev[0]) {	/* full: wait now */
		cl->clWaitForEvents(1, &b->last);
	} else {
		cl->clRetainEvent(b->last);
		w->ev[w->n++] = b->last;
	}
}

void brt_ocl_waits_done(brt_waits *w)
{
	for (cl_uint i = 0; w && i < w->n; i++)
		brt_rt()->cl.clReleaseEvent(w->ev[i]);
	if (w)
		w->n = 0;
}

#define WAITS(w) (w).n, (w).n ? (w).ev : NULL

int brt_ocl_alloc(brt_buffer *b, brt_str *msg)
{
	brt_cl *cl = &brt_rt()->cl;
	cl_int err;
	brt_runtime *rt = brt_rt();
	pthread_mutex_lock(&rt->lock);
	b->serial = ++b->dev->nbuffers;
	pthread_mutex_unlock(&rt->lock);
	b->mem = cl->clCreateBuffer(b->dev->ctx, CL_MEM_READ_WRITE,
		b->bytes ? b->bytes : 1, NULL, &err);
	if (!b->mem) {
		brt_str_printf(msg, "%s", brt_cl_error(err));
		return -1;
	}
	/* zeroed, as on the CPU backend: a stream never written reads 0 */
	cl_uint zero = 0;
	cl_event ev = NULL;
	if (b->bytes % sizeof zero == 0)
		err = cl->clEnqueueFillBuffer(b->dev->xfer, b->mem, &zero,
			sizeof zero, 0, b->bytes, 0, NULL, &ev);
	else
		err = cl->clEnqueueFillBuffer(b->dev->xfer, b->mem, &zero, 1,
			0, b->bytes, 0, NULL, &ev);
	if (err != CL_SUCCESS) {
		cl->clReleaseMemObject(b->mem);
		b->mem = NULL;
		return cl_failed(b->dev, err, msg);
	}
	b->last = ev;
	cl->clFlush(b->dev->xfer);
	return 0;
}

void brt_ocl_free(brt_buffer *b)
{
	brt_cl *cl = &brt_rt()->cl;
	if (b->last)
		cl->clReleaseEvent(b->last);
	if (b->mem)
		cl->clReleaseMemObject(b->mem);
}

/* The buffer's last command is now EV (owned). */
void brt_ocl_set_last(brt_buffer *b, cl_event ev)
{
	brt_cl *cl = &brt_rt()->cl;
	if (b->last)
		cl->clReleaseEvent(b->last);
	b->last = ev;
}

/* A failed command: the device is lost for every later command. */
static int cl_failed(brt_device *d, cl_int err, brt_str *msg)
{
	if (err == CL_OUT_OF_RESOURCES || err == CL_DEVICE_NOT_AVAILABLE
	    || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
		d->lost = 1;
		brt_str_printf(msg, "the device was lost (%s)",
			brt_cl_error(err));
		return -1;
	}
	brt_str_printf(msg, "%s", brt_cl_error(err));
	return -1;
}

/* Byte geometry of slice W (the 4th axis) of a region, for the *Rect
 * calls: the 4th axis folds into the 3rd, whose pitch is that of z. */
typedef struct rect {
	size_t origin[3], region[3], row, slice;
} rect;

static rect region_rect(const brt_region *r, int64_t w)
{
	rect q;
	size_t e = r->esize;
	q.origin[0] = (size_t)r->origin[0] * e;
	q.origin[1] = (size_t)r->origin[1];
	q.origin[2] = (size_t)((r->origin[3] + w) * r->root[2] + r->origin[2]);
	q.region[0] = (size_t)r->dims[0] * e;
	q.region[1] = (size_t)r->dims[1];
	q.region[2] = (size_t)r->dims[2];
	q.row = (size_t)r->root[0] * e;
	q.slice = (size_t)(r->root[0] * r->root[1]) * e;
	return q;
}

static size_t region_bytes(const brt_region *r)
{
	return (size_t)(r->dims[0] * r->dims[1] * r->dims[2] * r->dims[3])
		* r->esize;
}

static size_t region_offset(const brt_region *r)
{
	return (size_t)brt_region_base(r) * r->esize;
}

static void CL_CALLBACK free_staging(cl_event ev, cl_int status, void *p)
{
	(void)ev;
	(void)status;
	free(p);
}

/* --- pinned staging ------------------------------------------------------
 * Host-to-device copies go through buffers of page-locked host memory
 * (CL_MEM_ALLOC_HOST_PTR, mapped), which a GPU's DMA engine reads at full
 * speed while kernels run. A buffer is reused once its transfer is done;
 * past BRT_STAGE_MAX bytes of them, plain malloc'd memory serves. */
#define BRT_STAGE_MAX ((size_t)512 << 20)

typedef struct brt_stage {
	struct brt_stage *next;
	cl_mem mem;
	void *ptr;
	size_t size;
	int inuse;		/* between acquire and the enqueue */
	cl_event busy;		/* the transfer reading it */
} brt_stage;

static int stage_free(brt_cl *cl, brt_stage *s)
{
	if (s->inuse)
		return 0;
	if (!s->busy)
		return 1;
	cl_int st = CL_QUEUED;
	cl->clGetEventInfo(s->busy, CL_EVENT_COMMAND_EXECUTION_STATUS,
		sizeof st, &st, NULL);
	if (st > CL_COMPLETE)
		return 0;
	cl->clReleaseEvent(s->busy);
	s->busy = NULL;
	return 1;
}

/* A staging buffer of at least BYTES, or NULL. */
static brt_stage *stage_get(brt_device *d, size_t bytes)
{
	brt_cl *cl = &brt_rt()->cl;
	brt_stage *s, *best = NULL;
	pthread_mutex_lock(&d->stage_lock);
	for (s = d->stages; s; s = s->next)
		if (s->size >= bytes && (!best || s->size < best->size)
		    && stage_free(cl, s))
			best = s;
	if (!best && d->staged + bytes <= BRT_STAGE_MAX
	    && (best = calloc(1, sizeof *best))) {
		cl_int err;
		best->mem = cl->clCreateBuffer(d->ctx, CL_MEM_READ_WRITE
			| CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
		if (best->mem)
			best->ptr = cl->clEnqueueMapBuffer(d->xfer, best->mem,
				CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
				NULL, NULL, &err);
		if (!best->ptr) {
			if (best->mem)
				cl->clReleaseMemObject(best->mem);
			free(best);
			best = NULL;
		} else {
			best->size = bytes;
			best->next = d->stages;
			d->stages = best;
			d->staged += bytes;
		}
	}
	if (best)
		best->inuse = 1;
	pthread_mutex_unlock(&d->stage_lock);
	return best;
}

/* S is read by EV (or by nothing when EV is NULL). */
static void stage_put(brt_device *d, brt_stage *s, cl_event ev)
{
	pthread_mutex_lock(&d->stage_lock);
	if (ev)
		brt_rt()->cl.clRetainEvent(ev);
	s->busy = ev;
	s->inuse = 0;
	pthread_mutex_unlock(&d->stage_lock);
}

/* Reads BYTES of M into HOST on D's kernel queue (after its kernels)
 * and waits, through a pinned staging buffer when one is free: the DMA
 * engine writes page-locked memory directly. H100, a scalar reduction's
 * 4-byte result after its two launches: 0.1092 -> 0.1074 ms and 0.1086
 * -> 0.1065 ms against pageable memory (medians of 30, a one-off
 * hand-written test; bench/RESULTS.md, 01:11 UTC section). The read does
 * not block; clFinish waits for it: NVIDIA's blocking read returns 1 to
 * 3 us later (H200, 2^26 floats summed by two launches, medians of 31:
 * 0.0789-0.0818 ms blocking, 0.0786-0.0798 with clFinish; bench/probe/
 * sum.c). Should the wait fail, the staging buffer is not handed out
 * again: the read may still write it. */
int brt_ocl_read_small(brt_device *d, cl_mem m, size_t bytes, void *host,
	brt_str *msg)
{
	brt_cl *cl = &brt_rt()->cl;
	brt_stage *s = stage_get(d, bytes);
	cl_int err = cl->clEnqueueReadBuffer(d->queue, m, CL_FALSE, 0, bytes,
		s ? s->ptr : host, 0, NULL, NULL);
	int queued = err == CL_SUCCESS;
	if (queued)
		err = cl->clFinish(d->queue);
	if (s && (!queued || err == CL_SUCCESS)) {
		if (err == CL_SUCCESS)
			memcpy(host, s->ptr, bytes);
		stage_put(d, s, NULL);
	}
	brt_ocl_flushed(d);	/* clFinish flushed */
	if (err != CL_SUCCESS) {
		brt_str_printf(msg, "%s", brt_cl_error(err));
		return -1;
	}
	return 0;
}

static void stage_shutdown(brt_cl *cl, brt_device *d)
{
	for (brt_stage *s = d->stages, *next; s; s = next) {
		next = s->next;
		if (s->busy)
			cl->clReleaseEvent(s->busy);
		cl->clEnqueueUnmapMemObject(d->xfer, s->mem, s->ptr, 0, NULL,
			NULL);
		cl->clFinish(d->xfer);
		cl->clReleaseMemObject(s->mem);
		free(s);
	}
	d->stages = NULL;
}

/* Host to device. Without "nocopy" the data go through a staging copy, so
 * the caller may reuse its array at once while the transfer runs; with
 * "nocopy" and a 256-byte aligned array (guide 1.14.2) the transfer reads
 * the caller's array, which must stay untouched until isSync. */
int brt_ocl_write(const brt_region *r, const void *host, int nocopy,
	brt_str *msg)
{
	brt_device *d = r->buf->dev;
	brt_cl *cl = &brt_rt()->cl;
	size_t bytes = region_bytes(r);
	const void *src = host;
	void *staging = NULL;
	brt_stage *stage = NULL;
	if (!nocopy || ((uintptr_t)host & 255)) {
		stage = stage_get(d, bytes ? bytes : 1);
		staging = stage ? NULL : malloc(bytes ? bytes : 1);
		if (!stage && !staging) {
			brt_str_printf(msg, "out of host memory");
			return -1;
		}
		src = stage ? stage->ptr : staging;
		memcpy(stage ? stage->ptr : staging, host, bytes);
	}
	cl_event ev = NULL;
	cl_int err = CL_SUCCESS;
	brt_waits w = { .n = 0 };
	brt_ocl_wait(&w, r->buf);
	if (brt_region_contig(r)) {
		err = cl->clEnqueueWriteBuffer(d->xfer, r->buf->mem, CL_FALSE,
			region_offset(r), bytes, src, WAITS(w), &ev);
	} else {
		size_t hrow = (size_t)r->dims[0] * r->esize;
		size_t hslice = hrow * (size_t)r->dims[1];
		size_t horigin[3] = { 0, 0, 0 };
		for (int64_t s4 = 0; s4 < r->dims[3] && err == CL_SUCCESS;
		     s4++) {
			rect q = region_rect(r, s4);
			if (ev)
				cl->clReleaseEvent(ev);
			ev = NULL;
			err = cl->clEnqueueWriteBufferRect(d->xfer, r->buf->mem,
				CL_FALSE, q.origin, horigin, q.region, q.row,
				q.slice, hrow, hslice, (const char *)src
				+ (size_t)s4 * hslice * (size_t)r->dims[2],
				WAITS(w), &ev);
		}
	}
	brt_ocl_waits_done(&w);
	if (err != CL_SUCCESS) {
		if (ev)
			cl->clWaitForEvents(1, &ev), cl->clReleaseEvent(ev);
		cl->clFinish(d->xfer);
		free(staging);
		if (stage)
			stage_put(d, stage, NULL);
		return cl_failed(d, err, msg);
	}
	if (stage)
		stage_put(d, stage, ev);
	if (src == host)
		r->buf->hostio = 1;
	if (staging && cl->clSetEventCallback(ev, CL_COMPLETE, free_staging,
		    staging) != CL_SUCCESS) {
		cl->clWaitForEvents(1, &ev);
		free(staging);
	}
	cl->clFlush(d->xfer);
	brt_ocl_profile(d, "read (host to device)", 1, ev);
	brt_ocl_set_last(r->buf, ev);
	return 0;
}

/* A record buffer of BYTES (brt.h, brt_records, and the write owners
 * after them where a kernel has some), zeroed, in *M: filled on the
 * kernels' in-order queue, before any kernel that uses it. */
static int records_new(brt_device *d, size_t bytes, cl_mem *m,
	brt_str *msg)
{
	static const cl_int zero;
	brt_cl *cl = &brt_rt()->cl;
	cl_int err;
	*m = cl->clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	if (!*m) {
		brt_str_printf(msg, "%s", brt_cl_error(err));
		return -1;
	}
	err = cl->clEnqueueFillBuffer(d->queue, *m, &zero, sizeof zero, 0,
		bytes, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		cl->clReleaseMemObject(*m);
		*m = NULL;
		return cl_failed(d, err, msg);
	}
	return 0;
}

/* Reads M back after the kernels that wrote it (on the same in-order
 * queue: waits for them) into R, and zeroes it again if they recorded
 * something. */
static int records_read(brt_device *d, cl_mem m, brt_records *r,
	brt_str *msg)
{
	static const brt_records zero;
	brt_cl *cl = &brt_rt()->cl;
	cl_int err = cl->clEnqueueReadBuffer(d->queue, m, CL_TRUE, 0,
		sizeof *r, r, 0, NULL, NULL);
	if (err == CL_SUCCESS && (r->count || r->dropped))
		err = cl->clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0,
			sizeof zero, &zero, 0, NULL, NULL);
	return err == CL_SUCCESS ? 0 : cl_failed(d, err, msg);
}

/* The record buffer of kernels with checked sites: one per device, used
 * by one launch at a time (under the device lock) and read after it. */
int brt_ocl_records(brt_device *d, cl_mem *m, brt_str *msg)
{
	if (!d->records && records_new(d, sizeof(brt_records), &d->records,
	    msg))
		return -1;
	*m = d->records;
	return 0;
}

int brt_ocl_records_read(brt_device *d, brt_records *r, brt_str *msg)
{
	return records_read(d, d->records, r, msg);
}

/* brgen --checked, a kernel with write owners (brt.h, brt_kernel.owners):
 * a record buffer of BYTES, the records and the owners after them,
 * zeroed, for one launch. */
int brt_ocl_records_owners(brt_device *d, size_t bytes, cl_mem *m,
	brt_str *msg)
{
	return records_new(d, bytes, m, msg);
}

/* Reads M's BYTES into P after the kernel that wrote them (same in-order
 * queue; none when P is NULL) and releases M. */
int brt_ocl_records_take(brt_device *d, cl_mem m, void *p, size_t bytes,
	brt_str *msg)
{
	brt_cl *cl = &brt_rt()->cl;
	cl_int err = p ? cl->clEnqueueReadBuffer(d->queue, m, CL_TRUE, 0,
		bytes, p, 0, NULL, NULL) : CL_SUCCESS;
	cl->clReleaseMemObject(m);
	return err == CL_SUCCESS ? 0 : cl_failed(d, err, msg);
}

/* Reads slot S (unless FORGET), reports on its streams and frees it. */
static void recslot_settle(brt_device *d, brt_recslot *s, int forget)
{
	if (!s->k)
		return;
	brt_launch L;
	memset(&L, 0, sizeof L);
	L.k = s->k;
	L.args = s->args;
	L.views = s->views;
	L.dev = d;
	brt_records r;
	brt_str msg = {0};
	if (forget || d->lost) {
		/* at exit, or the launch reported the lost device */
	} else if (records_read(d, s->mem, &r, &msg)) {
		for (unsigned i = 0; i < s->k->nargs; i++)
			if (s->args[i].s)
				brt_fail(s->args[i].s, BR_ERROR_KERNEL,
					"Kernel Execution: Failed to run kernel "
					"(%s: %s)", s->k->name, msg.p);
	} else {
		brt_records_report(&L, &r);
	}
	brt_str_free(&msg);
	for (unsigned i = 0; i < s->k->nargs; i++)
		if (s->args[i].s)
			s->args[i].s->recs--;
	free(s->args);
	free(s->views);
	s->args = NULL;
	s->views = NULL;
	s->k = NULL;
}

void brt_ocl_settle(brt_device *d, int forget)
{
	for (unsigned i = 0; i < BRT_RECSLOTS; i++)
		recslot_settle(d, &d->recs[i], forget);
}

/* Whether slot S holds kernel K with the scatter streams of L. */
static int recslot_is(const brt_recslot *s, const brt_launch *L)
{
	if (s->k != L->k)
		return 0;
	for (unsigned i = 0; i < L->k->nargs; i++)
		if (L->k->args[i].kind == BRT_ARG_SCATTER
		    && s->args[i].s != L->args[i].s)
			return 0;
	return 1;
}

/* The launch adds to the slot of its kernel and streams if there is one,
 * else takes an unused slot, else settles the next one in turn. */
brt_recslot *brt_ocl_recslot(brt_launch *L, brt_str *msg)
{
	brt_device *d = L->dev;
	const brt_kernel *k = L->k;
	brt_recslot *s = NULL;
	for (unsigned i = 0; i < BRT_RECSLOTS; i++) {
		if (d->recs[i].k && recslot_is(&d->recs[i], L))
			return &d->recs[i];
		if (!d->recs[i].k && !s)
			s = &d->recs[i];
	}
	if (!s) {
		s = &d->recs[d->recnext];
		d->recnext = (d->recnext + 1) % BRT_RECSLOTS;
		recslot_settle(d, s, 0);
	}
	if (!s->mem && records_new(d, sizeof(brt_records), &s->mem, msg))
		return NULL;
	s->args = calloc(k->nargs + 1, sizeof *s->args);
	s->views = calloc(k->nargs + 1, sizeof *s->views);
	if (!s->args || !s->views) {
		free(s->args);
		free(s->views);
		s->args = NULL;
		s->views = NULL;
		brt_str_printf(msg, "out of host memory");
		return NULL;
	}
	s->k = k;
	for (unsigned i = 0; i < k->nargs; i++)
		if (k->args[i].kind == BRT_ARG_SCATTER) {
			s->args[i].s = L->args[i].s;
			s->views[i] = L->views[i];
			L->args[i].s->recs++;
		}
	return s;
}

/* Device to host; waits unless ASYNC. */
int brt_ocl_read(const brt_region *r, void *host, int async, brt_str *msg)
{
	brt_device *d = r->buf->dev;
	brt_cl *cl = &brt_rt()->cl;
	cl_bool block = async ? CL_FALSE : CL_TRUE;
	cl_event ev = NULL;
	cl_int err = CL_SUCCESS;
	brt_waits w = { .n = 0 };
	brt_ocl_wait(&w, r->buf);
	if (brt_region_contig(r)) {
		err = cl->clEnqueueReadBuffer(d->xfer, r->buf->mem, block,
			region_offset(r), region_bytes(r), host, WAITS(w), &ev);
	} else {
		size_t hrow = (size_t)r->dims[0] * r->esize;
		size_t hslice = hrow * (size_t)r->dims[1];
		size_t horigin[3] = { 0, 0, 0 };
		for (int64_t s4 = 0; s4 < r->dims[3] && err == CL_SUCCESS;
		     s4++) {
			rect q = region_rect(r, s4);
			if (ev)
				cl->clReleaseEvent(ev);
			ev = NULL;
			err = cl->clEnqueueReadBufferRect(d->xfer, r->buf->mem,
				block, q.origin, horigin, q.region, q.row, q.slice,
				hrow, hslice, (char *)host + (size_t)s4 * hslice
				* (size_t)r->dims[2], WAITS(w), &ev);
		}
	}
	brt_ocl_waits_done(&w);
	if (err != CL_SUCCESS) {
		if (ev)
			cl->clReleaseEvent(ev);
		cl->clFinish(d->xfer);
		return cl_failed(d, err, msg);
	}
	cl->clFlush(d->xfer);
	if (async)
		r->buf->hostio = 1;
	brt_ocl_profile(d, "write (device to host)", 1, ev);
	brt_ocl_set_last(r->buf, ev);
	return 0;
}

/* Region to region of one device. */
int brt_ocl_copy(const brt_region *dst, const brt_region *src, brt_str *msg)
{
	brt_device *d = dst->buf->dev;
	brt_cl *cl = &brt_rt()->cl;
	cl_event ev = NULL;
	cl_int err = CL_SUCCESS;
	brt_waits w = { .n = 0 };
	brt_ocl_wait(&w, src->buf);
	brt_ocl_wait(&w, dst->buf);
	if (brt_region_contig(dst) && brt_region_contig(src)) {
		err = cl->clEnqueueCopyBuffer(d->xfer, src->buf->mem,
			dst->buf->mem, region_offset(src), region_offset(dst),
			region_bytes(dst), WAITS(w), &ev);
	} else {
		for (int64_t s4 = 0; s4 < dst->dims[3] && err == CL_SUCCESS;
		     s4++) {
			rect qs = region_rect(src, s4), qd = region_rect(dst, s4);
			if (ev)
				cl->clReleaseEvent(ev);
			ev = NULL;
			err = cl->clEnqueueCopyBufferRect(d->xfer, src->buf->mem,
				dst->buf->mem, qs.origin, qd.origin, qd.region,
				qs.row, qs.slice, qd.row, qd.slice, WAITS(w),
				&ev);
		}
	}
	brt_ocl_waits_done(&w);
	if (err != CL_SUCCESS) {
		if (ev)
			cl->clReleaseEvent(ev);
		return cl_failed(d, err, msg);
	}
	cl->clFlush(d->xfer);
	brt_ocl_profile(d, "copy", 1, ev);
	brt_ocl_touch(src->buf, ev);
	brt_ocl_set_last(dst->buf, ev);
	return 0;
}

/* Fills a packed region whose element size is a power of two up to 128
 * (clEnqueueFillBuffer); returns 1 when it cannot, for the caller to write
 * a filled host array instead. */
int brt_ocl_fill(const brt_region *r, const void *value, brt_str *msg)
{
	brt_device *d = r->buf->dev;
	brt_cl *cl = &brt_rt()->cl;
	size_t e = r->esize;
	if (!brt_region_contig(r) || e > 128 || (e & (e - 1)))
		return 1;
	cl_event ev = NULL;
	brt_waits w = { .n = 0 };
	brt_ocl_wait(&w, r->buf);
	cl_int err = cl->clEnqueueFillBuffer(d->xfer, r->buf->mem, value, e,
		region_offset(r), region_bytes(r), WAITS(w), &ev);
	brt_ocl_waits_done(&w);
	if (err != CL_SUCCESS)
		return cl_failed(d, err, msg);
	cl->clFlush(d->xfer);
	brt_ocl_set_last(r->buf, ev);
	return 0;
}

/* 1 when the buffer's last command is done; with WAIT, waits for it.
 * -1 when it failed. */
int brt_ocl_sync(brt_buffer *b, int wait)
{
	brt_cl *cl = &brt_rt()->cl;
	if (wait && b->pending) {
		/* the in-order compute queue's end rather than a marker's
		   event: H100, rows of 4,096 floats summed and waited for
		   call by call, 0.0380-0.0395 -> 0.0353-0.0371 ms over four
		   alternating rounds (hand-written 0.0336-0.0360) */
		b->pending = 0;
		brt_ocl_flushed(b->dev);
		if (cl->clFinish(b->dev->queue) != CL_SUCCESS) {
			b->dev->lost = 1;
			return -1;
		}
		return 1;
	}
	materialize(b);
	if (!b->last)
		return 1;
	cl_int status = CL_COMPLETE;
	if (wait) {
		if (cl->clWaitForEvents(1, &b->last) != CL_SUCCESS)
			status = -1;
		else
			cl->clGetEventInfo(b->last,
				CL_EVENT_COMMAND_EXECUTION_STATUS,
				sizeof status, &status, NULL);
	} else if (cl->clGetEventInfo(b->last,
			   CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
			   &status, NULL) != CL_SUCCESS) {
		status = -1;
	}
	if (status > CL_COMPLETE)
		return 0;
	cl->clReleaseEvent(b->last);
	b->last = NULL;
	if (status < 0) {
		b->dev->lost = 1;
		return -1;
	}
	return 1;
}

/* --- kernel objects ------------------------------------------------------ */
/* Whether program P's source has MARK. */
static int has_mark(const brt_program *p, const char *mark)
{
	size_t n = p->length ? p->length : strlen(p->source);
	size_t m = strlen(mark);
	for (size_t i = 0; i + m <= n; i++)
		if (p->source[i] == mark[0] && !memcmp(p->source + i, mark, m))
			return 1;
	return 0;
}

/* Whether program P has a 32-bit variant: its source declares brt_view
 * under BRG_I32 (brgen's since 32-bit indices; brt.h). */
static int has_i32(const brt_program *p)
{
	return has_mark(p, "#ifdef BRG_I32");
}

int brt_ocl_fits32(int64_t n)
{
	return n >= 0 && n < ((int64_t)1 << 31) - ((int64_t)1 << 20);
}

/* The kernel object of ENTRY of K on D, from the device's list, else built
 * (programs through cache.c). D's lock is held. */
brt_clkernel *brt_ocl_kernel(brt_device *d, const brt_kernel *k, int entry,
	int want32, brt_str *msg)
{
	static const char *const suffix[] = { "", "__reduce", "__packed",
		"__grid", "__reduce", "__gridx", "__rows" };
	brt_cl *cl = &brt_rt()->cl;
	int optional = entry == BRT_ENTRY_PACKED || entry == BRT_ENTRY_GRID
		|| entry == BRT_ENTRY_GRIDX || entry == BRT_ENTRY_ROWS;
	want32 = want32 && !brt_rt()->index64;
	/* the entry found moves to the front (the caller holds d->lock): a
	 * program of a hundred kernels walks a few entries, not hundreds, to
	 * the kernels it launches again and again */
	for (brt_clkernel **pp = &d->kernels, *ck; (ck = *pp);
	     pp = &ck->next)
		if (ck->k == k && ck->entry == entry && ck->want32 == want32) {
			if (pp != &d->kernels) {
				*pp = ck->next;
				ck->next = d->kernels;
				d->kernels = ck;
			}
			return ck->inst[0].kernel ? ck : NULL;
		}
	if (!k->program || !k->program->source) {
		brt_str_printf(msg, "Kernel Execution: Failed to create Program "
			"(kernel %s has no OpenCL source)", k->name);
		return NULL;
	}
	int i32 = want32 && has_i32(k->program);
	brt_clprog *p;
	for (p = d->progs; p; p = p->next)
		if (p->prog == k->program && p->i32 == i32)
			break;
	if (!p) {
		p = calloc(1, sizeof *p);
		if (!p) {
			brt_str_printf(msg, "Kernel Execution: Failed to create "
				"Program (out of memory)");
			return NULL;
		}
		p->prog = k->program;
		p->i32 = i32;
		/* K__packed's parameters (brt.h): brgen's since brg_pv */
		p->pk = has_mark(k->program, "typedef struct brg_pv {");
		p->pk1 = p->pk && has_mark(k->program, "#define BRG_PACK1 ");
		p->program = brt_cache_build(d, k->program, i32, &p->blog);
		p->next = d->progs;
		d->progs = p;
	}
	if (!p->program) {
		brt_str_printf(msg, "Kernel Execution: Failed to create Program "
			"%s for %s:\n%s", k->program->name ? k->program->name
			: "", d->name, p->blog ? p->blog : "");
		return NULL;
	}
	char name[300];
	snprintf(name, sizeof name, "%s%s", k->cl_name ? k->cl_name : k->name,
		suffix[entry]);
	cl_int err;
	cl_kernel kern = cl->clCreateKernel(p->program, name, &err);
	if (!kern && optional) {
		/* a program of an older brgen: remembered as absent */
		brt_clkernel *ck = calloc(1, sizeof *ck);
		if (ck) {
			ck->k = k;
			ck->entry = entry;
			ck->want32 = want32;
			ck->next = d->kernels;
			d->kernels = ck;
		}
		return NULL;
	}
	if (!kern) {
		brt_str_printf(msg, "Kernel Execution: Failed to create Program "
			"(no kernel %s: %s)", name, brt_cl_error(err));
		return NULL;
	}
	brt_clkernel *ck = calloc(1, sizeof *ck);
	cl_uint nargs = 0;
	cl->clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
	int bad = !ck || !(ck->name = strdup(name));
	if (bad)
		cl->clReleaseKernel(kern);
	else {
		ck->nset = nargs;
		bad = inst_init(ck, 0, kern);
	}
	if (bad) {
		if (ck)
			clkernel_free(cl, ck);
		brt_str_printf(msg, "Kernel Execution: out of memory");
		return NULL;
	}
	ck->ninst = 1;
	ck->program = p->program;
	ck->k = k;
	ck->entry = entry;
	ck->want32 = want32;
	ck->i32 = i32;
	ck->pk = p->pk;
	ck->pk1 = p->pk1;
	ck->wgsize = 1;
	cl->clGetKernelWorkGroupInfo(kern, d->id, CL_KERNEL_WORK_GROUP_SIZE,
		sizeof ck->wgsize, &ck->wgsize, NULL);
	if (ck->wgsize == 0)
		ck->wgsize = 1;
	ck->next = d->kernels;
	d->kernels = ck;
	/* K__packed's points a work-item (kernel.c, geometry) */
	const char *pts = entry != BRT_ENTRY_PACKED ? NULL : d->pack1 &&
		p->pk1 ? "one point a work-item" : "four points a work-item";
	brt_log("kernel: %s for %s%s%s%s%s%s", name, d->name, i32 || pts ?
		" (" : "", i32 ? "32-bit indices" : "", i32 && pts ? "; " : "",
		pts ? pts : "", i32 || pts ? ")" : "");
	return ck;
}

/* Sets argument I to SIZE bytes at VALUE unless KEY (KEYSIZE bytes; NULL:
 * never cached) equals what the last call stored for I. */
static int set_cached(brt_clkernel *ck, unsigned i, const void *key,
	size_t keysize, size_t size, const void *value, brt_str *msg)
{
	brt_cl *cl = &brt_rt()->cl;
	brt_clinst *x = &ck->inst[ck->cur];
	int cache = key && keysize <= sizeof x->last[0] && i < ck->nset;
	if (cache && x->lastsize[i] == keysize
	    && !memcmp(x->last[i], key, keysize))
		return 0;
	x->sets++;
	cl_int err = cl->clSetKernelArg(x->kernel, i, size, value);
	if (err != CL_SUCCESS) {
		brt_str_printf(msg, "argument %u: %s", i, brt_cl_error(err));
		if (i < ck->nset)
			x->lastsize[i] = 0;
		return -1;
	}
	if (i < ck->nset) {
		x->lastsize[i] = cache ? keysize : 0;
		if (cache)
			memcpy(x->last[i], key, keysize);
	}
	return 0;
}

/* brt_ocl_setmem's key: the buffer and its serial, as a buffer freed and
 * another made at the same address must be set again. */
typedef struct mem_key {
	cl_mem m;
	uint64_t serial;
} mem_key;

static mem_key key_of(const brt_buffer *b)
{
	mem_key key;
	memset(&key, 0, sizeof key);
	key.m = b ? b->mem : NULL;
	key.serial = b ? b->serial : 0;
	return key;
}

/* Whether instance J of CK holds buffer B in argument I. */
static int inst_holds(const brt_clkernel *ck, unsigned j, unsigned i,
	const brt_buffer *b)
{
	const brt_clinst *x = &ck->inst[j];
	mem_key have, key = key_of(b);
	if (i >= ck->nset || x->lastsize[i] != sizeof have)
		return 0;
	memcpy(&have, x->last[i], sizeof have);
	return have.m == key.m && have.serial == key.serial;
}

/* Whether instance J of CK holds every buffer BUFS[a] in argument
 * IDX[a]. */
static int inst_match(const brt_clkernel *ck, unsigned j, const unsigned *idx,
	const brt_buffer *const *bufs, unsigned n)
{
	for (unsigned a = 0; a < n; a++)
		if (!inst_holds(ck, j, idx[a], bufs[a]))
			return 0;
	return 1;
}

void brt_ocl_pick(brt_clkernel *ck, const unsigned *idx,
	const brt_buffer *const *bufs, unsigned n)
{
	unsigned pick = ck->cur;
	/* an object not launched yet takes the first buffers it is given */
	if (ck->inst[pick].used && !inst_match(ck, pick, idx, bufs, n)) {
		unsigned lru = pick;
		int found = 0;
		for (unsigned j = 0; j < ck->ninst && !found; j++) {
			if (j == ck->cur)
				continue;
			found = inst_match(ck, j, idx, bufs, n);
			if (found)
				pick = j;
			else if (ck->inst[j].used < ck->inst[lru].used)
				lru = j;
		}
		if (!found && ck->ninst < BRT_CL_INSTS) {
			/* a kernel object more; where it cannot be made,
			   the one least recently used takes these
			   arguments */
			cl_kernel kern = brt_rt()->cl.clCreateKernel(
				ck->program, ck->name, NULL);
			if (kern && !inst_init(ck, ck->ninst, kern)) {
				lru = ck->ninst++;
				brt_log("kernel: %s, object %u", ck->name,
					ck->ninst);
			}
		}
		if (!found)
			pick = lru;
		ck->cur = pick;
	}
	ck->inst[pick].used = ++ck->clock;
}

/* Sets argument I unless it already holds VALUE. Buffer arguments (cl_mem)
 * and local memory (VALUE NULL) are always set: a released buffer's handle
 * may come back for a new one. */
int brt_ocl_setarg(brt_clkernel *ck, unsigned i, size_t size,
	const void *value, int mem, brt_str *msg)
{
	return set_cached(ck, i, value && !mem ? value : NULL, size, size,
		value, msg);
}

/* Local memory of SIZE bytes for argument I, set unless it already has
 * that size. */
int brt_ocl_setlocal(brt_clkernel *ck, unsigned i, size_t size,
	brt_str *msg)
{
	return set_cached(ck, i, &size, sizeof size, size, NULL, msg);
}

/* brt_view with 32-bit indices: the OpenCL brt_view of a program built
 * with -DBRG_I32 (brgen's prelude), 76 bytes. */
typedef struct brt_view32 {
	int32_t dims[4];
	int32_t pitch[4];
	int32_t base;
	int32_t rank;
	int32_t map;
	float lo[4];
	float step[4];
} brt_view32;

int brt_ocl_setview(brt_clkernel *ck, unsigned i, const brt_view *v,
	brt_str *msg)
{
	if (!ck->i32)
		return brt_ocl_setarg(ck, i, sizeof *v, v, 0, msg);
	brt_view32 w;
	memset(&w, 0, sizeof w);
	for (int k = 0; k < 4; k++) {
		w.dims[k] = (int32_t)v->dims[k];
		w.pitch[k] = (int32_t)v->pitch[k];
		w.lo[k] = v->lo[k];
		w.step[k] = v->step[k];
	}
	w.base = (int32_t)v->base;
	w.rank = v->rank;
	w.map = v->map;
	return brt_ocl_setarg(ck, i, sizeof w, &w, 0, msg);
}

int brt_ocl_setmem(brt_clkernel *ck, unsigned i, const brt_buffer *b,
	brt_str *msg)
{
	mem_key key = key_of(b);
	return set_cached(ck, i, &key, sizeof key, sizeof key.m, &key.m, msg);
}

int brt_ocl_setidx(brt_clkernel *ck, unsigned i, const int64_t *v,
	unsigned n, brt_str *msg)
{
	cl_long lb[16], *l = lb;
	cl_int sb[16], *s = sb;
	size_t w = ck->i32 ? sizeof *s : sizeof *l;
	void *a = n <= 16 ? (ck->i32 ? (void *)sb : (void *)lb)
		: malloc(n * w);	/* K__packed of more than 15 streams */
	if (!a) {
		brt_str_printf(msg, "argument %u: out of host memory", i);
		return -1;
	}
	if (ck->i32)
		s = a;
	else
		l = a;
	for (unsigned k = 0; k < n; k++) {
		if (ck->i32)
			s[k] = (cl_int)v[k];
		else
			l[k] = v[k];
	}
	int r = brt_ocl_setarg(ck, i, n * w, a, 0, msg);
	if (a != (void *)sb && a != (void *)lb)
		free(a);
	return r;
}

void brt_ocl_touch(brt_buffer *b, cl_event ev)
{
	brt_cl *cl = &brt_rt()->cl;
	if (!b || !ev)
		return;
	b->pending = 0;		/* EV comes after them */
	if (b->last == ev)
		return;
	cl->clRetainEvent(ev);
	brt_ocl_set_last(b, ev);
}

/* Launches CK after W's events (released then, brt_ocl_waits_done);
 * BRT_FAIL_LAUNCH simulates a lost device. With EV NULL no
 * event is kept (unless BRT_PROFILE or brt_lastKernelTime records it) and
 * the queue is flushed after 1, 2, 4, ... 64 launches (from 1 again after
 * a wait) rather than after each: the first kernel starts at once, and a
 * chain of small kernels costs what the driver's enqueue costs. Whatever
 * waits for such a kernel flushes first (materialize, clFinish). */
int brt_ocl_enqueue(brt_device *d, brt_clkernel *ck, unsigned dims,
	const size_t *global, const size_t *local, brt_waits *w,
	cl_event *evp, brt_str *msg)
{
	brt_runtime *rt = brt_rt();
	brt_cl *cl = &rt->cl;
	cl_event mine = NULL, *ev = evp ? evp : &mine;
	int record = d->profile || rt->timing;
	*ev = NULL;
	if (brt_fault_launch()) {
		brt_ocl_waits_done(w);
		d->lost = 1;
		brt_str_printf(msg, "the device was lost (BRT_FAIL_LAUNCH)");
		return -1;
	}
	cl_int err = cl->clEnqueueNDRangeKernel(d->queue,
		ck->inst[ck->cur].kernel, dims, NULL,
		global, local, w ? w->n : 0, w && w->n ? w->ev : NULL,
		evp || record ? ev : NULL);
	brt_ocl_waits_done(w);
	if (err != CL_SUCCESS)
		return cl_failed(d, err, msg);
	brt_exit_after_launch();
	if (evp || ++d->unflushed >= d->flush_at) {
		cl->clFlush(d->queue);
		d->unflushed = 0;
		d->flush_at = d->flush_at < 64 ? 2 * d->flush_at : 64;
	}
	brt_ocl_profile(d, ck->entry == BRT_ENTRY_REDUCE
		|| ck->entry == BRT_ENTRY_REDUCE2 ? "reduce"
		: ck->k->name, 0, *ev);
	brt_thread *t = rt->timing ? brt_self() : NULL;
	if (t && *ev) {
		/* brt_lastKernelTime: the run's first and last command */
		cl->clRetainEvent(*ev);
		if (!t->run_first) {
			cl->clRetainEvent(*ev);
			t->run_first = *ev;
		}
		if (t->run_last)
			cl->clReleaseEvent(t->run_last);
		t->run_last = *ev;
	}
	if (!evp && mine)
		cl->clReleaseEvent(mine);
	return 0;
}

void brt_ocl_timing_clear(brt_thread *t)
{
	brt_cl *cl = &brt_rt()->cl;
	if (t && t->run_first)
		cl->clReleaseEvent(t->run_first);
	if (t && t->run_last)
		cl->clReleaseEvent(t->run_last);
	if (t)
		t->run_first = t->run_last = NULL;
}

/* brt.h: the device time of the thread's last brt_run, from the start of
 * its first kernel command to the end of its last. */
int brt_lastKernelTime(double *seconds)
{
	brt_cl *cl = &brt_rt()->cl;
	brt_thread *t = brt_self();
	cl_ulong a = 0, b = 0;
	if (!seconds || !t || !t->run_first || !t->run_last)
		return -1;
	if (cl->clWaitForEvents(1, &t->run_last) != CL_SUCCESS ||
	    cl->clGetEventProfilingInfo(t->run_first, CL_PROFILING_COMMAND_START,
		    sizeof a, &a, NULL) != CL_SUCCESS ||
	    cl->clGetEventProfilingInfo(t->run_last, CL_PROFILING_COMMAND_END,
		    sizeof b, &b, NULL) != CL_SUCCESS || b < a)
		return -1;
	*seconds = (double)(b - a) * 1e-9;
	return 0;
}

size_t brt_cl_size(brt_type t)
{
	return t.ncomp == 3 ? t.size / 3 * 4 : t.size;
}

/* A VALUE argument of type T (brt.h: a 3-vector as the OpenCL 3-vector,
 * padded to 4 components). */
int brt_ocl_setvalue(brt_clkernel *ck, unsigned i, brt_type t,
	const void *value, brt_str *msg)
{
	unsigned char pad[128];
	size_t sz = brt_cl_size(t);
	if (sz > sizeof pad || sz == t.size)
		return brt_ocl_setarg(ck, i, sz, value, 0, msg);
	memset(pad, 0, sizeof pad);
	memcpy(pad, value, t.size);
	return brt_ocl_setarg(ck, i, sz, pad, 0, msg);
}
