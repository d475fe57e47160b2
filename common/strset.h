/* strset: a set of strings (open addressing, FNV-1a), for checks that would otherwise compare
 * every row of an import with every other. Keys are copied. */
#ifndef FWADVISOR_STRSET_H
#define FWADVISOR_STRSET_H

#include <stddef.h>

struct strset {
    char **slots;
    size_t cap, count;
};

/* 1 when key was added, 0 when it was already there, -1 when out of memory. */
int strset_add(struct strset *s, const char *key);
int strset_has(const struct strset *s, const char *key);
void strset_free(struct strset *s);

#endif
