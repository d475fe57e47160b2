/* The MLP: buffers, forward and backward passes, and the optimizer step, over a back-end. */
#include "engine/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct eng_model {
    struct eng_config cfg;
    const struct eng_backend *be;
    int nlayers;
    size_t nparams;
    long step;                 /* optimizer steps taken (Adam's t) */
    /* One allocation each, with per-layer pointers into them (llm.c). */
    float *params, *grads, *opt_m, *opt_v, *acts, *dbuf;
    float *weight[ENG_MAX_LAYERS], *bias[ENG_MAX_LAYERS];
    float *dweight[ENG_MAX_LAYERS], *dbias[ENG_MAX_LAYERS];
    float *input;              /* batch x sizes[0] */
    float *pre[ENG_MAX_LAYERS], *out[ENG_MAX_LAYERS]; /* batch x sizes[i+1]; the last out is pre */
    float *dlogits_a, *dlogits_b;                     /* ping-pong batch x max width */
    void *targets;             /* batch ints or batch x out floats */
    size_t acts_floats, dbuf_floats, target_bytes;
};

void eng_config_defaults(struct eng_config *c)
{
    memset(c, 0, sizeof *c);
    c->act = ENG_ACT_RELU;
    c->loss = ENG_LOSS_CE;
    c->batch = 64;
    c->opt = ENG_OPT_ADAM;
    c->lr = 1e-3f;
    c->momentum = 0.9f;
    c->beta1 = 0.9f;
    c->beta2 = 0.999f;
    c->eps = 1e-8f;
}

static const char *const act_names[] = {"none", "relu", "gelu", "tanh"};
static const char *const loss_names[] = {"ce", "mse"};
static const char *const opt_names[] = {"sgd", "momentum", "adam", "adamw"};

const char *eng_act_name(enum eng_act a) { return act_names[a]; }
const char *eng_loss_name(enum eng_loss l) { return loss_names[l]; }
const char *eng_opt_name(enum eng_opt o) { return opt_names[o]; }

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], s) == 0) return i; /* "Adam" is adam */
    return -1;
}

int eng_act_parse(const char *s, enum eng_act *out)
{
    int i = find_name(act_names, 4, s);
    if (i <= 0) return -1; /* "none" is internal: the hidden layers always have an activation */
    *out = (enum eng_act)i;
    return 0;
}

int eng_loss_parse(const char *s, enum eng_loss *out)
{
    int i = find_name(loss_names, 2, s);
    if (i < 0) return -1;
    *out = (enum eng_loss)i;
    return 0;
}

int eng_opt_parse(const char *s, enum eng_opt *out)
{
    int i = find_name(opt_names, 4, s);
    if (i < 0) return -1;
    *out = (enum eng_opt)i;
    return 0;
}

int eng_parse_layers(struct eng_config *c, const char *spec, char *err, size_t errsz)
{
    int n = 0;
    const char *p = spec;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 1 << 20 || (*end && *end != ',')) {
            snprintf(err, errsz, "--layers %s: expected widths like 784,1024,10 (each 1 to %d)", spec, 1 << 20);
            return -1;
        }
        if (n == ENG_MAX_LAYERS + 1) {
            snprintf(err, errsz, "--layers %s: at most %d layers", spec, ENG_MAX_LAYERS);
            return -1;
        }
        c->sizes[n++] = (int)v;
        p = *end ? end + 1 : end;
        if (*end == ',' && !*p) {
            snprintf(err, errsz, "--layers %s: trailing comma", spec);
            return -1;
        }
    }
    if (n < 2) {
        snprintf(err, errsz, "--layers %s: need at least an input and an output width", spec);
        return -1;
    }
    c->nsizes = n;
    return 0;
}

static float *take(float **cursor, size_t n)
{
    float *p = *cursor;
    *cursor += (n + 15) & ~(size_t)15; /* keep each tensor 64-byte aligned */
    return p;
}

/* The floats of each buffer, every tensor padded to 16 floats (64 bytes) so it starts aligned. */
struct buffer_sizes {
    size_t params, nparams, acts, dbuf, target_bytes;
};

static void buffer_sizes(const struct eng_config *c, struct buffer_sizes *z)
{
    memset(z, 0, sizeof *z);
    size_t B = (size_t)c->batch, widest = 0;
    for (int i = 0; i < c->nsizes - 1; i++) {
        size_t in = (size_t)c->sizes[i], o = (size_t)c->sizes[i + 1];
        z->params += ((in * o + 15) & ~(size_t)15) + ((o + 15) & ~(size_t)15);
        z->nparams += in * o + o;
        z->acts += 2 * ((B * o + 15) & ~(size_t)15);
        if (o > widest) widest = o;
        if (in > widest) widest = in;
    }
    z->acts += (B * (size_t)c->sizes[0] + 15) & ~(size_t)15;
    z->dbuf = 2 * ((B * widest + 15) & ~(size_t)15);
    z->target_bytes = c->loss == ENG_LOSS_CE ? B * sizeof(int32_t) : B * (size_t)c->sizes[c->nsizes - 1] * sizeof(float);
}

