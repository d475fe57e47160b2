#include "knowledge/json_doc.h"

#include <stdio.h>

cJSON *json_doc_parse(const char *text, size_t len, const char *name, char *err, size_t errsz)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        size_t offset = at && at >= text && at <= text + len ? (size_t)(at - text) : len;
        snprintf(err, errsz, "%s: malformed JSON at byte %zu", name, offset);
        return NULL;
    }
    for (const char *p = end; p && p < text + len; p++) {
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
            snprintf(err, errsz, "%s: malformed JSON at byte %zu (text after the document)", name, (size_t)(p - text));
            cJSON_Delete(doc);
            return NULL;
        }
    }
    return doc;
}
