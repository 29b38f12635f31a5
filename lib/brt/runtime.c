/* runtime.c - the process-wide runtime context: creation on first use,
 * the environment (brt(3), ENVIRONMENT), per-thread state, the log file
 * and the fault-injection counters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "internal.h"

/* brt.h's mark of this ABI, which generated code names */
const int BRT_ABI_MARK = BRT_ABI_VERSION;

/* The one context; brt_rt() creates it once (pthread_once). */
brt_runtime brt_rt_state;
int brt_rt_ready;
static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;
/* The OpenCL devices are looked up once, when first needed. */
static pthread_once_t discover_once = PTHREAD_ONCE_INIT;
/* brt_profileKernels before the runtime starts, and whether it has */
static int timing_asked, runtime_started;

/* --- strings ------------------------------------------------------------- */
int brt_str_add(brt_str *s, const char *text, size_t n)
{
	if (!s)
		return 0;
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 64;
		while (cap < s->len + n + 1)
			cap *= 2;
		char *p = realloc(s->p, cap);
		if (!p)
			return -1;
		s->p = p;
		s->cap = cap;
	}
	memcpy(s->p + s->len, text, n);
	s->len += n;
	s->p[s->len] = '\0';
	return 0;
}

int brt_str_printf(brt_str *s, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	if (!s)
		return 0;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof small)
		return brt_str_add(s, small, (size_t)n);
	char *big = malloc((size_t)n + 1);
	if (!big)
		return -1;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	int r = brt_str_add(s, big, (size_t)n);
	free(big);
	return r;
}

void brt_str_free(brt_str *s)
{
	free(s->p);
	s->p = NULL;
	s->len = s->cap = 0;
}

/* --- environment ------------------------------------------------------- */
static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	long n = strtol(v, &end, 10);
	return *end ? dflt : n;
}

/* A value of an environment variable that is not taken: a line on
 * standard error (a typo should not go unseen), and in the log. */
static void env_warn(const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "brt: %s\n", msg);
	brt_log("%s", msg);
}

/* BRT_CACHE_DIR, else $XDG_CACHE_HOME/brook, else ~/.cache/brook; an empty
 * BRT_CACHE_DIR turns the disk cache off. */
static char *cache_dir(void)
{
	const char *d = getenv("BRT_CACHE_DIR");
	brt_str s = {0};
	if (d) {
		if (!*d)
			return NULL;
		brt_str_printf(&s, "%s", d);
	} else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
		brt_str_printf(&s, "%s/brook", d);
	} else if ((d = getenv("HOME")) && *d) {
		brt_str_printf(&s, "%s/.cache/brook", d);
	} else {
		return NULL;
	}
	return s.p;
}

/* 1 when BRT_RUNTIME asks for the CPU backend: OpenCL is then not loaded
 * until a device list that holds OpenCL devices is asked for. */
static int want_cpu(void)
{
	const char *want = getenv("BRT_RUNTIME");
	return want && !strcmp(want, "cpu");
}

/* BRT_RUNTIME and BRT_ADAPTER (guide 1.1): opencl (or cal) picks the
 * BRT_ADAPTER-th OpenCL device, GPUs first; cpu the CPU; unset, OpenCL
 * when there is a device. A program always runs: without an OpenCL device
 * the CPU is used, with a line in the log. Called after discovery unless
 * BRT_RUNTIME is cpu. */
static brt_device *default_device(brt_runtime *rt)
{
	const char *want = getenv("BRT_RUNTIME");
	brt_device *cpu = rt->cpu[0];
	if (want && *want && strcmp(want, "cpu") && strcmp(want, "opencl")
	    && strcmp(want, "cal"))
		env_warn("BRT_RUNTIME=%s is not cpu, opencl or cal; ignored",
			want);
	else if (want_cpu())
		return cpu;
	if (rt->nopencl == 0) {
		if (want && *want && strcmp(want, "cpu"))
			brt_log("no OpenCL device found; using the CPU backend");
		return cpu;
	}
	/* not a number, or out of range: device 0, with a log line */
	const char *a = getenv("BRT_ADAPTER");
	long n = env_long("BRT_ADAPTER", -1);
	if (a && *a && (n < 0 || (unsigned long)n >= rt->nopencl))
		env_warn("BRT_ADAPTER=%s is not an OpenCL device number "
			"from 0 to %u; using 0", a, rt->nopencl - 1);
	if (n < 0 || (unsigned long)n >= rt->nopencl)
		n = 0;
	return rt->all[n];
}

/* Loads OpenCL and lists its devices, once: all = the OpenCL devices, then
 * the CPU. Until then all is the CPU's own list. Every reader of all and
 * nopencl gets the runtime from brt_rt_opencl. */
