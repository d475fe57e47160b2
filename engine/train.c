/* The timed training loop. */
#include "engine/engine.h"
#include "common/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int eng_train(struct eng_model *m, const struct eng_data *d, struct eng_run *run,
              void (*on_step)(void *ctx, int step, float loss, double seconds), void *ctx, char *err, size_t errsz)
{
    const struct eng_config *c = eng_model_config(m);
    if (d->in != c->sizes[0] || d->out != c->sizes[c->nsizes - 1] || d->loss != c->loss) {
        snprintf(err, errsz, "data of %d inputs and %d outputs does not fit a %d -> %d model", d->in, d->out,
                 c->sizes[0], c->sizes[c->nsizes - 1]);
        return ENG_ERR_INPUT;
    }
    /* Two host batches, filled before each step's timer starts. */
    size_t xbytes = (size_t)c->batch * d->in * sizeof(float);
    size_t tbytes = d->loss == ENG_LOSS_CE ? (size_t)c->batch * sizeof(int32_t) : (size_t)c->batch * d->out * sizeof(float);
    float *x = malloc(xbytes);
    void *t = malloc(tbytes);
    if (!x || !t) {
        free(x);
        free(t);
        snprintf(err, errsz, "out of memory for a batch");
        return ENG_ERR_RUNTIME;
    }
    for (int s = 0; s < run->steps; s++) {
        if (run->stop && *run->stop) {
            run->steps = s;
            break;
        }
        eng_data_batch(d, s, c->batch, x, t);
        double t0 = clock_now_s();
        float loss = eng_model_step(m, x, t);
        double dt = clock_now_s() - t0;
        if (run->losses) run->losses[s] = loss;
        if (run->step_seconds) run->step_seconds[s] = dt;
        if (on_step) on_step(ctx, s, loss, dt);
        if (!isfinite(loss)) {
            snprintf(err, errsz,
                     "the loss is %s at step %d: training diverged (learning rate too high?) or the data or weights "
                     "hold non-finite values; stopped",
                     isnan(loss) ? "NaN" : "infinite", s + 1);
            free(x);
            free(t);
            return ENG_ERR_RUNTIME;
        }
    }
    free(x);
    free(t);
    return ENG_OK;
}
