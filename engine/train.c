/* The timed training loop of the MLP. */
#include "engine/engine.h"
#include "common/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long eng_loop_batch(const struct eng_loop *loop, int s)
{
    if (!loop) return s;
    return loop->first_batch + (long)s * (loop->batch_stride > 0 ? loop->batch_stride : 1);
}

/* One step on a batch in host memory: the model's own step, or with on_grads its two halves and
 * the gradients handed over between them. */
static float mlp_step(struct eng_model *m, const struct eng_loop *loop, const float *x, const void *t)
{
    if (!loop || !loop->on_grads) return eng_model_step(m, x, t);
    float loss = eng_model_forward_backward(m, x, t);
    size_t n;
    float *g = eng_model_grad_buffer(m, &n);
    loop->on_grads(loop->ctx, g, n);
    eng_model_update(m);
    return loss;
}

int eng_train_loop(struct eng_model *m, const struct eng_data *d, struct eng_run *run, const struct eng_loop *loop,
                   char *err, size_t errsz)
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
    int status = ENG_OK;
    for (int s = 0; s < run->steps; s++) {
        if (run->stop && *run->stop) {
            run->steps = s;
            break;
        }
        eng_data_batch(d, eng_loop_batch(loop, s), c->batch, x, t);
        double t0 = clock_now_s();
        float loss = mlp_step(m, loop, x, t);
        double dt = clock_now_s() - t0;
        if (run->losses) run->losses[s] = loss;
        if (run->step_seconds) run->step_seconds[s] = dt;
        int enough = loop && loop->on_step ? loop->on_step(loop->ctx, s, loss, dt) : 0;
        if (!isfinite(loss) && !(loop && loop->every_step)) {
            snprintf(err, errsz,
                     "the loss is %s at step %d: training diverged (learning rate too high?) or the data or weights "
                     "hold non-finite values; stopped",
                     isnan(loss) ? "NaN" : "infinite", s + 1);
            run->steps = s;
            status = ENG_ERR_RUNTIME;
            break;
        }
        if (enough) {
            run->steps = s + 1;
            break;
        }
    }
    free(x);
    free(t);
    return status;
}

int eng_train(struct eng_model *m, const struct eng_data *d, struct eng_run *run, eng_step_hook on_step, void *ctx,
              char *err, size_t errsz)
{
    struct eng_loop loop = {.on_step = on_step, .ctx = ctx};
    return eng_train_loop(m, d, run, &loop, err, errsz);
}
