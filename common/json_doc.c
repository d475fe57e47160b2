#include "common/json_doc.h"

#include "common/suggest.h"

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

/* --- json_select ------------------------------------------------------------------------------ */

#define SELECT_MAX_DEPTH 16

struct path {
    const char *text; /* the whole path, for the messages */
    char seg[SELECT_MAX_DEPTH][64];
    int n;
};

static int path_split(const char *text, size_t len, struct path *p, char *err, size_t errsz)
{
    p->n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '.') continue;
        size_t seglen = i - start;
        if (seglen == 0) {
            snprintf(err, errsz, "an empty name in the field '%.*s'", (int)len, text);
            return -1;
        }
        if (p->n == SELECT_MAX_DEPTH || seglen >= sizeof p->seg[0]) {
            snprintf(err, errsz, "the field '%.*s' is deeper or longer than any in the document", (int)len, text);
            return -1;
        }
        memcpy(p->seg[p->n], text + start, seglen);
        p->seg[p->n++][seglen] = '\0';
        start = i + 1;
    }
    return 0;
}

static const char *kind_of(const cJSON *v)
{
    return cJSON_IsArray(v) ? "a list" : cJSON_IsObject(v) ? "an object" : cJSON_IsString(v) ? "a string"
         : cJSON_IsNumber(v) ? "a number" : cJSON_IsBool(v) ? "true or false" : "null";
}

/* The name of segment `at` for messages: the path up to it ("plan.time"), or "the document". */
static void where(const struct path *p, int at, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < at && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "." : "", p->seg[i]);
    if (at == 0) snprintf(buf, n, "the document");
}

static cJSON *empty_like(const cJSON *v)
{
    return cJSON_IsArray(v) ? cJSON_CreateArray() : cJSON_CreateObject();
}

/* "no member 'tim' in plan (did you mean 'time'?)": the names offered are the members of src, an
 * object, or those of its elements, a list. */
static void missing_member(const cJSON *src, const struct path *p, int at, char *err, size_t errsz)
{
    struct suggest s;
    suggest_init(&s, p->seg[at]);
    const cJSON *el, *m;
    if (cJSON_IsArray(src)) {
        cJSON_ArrayForEach(el, src) cJSON_ArrayForEach(m, el) if (m->string) suggest_offer(&s, m->string);
    } else {
        cJSON_ArrayForEach(m, src) if (m->string) suggest_offer(&s, m->string);
    }
    char here[512];
    where(p, at, here, sizeof here);
    const char *near = suggest_result(&s);
    if (near) snprintf(err, errsz, "no member '%s' in %s (did you mean '%s'?)", p->seg[at], here, near);
    else snprintf(err, errsz, "no member '%s' in %s", p->seg[at], here);
}

/* Copies path p from segment `at` of src (an object or a list) into dst (of the same kind).
 * Returns 1 when it was found, 0 when src, an object, lacks the member, -1 on an error (err; empty
 * when memory ran out). */
static int select_into(const cJSON *src, cJSON *dst, const struct path *p, int at, char *err, size_t errsz)
{
    char here[512];
    if (cJSON_IsArray(src)) {
        int found = 0, i = 0;
        const cJSON *el;
        cJSON_ArrayForEach(el, src) {
            cJSON *d = cJSON_GetArrayItem(dst, i);
            if (!d) {
                d = empty_like(el);
                if (!d) return -1;
                cJSON_AddItemToArray(dst, d);
            }
            i++;
            if (!cJSON_IsObject(el) && !cJSON_IsArray(el)) {
                where(p, at, here, sizeof here);
                snprintf(err, errsz, "%s: %s holds values, not members ('%s' has none)", p->text, here, p->seg[at]);
                return -1;
            }
            int r = select_into(el, d, p, at, err, errsz);
            if (r < 0) return -1;
            found |= r;
        }
        if (!found && i > 0) {
            missing_member(src, p, at, err, errsz);
            return -1;
        }
        return 1; /* an empty list: nothing to miss */
    }
    const cJSON *child = cJSON_GetObjectItemCaseSensitive(src, p->seg[at]);
    if (!child) return 0;
    if (at + 1 == p->n) {
        cJSON *copy = cJSON_Duplicate(child, 1);
        if (!copy) return -1;
        if (cJSON_GetObjectItemCaseSensitive(dst, p->seg[at])) cJSON_ReplaceItemInObjectCaseSensitive(dst, p->seg[at], copy);
        else cJSON_AddItemToObject(dst, p->seg[at], copy);
        return 1;
    }
    if (!cJSON_IsObject(child) && !cJSON_IsArray(child)) {
        where(p, at + 1, here, sizeof here);
        snprintf(err, errsz, "%s: %s is %s, with no '%s' in it", p->text, here, kind_of(child), p->seg[at + 1]);
        return -1;
    }
    cJSON *d = cJSON_GetObjectItemCaseSensitive(dst, p->seg[at]);
    if (d && (cJSON_IsArray(d) != cJSON_IsArray(child) || (!cJSON_IsObject(d) && !cJSON_IsArray(d)))) return 1;
    if (!d) {
        d = empty_like(child);
        if (!d) return -1;
        cJSON_AddItemToObject(dst, p->seg[at], d);
    }
    int r = select_into(child, d, p, at + 1, err, errsz);
    if (r == 0) missing_member(child, p, at + 1, err, errsz);
    return r == 0 ? -1 : r;
}

int json_select(const cJSON *doc, const char *fields, cJSON **out, char *err, size_t errsz)
{
    *out = NULL;
    err[0] = '\0';
    if (!cJSON_IsObject(doc) && !cJSON_IsArray(doc)) {
        snprintf(err, errsz, "the document is %s, with no members to choose", kind_of(doc));
        return -1;
    }
    cJSON *dst = empty_like(doc);
    if (!dst) goto oom;
    const char *f = fields;
    do {
        const char *comma = strchr(f, ',');
        size_t len = comma ? (size_t)(comma - f) : strlen(f);
        struct path p;
        char text[1100];
        snprintf(text, sizeof text, "%.*s", (int)(len < 1024 ? len : 1024), f);
        p.text = text;
        if (path_split(f, len, &p, err, errsz) != 0) goto fail;
        int r = select_into(doc, dst, &p, 0, err, errsz);
        if (r == 0) {
            missing_member(doc, &p, 0, err, errsz);
            goto fail;
        }
        if (r < 0) {
            if (!err[0]) goto oom;
            goto fail;
        }
        f = comma ? comma + 1 : NULL;
    } while (f);
    *out = dst;
    return 0;
oom:
    snprintf(err, errsz, "out of memory");
    cJSON_Delete(dst);
    return JSON_SELECT_NO_MEMORY;
fail:
    cJSON_Delete(dst);
    return -1;
}

char *json_doc_text(const cJSON *doc, size_t *len)
{
    char *text = cJSON_Print(doc);
    if (!text) return NULL;
    *len = strlen(text);
    text[(*len)++] = '\n'; /* over the NUL: cJSON_Print's buffer holds the text and one byte more */
    return text;
}
