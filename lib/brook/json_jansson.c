/* json_jansson.c - json.h's values to and from jansson's: jansson reads
 * the JSON text that ast_read_json does not take (with its messages for
 * text that is not JSON) and writes text with flags (indented, or with
 * spaces after the separators). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define BRJ_NO_JSON_NAMES
#include "brook/json.h"

/* V as a jansson value (a new reference), NULL where memory ran out */
static json_t *to_jansson(const brj_t *v)
{
	json_t *j = NULL;

	switch (v->type) {
	case BRJ_OBJECT:
		j = json_object();
		for (void *it = brj_object_iter((brj_t *)v); j && it;
				it = brj_object_iter_next((brj_t *)v, it)) {
			json_t *e = to_jansson(brj_object_iter_value(it));
			if (!e || json_object_set_new_nocheck(j,
					brj_object_iter_key(it), e)) {
				json_decref(j);
				j = NULL;
			}
		}
		break;
	case BRJ_ARRAY:
		j = json_array();
		for (size_t i = 0; j && i < brj_array_size(v); i++)
			if (json_array_append_new(j,
					to_jansson(brj_array_get(v, i)))) {
				json_decref(j);
				j = NULL;
			}
		break;
	case BRJ_STRING:
		j = json_stringn_nocheck(brj_string_value(v),
			brj_string_length(v));
		break;
	case BRJ_INTEGER: j = json_integer(brj_integer_value(v)); break;
	case BRJ_REAL: j = json_real(brj_real_value(v)); break;
	case BRJ_TRUE: j = json_true(); break;
	case BRJ_FALSE: j = json_false(); break;
	case BRJ_NULL: j = json_null(); break;
	}
	return j;
}

/* J as a value of json.h (a new reference), NULL where memory ran out */
static brj_t *from_jansson(json_t *j)
{
	brj_t *v = NULL;
	const char *k;
	json_t *e;
	size_t i;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		v = brj_object();
		json_object_foreach(j, k, e) {
			if (!v)
				break;
			if (brj_object_setn_new_nocheck(v, k, strlen(k),
					from_jansson(e))) {
				brj_decref(v);
				v = NULL;
			}
		}
		break;
	case JSON_ARRAY:
		v = brj_array();
		json_array_foreach(j, i, e) {
			if (!v)
				break;
			if (brj_array_append_new(v, from_jansson(e))) {
				brj_decref(v);
				v = NULL;
			}
		}
		break;
	case JSON_STRING:
		v = brj_stringn_nocheck(json_string_value(j),
			json_string_length(j));
		break;
	case JSON_INTEGER: v = brj_integer(json_integer_value(j)); break;
	case JSON_REAL: v = brj_real(json_real_value(j)); break;
	case JSON_TRUE: v = brj_true(); break;
	case JSON_FALSE: v = brj_false(); break;
	case JSON_NULL: v = brj_null(); break;
	}
	return v;
}

brj_t *brj_loadb(const char *text, size_t n, size_t flags, brj_error_t *err)
{
	json_error_t e;
	json_t *j = json_loadb(text, n, flags, &e);
	brj_t *v = NULL;

	if (j) {
		v = from_jansson(j);
		json_decref(j);
		if (!v)
			snprintf(e.text, sizeof e.text, "out of memory");
	}
	if (err && !v) {
		err->line = e.line;
		err->column = e.column;
		err->position = e.position;
		snprintf(err->source, sizeof err->source, "%s", e.source);
		snprintf(err->text, sizeof err->text, "%s", e.text);
	}
	return v;
}

char *brj_dumps(const brj_t *v, size_t flags)
{
	json_t *j = v ? to_jansson(v) : NULL;
	char *s = j ? json_dumps(j, flags) : NULL;

	json_decref(j);
	return s;
}

int brj_dumpf(const brj_t *v, FILE *f, size_t flags)
{
	json_t *j = v ? to_jansson(v) : NULL;
	int r = j ? json_dumpf(j, f, flags) : -1;

	json_decref(j);
	return r;
}
