/* Memory per device: model states by strategy and layout (ZeRO paper and DeepSpeed for ZeRO,
 * Megatron Core's distributed optimizer, FSDP2 + TP), activations with FlashAttention and the
 * recomputation that fits with the least compute, working buffers and headroom; the layout search
 * for the tensor/pipeline/data/expert-parallel strategies; and what to do when nothing fits. */
#include "knowledge/advisor_kb.h"
#include "knowledge/planner.h"

/* A nothing-fits remedy in both languages (the caller has checked there is room). */
#define REMEDY(r, ...)                                                                                          \
    (adv_twinf((r)->kb, (r)->remedies[(r)->nremedies], (r)->remedies_local[(r)->nremedies], sizeof (r)->remedies[0], \
               __VA_ARGS__),                                                                                     \
     (r)->nremedies++)
#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9

enum mem_model { MM_GENERIC, MM_MEGATRON, MM_FSDP_TP };
enum buffer_kind { BUF_NONE, BUF_DDP, BUF_DEEPSPEED, BUF_GATHER, BUF_DEEPSPEED_GATHER };

/* How each strategy keeps its states and which working buffers it needs. Strategies not listed
 * (imported ones) follow the knowledge base's bytes per parameter and gather layers when their
 * parameters are sharded. */
static const struct {
    const char *id;
    enum mem_model model;
    enum buffer_kind buffers;
} strategy_models[] = {
    {"ddp", MM_GENERIC, BUF_DDP},
    {"zero1", MM_GENERIC, BUF_DEEPSPEED},
    {"zero2", MM_GENERIC, BUF_DEEPSPEED},
    {"zero3", MM_GENERIC, BUF_DEEPSPEED_GATHER},
    {"zero3-offload", MM_GENERIC, BUF_DEEPSPEED_GATHER},
    {"fsdp", MM_GENERIC, BUF_GATHER},
    {"megatron", MM_MEGATRON, BUF_NONE},
    {"fsdp-tp", MM_FSDP_TP, BUF_GATHER},
};

struct strategy_kind {
    enum mem_model model;
    enum buffer_kind buffers;
    double replicated, sharded, cpu; /* the knowledge base's bytes per parameter */
};

static struct strategy_kind kind_of(const struct adv_kb *akb, int s)
{
    struct strategy_kind k = {MM_GENERIC, BUF_NONE, akb->strat[s].replicated, akb->strat[s].sharded, akb->strat[s].cpu};
    for (size_t i = 0; i < sizeof strategy_models / sizeof strategy_models[0]; i++)
        if (strcmp(strategy_models[i].id, akb->strat[s].id) == 0) {
            k.model = strategy_models[i].model;
            k.buffers = strategy_models[i].buffers;
            return k;
        }
    if (k.replicated == 0 && k.sharded > 0) k.buffers = BUF_GATHER;
    return k;
}

/* What one evaluation needs: the resolved inputs and the device count it is made for. */
struct ctx {
    const struct adv_result *r;
    const struct adv_plan_inputs *in;
    double D, nodes, per_node;
    int shaped;
    double L, h, heads, s, b;
    enum adv_finetune finetune;
    enum adv_recompute recompute;
    double device_gb, host_gb;
};

static struct ctx make_ctx(const struct adv_result *r, double devices, double nodes, enum adv_finetune finetune)
{
    struct ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.in = &r->in;
    c.D = devices;
    c.nodes = nodes > 0 ? nodes : 1;
    c.per_node = devices / c.nodes < 1 ? 1 : devices / c.nodes;
    c.shaped = r->hidden > 0 && r->layers > 0;
    c.L = r->layers, c.h = r->hidden, c.heads = r->heads, c.s = r->seq_len, c.b = r->micro_batch > 0 ? r->micro_batch : 1;
    c.finetune = finetune;
    c.recompute = r->in.recompute;
    c.device_gb = answers_has(&r->answers, ANS_DEVICE_MEMORY_GB) ? answers_num(&r->answers, ANS_DEVICE_MEMORY_GB) : 0;
    c.host_gb = r->in.host_memory_gb;
    return c;
}

