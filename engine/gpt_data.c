/* Token streams for the GPT: seeded synthetic chains and the bytes of any file (gpt.h). */
#include "common/file.h"
#include "engine/gpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT_BYTES ((size_t)1 << 40) /* mapped, not read: the limit is only a sanity check */

int eng_tokens_synthetic(struct eng_tokens *t, size_t len, int vocab, uint64_t seed, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    int32_t *next = malloc((size_t)vocab * 4 * sizeof *next);
    t->ids = malloc(len * sizeof *t->ids);
    if (!next || !t->ids || len == 0 || vocab < 1) {
        free(next);
        eng_tokens_free(t);
        snprintf(err, errsz, "out of memory for %zu synthetic tokens", len);
        return ENG_ERR_RUNTIME;
    }
    struct eng_rng rng;
    eng_rng_seed(&rng, seed ^ 0x70c3e5f1a2b4d697ULL);
    for (size_t i = 0; i < (size_t)vocab * 4; i++) next[i] = (int32_t)(eng_rng_next(&rng) % (uint64_t)vocab);
    int32_t tok = (int32_t)(eng_rng_next(&rng) % (uint64_t)vocab);
    for (size_t i = 0; i < len; i++) {
        t->ids[i] = tok;
        tok = next[(size_t)tok * 4 + (eng_rng_next(&rng) >> 62)];
    }
    free(next);
    t->len = len;
    t->vocab = vocab;
    return ENG_OK;
}

int eng_tokens_from_file(struct eng_tokens *t, const char *path, size_t min_len, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    struct file_mapped *map = malloc(sizeof *map);
    if (!map) {
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    int status = file_map(path, MAX_TEXT_BYTES, map, err, errsz);
    if (status != FILE_OK) {
        free(map);
        return status == FILE_ERR ? ENG_ERR_RUNTIME : ENG_ERR_INPUT;
    }
    if (map->len < min_len) {
        snprintf(err, errsz, "%s: %zu bytes, shorter than one batch (%zu bytes: batch x ctx + 1)", path, map->len,
                 min_len);
        file_unmap(map);
        free(map);
        return ENG_ERR_INPUT;
    }
    t->bytes = map->data;
    t->len = map->len;
    t->vocab = 256;
    t->map = map;
    return ENG_OK;
}

void eng_tokens_free(struct eng_tokens *t)
{
    free(t->ids);
    if (t->map) {
        file_unmap(t->map);
        free(t->map);
    }
    memset(t, 0, sizeof *t);
}

/* a b mod n without overflow for any size_t operands. */
static size_t mulmod(size_t a, size_t b, size_t n) { return (size_t)((unsigned __int128)(a % n) * (b % n) % n); }

void eng_tokens_batch(const struct eng_tokens *t, long step, int batch, int ctx, int32_t *inputs, int32_t *targets)
{
    size_t L = t->len;
    for (int b = 0; b < batch; b++) {
        /* s = ((k B + b) T) mod L, in arithmetic that cannot overflow for any step. */
        size_t row = (mulmod((size_t)step, (size_t)batch, L) + (size_t)b % L) % L;
        size_t s = mulmod(row, (size_t)ctx, L);
        for (int j = 0; j <= ctx; j++) {
            size_t at = (s + (size_t)j) % L;
            int32_t tok = t->ids ? t->ids[at] : (int32_t)t->bytes[at];
            if (j < ctx) inputs[(size_t)b * ctx + j] = tok;
            if (j > 0) targets[(size_t)b * ctx + j - 1] = tok;
        }
    }
}
