#include "common/json_doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Length of a well-formed UTF-8 sequence at s (within n bytes): shortest form, no surrogates, at
 * most U+10FFFF; 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80) return 1;
    size_t len = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len || len > n) return 0;
    unsigned long v = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    return len;
}

/* What cJSON would pass silently: bytes that are not UTF-8 (export would then write invalid
 * JSON), NUL bytes, and \u0000 escapes (which cut a string short: "research\u0000x" would read
 * as "research"). Returns the offset of the first, or len. */
static size_t first_bad_byte(const char *text, size_t len, const char **why)
{
    const unsigned char *u = (const unsigned char *)text;
    int in_string = 0;
    for (size_t i = 0; i < len;) {
        if (u[i] == 0) {
            *why = "a NUL byte";
            return i;
        }
        if (u[i] >= 0x80) {
            size_t n = utf8_len(u + i, len - i);
            if (!n) {
                *why = "bytes that are not UTF-8";
                return i;
            }
            i += n;
            continue;
        }
        if (u[i] == '"') in_string = !in_string;
        else if (in_string && u[i] == '\\' && i + 1 < len) {
            if (u[i + 1] == 'u' && i + 5 < len && memcmp(text + i + 2, "0000", 4) == 0) {
                *why = "a \\u0000 escape (a NUL character in a string)";
                return i;
            }
            i += 2;
            continue;
        }
        i++;
    }
    return len;
}

cJSON *json_doc_parse(const char *text, size_t len, const char *name, char *err, size_t errsz)
{
    const char *why = NULL;
    size_t bad = first_bad_byte(text, len, &why);
    if (bad < len) {
        snprintf(err, errsz, "%s: %s at byte %zu", name, why, bad);
        return NULL;
    }
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

const char *json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

double json_num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}