static size_t optimizer_states(enum eng_opt opt)
{
    return opt == ENG_OPT_SGD ? 0 : opt == ENG_OPT_MOMENTUM ? 1 : 2;
}

double eng_config_buffer_bytes(const struct eng_config *c)
{
    if (c->nsizes < 2 || c->nsizes > ENG_MAX_LAYERS + 1 || c->batch < 1) return 0;
    struct buffer_sizes z;
    buffer_sizes(c, &z);
    return ((double)z.params * (double)(2 + optimizer_states(c->opt)) + (double)z.acts + (double)z.dbuf) * sizeof(float) +
           (double)z.target_bytes;
}

int eng_model_create(const struct eng_config *c, const struct eng_backend *be, struct eng_model **out, char *err,
                     size_t errsz)
{
    *out = NULL;
    if (c->nsizes < 2 || c->nsizes > ENG_MAX_LAYERS + 1) {
        snprintf(err, errsz, "a model needs 1 to %d layers", ENG_MAX_LAYERS);
        return ENG_ERR_INPUT;
    }
    if (c->batch < 1) {
        snprintf(err, errsz, "batch must be at least 1");
        return ENG_ERR_INPUT;
    }
    if (eng_backend_ready(be, err, errsz)) return ENG_ERR_RUNTIME;
    struct eng_model *m = calloc(1, sizeof *m);
    if (!m) goto oom;
    m->cfg = *c;
    m->be = be;
    m->nlayers = c->nsizes - 1;
    struct buffer_sizes z;
    buffer_sizes(c, &z);
    size_t B = (size_t)c->batch, params = z.params, acts = z.acts;
    m->nparams = z.nparams;
    m->acts_floats = z.acts;
    m->dbuf_floats = z.dbuf;
    m->target_bytes = z.target_bytes;
    if (c->threads > 0) be->set_threads(c->threads);

    m->params = be->alloc(params * sizeof(float));
    m->grads = be->alloc(params * sizeof(float));
    m->acts = be->alloc(acts * sizeof(float));
    m->dbuf = be->alloc(m->dbuf_floats * sizeof(float));
    m->targets = be->alloc(m->target_bytes);
    if (c->opt != ENG_OPT_SGD) m->opt_m = be->alloc(params * sizeof(float));
    if (c->opt == ENG_OPT_ADAM || c->opt == ENG_OPT_ADAMW) m->opt_v = be->alloc(params * sizeof(float));
    if (!m->params || !m->grads || !m->acts || !m->dbuf || !m->targets || (c->opt != ENG_OPT_SGD && !m->opt_m) ||
        ((c->opt == ENG_OPT_ADAM || c->opt == ENG_OPT_ADAMW) && !m->opt_v))
        goto oom;

    float *pc = m->params, *gc = m->grads, *ac = m->acts;
    for (int i = 0; i < m->nlayers; i++) {
        size_t in = (size_t)c->sizes[i], o = (size_t)c->sizes[i + 1];
        m->weight[i] = take(&pc, in * o);
        m->bias[i] = take(&pc, o);
        m->dweight[i] = take(&gc, in * o);
        m->dbias[i] = take(&gc, o);
    }
    m->input = take(&ac, B * (size_t)c->sizes[0]);
    for (int i = 0; i < m->nlayers; i++) {
        size_t o = (size_t)c->sizes[i + 1];
        m->pre[i] = take(&ac, B * o);
        m->out[i] = take(&ac, B * o);
    }
    m->dlogits_a = m->dbuf;
    m->dlogits_b = m->dbuf + m->dbuf_floats / 2;
    *out = m;
    return ENG_OK;
oom:
    eng_model_free(m);
    snprintf(err, errsz, "out of memory building the model");
    return ENG_ERR_RUNTIME;
}

void eng_model_free(struct eng_model *m)
{
    if (!m) return;
    const struct eng_backend *be = m->be;
    if (be->graph_forget) be->graph_forget(m);
    be->release(m->params);
    be->release(m->grads);
    be->release(m->opt_m);
    be->release(m->opt_v);
    be->release(m->acts);
    be->release(m->dbuf);
    be->release(m->targets);
    free(m);
}

const struct eng_config *eng_model_config(const struct eng_model *m) { return &m->cfg; }
size_t eng_model_param_count(const struct eng_model *m) { return m->nparams; }

