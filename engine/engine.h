/* engine: a small training engine for multilayer perceptrons, built like llm.c: layers are plain
 * forward/backward function pairs over one buffer each for parameters, gradients, optimizer state
 * and activations, allocated once when the model is built; a training step allocates nothing.
 * It trains as PyTorch does: nn.Linear layout and initialisation, ReLU/GELU(erf)/Tanh, mean
 * cross-entropy or MSE, torch.optim's SGD, momentum SGD, Adam and AdamW.
 *
 * Functions return an eng_status and write one line into the caller's err buffer on failure. */
#ifndef FWADVISOR_ENGINE_H
#define FWADVISOR_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"

#define ENG_MAX_LAYERS 32

enum eng_status { ENG_OK = 0, ENG_ERR_RUNTIME = 1, ENG_ERR_INPUT = 3 };
enum eng_opt { ENG_OPT_SGD, ENG_OPT_MOMENTUM, ENG_OPT_ADAM, ENG_OPT_ADAMW };

struct eng_config {
    int nsizes;                      /* number of widths: layers + 1 */
    int sizes[ENG_MAX_LAYERS + 1];   /* input width, hidden widths..., output width */
    enum eng_act act;                /* between layers; the last layer is linear */
    enum eng_loss loss;
    int batch;
    enum eng_opt opt;
    float lr, weight_decay, momentum, beta1, beta2, eps;
    int threads;                     /* > 0: set the back-end's threads when the model is built */
};

/* Defaults of torch.optim: lr 1e-3, betas (0.9, 0.999), eps 1e-8, momentum 0.9 for `momentum`,
 * weight decay 0 (AdamW: 0.01), ReLU, cross-entropy, batch 64. */
void eng_config_defaults(struct eng_config *c);
/* Parses "784,1024,1024,10" into c->sizes. Returns 0, or -1 with a message. */
int eng_parse_layers(struct eng_config *c, const char *spec, char *err, size_t errsz);
const char *eng_act_name(enum eng_act a);
const char *eng_loss_name(enum eng_loss l);
const char *eng_opt_name(enum eng_opt o);
int eng_act_parse(const char *s, enum eng_act *out);
int eng_loss_parse(const char *s, enum eng_loss *out);
int eng_opt_parse(const char *s, enum eng_opt *out);

struct eng_model;

/* Bytes a model of this configuration will allocate (parameters, gradients, optimizer state,
 * activations, padding included), computed before anything is allocated so a configuration too
 * large for the machine is refused up front; 0 for an invalid configuration. */
double eng_config_buffer_bytes(const struct eng_config *c);

/* Builds a model with all its buffers on backend `be` (weights zero until initialised). */
int eng_model_create(const struct eng_config *c, const struct eng_backend *be, struct eng_model **out, char *err,
                     size_t errsz);
void eng_model_free(struct eng_model *m);
const struct eng_config *eng_model_config(const struct eng_model *m);
size_t eng_model_param_count(const struct eng_model *m);
/* Bytes of parameters + gradients + optimizer state + activations the model holds. */
size_t eng_model_buffer_bytes(const struct eng_model *m);

/* nn.Linear's initialisation (Kaiming-uniform with a = sqrt(5): weight and bias uniform in
 * +-1/sqrt(fan_in)), drawn from the engine's generator seeded with `seed`. */
void eng_model_init(struct eng_model *m, uint64_t seed);

/* Host access to layer i's weight [out x in] (PyTorch layout) and bias [out]. */
void eng_model_get_layer(const struct eng_model *m, int layer, float *weight, float *bias);
void eng_model_set_layer(struct eng_model *m, int layer, const float *weight, const float *bias);

/* One training step on a batch already in host memory: x [batch x in], targets int32 [batch]
 * (ce) or float [batch x out] (mse). Returns the loss before the update. */
float eng_model_step(struct eng_model *m, const float *x, const void *targets);
/* Forward and backward only (no optimizer step); the gradients are then readable. */
float eng_model_forward_backward(struct eng_model *m, const float *x, const void *targets);
/* The optimizer half of a step, on the gradients in the model's buffer (data-parallel training
 * all-reduces them between eng_model_forward_backward and this). */
void eng_model_update(struct eng_model *m);
/* The flat gradient buffer (a device pointer; host memory on the CPU back-end) and its length in
 * floats, padding between tensors included (zeros, summed and scaled harmlessly). */
