/* A fact of the knowledge base in words. */
#include "knowledge/kb_text.h"
#include "knowledge/advisor.h"
#include "common/i18n.h"
#include "common/json_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*line_fn)(void *ctx, const struct kb_text_line *l);

static void emit(line_fn line, void *ctx, enum kb_text_kind kind, const char *label, int width, const char *text)
{
    struct kb_text_line l = {kind, label, width, text, NULL};
    line(ctx, &l);
}

/* A number member, 0 when absent. */
static double num(const cJSON *o, const char *key)
{
    double v = json_num(o, key);
    return v == v ? v : 0;
}

const char *kb_text_field(const cJSON *row, const char *field)
{
    if (i18n_lang() == I18N_ZH) {
        char twin[64];
        snprintf(twin, sizeof twin, "%s_zh", field);
        const char *zh = json_str(row, twin);
        if (*zh) return zh;
    }
    return json_str(row, field);
}

int kb_text_is_twin(const char *member)
{
    size_t n = strlen(member);
    return n > 3 && strcmp(member + n - 3, "_zh") == 0;
}

void kb_text_join(const cJSON *arr, const char *sep, char *out, size_t n)
{
    size_t used = 0;
    const cJSON *v;
    out[0] = '\0';
    cJSON_ArrayForEach(v, arr) {
        if (!cJSON_IsString(v)) continue;
        int w = snprintf(out + used, n - used, "%s%s", used ? sep : "", v->valuestring);
        if (w < 0 || (size_t)w >= n - used) break;
        used += (size_t)w;
    }
}

/* "[source, further sources, DATE]" appended to a note. */
static void cite(const cJSON *row, char *out, size_t n)
{
    char also[256], sources[320];
    /* adv_cite takes the further sources as the database stores them: comma-separated ids */
    kb_text_join(cJSON_GetObjectItemCaseSensitive(row, "also"), ",", also, sizeof also);
    adv_cite(json_str(row, "source"), also, sources, sizeof sources);
    snprintf(out, n, "[%s, %s]", sources, json_str(row, "as_of"));
}

static void sources(const cJSON *obj, line_fn line, void *ctx)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, "sources"), *s;
    if (!cJSON_GetArraySize(list)) return;
    emit(line, ctx, KB_TEXT_HEADING, NULL, 0, _("Sources"));
    cJSON_ArrayForEach(s, list) {
        char text[1024];
        snprintf(text, sizeof text, _("%s (%s)."), json_str(s, "title"), json_str(s, "published"));
        struct kb_text_line l = {KB_TEXT_SOURCE, json_str(s, "id"), 22, text, json_str(s, "url")};
        line(ctx, &l);
    }
}

const char kb_level_legend[] = N_("first: first-class  yes: supported  exp: experimental  comm: community  -: none");

const char *kb_level_short(const char *level)
{
    static const char *const names[][2] = {
        {"first-class", "first"}, {"supported", "yes"}, {"experimental", "exp"}, {"community", "comm"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(level, names[i][0]) == 0) return names[i][1];
    return "-";
}

void kb_support_text(const cJSON *row, char *text, size_t n)
{
    char c[400];
    size_t used = 0;
    cite(row, c, sizeof c);
    text[0] = '\0';
    if (*json_str(row, "since")) used += (size_t)snprintf(text + used, n - used, _("since %s. "), json_str(row, "since"));
    used += (size_t)snprintf(text + used, n - used, _("fit %.0f/10. "), num(row, "fit"));
    const cJSON *os;
    cJSON_ArrayForEach(os, cJSON_GetObjectItemCaseSensitive(row, "os_support")) {
        if (used >= n) break;
        if (*json_str(os, "since"))
            used += (size_t)snprintf(text + used, n - used, _("On %s: %s since %s (%s) [%s]. "), os->string,
                                     json_str(os, "level"), json_str(os, "since"), kb_text_field(os, "note"),
                                     json_str(os, "source"));
        else
            used += (size_t)snprintf(text + used, n - used, _("On %s: %s (%s) [%s]. "), os->string, json_str(os, "level"),
                                     kb_text_field(os, "note"), json_str(os, "source"));
    }
    if (used < n) snprintf(text + used, n - used, "%s %s", kb_text_field(row, "note"), c);
}

static void framework(const cJSON *obj, line_fn line, void *ctx)
{
    const cJSON *fw = cJSON_GetObjectItemCaseSensitive(obj, "framework"), *row;
    char text[2048], c[400], label[64];
    snprintf(text, sizeof text, _(" (%s) %s, released %s"), json_str(fw, "id"), json_str(fw, "version"), json_str(fw, "released"));
    emit(line, ctx, KB_TEXT_TITLE, json_str(fw, "name"), 0, text);
    cite(fw, c, sizeof c);
    snprintf(text, sizeof text, "%s %s", kb_text_field(fw, "summary"), c);
    emit(line, ctx, KB_TEXT_PARA, NULL, 0, text);

    emit(line, ctx, KB_TEXT_HEADING, NULL, 0, _("Scores (0-10, higher is better for you)"));
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(obj, "scores")) {
        cite(row, c, sizeof c);
        snprintf(label, sizeof label, "%-20s %2.0f", json_str(row, "criterion"), num(row, "score"));
        snprintf(text, sizeof text, "%s %s", kb_text_field(row, "note"), c);
        emit(line, ctx, KB_TEXT_ITEM, label, 23, text);
    }
    emit(line, ctx, KB_TEXT_HEADING, NULL, 0, _("Hardware support"));
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(obj, "hardware")) {
        snprintf(label, sizeof label, "%-7s %s", json_str(row, "hardware"), json_str(row, "level"));
        kb_support_text(row, text, sizeof text);
        emit(line, ctx, KB_TEXT_ITEM, label, 20, text);
    }
    static const struct { const char *member, *title, *key; } links[] = {
        {"distributed", N_("Distributed training"), "strategy"}, {"deployment", N_("Deployment"), "runtime"}};
    for (size_t k = 0; k < sizeof links / sizeof links[0]; k++) {
        emit(line, ctx, KB_TEXT_HEADING, NULL, 0, _(links[k].title));
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(obj, links[k].member)) {
            cite(row, c, sizeof c);
            snprintf(text, sizeof text, "%s %s", kb_text_field(row, "note"), c);
            emit(line, ctx, KB_TEXT_ITEM, json_str(row, links[k].key), 14, text);
        }
    }
    sources(obj, line, ctx);
}

