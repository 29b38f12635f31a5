/* util.h - small helpers shared by the front-end modules: growable strings,
 * allocation, whole-file I/O and atomic output files. */
#ifndef BROOK_UTIL_H
#define BROOK_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BROOK_VERSION_STRING PACKAGE_VERSION

/* Allocation. Running out of memory is not an input error: these print
 * "out of memory" and end the process with status 2, the one place where
 * library code does not return an error to its caller. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* A growable byte string, always NUL-terminated. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
} strbuf;

void sb_reserve(strbuf *b, size_t extra);
void sb_putc(strbuf *b, int c);
void sb_putn(strbuf *b, const char *s, size_t n);

/* Inline: the length of a literal S, most of what the generators write,
 * is then known when the program is compiled. */
static inline void sb_puts(strbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}
void sb_printf(strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
char *sb_take(strbuf *b);	/* hands over the buffer; b is empty after */
void sb_free(strbuf *b);

/* FNV-1a of the N bytes at S: the hash of the name and text tables. */
static inline unsigned util_fnv1a(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A table from 64-bit keys (ids, addresses) to 64-bit values, for the
 * lookups made at every node: open addressing, Fibonacci hashing (so
 * that consecutive ids and addresses spread), doubled at half full. */
typedef struct util_map {
	uint64_t *keys, *vals;
	unsigned char *used;
	size_t n, cap;		/* cap a power of two */
} util_map;
/* KEY's value becomes VAL (a later one wins) */
void util_map_put(util_map *m, uint64_t key, uint64_t val);
/* KEY's value, or NULL */
const uint64_t *util_map_get(const util_map *m, uint64_t key);
void util_map_free(util_map *m);

/* V in decimal into BUF (UTIL_LL_MAX bytes), NUL-terminated, as
 * snprintf's "%lld" writes it, without printf's cost: the keys of tables
 * by declaration id, the integers of the AST file. Returns the number of
 * characters before the NUL. */
#define UTIL_LL_MAX 21	/* "-9223372036854775808" and the NUL */
size_t util_lltoa(char *buf, long long v);

/* Reads a whole file ("-" is standard input) into *data, NUL-terminated;
 * *len excludes the NUL. Returns 0, or -1 with a message in err. */
int util_read_file(const char *path, char **data, size_t *len,
	char *err, size_t errlen);
/* The descriptor to read PATH from ("-": 0, standard input), or -1 with
 * a message in err (a directory is refused). */
int util_open_read(const char *path, char *err, size_t errlen);

/* Output that is either fully written or not at all: data goes to a
 * temporary file beside PATH, put in its place when complete (an
 * exchange of the two names where the system has one, else a rename;
 * over a symbolic link's target, when PATH is one to a file). A device or
 * FIFO is written in place, as is standard output, "-".
 * util_check_writable() tells, before any work is done, whether PATH can
 * be written. Both return 0, or -1 with a message. */
int util_write_file(const char *path, const char *data, size_t len,
	char *err, size_t errlen);
int util_check_writable(const char *path, char *err, size_t errlen);

/* Where FD is a pipe, makes it hold UTIL_PIPE_SIZE bytes where the
 * system allows (Linux: F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size;
 * else nothing changes). Tools that send an AST file on in pieces
 * (brast_write) and read one as it arrives (ast_read_fd) then hand over
 * a piece without waiting for the other to take the one before: with the
 * 64 KiB of a pipe by default, each piece of text costs both processes a
 * sleep and a wakeup. Returns 1 when FD is a pipe, else 0. */
enum { UTIL_PIPE_SIZE = 1 << 20 };
int util_pipe_grow(int fd);

/* All N bytes of DATA to FD, again after a short write or EINTR. Returns
 * 0, or -1 with errno set. */
int util_write_all(int fd, const char *data, size_t len);

/* A tool of the pipeline that fails while writing to standard output
 * ends that output with the line "#brook failed" (brast(5), FAILED
 * OUTPUT), so that the tool after it fails too, rather than take what
 * came for a whole program. util_mark_failed() writes it to FD, on a
 * line of its own, unless FD is a terminal (SIGPIPE ignored from then
 * on: the process is ending); util_failed_text() tells whether a text
 * ends with it. */
#define UTIL_FAILED_LINE "#brook failed"
void util_mark_failed(int fd);
int util_failed_text(const char *text, size_t len);

/* True when FD is a pipe (or FIFO). */
int util_is_pipe(int fd);

/* The edit distance of A and B (insertions, deletions, substitutions
 * and swaps of neighbours, each 1), or MAX + 1 where it is more than MAX
 * or either is longer than 64 bytes. */
int util_edit_distance(const char *a, const char *b, int max);

/* True when two paths name the same existing file. */
int util_same_file(const char *a, const char *b);

/* A 64-bit digest of n bytes, to tell a text from an edited copy (not
 * against forgery): brast(5)'s "digest" member, which defines it. */
uint64_t util_digest(const char *s, size_t n);

#endif
