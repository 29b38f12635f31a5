/* ast.c - accessors and constructors of brast(5) nodes (see ast.h). */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "brook/ast.h"

const char *ast_kind(const json_t *n)
{
	return ast_str(n, "k");
}

const char *ast_str(const json_t *n, const char *key)
{
	const char *s = json_string_value(json_object_get(n, key));
	return s ? s : "";
}

json_t *ast_get(const json_t *n, const char *key)
{
	return n && key ? json_object_get(n, key) : NULL;
}

json_t *ast_arr(const json_t *n, const char *key)
{
	json_t *a = ast_get(n, key);
	return json_is_array(a) ? a : NULL;
}

int ast_bool(const json_t *n, const char *key)
{
	return json_is_true(ast_get(n, key));
}

long long ast_int(const json_t *n, const char *key)
{
	return (long long)json_integer_value(ast_get(n, key));
}

int ast_is(const json_t *n, const char *kind)
{
	return kind && strcmp(ast_kind(n), kind) == 0;
}

int ast_at(const json_t *doc, const json_t *n, const char **file, int *line,
	int *col)
{
	json_t *at = ast_arr(n, "at");
	if (!at || json_array_size(at) != 3)
		return -1;
	json_int_t fi = json_integer_value(json_array_get(at, 0));
	json_int_t ln = json_integer_value(json_array_get(at, 1));
	json_int_t cl = json_integer_value(json_array_get(at, 2));
	/* an edited AST may point outside its file table or its lines: no
	 * location rather than a wrong one (fuzz/FINDINGS.md, F9) */
	if (fi < 0 || (size_t)fi >= json_array_size(ast_arr(doc, "files")) ||
		ln < 1 || ln > INT_MAX || cl < 0 || cl > INT_MAX)
		return -1;
	const char *f = json_string_value(json_array_get(ast_arr(doc, "files"),
		(size_t)fi));
	if (file)
		*file = f ? f : "<input>";
	if (line)
		*line = (int)ln;
	if (col)
		*col = (int)cl;
	return 0;
}

json_t *ast_node(const char *kind, int file, int line, int col)
{
	json_t *n = json_object();
	json_object_set_new(n, "k", json_string(kind));
	json_t *at = json_array();
	json_array_append_new(at, json_integer(file));
	json_array_append_new(at, json_integer(line));
	json_array_append_new(at, json_integer(col));
	json_object_set_new(n, "at", at);
	return n;
}

json_t *ast_type(const char *t)
{
	json_t *n = json_object();
	json_object_set_new(n, "t", json_string(t));
	return n;
}
