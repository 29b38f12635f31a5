/* internal.h - libbrt's private structures, shared by its files.
 *
 * The runtime has one process-wide context (struct brt_runtime, in
 * runtime.c), created on first use: the API of brt.h takes no context
 * argument, as the guide's Stream class takes none. Per-thread state
 * (current device, last error) hangs off a pthread key. */
#ifndef BRT_INTERNAL_H
#define BRT_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "brt.h"

/* --- a growable string (libbrt does not link libbrook) -------------------- */
typedef struct brt_str {
	char *p;
	size_t len, cap;
} brt_str;

/* Append to S; a NULL S drops the text (callers that want no message,
 * such as the lookups of optional kernel entries). */
int brt_str_add(brt_str *s, const char *text, size_t n);
int brt_str_printf(brt_str *s, const char *fmt, ...);
void brt_str_free(brt_str *s);

/* --- the OpenCL entry points, loaded with dlopen (opencl.c) --------------- */
#define BRT_CL_FUNCS(X) \
	X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) \
	X(clGetDeviceInfo) X(clCreateContext) X(clReleaseContext) \
	X(clCreateCommandQueue) X(clReleaseCommandQueue) X(clCreateBuffer) \
	X(clReleaseMemObject) X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer) \
	X(clEnqueueWriteBufferRect) X(clEnqueueReadBufferRect) \
	X(clEnqueueCopyBuffer) X(clEnqueueCopyBufferRect) \
	X(clEnqueueFillBuffer) X(clCreateProgramWithSource) \
	X(clCreateProgramWithBinary) X(clBuildProgram) \
	X(clGetProgramBuildInfo) X(clGetProgramInfo) X(clReleaseProgram) \
	X(clCreateKernel) X(clReleaseKernel) X(clSetKernelArg) \
	X(clGetKernelWorkGroupInfo) X(clGetKernelInfo) X(clEnqueueNDRangeKernel) \
	X(clWaitForEvents) X(clGetEventInfo) X(clReleaseEvent) \
	X(clSetEventCallback) X(clFinish) X(clFlush) \
	X(clGetEventProfilingInfo) X(clRetainEvent) X(clEnqueueMapBuffer) \
	X(clEnqueueUnmapMemObject) X(clEnqueueMarkerWithWaitList)

typedef struct brt_cl {
	void *lib;
#define BRT_CL_FIELD(f) cl_api_##f f;
	BRT_CL_FUNCS(BRT_CL_FIELD)
#undef BRT_CL_FIELD
} brt_cl;

/* --- devices ---------------------------------------------------------------- */
enum { BRT_DEV_CPU, BRT_DEV_OPENCL };

typedef struct brt_pool brt_pool;

/* A kernel object compiled for one device, with the argument values last
 * set on it (only changed arguments are set again). */
/* The OpenCL entries of a kernel K (brt.h, "OpenCL kernel names"): K,
 * K__reduce, and the packed-launch variants K__packed, K__grid, K__gridx
 * and K__rows, which a program may lack. BRT_ENTRY_REDUCE2 is a second
 * kernel object of K__reduce, for a reduction's second pass, so that each
 * pass keeps its own arguments set from one call to the next. */
enum { BRT_ENTRY_MAIN, BRT_ENTRY_REDUCE, BRT_ENTRY_PACKED, BRT_ENTRY_GRID,
	BRT_ENTRY_REDUCE2, BRT_ENTRY_GRIDX, BRT_ENTRY_ROWS };

/* One kernel object of an entry with the arguments last set on it. */
typedef struct brt_clinst {
	cl_kernel kernel;
	unsigned char (*last)[128];	/* last value of each argument */
	size_t *lastsize;
	uint64_t used;		/* brt_clkernel.clock at its last launch */
	uint64_t sets;		/* clSetKernelArg calls on it: a launch kept
				   (kernel.c) finds its arguments unchanged */
} brt_clinst;

/* An entry keeps up to BRT_CL_INSTS kernel objects, each with its own
 * arguments: a launch takes the one whose buffers are already set
 * (brt_ocl_pick), so kernels called in turn on a few sets of streams,
 * as an iterative program's ping-pong, set no buffer again. */
