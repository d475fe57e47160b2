/* presets: the answer files of data/presets/, compiled into the binary. */
#ifndef FWADVISOR_PRESETS_H
#define FWADVISOR_PRESETS_H

#include <stddef.h>

/* Number of presets, and the name (file name without .json) and JSON text of preset i. */
size_t presets_size(void);
const char *preset_name(size_t i, char *buf, size_t bufsz);
const char *preset_text(size_t i);
/* Index of a preset by name, or -1. */
int preset_find(const char *name);

#endif