/* Bytes of the frozen base under LoRA (bf16, fp32 when training in fp32) or QLoRA (NF4 with
 * double-quantised constants on every linear weight of the shape, embeddings, head and norms in
 * bf16). */
static double frozen_base_bytes(const struct ctx *c)
{
    const struct adv_plan_inputs *in = c->in;
    double P = in->params;
    if (c->finetune == ADV_LORA) return (in->precision == PLAN_FP32 ? 4 : 2) * P;
    if (!c->shaped) return P * in->nf4_bits / 8;
    return shape_qlora_base_bytes(&in->shape, P, in->nf4_bits); /* the linear weights of the one shape */
}

/* Model states of one device, and the host bytes per node an offloading strategy needs. */
static double states_bytes(const struct ctx *c, const struct strategy_kind *k, const struct adv_layout *lay, double *cpu)
{
    const struct adv_plan_inputs *in = c->in;
    double P = in->params, t = lay->tp, p = lay->pp, d = lay->dp, e = lay->ep;
    /* Layers on the fullest pipeline stage over the average: states follow the layers. */
    double stage = c->shaped && p > 1 ? ceil(c->L / p) * p / c->L : 1;
    double experts = in->experts > 1 ? in->expert_params : 0, shared = P - experts;
    int fp8 = in->precision == PLAN_FP8;
    *cpu = 0;
    if (c->finetune != ADV_FULL) {
        double base = frozen_base_bytes(c), adapters = in->adapters;
        switch (k->model) {
        case MM_MEGATRON: {
            double rep, shard;
            plan_distopt_bytes(in->precision, &rep, &shard);
            return stage * (base + (rep + shard / d) * adapters) / (t * p);
        }
        case MM_FSDP_TP: return stage * (base + in->adapter_bytes * adapters) / (t * p * d);
        case MM_GENERIC:
            if (k->cpu > 0) {
                /* Offloading under LoRA: the adapters' optimizer states are small, so what moves is
                 * the frozen base (ZeRO-3 offload_param, as FSDP's CPU offload does for FSDP +
                 * QLoRA): its shards live in host memory and each layer is gathered onto the
                 * device when it runs (the gathered layers are counted among the buffers). */
                *cpu = (k->cpu * adapters + base) / c->nodes;
                return (k->replicated + k->sharded / d) * adapters;
            }
            return (k->replicated > 0 ? base : base / d) + (k->replicated + k->sharded / d) * adapters;
        }
    }
    switch (k->model) {
    case MM_MEGATRON: {
        /* Expert parameters are split over e expert-parallel ranks and their optimizer states over
         * the d / e data-parallel replicas of each expert. */
        double rep, shard;
        plan_distopt_bytes(in->precision, &rep, &shard);
        double bytes = plan_megatron_states_bytes(in->precision, shared, t, p, d);
        if (experts > 0) bytes += (rep + shard / (d / e)) * experts / (t * p * e);
        if (fp8) bytes += 2 * (shared + experts / e) / (t * p); /* FP8 weight copies and transposes */
        return stage * bytes;
    }
    case MM_FSDP_TP: return stage * 16 * P / (t * p * d);
    case MM_GENERIC: break;
    }
    *cpu = k->cpu * P / c->nodes;
    return (k->replicated + k->sharded / d) * P + (fp8 && k->replicated > 0 ? 2 * P : 0);
}

struct acts {
    double full, input, selective, logits; /* per layer and micro-batch; logits per micro-batch */
    double layers, inflight;
};

static struct acts activation_terms(const struct ctx *c, const struct strategy_kind *k, const struct adv_layout *lay)
{
    struct acts a;
    memset(&a, 0, sizeof a);
    if (!c->shaped) return a;
    double t = lay->tp;
    int sp = k->model != MM_GENERIC && t > 1; /* sequence parallelism goes with tensor parallelism */
    struct plan_act_terms terms = shape_activation_terms(&c->in->shape); /* the family's stored tensors */
    a.full = c->in->flash ? plan_activation_terms_flash_bytes(&terms, c->s, c->b, c->h, c->heads, t, sp)
                          : plan_activation_terms_korthikanti_bytes(&terms, c->s, c->b, c->h, c->heads, t, sp);
    a.selective = plan_activation_terms_bytes(&terms, c->s, c->b, c->h, t, sp);
    if (c->in->precision == PLAN_FP8) {
        double saved = plan_activation_terms_fp8_saving_bytes(&terms, c->s, c->b, c->h, t, sp);
        a.full -= saved;
        a.selective -= saved;
    }
    if (c->in->flash) a.selective = a.full; /* the kernel already recomputes the scores */
    a.input = plan_activation_layer_input_bytes(c->s, c->b, c->h, t, sp);
    a.logits = c->in->vocab > 0 ? 6 * c->s * c->b * c->in->vocab / t : 0; /* bf16 logits, fp32 loss */
    a.layers = ceil(c->L / lay->pp);
    a.inflight = plan_pipeline_inflight(lay->pp, lay->micro_batches, lay->vp);
    return a;
}

