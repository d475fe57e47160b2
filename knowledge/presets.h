/* presets: the answer files of data/presets/, compiled into the binary. */
#ifndef FWADVISOR_PRESETS_H
#define FWADVISOR_PRESETS_H

#include <stddef.h>

/* A data file's name without its extension ("mobile-app.json" -> "mobile-app"), into buf. */
const char *embedded_stem(const char *file, char *buf, size_t bufsz);

/* Number of presets, and the name (file name without .json) and JSON text of preset i. */
size_t presets_size(void);
const char *preset_name(size_t i, char *buf, size_t bufsz);
const char *preset_text(size_t i);
/* What preset i is for: its "description" (one line), or "" when it has none. */
const char *preset_description(size_t i, char *buf, size_t bufsz);
/* Index of a preset by name in any case, or -1. */
int preset_find(const char *name);
/* The preset nearest to an unknown name (common/suggest.h) into buf, or NULL. */
const char *preset_suggest(const char *name, char *buf, size_t bufsz);

#endif
