/* Training data: seeded synthetic sets and batch gathering. */
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eng_data_synthetic(struct eng_data *d, int rows, int in, int out, enum eng_loss loss, uint64_t seed, char *err,
                       size_t errsz)
{
    memset(d, 0, sizeof *d);
    d->rows = rows;
    d->in = in;
    d->out = out;
    d->loss = loss;
    struct eng_rng rng;
    eng_rng_seed(&rng, seed ^ 0x5eed5eed5eed5eedULL);
    d->x = malloc((size_t)rows * in * sizeof *d->x);
    float *teacher = malloc((size_t)in * out * sizeof *teacher);
    float *y = malloc((size_t)out * sizeof *y);
    if (loss == ENG_LOSS_CE) d->labels = malloc((size_t)rows * sizeof *d->labels);
    else d->targets = malloc((size_t)rows * out * sizeof *d->targets);
    if (!d->x || !teacher || !y || (!d->labels && !d->targets)) {
        free(teacher);
        free(y);
        eng_data_free(d);
        snprintf(err, errsz, "out of memory for %d rows of synthetic data", rows);
        return ENG_ERR_RUNTIME;
    }
    for (size_t i = 0; i < (size_t)in * out; i++) teacher[i] = 2.0f * eng_rng_uniform(&rng) - 1.0f;
    for (size_t i = 0; i < (size_t)rows * in; i++) d->x[i] = 2.0f * eng_rng_uniform(&rng) - 1.0f;
    /* The teacher's outputs, summed in a fixed order so every machine gets the same bits. Very
     * wide models (benchmarks: 8192 x 8192 at batch 8192) would spend minutes here, so the
     * teacher reads only the first `used` inputs once rows x in x out passes 4e9 multiply-adds;
     * every smaller set is unchanged. */
    int used = in;
    while ((double)rows * used * out > 4e9 && used > 16) used /= 2;
    for (int r = 0; r < rows; r++) {
        const float *x = d->x + (size_t)r * in;
        for (int o = 0; o < out; o++) y[o] = 0.0f;
        for (int k = 0; k < used; k++)
            for (int o = 0; o < out; o++) y[o] += x[k] * teacher[(size_t)k * out + o];
        if (loss == ENG_LOSS_CE) {
            int best = 0;
            for (int o = 1; o < out; o++)
                if (y[o] > y[best]) best = o;
            d->labels[r] = best;
        } else {
            float scale = 1.0f / (float)in;
            for (int o = 0; o < out; o++) d->targets[(size_t)r * out + o] = y[o] * scale;
        }
    }
    free(teacher);
    free(y);
    return ENG_OK;
}

void eng_data_free(struct eng_data *d)
{
    free(d->x);
    free(d->labels);
    free(d->targets);
    memset(d, 0, sizeof *d);
}

void eng_data_batch(const struct eng_data *d, long step, int batch, float *x, void *targets)
{
    size_t start = (size_t)((step * (long)batch) % d->rows);
    for (int b = 0; b < batch; b++) {
        size_t r = (start + (size_t)b) % (size_t)d->rows;
        memcpy(x + (size_t)b * d->in, d->x + r * d->in, (size_t)d->in * sizeof *x);
        if (d->loss == ENG_LOSS_CE) ((int32_t *)targets)[b] = d->labels[r];
        else memcpy((float *)targets + (size_t)b * d->out, d->targets + r * d->out, (size_t)d->out * sizeof(float));
    }
}