/* Activations of the worst pipeline stage with k of its layers fully recomputed (per_layer is the
 * stored size of the others): the first stage holds `inflight` micro-batches, the last the logits. */
static double activation_bytes(const struct acts *a, double per_layer, double k)
{
    double one = (a->layers - k) * per_layer + k * a->input;
    double first = a->inflight * one, last = one + a->logits;
    return first > last ? first : last;
}

/* Fills everything but the activations' recomputation choice from states and buffers; returns the
 * bytes that do not depend on it. */
static void finish_memory(const struct ctx *c, struct adv_memory *m, double states, double acts, double rebuilt,
                          double gathered, double buckets, double cpu)
{
    const struct adv_plan_inputs *in = c->in;
    double allocated = states + acts + rebuilt + gathered + buckets;
    double overhead = in->overhead_gb * GB + in->fragmentation * allocated;
    m->model_states_gb = states / GB;
    m->activations_gb = acts / GB;
    m->gathered_gb = gathered / GB;
    m->buckets_gb = buckets / GB;
    m->recompute_gb = rebuilt / GB;
    m->overhead_gb = overhead / GB;
    m->buffers_gb = (gathered + buckets + rebuilt + overhead) / GB;
    m->total_gb = m->model_states_gb + m->activations_gb + m->buffers_gb;
    m->device_memory_gb = c->device_gb;
    m->usable_gb = c->device_gb * in->working_set;
    m->headroom_gb = m->usable_gb - m->total_gb;
    m->cpu_gb = cpu / GB;
    m->host_memory_gb = c->host_gb;
    m->host_fits = m->cpu_gb <= 0 ? 1 : c->host_gb <= 0 ? -1 : m->cpu_gb <= (1 - in->headroom) * c->host_gb;
    m->fits = c->device_gb > 0 && m->total_gb <= (1 - in->headroom) * m->usable_gb && m->host_fits != 0;
}

/* The adapters' optimizer states a paged optimizer (bitsandbytes on CUDA unified memory) moves to
 * host memory when the device runs out: Adam's fp32 moments and master copy, 12 bytes a trainable
 * parameter, on one device (over the data-parallel ranks when the strategy shards them). Not
 * under offload, which moves them anyway, nor on tensor- or pipeline-parallel stacks. */
static double pageable_bytes(const struct ctx *c, const struct strategy_kind *k, const struct adv_layout *lay)
{
    const double per = 12;
    if (c->finetune == ADV_FULL || !c->in->paged_optimizer || k->model != MM_GENERIC || k->cpu > 0) return 0;
    return (k->sharded >= per ? per / lay->dp : per) * c->in->adapters;
}

