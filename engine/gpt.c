/* The GPT decoder: buffers, forward and backward passes, the optimizer step (gpt.h). The kernels
 * come from the back-end (gpt_ops.h); this file only lays out memory and calls them in order. */
#include "engine/gpt.h"
#include "common/clock.h"
#include "engine/gpt_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A block's tensors, in nanoGPT's state_dict order. */
enum { LN1W, LN1B, QKVW, QKVB, PROJW, PROJB, LN2W, LN2B, FCW, FCB, FCPROJW, FCPROJB, NKINDS };

static const struct {
    const char *suffix;
    int rows, cols; /* multiples of C; cols 0: a vector of `rows` C */
    int decay;
} block_kinds[NKINDS] = {
    {"ln_1.weight", 1, 0, 0},       {"ln_1.bias", 1, 0, 0},        {"attn.c_attn.weight", 3, 1, 1},
    {"attn.c_attn.bias", 3, 0, 0},  {"attn.c_proj.weight", 1, 1, 1}, {"attn.c_proj.bias", 1, 0, 0},
    {"ln_2.weight", 1, 0, 0},       {"ln_2.bias", 1, 0, 0},        {"mlp.c_fc.weight", 4, 1, 1},
    {"mlp.c_fc.bias", 4, 0, 0},     {"mlp.c_proj.weight", 1, 4, 1}, {"mlp.c_proj.bias", 1, 0, 0},
};

struct slot {
    struct eng_gpt_tensor info;
    size_t offset; /* floats into params (and grads) */
};

/* What one block keeps from forward for backward. */
struct block_acts {
    float *ln1, *ln1_mean, *ln1_rstd; /* N x C, N, N */
    float *qkv;                       /* N x 3C */
    float *atty;                      /* N x C */
    float *att;                       /* attention state (gpt_ops.h) */
    float *res2;                      /* N x C: input + attention */
    float *ln2, *ln2_mean, *ln2_rstd;
    float *fch, *fch_gelu;            /* N x 4C */
    float *res3;                      /* N x C: res2 + MLP, the block's output */
};

struct eng_gpt {
    struct eng_gpt_config cfg;
    const struct eng_backend *be;
    const struct eng_gpt_ops *ops;
    int ntensors;
    struct slot *slots;
    size_t nparams;      /* unique parameters */
    size_t param_floats; /* the buffer, padding included */
    size_t opt_floats;   /* optimizer state: 0, 1 or 2 buffers of param_floats */
    size_t decay_floats; /* the decayed group: a prefix of the buffer */
    long step;
    /* One allocation each (llm.c). */
    float *params, *grads, *opt_m, *opt_v, *acts, *work;
    int32_t *tokens;     /* inputs then targets, N each */
    int gemms_only;      /* eng_gpt_time_gemms: linear layers as plain GEMMs, other kernels skipped */
    const volatile sig_atomic_t *stop; /* eng_gpt_train's run->stop while it runs */
    size_t acts_floats, work_floats;
    /* Views into params and grads. */
    float *wte, *wpe, *lnfw, *lnfb, *dwte, *dwpe, *dlnfw, *dlnfb;
    float **p, **g;      /* n_layer x NKINDS */
    /* Views into acts. */
    float *encoded, *lnf, *lnf_mean, *lnf_rstd, *logits, *loss, *norm;
    struct block_acts *blocks;
    /* Views into work: gradients of activations (shared by the layers) and kernel scratch. */
    float *dres, *dnarrow, *dwide, *scratch;
};

void eng_gpt_config_defaults(struct eng_gpt_config *c)
{
    memset(c, 0, sizeof *c);
    c->n_layer = 2;
    c->n_head = 2;
    c->n_embd = 64;
    c->vocab = 256;
    c->ctx = 32;
    c->batch = 4;
    c->opt = ENG_OPT_ADAMW;
    c->lr = 1e-3f;
    c->weight_decay = 0.01f;
    c->momentum = 0.9f;
    c->beta1 = 0.9f;
    c->beta2 = 0.999f;
    c->eps = 1e-8f;
    c->clip = 1.0f;
}