enum { BRT_CL_INSTS = 4 };

typedef struct brt_clkernel {
	struct brt_clkernel *next;
	const brt_kernel *k;	/* key: the descriptor ... */
	int entry;		/* ... which entry (BRT_ENTRY_*) ... */
	int want32;		/* ... and whether 32-bit indices were asked */
	int i32;		/* from the 32-bit variant of the program: views,
				   domains and sizes are passed as 32-bit */
	int pk;			/* the program's brt_clprog.pk ... */
	int pk1;		/* ... and pk1 */
	size_t wgsize;		/* CL_KERNEL_WORK_GROUP_SIZE */
	unsigned nset;		/* the kernel's number of arguments */
	unsigned ninst, cur;	/* instances made, the one in use */
	brt_clinst inst[BRT_CL_INSTS];	/* inst[0].kernel NULL: a K__packed
					   or K__grid the program lacks
					   (looked up once) */
	uint64_t clock;		/* launches picked (brt_ocl_pick) */
	cl_program program;	/* where more instances come from ... */
	char *name;		/* ... by this name */
	struct brt_buffer *part, *target;	/* K__reduce: temporaries kept
					   for the next call (reduce.c) */
} brt_clkernel;

typedef struct brt_clprog {
	struct brt_clprog *next;
	const brt_program *prog;	/* key, with i32 */
	int i32;		/* built with -DBRG_I32 (brt.h) */
	int pk;			/* its K__packed takes bases, not views (brt.h) */
	int pk1;		/* its K__packed may run one point a work-item
				   (BRG_PACK1, brt.h) */
	cl_program program;	/* NULL: the build failed, log in blog */
	char *blog;
} brt_clprog;

/* OpenCL: the record buffer of one kernel whose records only flag dropped
 * scatters (no brgen --checked sites), with the streams it scattered to:
 * launches of the kernel on the same streams add to it without waiting,
 * and it is read when one of those streams synchronises
 * (brt_stream_settle) or the slot is needed for another kernel. */
typedef struct brt_recslot {
	cl_mem mem;		/* a brt_records, zeroed when unused */
	const brt_kernel *k;	/* NULL: unused */
	brt_arg *args;		/* per argument: the scatters' streams */
	brt_view *views;	/* ... and their views, for the message */
} brt_recslot;
#define BRT_RECSLOTS 4

struct brt_device {
	int kind;
	unsigned index;		/* in the "all" list */
	char name[256];
	char platform[256];
	char version[256];	/* driver and device version, for the cache */
	char options[512];	/* OpenCL build options (cache.c), without
				   the 32-bit variant's -DBRG_I32 */
	uint64_t memory;
	unsigned units;
	int fp64;
	int lost;		/* a command failed: every later one fails */
	pthread_mutex_t lock;	/* kernels, programs, the queue's users */
	/* OpenCL; ctx and the queues NULL until the device is opened
	   (brt_ocl_start) */
	cl_device_id id;
	cl_platform_id pid;
	cl_context ctx;
	cl_command_queue queue;	/* kernels */
	cl_command_queue xfer;	/* transfers */
	int gpu, cpu;		/* CL_DEVICE_TYPE_GPU, _CPU */
	int pack1;		/* K__packed with BRG_PACK1 runs one point a
				   work-item here (brt.h) */
	int crdiv;		/* it offers correctly rounded float division
				   and sqrt (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT),
				   which cache.c asks for */
	struct brt_stage *stages;	/* pinned staging buffers */
	size_t staged;		/* their bytes */
	pthread_mutex_t stage_lock;
	int profile;		/* BRT_PROFILE: commands are recorded */
	unsigned unflushed;	/* kernels enqueued since the last clFlush */
	unsigned flush_at;	/* ... flushed when it reaches this: 1 after a
				   wait, doubling up to 64 in a chain */
	uint64_t nbuffers;	/* buffers made (brt_buffer.serial; on the
				   CPU, their colours: cpu.c) */
	struct brt_prof *prof;	/* ... here, logged at exit */
	size_t nprof, capprof;
	brt_clprog *progs;
	brt_clkernel *kernels;
	cl_mem records;		/* brt_records of the kernel that runs */
	brt_recslot recs[BRT_RECSLOTS];	/* deferred records */
	unsigned recnext;	/* the slot to settle when all are taken */
	struct brt_memo *memo;	/* kernel.c: launches to repeat, NULL until
				   the first (d->lock) */
	uint64_t memo_looked, memo_found;	/* launches looked for among
						   them, and found (logged at
						   exit) */
	/* CPU */
	brt_pool *pool;
};