/* One layout: states, the cheapest recomputation that fits (or the one answered), buffers. */
static void evaluate_layout(const struct ctx *c, int s, const struct adv_kb *akb, const struct strategy_kind *k,
                     const struct adv_layout *lay, struct adv_memory *m)
{
    const struct adv_plan_inputs *in = c->in;
    memset(m, 0, sizeof *m);
    m->strategy = akb->strat[s].id;
    m->layout = *lay;
    m->pageable_gb = pageable_bytes(c, k, lay) / GB;
    double cpu;
    double states = states_bytes(c, k, lay, &cpu);
    double trainable = c->finetune == ADV_FULL ? in->params : in->adapters;
    double gathered = 0, buckets = 0;
    int param_sharded = (k->buffers == BUF_GATHER || k->buffers == BUF_DEEPSPEED_GATHER) && lay->dp > 1;
    if (param_sharded) {
        /* The layer being computed and the prefetched next one, gathered in 16 bits (the frozen
         * base in its own format), plus the unsharded gradient of one layer before reduce-scatter. */
        double layer = c->shaped ? in->params / c->L : in->params / 10;
        double base_per_param = c->finetune == ADV_FULL ? 2 : frozen_base_bytes(c) / in->params;
        gathered = (2 * base_per_param + (c->finetune == ADV_FULL ? 2 : 0)) * layer / lay->tp;
    }
    if (k->buffers == BUF_DEEPSPEED || k->buffers == BUF_DEEPSPEED_GATHER) {
        double elems = in->ds_bucket_elements < trainable ? in->ds_bucket_elements : trainable;
        if (lay->dp > 1) buckets = 2 * elems * 2; /* a reduce and a gather bucket of 16-bit elements */
    } else if (k->buffers == BUF_DDP && lay->dp > 1) {
        buckets = 4 * trainable; /* gradient_as_bucket_view=False: an fp32 copy of the gradients */
    }
    struct acts a = activation_terms(c, k, lay);
    m->activations_estimated = c->shaped;
    m->activation_mode = !c->shaped ? "not estimated"
                         : in->flash ? "FlashAttention (no s x s scores), Korthikanti's other terms"
                                     : "Korthikanti et al. with the s x s attention scores";
    if (!c->shaped) {
        m->recompute = "none";
        finish_memory(c, m, states, 0, 0, gathered, buckets, cpu);
        return;
    }
    /* Recomputation: as answered, or the least compute that fits: none, then selective (which
     * FlashAttention already makes), then full recomputation of as few layers as needed. */
    enum adv_recompute mode = c->recompute;
    if (mode == ADV_RECOMPUTE_NONE || mode == ADV_RECOMPUTE_SELECTIVE || mode == ADV_RECOMPUTE_AUTO) {
        double per_layer = mode == ADV_RECOMPUTE_SELECTIVE ? a.selective : a.full;
        finish_memory(c, m, states, activation_bytes(&a, per_layer, 0), 0, gathered, buckets, cpu);
        m->recompute = mode == ADV_RECOMPUTE_SELECTIVE ? "selective" : "none";
        if (mode != ADV_RECOMPUTE_AUTO || m->fits || c->device_gb <= 0) return;
        if (!in->flash && a.selective < a.full) {
            finish_memory(c, m, states, activation_bytes(&a, a.selective, 0), 0, gathered, buckets, cpu);
            m->recompute = "selective";
            if (m->fits) return;
        }
    }
    double base_layer = in->flash ? a.full : a.selective;
    double lo = 1, hi = a.layers; /* the fewest fully recomputed layers that fit */
    if (mode == ADV_RECOMPUTE_AUTO) {
        while (lo < hi) {
            double mid = floor((lo + hi) / 2);
            finish_memory(c, m, states, activation_bytes(&a, base_layer, mid), a.full, gathered, buckets, cpu);
            if (m->fits) hi = mid;
            else lo = mid + 1;
        }
    }
    double k_layers = mode == ADV_RECOMPUTE_AUTO ? lo : a.layers;
    finish_memory(c, m, states, activation_bytes(&a, base_layer, k_layers), a.full, gathered, buckets, cpu);
    m->recompute = "full";
    m->recompute_fraction = k_layers / a.layers;
}

/* The layout as evaluate_layout leaves it; when nothing else fits, the optimizer states a paged
 * optimizer moves out at the peaks may make up the difference. */
static void evaluate(const struct ctx *c, int s, const struct adv_kb *akb, const struct strategy_kind *k,
                     const struct adv_layout *lay, struct adv_memory *m)
{
    evaluate_layout(c, s, akb, k, lay, m);
    double over = m->total_gb - (1 - c->in->headroom) * m->usable_gb;
    if (m->fits || c->device_gb <= 0 || m->host_fits == 0 || over > m->pageable_gb) return;
    m->paged_gb = over;
    m->fits = 1;
}

/* The global batch in sequences: the knowledge base's tokens per step, raised so that every
 * data-parallel rank has at least one micro-batch (and a pipeline at least p). */