int eng_gpt_config_check(const struct eng_gpt_config *c, char *err, size_t errsz)
{
    char ignored[8];
    if (!err) err = ignored, errsz = sizeof ignored;
    static const struct {
        const char *option;
        size_t at;
        int max;
    } sizes[] = {
        {"--n-layer", offsetof(struct eng_gpt_config, n_layer), 1024},
        {"--n-head", offsetof(struct eng_gpt_config, n_head), 1024},
        {"--n-embd", offsetof(struct eng_gpt_config, n_embd), 1 << 16},
        {"--vocab", offsetof(struct eng_gpt_config, vocab), 1 << 24},
        {"--ctx", offsetof(struct eng_gpt_config, ctx), 1 << 20},
        {"--batch", offsetof(struct eng_gpt_config, batch), 1 << 20},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int v = *(const int *)(const void *)((const char *)c + sizes[i].at);
        if (v < 1 || v > sizes[i].max) {
            snprintf(err, errsz, "%s %d: expected 1 to %d", sizes[i].option, v, sizes[i].max);
            return -1;
        }
    }
    if (c->n_embd % c->n_head) {
        snprintf(err, errsz, "--n-embd %d is not a multiple of --n-head %d (each head is n_embd / n_head wide)",
                 c->n_embd, c->n_head);
        return -1;
    }
    if (c->block_size && c->ctx > c->block_size) {
        snprintf(err, errsz, "--ctx %d is larger than the position table (%d positions)", c->ctx, c->block_size);
        return -1;
    }
    /* The matrix products take int sizes: N x 4C and the logits N x V must fit. */
    double n = (double)c->batch * c->ctx;
    if (n * 4 * c->n_embd > 2147483647.0 || n * c->vocab > 2147483647.0) {
        snprintf(err, errsz, "--batch %d x --ctx %d is too large for this model width and vocabulary", c->batch, c->ctx);
        return -1;
    }
    if (!(c->clip >= 0)) {
        snprintf(err, errsz, "--clip must be 0 (off) or positive");
        return -1;
    }
    return 0;
}

static size_t padded(size_t n) { return (n + 15) & ~(size_t)15; } /* 64-byte aligned tensors */

/* The tensor table in file order, with offsets: the decayed tensors first, so each group is one
 * contiguous range for the optimizer. */
static int build_slots(struct eng_gpt *m)
{
    const struct eng_gpt_config *c = &m->cfg;
    size_t C = (size_t)c->n_embd;
    m->ntensors = 2 + NKINDS * c->n_layer + 2;
    m->slots = calloc((size_t)m->ntensors, sizeof *m->slots);
    if (!m->slots) return -1;
    int k = 0;
    struct slot *s = m->slots;
    snprintf(s[k].info.name, sizeof s[k].info.name, "transformer.wte.weight");
    s[k].info.ndim = 2, s[k].info.shape[0] = c->vocab, s[k].info.shape[1] = (int64_t)C, s[k++].info.decay = 1;
    snprintf(s[k].info.name, sizeof s[k].info.name, "transformer.wpe.weight");
    s[k].info.ndim = 2, s[k].info.shape[0] = c->block_size, s[k].info.shape[1] = (int64_t)C, s[k++].info.decay = 1;
    for (int l = 0; l < c->n_layer; l++)
        for (int j = 0; j < NKINDS; j++, k++) {
            snprintf(s[k].info.name, sizeof s[k].info.name, "transformer.h.%d.%s", l, block_kinds[j].suffix);
            s[k].info.shape[0] = (int64_t)(block_kinds[j].rows * C);
            s[k].info.ndim = block_kinds[j].cols ? 2 : 1;
            if (block_kinds[j].cols) s[k].info.shape[1] = (int64_t)(block_kinds[j].cols * C);
            s[k].info.decay = block_kinds[j].decay;
        }
    snprintf(s[k].info.name, sizeof s[k].info.name, "transformer.ln_f.weight");
    s[k].info.ndim = 1, s[k++].info.shape[0] = (int64_t)C;
    snprintf(s[k].info.name, sizeof s[k].info.name, "transformer.ln_f.bias");
    s[k].info.ndim = 1, s[k++].info.shape[0] = (int64_t)C;
    size_t at = 0;
    for (int group = 1; group >= 0; group--) {
        for (int i = 0; i < m->ntensors; i++) {
            struct eng_gpt_tensor *t = &s[i].info;
            if (t->decay != group) continue;
            t->count = (size_t)t->shape[0] * (t->ndim == 2 ? (size_t)t->shape[1] : 1);
            s[i].offset = at;
            at += padded(t->count);
            m->nparams += t->count;
        }
        if (group == 1) m->decay_floats = at;
    }
    m->param_floats = at;
    return 0;
}

