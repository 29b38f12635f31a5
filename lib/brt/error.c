/* error.c - stream error state (guide 1.7.1, Stream::error and errorLog)
 * and the per-thread last error of calls with no stream to report on.
 * Messages use the wording of the spec's section 8 where it has one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A log stops growing past this many bytes (a failing call in a loop). */
#define BRT_LOG_MAX 65536

/* Appends one line to S's log, up to BRT_LOG_MAX. */
static void log_line(brt_stream *s, const char *msg, size_t n)
{
	static const char more[] = "(more errors)\n";
	size_t m = sizeof more - 1;
	if (s->log.len + n + 1 + m > BRT_LOG_MAX) {
		if (s->log.len < m || strcmp(s->log.p + s->log.len - m, more))
			brt_str_add(&s->log, more, m);
		return;
	}
	brt_str_add(&s->log, msg, n);
	brt_str_add(&s->log, "\n", 1);
}

/* Records CODE (if S has no error yet) and appends the message as one line
 * to S's log, and so for the streams S is a view of (brt_stream_domain);
 * with no stream, the thread's last error takes it. */
void brt_vfail(brt_stream *s, BRerror code, const char *fmt, va_list ap)
{
	char msg[2048];
	vsnprintf(msg, sizeof msg, fmt, ap);
	brt_log("error %d: %s", (int)code, msg);
	if (!s) {
		brt_set_last(code, "%s", msg);
		return;
	}
	for (; s; s = s->of) {
		if (s->err == BR_NO_ERROR)
			s->err = code;
		log_line(s, msg, strlen(msg));
	}
}

void brt_fail(brt_stream *s, BRerror code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	brt_vfail(s, code, fmt, ap);
	va_end(ap);
}

void brt_set_last(BRerror code, const char *fmt, ...)
{
	brt_thread *t = brt_self();
	if (!t)
		return;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	free(t->msg);
	t->msg = strdup(msg);
	t->err = code;
}

/* Guide 1.7.1: an error in an input marks the outputs computed from it.
 * DST, and each stream it is a view of, takes SRC's code and the first
 * line of its log (the cause), unless it has an error already: a chain of
 * kernels carries the cause along without the logs growing with every
 * call. */
void brt_propagate(brt_stream *dst, const brt_stream *src)
{
	for (; dst && dst != src; dst = dst->of) {	/* SRC's own streams
							   have its errors */
		if (dst->err != BR_NO_ERROR)
			continue;
		dst->err = src->err;
		if (src->log.len)
			log_line(dst, src->log.p, strcspn(src->log.p, "\n"));
	}
}

BRerror brt_stream_error(brt_stream *s)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Stream Error: NULL stream");
		return BR_ERROR_INVALID_PARAMATER;
	}
	brt_stream_settle(s);
	BRerror e = s->err;
	s->err = BR_NO_ERROR;
	return e;
}

const char *brt_stream_errorLog(brt_stream *s)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Stream Error: NULL stream");
		return "";
	}
	brt_stream_settle(s);
	return s->log.p ? s->log.p : "";
}

/* The thread's last error, then cleared. The message stays valid until the
 * thread's next call of brt_lastError. */
BRerror brt_lastError(const char **message)
{
	brt_thread *t = brt_self();
	if (!t) {
		if (message)
			*message = "";
		return BR_NO_ERROR;
	}
	BRerror e = t->err;
	t->err = BR_NO_ERROR;
	if (message)
		*message = e != BR_NO_ERROR && t->msg ? t->msg : "";
	return e;
}