/* --- buffers, regions, streams ------------------------------------------ */
typedef struct brt_buffer {
	int refs;		/* streams and views that share it */
	brt_device *dev;
	size_t bytes;
	char *host;		/* CPU backend: the array */
	void *hostmem;		/* CPU backend: what free takes (cpu.c) */
	cl_mem mem;		/* OpenCL backend */
	cl_event last;		/* last command that touched it, or NULL */
	int pending;		/* kernels of the compute queue touched it after
				   LAST, without an event (opencl.c) */
	uint64_t serial;	/* OpenCL: unique per buffer of the process, so a
				   kernel argument is not set again for it */
	int written;		/* ever written by read, fill, assign, kernel */
	int hostio;		/* OpenCL: a command since its last sync may
				   still use the caller's array (an async
				   write, a nocopy read): free waits for it */
} brt_buffer;

/* A box of the array held by a buffer. All extents x first, 1 beyond the
 * rank. */
typedef struct brt_region {
	brt_buffer *buf;
	size_t esize;
	int64_t dims[4];	/* the box */
	int64_t origin[4];	/* its first element in the array */
	int64_t root[4];	/* the array's extents */
} brt_region;

struct brt_stream {
	brt_type type;
	unsigned rank;
	unsigned dims[4];
	size_t count;
	brt_device *dev;
	brt_region reg;		/* reg.buf NULL: allocation failed, or iter */
	int iter;
	float lo[4], step[4];	/* iterators */
	BRerror err;		/* first error since error() */
	brt_str log;		/* every error */
	int recs;		/* record slots of its device that name it */
	size_t synced;		/* log.len at its last synchronisation */
	size_t seen;		/* log.len when errorLog() last returned it */
	struct brt_stream *of;	/* a view: the stream it is a view of, which
				   takes its errors too; NULL for a stream */
	int refs;		/* 1 + its views: it is freed after them */
};

/* --- the runtime ------------------------------------------------------- */
typedef struct brt_thread {
	brt_device *cur;	/* NULL until first use */
	BRerror err;
	char *msg;
	/* err is of a kernel call with no output stream to carry it (a
	 * reduction to a host scalar): reported at the thread's end unless
	 * brt_lastError reads it first (brt_report_last) */
	int unseen;
	cl_event run_first;	/* timing: the first and last kernel */
	cl_event run_last;	/* commands of the last brt_run, or NULL */
} brt_thread;

typedef struct brt_runtime {
	pthread_mutex_t lock;	/* the counters and the log file */
	brt_cl cl;
	int have_cl;
	/* OpenCL devices (GPUs first), then the CPU; before
	 * brt_rt_opencl, the CPU alone */
	brt_device **all;
	unsigned nall, nopencl;
	brt_device **cpu;	/* = cpu_list, the CPU's own list */
	brt_device *cpu_list[1];
	brt_device *deflt;	/* from BRT_RUNTIME and BRT_ADAPTER */
	pthread_key_t key;
	FILE *logf;
	int permit_alias;
	int index64;		/* BRT_INDEX64: no 32-bit program variants */
	long fail_alloc;	/* BRT_FAIL_ALLOC: the Nth allocation fails */
	long fail_launch;	/* BRT_FAIL_LAUNCH: the Nth launch loses the device */
	long fail_open;		/* BRT_FAIL_OPEN: the Nth device opening fails */
	long nalloc, nlaunch, nopen;
	char *cache_dir;	/* NULL: no disk cache */
	unsigned cpu_threads;
	int timing;		/* BRT_PROFILE or brt_profileKernels: queues
				   profile, brt_run records its kernels */
	int down;		/* shut down at exit: no OpenCL call */
} brt_runtime;