static void plan_views(struct eng_gpt *m)
{
    const struct eng_gpt_config *c = &m->cfg;
    int L = c->n_layer;
    m->wte = m->params + m->slots[0].offset;
    m->wpe = m->params + m->slots[1].offset;
    m->dwte = m->grads + m->slots[0].offset;
    m->dwpe = m->grads + m->slots[1].offset;
    for (int l = 0; l < L; l++)
        for (int j = 0; j < NKINDS; j++) {
            size_t off = m->slots[2 + l * NKINDS + j].offset;
            m->p[l * NKINDS + j] = m->params + off;
            m->g[l * NKINDS + j] = m->grads + off;
        }
    m->lnfw = m->params + m->slots[m->ntensors - 2].offset;
    m->lnfb = m->params + m->slots[m->ntensors - 1].offset;
    m->dlnfw = m->grads + m->slots[m->ntensors - 2].offset;
    m->dlnfb = m->grads + m->slots[m->ntensors - 1].offset;
}

/* Lays out the activation buffer from base; with base NULL only counts its floats. */
static size_t plan_acts(struct eng_gpt *m, float *base)
{
    const struct eng_gpt_config *c = &m->cfg;
    size_t B = (size_t)c->batch, T = (size_t)c->ctx, C = (size_t)c->n_embd, N = B * T, V = (size_t)c->vocab;
    size_t state = m->ops->attention_state_floats(c->batch, c->ctx, c->n_head), at = 0;
#define TAKE(field, n) ((field) = base ? base + at : NULL, at += padded(n))
    TAKE(m->encoded, N * C);
    for (int l = 0; l < c->n_layer; l++) {
        struct block_acts *a = &m->blocks[l];
        TAKE(a->ln1, N * C), TAKE(a->ln1_mean, N), TAKE(a->ln1_rstd, N);
        TAKE(a->qkv, N * 3 * C), TAKE(a->atty, N * C), TAKE(a->att, state), TAKE(a->res2, N * C);
        TAKE(a->ln2, N * C), TAKE(a->ln2_mean, N), TAKE(a->ln2_rstd, N);
        TAKE(a->fch, N * 4 * C), TAKE(a->fch_gelu, N * 4 * C), TAKE(a->res3, N * C);
    }
    TAKE(m->lnf, N * C), TAKE(m->lnf_mean, N), TAKE(m->lnf_rstd, N);
    TAKE(m->logits, N * V), TAKE(m->loss, 1), TAKE(m->norm, 1);
    return at;
}

/* The same for the work buffer: the gradients of activations, which the layers take in turn
 * (dres: the residual stream's; dnarrow N x C; dwide N x 4C, also dqkv), and kernel scratch. */
static size_t plan_work(struct eng_gpt *m, float *base)
{
    const struct eng_gpt_config *c = &m->cfg;
    size_t N = (size_t)c->batch * c->ctx, C = (size_t)c->n_embd, at = 0;
    size_t scratch = m->ops->scratch_floats(c->batch, c->ctx, c->n_embd, c->n_head, c->vocab);
    TAKE(m->dres, N * C), TAKE(m->dnarrow, N * C), TAKE(m->dwide, N * 4 * C), TAKE(m->scratch, scratch ? scratch : 1);
#undef TAKE
    return at;
}

/* The model's bookkeeping and sizes, no buffers yet: NULL when out of memory. */
static struct eng_gpt *plan_model(const struct eng_gpt_config *c, const struct eng_backend *be)
{
    struct eng_gpt *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->cfg = *c;
    if (!m->cfg.block_size) m->cfg.block_size = c->ctx;
    m->be = be;
    m->ops = be->gpt;
    int L = c->n_layer;
    m->p = calloc((size_t)L * NKINDS, sizeof *m->p);
    m->g = calloc((size_t)L * NKINDS, sizeof *m->g);
    m->blocks = calloc((size_t)L, sizeof *m->blocks);
    if (!m->p || !m->g || !m->blocks || build_slots(m)) {
        eng_gpt_free(m);
        return NULL;
    }
    m->acts_floats = plan_acts(m, NULL);
    m->work_floats = plan_work(m, NULL);
    int states = c->opt == ENG_OPT_SGD ? 0 : c->opt == ENG_OPT_MOMENTUM ? 1 : 2;
    m->opt_floats = m->param_floats * (size_t)states;
    return m;
}

double eng_gpt_config_buffer_bytes(const struct eng_gpt_config *c, const struct eng_backend *be)
{
    if (eng_gpt_config_check(c, NULL, 0) || !be->gpt) return 0;
    struct eng_gpt *m = plan_model(c, be);
    if (!m) return 0;
    double bytes = (double)eng_gpt_buffer_bytes(m);
    m->be = NULL; /* nothing of the back-end's to release */
    eng_gpt_free(m);
    return bytes;
}