static void runtime_discover(void)
{
	brt_runtime *rt = &brt_rt_state;
	if (!rt->cpu)
		return;		/* runtime_init ran out of memory */
	brt_device *cpu = rt->cpu[0];
	brt_log("runtime: looking up the OpenCL devices");
	rt->all = NULL;
	brt_ocl_discover(rt);	/* all[0 .. nopencl), with a slot after */
	if (!rt->all) {
		rt->all = rt->cpu;
		rt->nopencl = 0;
	}
	rt->all[rt->nopencl] = cpu;
	cpu->index = rt->nopencl;
	rt->nall = rt->nopencl + 1;
}

brt_runtime *brt_rt_opencl(void)
{
	brt_runtime *rt = brt_rt();
	pthread_once(&discover_once, runtime_discover);
	return rt;
}

static void thread_free(void *p)
{
	brt_thread *t = p;
	brt_report_last(t);
	brt_ocl_timing_clear(t);
	free(t->msg);
	free(t);
}

/* At exit: the OpenCL objects and the CPU threads are released. The
 * device records stay (reachable), marked lost, so that a stream freed
 * later (a C++ static's destructor, say) fails gently instead of touching
 * freed memory. */
static void runtime_shutdown(void)
{
	brt_runtime *rt = &brt_rt_state;
	static int done;
	if (done)	/* registered again: brt_exit_after_driver, _launch */
		return;
	done = 1;
	rt->down = 1;
	brt_ocl_timing_clear(pthread_getspecific(rt->key));
	for (unsigned i = 0; i < rt->nall; i++) {
		brt_device *d = rt->all[i];
		pthread_mutex_lock(&d->lock);
		if (d->kind == BRT_DEV_OPENCL)
			brt_ocl_shutdown(rt, d);
		else
			brt_pool_free(d->pool);
		d->pool = NULL;
		d->lost = 1;
		pthread_mutex_unlock(&d->lock);
	}
	brt_reports_summary();	/* after the devices' last reports */
	brt_thread *t = pthread_getspecific(rt->key);
	if (t) {
		pthread_setspecific(rt->key, NULL);
		thread_free(t);
	}
	free(rt->cache_dir);
	rt->cache_dir = NULL;
	if (rt->logf)
		fclose(rt->logf);
	rt->logf = NULL;
}

static void runtime_init(void)
{
	brt_runtime *rt = &brt_rt_state;
	pthread_mutex_init(&rt->lock, NULL);
	pthread_key_create(&rt->key, thread_free);
	const char *lf = getenv("BRT_LOG_FILE");
	if (lf && *lf && !(rt->logf = fopen(lf, "a")))
		env_warn("BRT_LOG_FILE=%s: %s; no log", lf, strerror(errno));
	const char *pa = getenv("BRT_PERMIT_READ_WRITE_ALIASING");
	rt->permit_alias = pa && *pa && strcmp(pa, "0");
	const char *ix = getenv("BRT_INDEX64");
	rt->index64 = ix && *ix && strcmp(ix, "0");
	rt->fail_alloc = env_long("BRT_FAIL_ALLOC", 0);
	rt->fail_launch = env_long("BRT_FAIL_LAUNCH", 0);
	rt->fail_open = env_long("BRT_FAIL_OPEN", 0);
	rt->cache_dir = cache_dir();
	const char *t = getenv("BRT_CPU_THREADS");
	long nt = env_long("BRT_CPU_THREADS", 0);
	if (nt <= 0 || nt > 1024) {
		nt = sysconf(_SC_NPROCESSORS_ONLN);
		if (nt <= 0)
			nt = 1;
		if (t && *t)
			env_warn("BRT_CPU_THREADS=%s is not a number from 1 to "
				"1024; using %ld", t, nt);
	}
	rt->cpu_threads = (unsigned)nt;
	const char *prof = getenv("BRT_PROFILE");
	rt->timing = timing_asked || (prof && *prof && strcmp(prof, "0"));
	runtime_started = 1;

	brt_device *cpu = calloc(1, sizeof *cpu);
	if (!cpu) {
		rt->deflt = NULL;
		return;
	}
	cpu->kind = BRT_DEV_CPU;
	snprintf(cpu->name, sizeof cpu->name, "CPU (%u threads)",
		rt->cpu_threads);
	snprintf(cpu->platform, sizeof cpu->platform, "brook");
	snprintf(cpu->version, sizeof cpu->version, "%s", PACKAGE_VERSION);
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	cpu->memory = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize
		: 0;
	cpu->units = rt->cpu_threads;
	cpu->fp64 = 1;
	pthread_mutex_init(&cpu->lock, NULL);
	cpu->pool = brt_pool_new(rt->cpu_threads);
	rt->cpu_list[0] = cpu;
	rt->cpu = rt->cpu_list;
	rt->all = rt->cpu;
	rt->nall = 1;
	if (want_cpu()) {
		/* OpenCL stays unloaded: startup costs no driver */
		rt->deflt = cpu;
		brt_log("runtime: default device %s (BRT_RUNTIME=cpu; OpenCL "
			"not loaded)", cpu->name);
	} else {
		pthread_once(&discover_once, runtime_discover);
		rt->deflt = default_device(rt);
		/* opened now: the other devices when a thread picks them */
		brt_str msg = {0};
		if (rt->deflt != cpu && brt_ocl_start(rt, rt->deflt, &msg)) {
			brt_log("runtime: %s could not be opened (%s); using "
				"the CPU backend", rt->deflt->name,
				msg.p ? msg.p : "");
			rt->deflt = cpu;
		}
		brt_str_free(&msg);
		brt_log("runtime: %u OpenCL devices; default device %s",
			rt->nopencl, rt->deflt->name);
	}
	atexit(runtime_shutdown);
}