float *eng_model_grad_buffer(struct eng_model *m, size_t *n);
/* Host copy of the flat gradient buffer (layer 0 weight, layer 0 bias, layer 1 weight, ...). */
void eng_model_get_grads(const struct eng_model *m, float *out);
void eng_model_get_params(const struct eng_model *m, float *out);
void eng_model_set_params(struct eng_model *m, const float *in);
/* FLOPs of one training step counted as 2 per multiply-add of the matrix products: forward
 * 2*B*sum(in*out), weight gradients the same, input gradients for every layer but the first. */
double eng_model_step_flops(const struct eng_model *m);

/* --- the engine's random numbers: reproducible across runs and machines ---------------------- */

struct eng_rng {
    uint64_t s[4];
};
void eng_rng_seed(struct eng_rng *r, uint64_t seed);
uint64_t eng_rng_next(struct eng_rng *r);
/* Uniform in [0, 1) with 24 random bits: exactly representable in float. */
float eng_rng_uniform(struct eng_rng *r);

/* --- data ---------------------------------------------------------------------------------- */

struct eng_data {
    int rows, in, out;
    enum eng_loss loss;
    float *x;        /* rows x in */
    int32_t *labels; /* rows (ce) */
    float *targets;  /* rows x out (mse) */
};

/* Seeded synthetic data: inputs uniform in [-1, 1); targets from a fixed random linear teacher
 * (ce: the argmax class, mse: the teacher's outputs), so the loss can fall. */
int eng_data_synthetic(struct eng_data *d, int rows, int in, int out, enum eng_loss loss, uint64_t seed, char *err,
                       size_t errsz);
void eng_data_free(struct eng_data *d);
/* Copies the batch of step k (rows k*B .. k*B+B-1, wrapping modulo rows) into x and targets. */
void eng_data_batch(const struct eng_data *d, long step, int batch, float *x, void *targets);

/* --- training ------------------------------------------------------------------------------ */

struct eng_run {
    int steps;
    float *losses;        /* steps values, caller-owned, may be NULL */
    double *step_seconds; /* steps values, caller-owned, may be NULL */
    /* May be NULL. Set (from another thread or a signal handler) to end the run early: the loop
     * stops before the next step, and the GPT on the CPU between two kernels of a step, dropping
     * that step; `steps` is then lowered to the steps finished and the run returns ENG_OK. */
    const volatile sig_atomic_t *stop;
};

/* Called after each finished step with its index (from 0), its loss and its seconds (the step
 * alone: the batch is gathered before its timer starts). A nonzero return ends the run there,
 * that step counted in run->steps. */
typedef int (*eng_step_hook)(void *ctx, int step, float loss, double seconds);

/* How a run's loop calls out and which batches it takes; a zeroed one is eng_train's. */
struct eng_loop {
    eng_step_hook on_step; /* may be NULL */
    void *ctx;             /* on_step's and on_grads's */
    /* MLP only, may be NULL: called between the backward pass and the update with the flat
     * gradient buffer (eng_model_grad_buffer), to change in place; data-parallel training
     * averages it over the ranks there. */
    void (*on_grads)(void *ctx, float *grads, size_t n);
    /* Step s trains on the data's batch number first_batch + s * batch_stride (stride 0: 1), so
     * a run can go on where another ended, or take one rank's share of a global batch. */
    long first_batch, batch_stride;
    /* Every step is taken whatever its loss: the ranks of data-parallel training must all take
     * the same steps (their collectives pair up), so one rank's non-finite loss cannot end its
     * run alone. */
    int every_step;
};

/* The batch number of step s. */
long eng_loop_batch(const struct eng_loop *loop, int s);

/* Runs run->steps timed steps on data (batches gathered before each step's timer starts).
 * loop->on_step is called after each step with its loss, before the loss is checked; a loss
 * that is not finite ends the run with ENG_ERR_RUNTIME, run->steps lowered to the steps before
 * it (unless loop->every_step). loop NULL: a zeroed one. */
int eng_train_loop(struct eng_model *m, const struct eng_data *d, struct eng_run *run, const struct eng_loop *loop,
                   char *err, size_t errsz);
/* eng_train_loop with on_step and ctx alone. */
int eng_train(struct eng_model *m, const struct eng_data *d, struct eng_run *run, eng_step_hook on_step, void *ctx,
              char *err, size_t errsz);

#endif