int eng_gpt_create(const struct eng_gpt_config *c, const struct eng_backend *be, struct eng_gpt **out, char *err,
                   size_t errsz)
{
    *out = NULL;
    if (eng_gpt_config_check(c, err, errsz)) return ENG_ERR_INPUT;
    if (!be->gpt) {
        snprintf(err, errsz, "the %s back-end has no transformer kernels", be->name);
        return ENG_ERR_RUNTIME;
    }
    if (eng_backend_ready(be, err, errsz)) return ENG_ERR_RUNTIME;
    struct eng_gpt *m = plan_model(c, be);
    if (!m) goto oom;
    if (c->threads > 0) {
        be->set_threads(c->threads);
        if (m->ops->set_threads) m->ops->set_threads(c->threads);
    }
    size_t N = (size_t)c->batch * c->ctx;
    m->params = be->alloc(m->param_floats * sizeof(float));
    m->grads = be->alloc(m->param_floats * sizeof(float));
    m->acts = be->alloc(m->acts_floats * sizeof(float));
    m->work = be->alloc(m->work_floats * sizeof(float));
    m->tokens = be->alloc(2 * N * sizeof(int32_t));
    int states = (int)(m->opt_floats / m->param_floats);
    if (states >= 1) m->opt_m = be->alloc(m->param_floats * sizeof(float));
    if (states == 2) m->opt_v = be->alloc(m->param_floats * sizeof(float));
    if (!m->params || !m->grads || !m->acts || !m->work || !m->tokens || (states >= 1 && !m->opt_m) ||
        (states == 2 && !m->opt_v))
        goto oom;
    plan_views(m);
    plan_acts(m, m->acts);
    plan_work(m, m->work);
    *out = m;
    return ENG_OK;
oom:
    eng_gpt_free(m);
    snprintf(err, errsz, "out of memory building the model");
    return ENG_ERR_RUNTIME;
}

void eng_gpt_free(struct eng_gpt *m)
{
    if (!m) return;
    const struct eng_backend *be = m->be;
    if (be) {
        if (m->ops->graph_forget) m->ops->graph_forget(m);
        be->release(m->params);
        be->release(m->grads);
        be->release(m->opt_m);
        be->release(m->opt_v);
        be->release(m->acts);
        be->release(m->work);
        be->release(m->tokens);
    }
    free(m->slots);
    free(m->p);
    free(m->g);
    free(m->blocks);
    free(m);
}

const struct eng_gpt_config *eng_gpt_config_of(const struct eng_gpt *m) { return &m->cfg; }
size_t eng_gpt_param_count(const struct eng_gpt *m) { return m->nparams; }

size_t eng_gpt_buffer_bytes(const struct eng_gpt *m)
{
    return (m->param_floats * 2 + m->opt_floats + m->acts_floats + m->work_floats) * sizeof(float) +
           2 * (size_t)m->cfg.batch * m->cfg.ctx * sizeof(int32_t);
}

double eng_gpt_flops_per_token(const struct eng_gpt *m)
{
    const struct eng_gpt_config *c = &m->cfg;
    double n = (double)m->nparams - (double)c->block_size * c->n_embd;
    double q = (double)c->n_embd / c->n_head;
    return 6 * n + 12.0 * c->n_layer * c->n_head * q * c->ctx;
}

/* --- initialisation ------------------------------------------------------------------------ */

/* Standard normal by Box-Muller from two 24-bit uniforms (u1 in (0, 1]). */
static float normal(struct eng_rng *r)
{
    float u1 = 1.0f - eng_rng_uniform(r), u2 = eng_rng_uniform(r);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
}

void eng_gpt_init(struct eng_gpt *m, uint64_t seed)
{
    struct eng_rng rng;
    eng_rng_seed(&rng, seed);
    float proj_std = 0.02f / sqrtf(2.0f * (float)m->cfg.n_layer);
    size_t widest = 0;
    for (int i = 0; i < m->ntensors; i++)
        if (m->slots[i].info.count > widest) widest = m->slots[i].info.count;
    float *host = malloc(widest * sizeof *host);
    if (!host) return; /* the weights keep what they had */
    for (int i = 0; i < m->ntensors; i++) {
        const struct eng_gpt_tensor *t = &m->slots[i].info;
        const char *name = t->name;
        size_t len = strlen(name);
        int is_weight = t->ndim == 2, is_ln_weight = t->ndim == 1 && strstr(name, "ln_") &&
                                                     len > 7 && strcmp(name + len - 7, ".weight") == 0;
        float std = strstr(name, "c_proj.weight") ? proj_std : 0.02f;
        for (size_t k = 0; k < t->count; k++) host[k] = is_weight ? std * normal(&rng) : is_ln_weight ? 1.0f : 0.0f;
        eng_gpt_write_tensor(m, i, host);
    }
    free(host);
    m->step = 0;
}