static void register_late(void)
{
	atexit(runtime_shutdown);
}

/* After a driver first builds a program: runtime_shutdown once more, so
 * that it runs before the destructors of the driver's compiler that the
 * build registered (atexit runs last registered first). Its clFinish may
 * make the driver compile (PoCL builds a kernel for its launch); with
 * those destructors run first, that crashed at exit. */
void brt_exit_after_driver(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, register_late);
}

/* After the first kernel launch on an OpenCL device, once more: PoCL
 * builds the kernel for its launch then, and that first build loads more
 * of its compiler, whose destructors ran before runtime_shutdown where
 * its own program cache was empty (status 139, or "LLVM ERROR", in 5 of
 * 8 runs of a program that exits with a launch pending). */
void brt_exit_after_launch(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, register_late);
}

/* brt.h: profiling queues, decided when the OpenCL devices open. */
int brt_profileKernels(int on)
{
	if (runtime_started)
		return brt_rt_state.timing == (on != 0) ? 0 : -1;
	timing_asked = on != 0;
	return 0;
}

brt_runtime *brt_rt_start(void)
{
	pthread_once(&runtime_once, runtime_init);
	__atomic_store_n(&brt_rt_ready, 1, __ATOMIC_RELEASE);
	return &brt_rt_state;
}

brt_thread *brt_self(void)
{
	brt_runtime *rt = brt_rt();
	brt_thread *t = pthread_getspecific(rt->key);
	if (!t) {
		t = calloc(1, sizeof *t);
		if (t && pthread_setspecific(rt->key, t)) {
			free(t);
			t = NULL;
		}
	}
	return t;
}

/* The calling thread's device: its useDevices choice, else the default
 * (guide 1.16.1.1: child threads do not inherit the parent's choice). */
brt_device *brt_current(void)
{
	brt_runtime *rt = brt_rt();
	brt_thread *t = brt_self();
	if (t && t->cur)
		return t->cur;
	return rt->deflt;
}

/* BRT_LOG_FILE: one line per event, "brt: ...". */
void brt_log(const char *fmt, ...)
{
	brt_runtime *rt = &brt_rt_state;
	if (!rt->logf)
		return;
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&rt->lock);
	fputs("brt: ", rt->logf);
	vfprintf(rt->logf, fmt, ap);
	fputc('\n', rt->logf);
	fflush(rt->logf);
	pthread_mutex_unlock(&rt->lock);
	va_end(ap);
}

/* Whether this event (a launch, an allocation, an opening), counted in
 * COUNTER, is the WHENth of the process. Without fault injection (WHEN 0,
 * set once at start) nothing is counted: no launch takes the runtime's
 * lock for it. */
static int fault(long *counter, long when)
{
	brt_runtime *rt = &brt_rt_state;
	if (when <= 0)
		return 0;
	pthread_mutex_lock(&rt->lock);
	long n = ++*counter;
	pthread_mutex_unlock(&rt->lock);
	return when > 0 && n == when;
}

int brt_fault_alloc(void)
{
	return fault(&brt_rt_state.nalloc, brt_rt_state.fail_alloc);
}

int brt_fault_launch(void)
{
	return fault(&brt_rt_state.nlaunch, brt_rt_state.fail_launch);
}

int brt_fault_open(void)
{
	return fault(&brt_rt_state.nopen, brt_rt_state.fail_open);
}