size_t eng_model_buffer_bytes(const struct eng_model *m)
{
    return (m->nparams * (2 + optimizer_states(m->cfg.opt)) + m->acts_floats + m->dbuf_floats) * sizeof(float) +
           m->target_bytes;
}

double eng_model_step_flops(const struct eng_model *m)
{
    double sum = 0, first = 0;
    for (int i = 0; i < m->nlayers; i++) {
        double mac = (double)m->cfg.sizes[i] * m->cfg.sizes[i + 1];
        sum += mac;
        if (i == 0) first = mac;
    }
    return 2.0 * m->cfg.batch * (3 * sum - first);
}

/* --- the generator: xoshiro256** seeded through splitmix64 --------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void eng_rng_seed(struct eng_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t eng_rng_next(struct eng_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

float eng_rng_uniform(struct eng_rng *r) { return (float)(eng_rng_next(r) >> 40) * (1.0f / 16777216.0f); }

void eng_model_init(struct eng_model *m, uint64_t seed)
{
    struct eng_rng rng;
    eng_rng_seed(&rng, seed);
    size_t widest = 0, outs = 0;
    for (int i = 0; i < m->nlayers; i++) {
        size_t n = (size_t)m->cfg.sizes[i] * m->cfg.sizes[i + 1];
        if (n > widest) widest = n;
        if ((size_t)m->cfg.sizes[i + 1] > outs) outs = (size_t)m->cfg.sizes[i + 1];
    }
    /* PyTorch draws each layer's weight, then its bias, layer by layer; so does this. */
    float *w = malloc(widest * sizeof *w), *b = malloc(outs * sizeof *b);
    for (int i = 0; i < m->nlayers && w && b; i++) {
        int in = m->cfg.sizes[i], o = m->cfg.sizes[i + 1];
        float bound = 1.0f / sqrtf((float)in);
        for (size_t k = 0; k < (size_t)in * o; k++) w[k] = (2.0f * eng_rng_uniform(&rng) - 1.0f) * bound;
        for (int k = 0; k < o; k++) b[k] = (2.0f * eng_rng_uniform(&rng) - 1.0f) * bound;
        eng_model_set_layer(m, i, w, b);
    }
    free(w);
    free(b);
    m->step = 0;
}

void eng_model_get_layer(const struct eng_model *m, int i, float *weight, float *bias)
{
    size_t in = (size_t)m->cfg.sizes[i], o = (size_t)m->cfg.sizes[i + 1];
    if (weight) m->be->download(weight, m->weight[i], in * o * sizeof(float));
    if (bias) m->be->download(bias, m->bias[i], o * sizeof(float));
}

void eng_model_set_layer(struct eng_model *m, int i, const float *weight, const float *bias)
{
    size_t in = (size_t)m->cfg.sizes[i], o = (size_t)m->cfg.sizes[i + 1];
    if (weight) m->be->upload(m->weight[i], weight, in * o * sizeof(float));
    if (bias) m->be->upload(m->bias[i], bias, o * sizeof(float));
}

/* Flat host views skip the alignment padding between tensors. */
static void flat_copy(const struct eng_model *m, float *host, int to_host, int grads)
{
    size_t at = 0;
    for (int i = 0; i < m->nlayers; i++) {
        size_t in = (size_t)m->cfg.sizes[i], o = (size_t)m->cfg.sizes[i + 1];
        float *w = grads ? m->dweight[i] : m->weight[i], *b = grads ? m->dbias[i] : m->bias[i];
        if (to_host) {
            m->be->download(host + at, w, in * o * sizeof(float));
            m->be->download(host + at + in * o, b, o * sizeof(float));
        } else {
            m->be->upload(w, host + at, in * o * sizeof(float));
            m->be->upload(b, host + at + in * o, o * sizeof(float));
        }
        at += in * o + o;
    }
}

void eng_model_get_grads(const struct eng_model *m, float *out) { flat_copy(m, out, 1, 1); }
void eng_model_get_params(const struct eng_model *m, float *out) { flat_copy(m, out, 1, 0); }
void eng_model_set_params(struct eng_model *m, const float *in) { flat_copy(m, (float *)in, 0, 0); }

/* --- forward, backward, update ------------------------------------------------------------ */

/* A host back-end reads the caller's batch where it lies; a device one gets it uploaded into the
 * model's own buffers. */
static void stage_inputs(struct eng_model *m, const float **x, const void **targets)
{
    const struct eng_backend *be = m->be;
    if (be->host_memory) return;
    be->upload(m->input, *x, (size_t)m->cfg.batch * m->cfg.sizes[0] * sizeof(float));
    be->upload(m->targets, *targets, m->target_bytes);
    *x = m->input;
    *targets = m->targets;
}