/* --- tensors -------------------------------------------------------------------------------- */

int eng_gpt_tensor_count(const struct eng_gpt *m) { return m->ntensors; }
const struct eng_gpt_tensor *eng_gpt_tensor_at(const struct eng_gpt *m, int i) { return &m->slots[i].info; }

void eng_gpt_read_tensor(const struct eng_gpt *m, int i, float *host)
{
    m->be->download(host, m->params + m->slots[i].offset, m->slots[i].info.count * sizeof(float));
}

void eng_gpt_read_grad(const struct eng_gpt *m, int i, float *host)
{
    m->be->download(host, m->grads + m->slots[i].offset, m->slots[i].info.count * sizeof(float));
}

void eng_gpt_write_tensor(struct eng_gpt *m, int i, const float *host)
{
    m->be->upload(m->params + m->slots[i].offset, host, m->slots[i].info.count * sizeof(float));
}

/* --- forward and backward ---------------------------------------------------------------- */

#define P(l, k) m->p[(l) * NKINDS + (k)]
#define G(l, k) m->g[(l) * NKINDS + (k)]

/* The linear layers go through the back-end's fused kernels; when timing the matrix products
 * alone (eng_gpt_time_gemms) the same products run as plain GEMM calls instead. */
static void matmul_forward(const struct eng_gpt *m, float *out, const float *in, const float *w, const float *bias,
                           int N, int IC, int OC)
{
    if (m->gemms_only) m->be->gemm(0, 1, N, OC, IC, 1.0f, in, IC, w, IC, 0.0f, out, OC);
    else m->ops->matmul_forward(out, in, w, bias, N, IC, OC);
}

static void matmul_backward(const struct eng_gpt *m, float *din, float *dw, float *dbias, const float *dout,
                            const float *in, const float *w, int N, int IC, int OC)
{
    if (!m->gemms_only) {
        m->ops->matmul_backward(din, dw, dbias, dout, in, w, N, IC, OC, m->scratch);
        return;
    }
    m->be->gemm(1, 0, OC, IC, N, 1.0f, dout, OC, in, IC, 0.0f, dw, IC);
    if (din) m->be->gemm(0, 0, N, IC, OC, 1.0f, dout, OC, w, IC, 0.0f, din, IC);
}

/* A stop asked for in the middle of a step, seen between two layers. Only where the host runs
 * the kernels one by one: a device back-end queues (or captures as a graph) the whole step. */
static int stopping(const struct eng_gpt *m)
{
    return m->stop && *m->stop && m->be->host_memory && !m->ops->graph_begin;
}

static void forward(struct eng_gpt *m, const int32_t *inputs, const int32_t *targets)
{
    const struct eng_gpt_ops *ops = m->ops;
    const int B = m->cfg.batch, T = m->cfg.ctx, C = m->cfg.n_embd, NH = m->cfg.n_head, V = m->cfg.vocab;
    const int L = m->cfg.n_layer, N = B * T;
    ops->encoder_forward(m->encoded, inputs, m->wte, m->wpe, B, T, C);
    struct block_acts *a0 = &m->blocks[0];
    ops->layernorm_forward(a0->ln1, a0->ln1_mean, a0->ln1_rstd, m->encoded, P(0, LN1W), P(0, LN1B), N, C);
    for (int l = 0; l < L; l++) {
        if (stopping(m)) return;
        struct block_acts *a = &m->blocks[l];
        const float *res_in = l ? m->blocks[l - 1].res3 : m->encoded;
        matmul_forward(m, a->qkv, a->ln1, P(l, QKVW), P(l, QKVB), N, C, 3 * C);
        ops->attention_forward(a->atty, a->att, a->qkv, m->scratch, B, T, C, NH);
        /* The projections' biases are added by the fused residual kernel. */
        matmul_forward(m, a->res2, a->atty, P(l, PROJW), NULL, N, C, C);
        ops->residual_layernorm_forward(a->res2, a->ln2, a->ln2_mean, a->ln2_rstd, res_in, P(l, PROJB), P(l, LN2W),
                                        P(l, LN2B), N, C);
        matmul_forward(m, a->fch, a->ln2, P(l, FCW), NULL, N, C, 4 * C);
        ops->bias_gelu_forward(a->fch_gelu, a->fch, P(l, FCB), N, 4 * C);
        matmul_forward(m, a->res3, a->fch_gelu, P(l, FCPROJW), NULL, N, 4 * C, C);
        /* The block's end fused with the next LayerNorm: the next block's ln_1, or ln_f. */
        struct block_acts *next = l + 1 < L ? &m->blocks[l + 1] : NULL;
        ops->residual_layernorm_forward(a->res3, next ? next->ln1 : m->lnf, next ? next->ln1_mean : m->lnf_mean,
                                        next ? next->ln1_rstd : m->lnf_rstd, a->res2, P(l, FCPROJB),
                                        next ? P(l + 1, LN1W) : m->lnfw, next ? P(l + 1, LN1B) : m->lnfb, N, C);
    }
    matmul_forward(m, m->logits, m->lnf, m->wte, NULL, N, C, V); /* the LM head: wte, tied */
    ops->crossentropy(m->loss, m->logits, m->logits, targets, N, V, m->scratch);
}