/* The one runtime context, initialized on the first call of brt_rt. Its
 * test of brt_rt_ready is inline: libbrt asks for the context twenty
 * times in a launch (callgrind, PoCL, a chain of small kernels: 270 of
 * libbrt's 3,520 instructions a launch went to brt_rt and its
 * pthread_once). */
extern brt_runtime brt_rt_state;
extern int brt_rt_ready;	/* set, with release order, once initialized */
brt_runtime *brt_rt_start(void);
static inline brt_runtime *brt_rt(void)
{
	if (__builtin_expect(__atomic_load_n(&brt_rt_ready, __ATOMIC_ACQUIRE),
	    1))
		return &brt_rt_state;
	return brt_rt_start();
}
/* brt_rt, with OpenCL loaded and all and nopencl filled (once: at
 * initialization, or under BRT_RUNTIME=cpu when a list with the OpenCL
 * devices is first asked for). */
brt_runtime *brt_rt_opencl(void);
brt_thread *brt_self(void);
brt_device *brt_current(void);
void brt_log(const char *fmt, ...);
int brt_fault_alloc(void);	/* 1 when this allocation must fail */
int brt_fault_launch(void);
int brt_fault_open(void);

/* --- errors (error.c) ----------------------------------------------------- */
/* At the release of stream S: a line on standard error when S holds an
 * error its program never asked about (error.c). */
void brt_report_unchecked(brt_stream *s);
/* The end of thread T: a line on standard error when its last error is
 * of a kernel call without output streams that it never read (error.c). */
void brt_report_last(brt_thread *t);
void brt_fail(brt_stream *s, BRerror code, const char *fmt, ...);
void brt_vfail(brt_stream *s, BRerror code, const char *fmt, va_list ap);
void brt_set_last(BRerror code, const char *fmt, ...);
void brt_propagate(brt_stream *dst, const brt_stream *src);

/* --- streams (stream.c) ------------------------------------------------- */
int brt_region_packed(const brt_region *r);	/* the whole array */
int brt_region_contig(const brt_region *r);	/* one run of elements */
int64_t brt_region_base(const brt_region *r);	/* element offset */
void brt_region_pitch(const brt_region *r, int64_t pitch[4]);
/* Whether boxes A and B share an element (of one buffer). */
int brt_region_overlap(const brt_region *a, const brt_region *b);
void brt_region_view(const brt_region *r, unsigned rank, brt_view *v);
void brt_buffer_release(brt_buffer *b);
void brt_iter_value(const brt_stream *s, int64_t i, float out[4]);

/* --- backends: buffers and transfers (cpu.c, opencl.c) ----------------------
 * Each returns 0, or -1 with a message in msg (CL error text). */
brt_buffer *brt_buffer_new(brt_device *d, size_t bytes);
int brt_cpu_alloc(brt_buffer *b);
int brt_ocl_alloc(brt_buffer *b, brt_str *msg);
void brt_ocl_free(brt_buffer *b);
/* host <-> region; HOST is the packed box */
int brt_xfer_write(const brt_region *r, const void *host, int async,
	int nocopy, brt_str *msg);
int brt_xfer_read(const brt_region *r, void *host, int async, int nocopy,
	brt_str *msg);
int brt_xfer_copy(const brt_region *dst, const brt_region *src,
	brt_str *msg);
int brt_xfer_fill(const brt_region *r, const void *value, brt_str *msg);
int brt_buffer_sync(brt_buffer *b, int wait);	/* 1 when idle */
void brt_cpu_copy_box(char *dst, const int64_t dpitch[4], const char *src,
	const int64_t spitch[4], const int64_t dims[4], size_t esize);

/* --- OpenCL (opencl.c) -------------------------------------------------- */
void brt_ocl_discover(brt_runtime *rt);
/* Opens OpenCL device D once, when a thread first uses it: 0, or -1 with
 * the reason in MSG (then D stays lost). */
