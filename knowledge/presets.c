#include "knowledge/presets.h"
#include "common/suggest.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

extern const char *const presets_names[];
extern const char *const presets_texts[];
extern const size_t presets_count;

size_t presets_size(void) { return presets_count; }

const char *embedded_stem(const char *file, char *buf, size_t bufsz)
{
    const char *dot = strrchr(file, '.');
    snprintf(buf, bufsz, "%.*s", dot ? (int)(dot - file) : (int)strlen(file), file);
    return buf;
}

const char *preset_name(size_t i, char *buf, size_t bufsz) { return embedded_stem(presets_names[i], buf, bufsz); }

const char *preset_text(size_t i) { return presets_texts[i]; }

const char *preset_description(size_t i, char *buf, size_t bufsz)
{
    cJSON *doc = cJSON_Parse(presets_texts[i]);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(doc, "description");
    snprintf(buf, bufsz, "%s", cJSON_IsString(d) ? d->valuestring : "");
    cJSON_Delete(doc);
    return buf;
}

int preset_find(const char *name)
{
    char buf[128];
    for (size_t i = 0; i < presets_count; i++)
        if (strcasecmp(preset_name(i, buf, sizeof buf), name) == 0) return (int)i;
    return -1;
}

const char *preset_suggest(const char *name, char *buf, size_t bufsz)
{
    struct suggest s;
    char candidate[128];
    suggest_init(&s, name);
    for (size_t i = 0; i < presets_count; i++) suggest_offer(&s, preset_name(i, candidate, sizeof candidate));
    if (!suggest_result(&s)) return NULL;
    snprintf(buf, bufsz, "%s", suggest_result(&s));
    return buf;
}
