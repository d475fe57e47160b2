#include "knowledge/presets.h"

#include <stdio.h>
#include <string.h>

extern const char *const presets_names[];
extern const char *const presets_texts[];
extern const size_t presets_count;

size_t presets_size(void) { return presets_count; }

const char *preset_name(size_t i, char *buf, size_t bufsz)
{
    const char *name = presets_names[i];
    const char *dot = strrchr(name, '.');
    snprintf(buf, bufsz, "%.*s", dot ? (int)(dot - name) : (int)strlen(name), name);
    return buf;
}

const char *preset_text(size_t i) { return presets_texts[i]; }

int preset_find(const char *name)
{
    char buf[128];
    for (size_t i = 0; i < presets_count; i++)
        if (strcmp(preset_name(i, buf, sizeof buf), name) == 0) return (int)i;
    return -1;
}