static float forward_backward_staged(struct eng_model *m, const float *input, const void *target)
{
    const struct eng_backend *be = m->be;
    const int B = m->cfg.batch, L = m->nlayers;
    const int *w = m->cfg.sizes;

    /* Forward: pre_i = in_i W_i^T + b_i, out_i = act(pre_i); the last layer stays linear. */
    const float *in = input;
    for (int i = 0; i < L; i++) {
        be->gemm(0, 1, B, w[i + 1], w[i], 1.0f, in, w[i], m->weight[i], w[i], 0.0f, m->pre[i], w[i + 1]);
        enum eng_act act = i == L - 1 ? ENG_ACT_NONE : m->cfg.act;
        be->bias_act_forward(i == L - 1 ? m->pre[i] : m->out[i], m->pre[i], m->bias[i], B, w[i + 1], act);
        in = i == L - 1 ? m->pre[i] : m->out[i];
    }
    float loss = be->loss(m->dlogits_a, m->pre[L - 1], target, B, w[L], m->cfg.loss);

    /* Backward: dW_i = dpre_i^T in_i, db_i = column sums, dout_{i-1} = dpre_i W_i. */
    float *dpre = m->dlogits_a, *spare = m->dlogits_b;
    for (int i = L - 1; i >= 0; i--) {
        const float *layer_in = i == 0 ? input : m->out[i - 1];
        be->gemm(1, 0, w[i + 1], w[i], B, 1.0f, dpre, w[i + 1], layer_in, w[i], 0.0f, m->dweight[i], w[i]);
        be->bias_backward(m->dbias[i], dpre, B, w[i + 1]);
        if (i == 0) break; /* the input needs no gradient */
        be->gemm(0, 0, B, w[i], w[i + 1], 1.0f, dpre, w[i + 1], m->weight[i], w[i], 0.0f, spare, w[i]);
        be->act_backward(spare, spare, m->pre[i - 1], (size_t)B * w[i], m->cfg.act);
        float *t = dpre;
        dpre = spare;
        spare = t;
    }
    return loss;
}

static float forward_backward(struct eng_model *m, const float *x, const void *targets)
{
    stage_inputs(m, &x, &targets);
    return forward_backward_staged(m, x, targets);
}

float eng_model_forward_backward(struct eng_model *m, const float *x, const void *targets)
{
    float loss = forward_backward(m, x, targets);
    m->be->synchronize();
    return loss;
}

static size_t padded_params(const struct eng_model *m)
{
    size_t n = 0;
    for (int i = 0; i < m->nlayers; i++) {
        size_t in = (size_t)m->cfg.sizes[i], o = (size_t)m->cfg.sizes[i + 1];
        n += ((in * o + 15) & ~(size_t)15) + ((o + 15) & ~(size_t)15);
    }
    return n;
}

float *eng_model_grad_buffer(struct eng_model *m, size_t *n)
{
    *n = padded_params(m);
    return m->grads;
}

static void issue_update(struct eng_model *m)
{
    /* The padding between tensors holds zeros in every buffer, so one flat loop over the whole
     * buffer updates all parameters and leaves the padding at zero. */
    size_t n = padded_params(m);
    m->step++;
    const struct eng_config *c = &m->cfg;
    if (c->opt == ENG_OPT_ADAM || c->opt == ENG_OPT_ADAMW) {
        struct eng_adam_args a = {c->lr, c->beta1, c->beta2, c->eps, c->weight_decay, c->opt == ENG_OPT_ADAMW,
                                  1.0 - pow((double)c->beta1, (double)m->step), 1.0 - pow((double)c->beta2, (double)m->step)};
        m->be->adam_step(m->params, m->grads, m->opt_m, m->opt_v, n, &a);
    } else {
        struct eng_sgd_args a = {c->lr, c->opt == ENG_OPT_MOMENTUM ? c->momentum : 0.0f, c->weight_decay, m->step == 1};
        m->be->sgd_step(m->params, m->grads, m->opt_m, n, &a);
    }
}

void eng_model_update(struct eng_model *m)
{
    issue_update(m);
    m->be->synchronize();
}

/* Steps below this many FLOP are launch-bound on a GPU: one graph per step pays off there. */
#define GRAPH_STEP_FLOPS 2e9

float eng_model_step(struct eng_model *m, const float *x, const void *targets)
{
    const struct eng_backend *be = m->be;
    if (be->graph_begin && eng_model_step_flops(m) < GRAPH_STEP_FLOPS) {
        stage_inputs(m, &x, &targets);
        be->graph_begin(m, m->step >= 1);
        forward_backward_staged(m, x, targets);
        issue_update(m);
        be->graph_end();
        be->synchronize();
        return be->graph_loss();
    }
    float loss = forward_backward(m, x, targets);
    eng_model_update(m);
    return loss;
}
