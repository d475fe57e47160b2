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

#endif