static void set_batch(const struct ctx *c, struct adv_layout *lay)
{
    double need = lay->dp * c->b * (lay->pp > 1 ? lay->pp : 1);
    double seqs = c->shaped ? c->in->batch_tokens / c->s : need;
    if (seqs < need) seqs = need;
    lay->micro_batch = c->b;
    lay->micro_batches = seqs / (lay->dp * c->b);
    lay->batch_tokens = c->shaped ? seqs * c->s : 0;
}

/* What made the slower of two timed layouts slower: the largest of its extra compute (with
 * recomputation), exposed communication and bubble. */
static enum adv_lost_by lost_by(const struct adv_time *won, const struct adv_time *lost)
{
    double compute = lost->compute_hours - won->compute_hours;
    double comm = lost->communication_hours - won->communication_hours;
    double bubble = lost->bubble_hours - won->bubble_hours;
    if (comm >= compute && comm >= bubble) return ADV_LOST_COMMUNICATION;
    return bubble > compute ? ADV_LOST_BUBBLE : ADV_LOST_COMPUTE;
}

/* A candidate's rank: fitting layouts by evenness, then the run's hours; the others by memory. */
struct ranked {
    int have, fits;
    double key[2];
    struct adv_memory m;
    struct adv_time t;
};

static int ranks_before(const struct ranked *a, const struct ranked *b)
{
    if (!b->have) return 1;
    if (a->fits != b->fits) return a->fits;
    for (int i = 0; i < 2; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i];
    return 0;
}

/* Keeps the best and, among fitting layouts, the runner-up. */
static void rank_layout(struct ranked *best, struct ranked *second, const struct ranked *cand)
{
    if (ranks_before(cand, best)) {
        if (best->have && best->fits) *second = *best;
        *best = *cand;
    } else if (cand->fits && ranks_before(cand, second)) {
        *second = *cand;
    }
}

enum { MAX_TP = 128, MAX_PP = 512, MAX_EP = 256 };

static int divides(double a, double b) { return b > 0 && fmod(a, b) == 0; }

/* Megatron and FSDP2 + TP: t divides the devices of a node (and the heads), p the rest with at
 * least one layer per stage, d what remains, e the experts and d. Of the layouts that fit with
 * headroom: stages that divide the layers first (uneven stages only when no even one fits, as
 * Llama 3 405B's 126 layers on 16 stages), then the fastest run (compute and recomputation,
 * exposed communication, bubble), so that a wider layout that recomputes less wins when it is
 * faster. When none fits, the one that needs least memory. The runner-up is kept for the plan. */
static void search_layout(const struct ctx *c, int s, const struct adv_kb *akb, const struct strategy_kind *k,
                          struct adv_memory *out)
{
    struct ranked best, second, cand;
    memset(&best, 0, sizeof best);
    memset(&second, 0, sizeof second);
    memset(&cand, 0, sizeof cand);
    /* Bounded work whatever the answers say: tensor parallelism within a scale-up domain (72 GPUs
     * of an NVL72 rack at most), pipelines and expert groups of practical size. */
    double max_t = c->per_node < MAX_TP ? c->per_node : MAX_TP;
    for (double t = 1; t <= max_t; t++) {
        if (!divides(c->per_node, t) || !divides(c->D, t) || (c->shaped && !divides(c->heads, t))) continue;
        double rest = c->D / t;
        for (double p = 1; p <= rest && p <= MAX_PP && (!c->shaped || p <= c->L); p++) {
            if (!divides(rest, p) || (k->model == MM_FSDP_TP && p > 1 && !c->shaped)) continue;
            double d = rest / p;
            double E = c->in->experts > 1 ? c->in->experts : 1;
            for (double e = 1; e <= E && e <= d && e <= MAX_EP; e++) {
                if (!divides(E, e) || !divides(d, e) || (k->model != MM_MEGATRON && e > 1)) continue;
                struct adv_layout lay = {(int)t, (int)p, (int)d, (int)e, 1, 0, 0, 0, 0};
                lay.uneven = c->shaped && !divides(c->L, p);
                set_batch(c, &lay);
                /* Interleaved 1F1B with one layer per virtual stage: the bubble shrinks v-fold
                 * for v times the point-to-point traffic (counted in the time plan). */
                if (p > 1 && c->shaped) lay.vp = (int)floor(c->L / p);
                evaluate(c, s, akb, k, &lay, &cand.m);
                cand.have = 1, cand.fits = cand.m.fits;
                cand.key[0] = cand.fits ? lay.uneven : cand.m.total_gb, cand.key[1] = 0;
                if (cand.fits) cand.key[1] = adv_plan_time(akb, c->r, &cand.m, &cand.t);
                rank_layout(&best, &second, &cand);
            }
        }
    }
    if (!best.have) { /* no divisor fits the answers (devices not a multiple of nodes): plain data parallel */
        struct adv_layout lay = {1, 1, (int)c->D, 1, 1, 0, 0, 0, 0};
        set_batch(c, &lay);
        evaluate(c, s, akb, k, &lay, out);
        return;
    }
    *out = best.m;
    if (!best.fits) return;
    out->hours = best.key[1];
    if (!second.have) return;
    out->runner_up = second.m.layout;
    out->runner_up_hours = second.key[1];
    out->runner_up_recompute_fraction = second.m.recompute && strcmp(second.m.recompute, "full") == 0
                                            ? second.m.recompute_fraction : 0;
    /* a faster runner-up lost on its uneven stages, not on time */
    out->runner_up_lost_by = second.key[0] > best.key[0] ? ADV_LOST_UNEVEN : lost_by(&best.t, &second.t);
}

