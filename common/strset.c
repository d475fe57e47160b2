#include "common/strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(char *const *slots, size_t cap, const char *key)
{
    size_t i = (size_t)hash(key) & (cap - 1);
    while (slots[i] && strcmp(slots[i], key) != 0) i = (i + 1) & (cap - 1);
    return i;
}

static int grow(struct strset *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    char **slots = calloc(cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i]) slots[find(slots, cap, s->slots[i])] = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return 0;
}

int strset_add(struct strset *s, const char *key)
{
    if ((s->count + 1) * 2 > s->cap && grow(s)) return -1;
    size_t i = find(s->slots, s->cap, key);
    if (s->slots[i]) return 0;
    if (!(s->slots[i] = strdup(key))) return -1;
    s->count++;
    return 1;
}

int strset_has(const struct strset *s, const char *key)
{
    return s->cap && s->slots[find(s->slots, s->cap, key)] != NULL;
}

void strset_free(struct strset *s)
{
    for (size_t i = 0; i < s->cap; i++) free(s->slots[i]);
    free(s->slots);
    memset(s, 0, sizeof *s);
}