/* Gradients of every parameter; the logits buffer holds dlogits. Each gradient is written once
 * (wte's twice: the LM head writes it, the embedding adds), so nothing needs zeroing first. */
static void backward(struct eng_gpt *m, const int32_t *inputs)
{
    const struct eng_gpt_ops *ops = m->ops;
    const int B = m->cfg.batch, T = m->cfg.ctx, C = m->cfg.n_embd, NH = m->cfg.n_head, V = m->cfg.vocab;
    const int L = m->cfg.n_layer, N = B * T;
    matmul_backward(m, m->dnarrow, m->dwte, NULL, m->logits, m->lnf, m->wte, N, C, V);
    ops->layernorm_backward(m->dres, m->dlnfw, m->dlnfb, m->dnarrow, m->blocks[L - 1].res3, m->lnfw, m->lnf_mean,
                            m->lnf_rstd, N, C, 0, m->scratch);
    for (int l = L - 1; l >= 0; l--) {
        if (stopping(m)) return;
        struct block_acts *a = &m->blocks[l];
        const float *res_in = l ? m->blocks[l - 1].res3 : m->encoded;
        /* MLP: res3 = res2 + gelu(ln2 Wfc^T + bfc) Wproj^T + bproj; dres holds dres3. */
        matmul_backward(m, m->dwide, G(l, FCPROJW), G(l, FCPROJB), m->dres, a->fch_gelu, P(l, FCPROJW), N, 4 * C, C);
        ops->gelu_backward(m->dwide, a->fch, (size_t)N * 4 * C);
        matmul_backward(m, m->dnarrow, G(l, FCW), G(l, FCB), m->dwide, a->ln2, P(l, FCW), N, C, 4 * C);
        ops->layernorm_backward(m->dres, G(l, LN2W), G(l, LN2B), m->dnarrow, a->res2, P(l, LN2W), a->ln2_mean,
                                a->ln2_rstd, N, C, 1, m->scratch); /* dres: dres2 */
        /* Attention: res2 = res_in + attn(ln1) Wproj^T + bproj. */
        matmul_backward(m, m->dnarrow, G(l, PROJW), G(l, PROJB), m->dres, a->atty, P(l, PROJW), N, C, C);
        float *dqkv = m->dwide; /* N x 3C fits the N x 4C buffer, free again */
        ops->attention_backward(dqkv, m->dnarrow, a->qkv, a->atty, a->att, m->scratch, B, T, C, NH);
        matmul_backward(m, m->dnarrow, G(l, QKVW), G(l, QKVB), dqkv, a->ln1, P(l, QKVW), N, C, 3 * C);
        ops->layernorm_backward(m->dres, G(l, LN1W), G(l, LN1B), m->dnarrow, res_in, P(l, LN1W), a->ln1_mean,
                                a->ln1_rstd, N, C, 1, m->scratch); /* dres: the gradient of res_in */
    }
    ops->encoder_backward(m->dwte, m->dwpe, m->dres, inputs, B, T, C, m->scratch);
}