int brt_ocl_start(brt_runtime *rt, brt_device *d, brt_str *msg);
void brt_ocl_shutdown(brt_runtime *rt, brt_device *d);
/* runtime.c: registers the exit handler again after a driver's first
 * program build and after the first kernel launch (runtime.c says why). */
void brt_exit_after_driver(void);
void brt_exit_after_launch(void);
const char *brt_cl_error(cl_int e);
void brt_ocl_set_last(brt_buffer *b, cl_event ev);
/* the kernel object for ENTRY (BRT_ENTRY_*) of K on D, building its
 * program through the caches; NULL with a message in msg. WANT32: from
 * the 32-bit variant of the program where it has one (the result's i32
 * says). A K__packed or K__grid that the program lacks is NULL with no
 * message. */
brt_clkernel *brt_ocl_kernel(brt_device *d, const brt_kernel *k, int entry,
	int want32, brt_str *msg);
/* Whether an index space of N elements (a buffer, a domain) suits the
 * 32-bit variant: N below 2^31 with room to round a launch up. */
int brt_ocl_fits32(int64_t n);
/* Argument I: a view, or N indices as long, long4 or an array of N
 * (K__packed's brg_p), each in the width of CK's variant. */
int brt_ocl_setview(brt_clkernel *ck, unsigned i, const brt_view *v,
	brt_str *msg);
int brt_ocl_setidx(brt_clkernel *ck, unsigned i, const int64_t *v,
	unsigned n, brt_str *msg);
/* Makes current the instance of CK (brt_clinst) whose arguments IDX[0..N)
 * hold buffers BUFS, else a new one or the least recently used one. */
void brt_ocl_pick(brt_clkernel *ck, const unsigned *idx,
	const brt_buffer *const *bufs, unsigned n);
/* Argument I: B's cl_mem (NULL for no buffer), set only when it changed. */
int brt_ocl_setmem(brt_clkernel *ck, unsigned i, const brt_buffer *b,
	brt_str *msg);
int brt_ocl_setarg(brt_clkernel *ck, unsigned i, size_t size,
	const void *value, int mem, brt_str *msg);
int brt_ocl_setlocal(brt_clkernel *ck, unsigned i, size_t size,
	brt_str *msg);
int brt_ocl_setvalue(brt_clkernel *ck, unsigned i, brt_type t,
	const void *value, brt_str *msg);
int brt_ocl_write(const brt_region *r, const void *host, int nocopy,
	brt_str *msg);
int brt_ocl_read(const brt_region *r, void *host, int async, brt_str *msg);
/* Reads BYTES of M into HOST after D's kernels and returns when they
 * are there (reduce.c's scalar results), through pinned memory when it
 * can. */
int brt_ocl_read_small(brt_device *d, cl_mem m, size_t bytes, void *host,
	brt_str *msg);
int brt_ocl_copy(const brt_region *dst, const brt_region *src, brt_str *msg);
int brt_ocl_fill(const brt_region *r, const void *value, brt_str *msg);
int brt_ocl_sync(brt_buffer *b, int wait);
/* BRT_PROFILE: records command EV (WHAT, on the transfer queue or not). */
void brt_ocl_profile(brt_device *d, const char *what, int xfer, cl_event ev);
/* brt_lastKernelTime: forgets the thread's recorded kernel commands (at the
 * start of brt_run, and when the thread ends). */
void brt_ocl_timing_clear(brt_thread *t);

/* --- kernel launches (kernel.c, reduce.c) ---------------------------------- */
typedef struct brt_launch {
	const brt_kernel *k;
	const brt_arg *args;
	brt_device *dev;
	brt_stream **outs;	/* streams that take the call's errors */
	unsigned nout;
	int failed;		/* an error that stops the launch */
	unsigned rank;		/* the execution domain */
	int64_t dom[4], off[4];
	brt_view *views;	/* per argument */
	const brt_exec *exec;	/* domainOffset and domainSize, or NULL */
	unsigned memo;		/* kernel.c: its hash, 0 until looked up */
} brt_launch;