/* Any other kind: the fact's fields, then its related rows. */
static void generic(const cJSON *obj, line_fn line, void *ctx)
{
    const char *kind = json_str(obj, "kind");
    const cJSON *fact = cJSON_GetObjectItemCaseSensitive(obj, kind), *field;
    const char *name = *json_str(fact, "name")    ? kb_text_field(fact, "name")
                       : *json_str(fact, "title") ? kb_text_field(fact, "title")
                                                  : json_str(fact, "id");
    char text[2048];
    snprintf(text, sizeof text, "%s (%s %s)", name, kind, json_str(fact, "id"));
    emit(line, ctx, KB_TEXT_TITLE, NULL, 0, text); /* a seed article's title is long: wrapped */
    cJSON_ArrayForEach(field, fact) {
        if (strcmp(field->string, "id") == 0 || strcmp(field->string, "name") == 0 || kb_text_is_twin(field->string))
            continue;
        if (cJSON_IsString(field)) {
            if (!*field->valuestring) continue;
            snprintf(text, sizeof text, "%s", kb_text_field(fact, field->string));
        } else if (cJSON_IsNumber(field)) {
            snprintf(text, sizeof text, "%g", field->valuedouble);
        } else if (cJSON_IsArray(field)) {
            kb_text_join(field, ", ", text, sizeof text);
            if (!text[0]) snprintf(text, sizeof text, "-");
        } else {
            char *printed = cJSON_PrintUnformatted(field);
            snprintf(text, sizeof text, "%s", printed ? printed : "");
            free(printed);
        }
        emit(line, ctx, KB_TEXT_FIELD, field->string, 20, text);
    }
    cJSON_ArrayForEach(field, obj) {
        if (!cJSON_IsArray(field) || strcmp(field->string, "sources") == 0) continue;
        emit(line, ctx, KB_TEXT_HEADING, NULL, 0, field->string);
        const cJSON *row;
        cJSON_ArrayForEach(row, field) {
            char c[400];
            /* The row's other key names it: the framework of a link row, the criterion of a score. */
            const char *label = *json_str(row, "framework") && strcmp(kind, "framework") != 0 ? json_str(row, "framework")
                                                                                               : json_str(row, "criterion");
            cite(row, c, sizeof c);
            if (cJSON_GetObjectItemCaseSensitive(row, "score"))
                snprintf(text, sizeof text, "%2.0f  %s %s", num(row, "score"), kb_text_field(row, "note"), c);
            else if (*json_str(row, "level"))
                snprintf(text, sizeof text, "%s. %s %s", json_str(row, "level"), kb_text_field(row, "note"), c);
            else
                snprintf(text, sizeof text, "%s %s", kb_text_field(row, "note"), c);
            emit(line, ctx, KB_TEXT_ITEM, label, 14, text);
        }
    }
    sources(obj, line, ctx);
}

void kb_fact_text(const cJSON *obj, line_fn line, void *ctx)
{
    if (strcmp(json_str(obj, "kind"), "framework") == 0) framework(obj, line, ctx);
    else generic(obj, line, ctx);
}