/* A host back-end reads the caller's tokens where they lie; a device one gets them uploaded. */
static void stage(struct eng_gpt *m, const int32_t **inputs, const int32_t **targets)
{
    const struct eng_backend *be = m->be;
    if (be->host_memory) return;
    size_t n = (size_t)m->cfg.batch * m->cfg.ctx;
    be->upload(m->tokens, *inputs, n * sizeof(int32_t));
    be->upload(m->tokens + n, *targets, n * sizeof(int32_t));
    *inputs = m->tokens;
    *targets = m->tokens + n;
}

static void update(struct eng_gpt *m)
{
    const struct eng_gpt_config *c = &m->cfg;
    const struct eng_gpt_ops *ops = m->ops;
    m->step++;
    if (c->clip > 0) ops->global_norm(m->norm, m->grads, m->param_floats, m->scratch);
    /* Two parameter groups, each one contiguous range: decayed, then not. The padding between
     * tensors holds zeros in every buffer and stays zero. */
    size_t at[2] = {0, m->decay_floats}, len[2] = {m->decay_floats, m->param_floats - m->decay_floats};
    for (int group = 0; group < 2; group++) {
        float wd = group == 0 ? c->weight_decay : 0.0f;
        size_t o = at[group];
        if (!len[group]) continue;
        if (c->opt == ENG_OPT_ADAM || c->opt == ENG_OPT_ADAMW) {
            struct eng_adam_args a = {c->lr, c->beta1, c->beta2, c->eps, wd, c->opt == ENG_OPT_ADAMW,
                                      1.0 - pow((double)c->beta1, (double)m->step),
                                      1.0 - pow((double)c->beta2, (double)m->step)};
            ops->adam_step(m->params + o, m->grads + o, m->opt_m + o, m->opt_v + o, len[group], &a, m->norm, c->clip);
        } else {
            struct eng_sgd_args a = {c->lr, c->opt == ENG_OPT_MOMENTUM ? c->momentum : 0.0f, wd, m->step == 1};
            ops->sgd_step(m->params + o, m->grads + o, m->opt_m ? m->opt_m + o : NULL, len[group], &a, m->norm,
                          c->clip);
        }
    }
}

static float read_loss(struct eng_gpt *m)
{
    float loss;
    m->be->synchronize();
    m->be->download(&loss, m->loss, sizeof loss);
    return loss;
}

float eng_gpt_forward_backward(struct eng_gpt *m, const int32_t *inputs, const int32_t *targets)
{
    stage(m, &inputs, &targets);
    forward(m, inputs, targets);
    backward(m, inputs);
    return read_loss(m);
}

float eng_gpt_step(struct eng_gpt *m, const int32_t *inputs, const int32_t *targets)
{
    stage(m, &inputs, &targets);
    const struct eng_gpt_ops *ops = m->ops;
    if (ops->graph_begin) ops->graph_begin(m, m->step >= 1);
    forward(m, inputs, targets);
    if (stopping(m)) return NAN; /* a step half done: the weights are as before it */
    backward(m, inputs);
    if (stopping(m)) return NAN;
    update(m);
    if (ops->graph_end) ops->graph_end();
    return read_loss(m);
}

/* --- the matrix products alone ------------------------------------------------------------ */

static size_t none_floats(int a, int b, int c) { return (void)a, (void)b, (void)c, 0; }
static size_t none_scratch(int a, int b, int c, int d, int e) { return (void)a, (void)b, (void)c, (void)d, (void)e, 0; }
static void none_encoder(float *o, const int32_t *t, const float *a, const float *b, int B, int T, int C)
{
    (void)o, (void)t, (void)a, (void)b, (void)B, (void)T, (void)C;
}
static void none_ln(float *o, float *mu, float *rs, const float *in, const float *w, const float *b, int N, int C)
{
    (void)o, (void)mu, (void)rs, (void)in, (void)w, (void)b, (void)N, (void)C;
}
static void none_res_ln(float *r, float *o, float *mu, float *rs, const float *s, const float *bias, const float *w,
                        const float *b, int N, int C)
{
    (void)r, (void)o, (void)mu, (void)rs, (void)s, (void)bias, (void)w, (void)b, (void)N, (void)C;
}
static void none_ln_back(float *di, float *dw, float *db, const float *d, const float *in, const float *w,
                         const float *mu, const float *rs, int N, int C, int acc, float *x)
{
    (void)di, (void)dw, (void)db, (void)d, (void)in, (void)w, (void)mu, (void)rs, (void)N, (void)C, (void)acc, (void)x;
}
static void none_bias_gelu(float *o, float *p, const float *b, int N, int C) { (void)o, (void)p, (void)b, (void)N, (void)C; }
static void none_gelu_back(float *d, const float *p, size_t n) { (void)d, (void)p, (void)n; }
static void none_attn(float *o, float *s, const float *q, float *x, int B, int T, int C, int NH)
{
    (void)o, (void)s, (void)q, (void)x, (void)B, (void)T, (void)C, (void)NH;
}
static void none_attn_back(float *dq, const float *d, const float *q, const float *o, float *s, float *x, int B, int T,
                           int C, int NH)
{
    (void)dq, (void)d, (void)q, (void)o, (void)s, (void)x, (void)B, (void)T, (void)C, (void)NH;
}
static void none_ce(float *l, float *d, const float *z, const int32_t *t, int N, int V, float *x)
{
    (void)l, (void)d, (void)z, (void)t, (void)N, (void)V, (void)x;
}
static void none_enc_back(float *a, float *b, const float *d, const int32_t *t, int B, int T, int C, float *x)
{
    (void)a, (void)b, (void)d, (void)t, (void)B, (void)T, (void)C, (void)x;
}