void brt_kfail(brt_launch *L, BRerror code, const char *fmt, ...);
void brt_kwarn(brt_launch *L, BRerror code, const char *fmt, ...);
void brt_reduce(brt_launch *L);
/* The launches device D keeps (kernel.c), freed: at its shutdown. */
void brt_memo_free(brt_device *d);
/* Reports what a kernel recorded in R (brt.h, brt_records): dropped
 * scatters on their streams, checked accesses on standard error. */
void brt_records_report(brt_launch *L, const brt_records *r);
/* At exit: how many --checked reports repeated one printed before and
 * were left out (each line prints once a process). */
void brt_reports_summary(void);
/* OpenCL: the device's record buffer, zeroed, after a kernel; reads it
 * back (waiting for the kernel) into R and zeroes it again. */
int brt_ocl_records(brt_device *d, cl_mem *m, brt_str *msg);
int brt_ocl_records_read(brt_device *d, brt_records *r, brt_str *msg);
/* A kernel with write owners (brt.h, brt_kernel.owners): a zeroed buffer
 * of BYTES for one launch's records and owners; read into P and
 * released after the launch. */
int brt_ocl_records_owners(brt_device *d, size_t bytes, cl_mem *m,
	brt_str *msg);
int brt_ocl_records_take(brt_device *d, cl_mem m, void *p, size_t bytes,
	brt_str *msg);
/* OpenCL, a kernel without checked sites: the record slot for launch L
 * (D's lock held), its scatters' streams named in it; NULL with a
 * message in msg. */
brt_recslot *brt_ocl_recslot(brt_launch *L, brt_str *msg);
/* Reads every record slot of D and reports on their streams (D's lock
 * held); frees them with FORGET (at exit, with nothing reported). */
void brt_ocl_settle(brt_device *d, int forget);
/* Reports the deferred records that name S: at each synchronisation of
 * S (its use as an input, a read, isSync, finish, error, errorLog,
 * free). */
void brt_stream_settle(brt_stream *s);
int brt_cpu_lost(brt_launch *L, const char *what);
/* The element size of T as an OpenCL kernel argument or local array:
 * 3-vectors take 4 components. */
size_t brt_cl_size(brt_type t);
/* Marks EV (owned by the caller) as the last command of buffer B. */
void brt_ocl_touch(brt_buffer *b, cl_event ev);
/* A wait list: the last commands of the buffers a command touches. */
typedef struct brt_waits {
	cl_uint n;
	cl_event ev[16];
	cl_command_queue q;	/* the queue that waits, when known: its own
				   earlier commands need no event (in order) */
} brt_waits;
/* After a kernel on the compute queue touched B: EV (owned by the caller)
 * is its last command, or with EV NULL the compute queue's last command
 * is (an event is made only when something waits for it). */
void brt_ocl_mark(brt_buffer *b, cl_event ev);
void brt_ocl_wait(brt_waits *w, const brt_buffer *b);
/* Releases W's events: after the command that waits for them. */
void brt_ocl_waits_done(brt_waits *w);
/* The compute queue of D was flushed (clFlush, or a blocking command
 * on it): brt_ocl_enqueue's flush policy starts again from 1. */
void brt_ocl_flushed(brt_device *d);
int brt_ocl_enqueue(brt_device *d, brt_clkernel *ck, unsigned dims,
	const size_t *global, const size_t *local, brt_waits *w,
	cl_event *ev, brt_str *msg);

/* --- the program cache (cache.c) --------------------------------------- */
cl_program brt_cache_build(brt_device *d, const brt_program *p, int i32,
	char **blog);

/* --- the CPU backend (cpu.c) --------------------------------------------- */
brt_pool *brt_pool_new(unsigned threads);
void brt_pool_free(brt_pool *p);
/* Runs job(ctx, i) for i in [0, n) on the pool, the caller helping; returns
 * when all are done. */
void brt_pool_run(brt_pool *p, void (*job)(void *ctx, int64_t i), void *ctx,
	int64_t n);
unsigned brt_pool_threads(const brt_pool *p);

#endif /* BRT_INTERNAL_H */
