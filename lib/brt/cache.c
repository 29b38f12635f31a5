/* cache.c - compiled OpenCL programs, cached on disk across runs (DESIGN.md,
 * Performance principles): the file BRT_CACHE_DIR/HASH.bin holds the
 * program binary, HASH a 128-bit hash of the source, the device name, the
 * platform, the driver and device versions and the build options. The
 * in-memory cache (one entry per program and device) is in opencl.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* The line brgen --fast-math writes into a program (gen_cl.c). */
static const char fast_math_mark[] = "\n#define BRG_FAST_MATH 1\n";

/* Whether program P asks for speed over the CPU backend's rounding. */
static int fast_math(const brt_program *p)
{
	size_t n = p->length ? p->length : strlen(p->source);
	size_t m = sizeof fast_math_mark - 1;
	for (size_t i = 0; i + m <= n; i++)
		if (p->source[i] == '\n' && memcmp(p->source + i, fast_math_mark,
			m) == 0)
			return 1;
	return 0;
}

/* Both backends round alike: no options that change arithmetic, and
 * correctly rounded division and sqrt where the device offers them
 * (OpenCL's default allows 2.5 and 3 ulp), unless the program was
 * generated with --fast-math. The 32-bit variant of a program (brt.h) is
 * built with -DBRG_I32, then the device's options (opencl.c,
 * device_options). BUF gets all of them; the return value points past
 * -DBRG_I32, at the ones the log shows. */
static const char *build_options(const brt_device *d, const brt_program *p,
	int i32, char buf[600])
{
	static const char i32opt[] = "-DBRG_I32 ";
	int cr = d->crdiv && !fast_math(p);
	size_t k = i32 ? sizeof i32opt - 1 : 0;
	memcpy(buf, i32opt, k);
	snprintf(buf + k, 600 - k, "%s%s%s",
		cr ? "-cl-fp32-correctly-rounded-divide-sqrt" : "",
		cr && d->options[0] ? " " : "", d->options);
	if (k && !buf[k])
		buf[k - 1] = '\0';	/* -DBRG_I32 alone */
	return buf + k;
}

/* FNV-1a, 64 bits, over each part and its length. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	for (size_t i = 0; i < sizeof n; i++) {
		h ^= (n >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void cache_key(const brt_device *d, const brt_program *p,
	const char *opt, char out[33])
{
	uint64_t h[2] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
	for (int i = 0; i < 2; i++) {
		h[i] = fnv(h[i], p->source, p->length);
		h[i] = fnv(h[i], d->name, strlen(d->name));
		h[i] = fnv(h[i], d->platform, strlen(d->platform));
		h[i] = fnv(h[i], d->version, strlen(d->version));
		h[i] = fnv(h[i], opt, strlen(opt));
	}
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0],
		(unsigned long long)h[1]);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = strdup(path);
	if (!p)
		return -1;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int r = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
	free(p);
	return r;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0
	    && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n))
	    && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n > 0 ? (size_t)n : 0;
	return buf;
}

/* Written to a temporary name, then renamed: readers see all or nothing. */
static void write_file(const char *dir, const char *path,
	const unsigned char *data, size_t len)
{
	if (make_dirs(dir)) {
		brt_log("cache: cannot create %s", dir);
		return;
	}
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return;
	int ok = fwrite(data, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path))
		remove(tmp);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static cl_program from_binary(brt_device *d, const char *opt,
	const unsigned char *bin, size_t len)
{
	brt_cl *cl = &brt_rt()->cl;
	cl_int err, st;
	cl_program prog = cl->clCreateProgramWithBinary(d->ctx, 1, &d->id, &len,
		&bin, &st, &err);
	if (!prog)
		return NULL;
	if (st != CL_SUCCESS || cl->clBuildProgram(prog, 1, &d->id, opt, NULL,
		    NULL) != CL_SUCCESS) {
		cl->clReleaseProgram(prog);
		return NULL;
	}
	brt_exit_after_driver();
	return prog;
}

static char *build_log(brt_device *d, cl_program prog)
{
	brt_cl *cl = &brt_rt()->cl;
	size_t n = 0;
	cl->clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
	char *log = malloc(n + 1);
	if (!log)
		return NULL;
	if (cl->clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, n, log,
		    NULL) != CL_SUCCESS)
		n = 0;
	log[n] = '\0';
	while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' '
		|| log[n - 1] == '\0'))
		log[--n] = '\0';
	return log;
}

static void save_binary(cl_program prog, const char *dir,
	const char *path)
{
	brt_cl *cl = &brt_rt()->cl;
	size_t len = 0;
	if (cl->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len,
		    &len, NULL) != CL_SUCCESS || len == 0)
		return;
	unsigned char *bin = malloc(len);
	if (bin && cl->clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin,
			&bin, NULL) == CL_SUCCESS)
		write_file(dir, path, bin, len);
	free(bin);
}

/* The program P built for D: from the disk cache, else compiled (and
 * saved). NULL when the build fails, with the build log in *BLOG. */
cl_program brt_cache_build(brt_device *d, const brt_program *p, int i32,
	char **blog)
{
	brt_runtime *rt = brt_rt();
	brt_cl *cl = &rt->cl;
	const char *name = p->name ? p->name : "(program)";
	char key[33], path[4096], opt[600];
	/* OPT: every option; SHOWN: those but -DBRG_I32, for the log */
	const char *shown = build_options(d, p, i32, opt);
	*blog = NULL;
	cache_key(d, p, opt, key);
	path[0] = '\0';
	if (rt->cache_dir) {
		snprintf(path, sizeof path, "%s/%s.bin", rt->cache_dir, key);
		size_t len;
		unsigned char *bin = read_file(path, &len);
		cl_program prog = bin ? from_binary(d, opt, bin, len) : NULL;
		free(bin);
		if (prog) {
			brt_log("cache hit: %s for %s (%s)", name, d->name, path);
			return prog;
		}
	}
	double t0 = now_ms();
	const char *src = p->source;
	size_t len = p->length ? p->length : strlen(p->source);
	cl_int err;
	cl_program prog = cl->clCreateProgramWithSource(d->ctx, 1, &src, &len,
		&err);
	if (!prog) {
		brt_str s = {0};
		brt_str_printf(&s, "%s", brt_cl_error(err));
		*blog = s.p;
		return NULL;
	}
	err = cl->clBuildProgram(prog, 1, &d->id, opt, NULL, NULL);
	brt_exit_after_driver();
	if (err != CL_SUCCESS) {
		/* the driver's error, then its log (empty for options it
		   rejects) */
		char *log = build_log(d, prog);
		brt_str s = {0};
		brt_str_printf(&s, "%s, options \"%s\"%s%s", brt_cl_error(err),
			opt, log && *log ? "\n" : "", log ? log : "");
		free(log);
		*blog = s.p;
		cl->clReleaseProgram(prog);
		brt_log("build failed: %s for %s", name, d->name);
		return NULL;
	}
	brt_log("compiled: %s for %s in %.0f ms%s%s%s%s", name, d->name,
		now_ms() - t0, shown[0] ? ", options \"" : "", shown,
		shown[0] ? "\"" : "", i32 ? " (32-bit indices)" : "");
	if (path[0])
		save_binary(prog, rt->cache_dir, path);
	return prog;
}