/* Every kernel but the linear layers' GEMMs does nothing. */
static const struct eng_gpt_ops gemm_only_ops = {
    .attention_state_floats = none_floats,
    .scratch_floats = none_scratch,
    .encoder_forward = none_encoder,
    .encoder_backward = none_enc_back,
    .layernorm_forward = none_ln,
    .residual_layernorm_forward = none_res_ln,
    .layernorm_backward = none_ln_back,
    .bias_gelu_forward = none_bias_gelu,
    .gelu_backward = none_gelu_back,
    .attention_forward = none_attn,
    .attention_backward = none_attn_back,
    .crossentropy = none_ce,
};


double eng_gpt_time_gemms(struct eng_gpt *m)
{
    const struct eng_gpt_ops *keep = m->ops;
    m->ops = &gemm_only_ops;
    m->gemms_only = 1;
    m->be->synchronize();
    double t0 = clock_now_s();
    forward(m, m->tokens, m->tokens);
    backward(m, m->tokens);
    m->be->synchronize();
    double t = clock_now_s() - t0;
    m->ops = keep;
    m->gemms_only = 0;
    return t;
}

/* --- training ------------------------------------------------------------------------------ */

int eng_gpt_train_loop(struct eng_gpt *m, const struct eng_tokens *t, struct eng_run *run,
                       const struct eng_loop *loop, char *err, size_t errsz)
{
    const struct eng_gpt_config *c = &m->cfg;
    if (t->vocab > c->vocab) {
        snprintf(err, errsz, "the tokens need a vocabulary of %d, the model has %d", t->vocab, c->vocab);
        return ENG_ERR_INPUT;
    }
    size_t n = (size_t)c->batch * c->ctx;
    int32_t *in = malloc(2 * n * sizeof *in);
    if (!in) {
        snprintf(err, errsz, "out of memory for a batch");
        return ENG_ERR_RUNTIME;
    }
    int status = ENG_OK;
    m->stop = run->stop;
    for (int s = 0; s < run->steps; s++) {
        if (run->stop && *run->stop) {
            run->steps = s;
            break;
        }
        eng_tokens_batch(t, eng_loop_batch(loop, s), c->batch, c->ctx, in, in + n);
        double t0 = clock_now_s();
        float loss = eng_gpt_step(m, in, in + n);
        double dt = clock_now_s() - t0;
        if (run->stop && *run->stop) { /* the step may be half done: not counted */
            run->steps = s;
            break;
        }
        if (!isfinite(loss)) {
            snprintf(err, errsz, "step %d: the loss is %s; training stopped (a smaller --lr may help)", s + 1,
                     isnan(loss) ? "not a number" : "infinite");
            run->steps = s;
            status = ENG_ERR_RUNTIME;
            break;
        }
        if (run->losses) run->losses[s] = loss;
        if (run->step_seconds) run->step_seconds[s] = dt;
        if (loop && loop->on_step && loop->on_step(loop->ctx, s, loss, dt)) {
            run->steps = s + 1;
            break;
        }
    }
    m->stop = NULL;
    free(in);
    return status;
}

int eng_gpt_train(struct eng_gpt *m, const struct eng_tokens *t, struct eng_run *run, eng_step_hook on_step,
                  void *ctx, char *err, size_t errsz)
{
    struct eng_loop loop = {.on_step = on_step, .ctx = ctx};
    return eng_gpt_train_loop(m, t, run, &loop, err, errsz);
}