static void strategy_memory(const struct adv_kb *akb, const struct ctx *c, int s, struct adv_memory *m)
{
    struct strategy_kind k = kind_of(akb, s);
    if (k.model != MM_GENERIC) {
        search_layout(c, s, akb, &k, m);
        return;
    }
    struct adv_layout lay = {1, 1, (int)(c->D > 0 ? c->D : 1), 1, 1, 0, 0, 0, 0};
    set_batch(c, &lay);
    evaluate(c, s, akb, &k, &lay, m);
    if (!(k.buffers == BUF_GATHER || k.buffers == BUF_DEEPSPEED_GATHER) || !c->shaped || lay.dp <= 1) return;
    /* Sharded parameters are gathered for every micro-batch: larger micro-batches spread that
     * traffic over more compute. The fastest of 1, 2, 4, 8 sequences that fits. */
    double best_hours = 0;
    struct adv_time tm;
    if (m->fits) best_hours = adv_plan_time(akb, c->r, m, &tm);
    for (double b = 2 * c->b; b <= 8 * c->b; b *= 2) {
        struct ctx wider = *c;
        wider.b = b;
        set_batch(&wider, &lay);
        if (lay.micro_batches < 1) break;
        struct adv_memory mb;
        evaluate(&wider, s, akb, &k, &lay, &mb);
        if (!mb.fits) break;
        double hours = adv_plan_time(akb, c->r, &mb, &tm);
        if (!m->fits || hours < best_hours) *m = mb, best_hours = hours;
    }
}

void adv_strategy_memory(const struct adv_kb *akb, const struct adv_result *r, int s, struct adv_memory *m)
{
    const struct answers *a = &r->answers;
    struct ctx c = make_ctx(r, answers_num(a, ANS_DEVICES), answers_num(a, ANS_NODES), r->in.finetune);
    strategy_memory(akb, &c, s, m);
}

/* --- nothing fits ----------------------------------------------------------------------------- */

static int fits_with(const struct adv_kb *akb, const struct ctx *c, const int *cand, int n, struct adv_memory *out)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        struct adv_memory m;
        strategy_memory(akb, c, cand[i], &m);
        if (m.fits && (!found || m.total_gb < out->total_gb)) *out = m, found = 1;
    }
    return found;
}

