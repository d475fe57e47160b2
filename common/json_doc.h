/* json_doc: parsing a whole JSON document from a file's bytes, with the error messages every
 * input of fwadvisor uses ("NAME: malformed JSON at byte N"). */
#ifndef FWADVISOR_JSON_DOC_H
#define FWADVISOR_JSON_DOC_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Parses text[0..len) as one JSON value followed only by whitespace, in UTF-8 with no NUL byte
 * and no \u0000 escape. Returns the value (the
 * caller frees it with cJSON_Delete), or NULL with one line in err naming `name` and the byte
 * offset of the error. */
cJSON *json_doc_parse(const char *text, size_t len, const char *name, char *err, size_t errsz);

/* A member of an object as a string ("" when absent or not a string) or a number (NaN). */
const char *json_str(const cJSON *obj, const char *key);
double json_num(const cJSON *obj, const char *key);

/* A document cut down to some of its members: fields is a comma-separated list of dotted paths
 * ("plan.time.days,ranking.framework"). A path goes into objects by member name; at an array it
 * goes on into every element (an element without the member is left empty), so "ranking.framework"
 * is the framework of each row, in order. The result keeps the document's shape, holding only
 * the paths, merged where they share a start, each whole below its last name. Returns 0 with the
 * new document in *out (the caller frees it), or -1 with one line in err ("no member 'tim' in
 * plan (did you mean 'time'?)"; "plan.time.days.x: days is a number"; an empty path), or
 * JSON_SELECT_NO_MEMORY. */
enum { JSON_SELECT_NO_MEMORY = -2 };
int json_select(const cJSON *doc, const char *fields, cJSON **out, char *err, size_t errsz);

/* doc as indented JSON ending in a newline, without a NUL (its length in *len); NULL when memory
 * ran out. The caller frees it. */
char *json_doc_text(const cJSON *doc, size_t *len);

#endif