void adv_plan_nothing_fits(const struct adv_kb *akb, struct adv_result *r, const int *cand, int n)
{
    const struct answers *a = &r->answers;
    double D = answers_num(a, ANS_DEVICES), nodes = answers_num(a, ANS_NODES);
    double per_node = D / (nodes > 0 ? nodes : 1);
    if (r->memory.device_memory_gb <= 0 || n == 0) return;
    /* More devices of the same kind, in whole nodes once past one node. */
    struct adv_memory m;
    for (double more = D * 2; more <= 1 << 20; more *= 2) {
        double nn = more <= per_node ? 1 : ceil(more / per_node);
        struct ctx c = make_ctx(r, more, nn, r->in.finetune);
        if (!fits_with(akb, &c, cand, n, &m)) continue;
        /* Then the fewest between the last count that did not fit and this one, in 16 steps of
         * whole nodes (layouts need divisors, so fitting is not monotonic in between). */
        double low = more / 2, step = ceil((more - low) / 16 / per_node) * per_node;
        if (step < 1) step = 1;
        for (double k = low + step; k < more; k += step) {
            struct adv_memory mk;
            c = make_ctx(r, k, k <= per_node ? 1 : ceil(k / per_node), r->in.finetune);
            if (fits_with(akb, &c, cand, n, &mk)) {
                more = k, m = mk;
                break;
            }
        }
        {
            r->fit_devices = more;
            REMEDY(r,
                     "More devices: %s fits %.0f devices of %.0f GB (%.1f GB per device with layout tp %d, pp %d, dp %d)",
                     m.strategy, more, r->memory.device_memory_gb, m.total_gb, m.layout.tp, m.layout.pp, m.layout.dp);
            break;
        }
    }
    struct ctx here = make_ctx(r, D, nodes, ADV_LORA);
    for (enum adv_finetune ft = ADV_LORA; ft <= ADV_QLORA && r->in.finetune == ADV_FULL && r->nremedies < 4; ft++) {
        here.finetune = ft;
        struct adv_plan_inputs in = r->in;
        double h = r->hidden, l = r->layers, heads;
        if (h <= 0) plan_llm_shape(in.params, 128, 128, &h, &l, &heads);
        in.adapters = r->hidden > 0 ? shape_lora_params(&in.shape, answers_num(a, ANS_LORA_RANK),
                                                        (enum shape_lora_targets)answers_choice(a, ANS_LORA_TARGETS))
                                    : plan_lora_params(l, h, answers_num(a, ANS_LORA_RANK));
        here.in = &in;
        if (fits_with(akb, &here, cand, n, &m)) {
            REMEDY(r,
                     "Fine-tune with %s (finetune %s): %s needs %.1f GB per device on these %.0f devices",
                     ft == ADV_LORA ? "LoRA" : "QLoRA", ft == ADV_LORA ? "lora" : "qlora", m.strategy, m.total_gb, D); /* names */
            break;
        }
    }
    int off = adv_strategy_index(akb, "zero3-offload");
    int offloading = r->memory.cpu_gb > 0;
    if (offloading && r->memory.host_fits == 0 && r->nremedies < 4)
        REMEDY(r,
                 "Hosts with more memory: offload (%s) needs %.0f GB per node, these have %.0f GB", r->memory.strategy,
                 r->memory.cpu_gb, r->memory.host_memory_gb);
    if (off >= 0 && !offloading && r->nremedies < 4) {
        struct ctx c = make_ctx(r, D, nodes, r->in.finetune);
        strategy_memory(akb, &c, off, &m);
        REMEDY(r,
                 "Offload %s to host memory (zero3-offload): %.1f GB per device and %.0f GB of host memory per node%s",
                 r->in.finetune == ADV_FULL ? N_("optimizer states") : N_("the frozen weights and the adapters' optimizer states"),
                 m.total_gb, m.cpu_gb,
                 m.host_fits < 0 ? N_(" (set host_memory_gb to check it)") : m.host_fits ? "" : N_(", more than the hosts have"));
    }
    if (r->in.recompute != ADV_RECOMPUTE_AUTO && r->in.recompute != ADV_RECOMPUTE_FULL && r->hidden > 0 && r->nremedies < 4)
        REMEDY(r,
                 "Recompute activations (recompute auto or full): keeps only each layer's input");
    if (strcmp(answers_str(a, ANS_MODEL_KIND), "recsys") == 0 && r->nremedies < 4)
        REMEDY(r,
                 "Shard the embedding tables across devices (TorchRec, row- or table-wise): they dominate recommender memory");
}
