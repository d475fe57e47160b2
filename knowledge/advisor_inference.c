/* The inference plan (plan.inference): when the model is an LLM served from a server, the serving
 * device, the weights at the serving precision and the KV cache of serve_batch sequences of
 * serve_context tokens, the fewest devices that hold both (tensor parallel within a node, pipeline
 * stages beyond it), the largest batch and context that fit with the training plan's headroom and
 * overhead, decode bound by memory bandwidth and prefill bound by compute. */
#include "knowledge/advisor_kb.h"
#include "knowledge/planner.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9

/* Bytes per stored value: the kv_precision answer's formats, and fp16 for devices without BF16. */
static const struct { const char *name; double bytes; } kv_formats[] = {
    {"bf16", 2}, {"fp16", 2}, {"fp8", 1}, {"int8", 1},
};

static const double weight_bytes[] = {[PLAN_BF16] = 2, [PLAN_FP16] = 2, [PLAN_FP8] = 1, [PLAN_FP32] = 4};

/* Tensor parallelism stays within the eight devices of a node (HGX, MI300X platforms, TPU hosts);
 * beyond them the layers are split into pipeline stages, at most this many. */
enum { MAX_TP = 8, MAX_PP = 64 };

static void inf_note(struct adv_inference *inf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void inf_note(struct adv_inference *inf, const char *fmt, ...)
{
    if (inf->nnotes == (int)(sizeof inf->notes / sizeof inf->notes[0])) return;
    va_list ap;
    va_start(ap, fmt);
    adv_twinf_v(NULL, inf->notes[inf->nnotes], inf->notes_local[inf->nnotes], sizeof inf->notes[0], fmt, ap);
    va_end(ap);
    inf->nnotes++;
}

static double kv_bytes_of(const char *name)
{
    for (size_t i = 0; i < sizeof kv_formats / sizeof kv_formats[0]; i++)
        if (strcmp(kv_formats[i].name, name) == 0) return kv_formats[i].bytes;
    return 2;
}

/* The key that named the serving device, for messages. */
static const char *device_key(const struct adv_result *r, const struct adv_inference *inf)
{
    if (inf->assumed) return "deploy_hardware";
    return r->answers.v[ANS_ACCELERATOR].given ? "accelerator" : "hardware";
}

/* The serving device: the training device when deploy_hardware is the training hardware, else
 * the vendor's usual device (assumed), or this machine's memory for CPUs. */
static void resolve_device(const struct adv_kb *akb, const struct adv_result *r, struct adv_inference *inf)
{
    const struct answers *a = &r->answers;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    inf->hardware = answers_str(a, ANS_DEPLOY_HARDWARE);
    inf->accelerator = -1;
    inf->memory_gb = -1;
    if (strcmp(inf->hardware, hardware) == 0) {
        inf->accelerator = r->accelerator;
        if (answers_has(a, ANS_DEVICE_MEMORY_GB)) inf->memory_gb = answers_num(a, ANS_DEVICE_MEMORY_GB);
    } else if (strcmp(inf->hardware, "cpu") == 0) {
        if (r->hw.host_memory_gb > 0) {
            inf->memory_gb = r->hw.host_memory_gb;
            inf_note(inf, "Serving on the CPU with this machine's %.0f GB of memory", inf->memory_gb);
        } else {
            inf_note(inf, "Serving on the CPU: memory unknown, so no fit (set deploy_hardware to the accelerator to plan it)");
        }
    } else {
        inf->accelerator = adv_default_accelerator(akb, inf->hardware);
        if (inf->accelerator >= 0) {
            inf->assumed = 1;
            inf->memory_gb = akb->acc[inf->accelerator].memory_gb;
            inf_note(inf, "Serving device assumed: %s (%s) for deploy_hardware %s, not the training device",
                 akb->acc[inf->accelerator].name, akb->acc[inf->accelerator].id, inf->hardware);
        } else {
            inf_note(inf, "No %s device in the catalog: memory, bandwidth and peak unknown", inf->hardware);
        }
    }
    inf->usable_gb = inf->memory_gb > 0 ? inf->memory_gb * r->in.working_set : -1;
}

/* Weights and KV cache precisions on the serving device; fails on a precision it lacks. */
static int resolve_precisions(const struct adv_kb *akb, struct adv_result *r, struct adv_inference *inf, char *err,
                              size_t errsz)
{
    struct answers *a = &r->answers;
    int acc = inf->accelerator;
    int prec = adv_precision_index(r->precision);
    if (acc >= 0 && inf->assumed && adv_precision_rate(akb, acc, prec) <= 0) {
        if (a->v[ANS_PRECISION].given) {
            snprintf(err, errsz, "keys 'precision' and 'deploy_hardware': no %s on %s (%s), the serving device assumed for %s",
                     adv_precision_name(prec), akb->acc[acc].id, akb->acc[acc].name, inf->hardware);
            return KB_ERR_INPUT;
        }
        prec = adv_best_precision(akb, acc);
        inf_note(inf, "Weights served in %s: the serving device has no %s", adv_precision_name(prec), r->precision);
    }
    inf->precision = adv_precision_name(prec);
    inf->weight_bytes_per_param = weight_bytes[prec];
    inf->peak_tflops = acc >= 0 ? adv_precision_rate(akb, acc, prec)
                       : strcmp(inf->hardware, answers_str(a, ANS_HARDWARE)) == 0 ? r->peak_tflops
                                                                                 : 0;

    int given = a->v[ANS_KV_PRECISION].given;
    const char *kv = given ? answers_str(a, ANS_KV_PRECISION) : "bf16";
    if (acc >= 0) {
        /* BF16 needs the format in hardware; FP8 needs native FP8 conversion (Hopper, Ada, CDNA 3
         * and later), without which the cache is converted in software inside attention. INT8 is
         * stored and scaled on every catalog device. */
        int lacks = (strcmp(kv, "bf16") == 0 && akb->acc[acc].bf16 <= 0) || (strcmp(kv, "fp8") == 0 && akb->acc[acc].fp8 <= 0);
        if (lacks && given) {
            snprintf(err, errsz, "keys 'kv_precision' and '%s': %s (%s) has no %s; use %s", device_key(r, inf), akb->acc[acc].id,
                     akb->acc[acc].name, kv, strcmp(kv, "fp8") == 0 && akb->acc[acc].bf16 > 0 ? "bf16 or int8" : "int8");
            return KB_ERR_INPUT;
        }
        if (lacks) {
            kv = "fp16";
            inf_note(inf, "KV cache in fp16: %s has no BF16", akb->acc[acc].id);
        }
    }
    inf->kv_precision = kv;
    inf->kv_bytes_per_value = kv_bytes_of(kv);
    if (strcmp(kv, "fp16") != 0) answers_set_str(a, ANS_KV_PRECISION, kv);
    return KB_OK;
}

/* Bytes on one device of a tp x pp layout for `batch` sequences of `context` tokens: weights split
 * over tp x pp, the cache over the pipeline and over min(tp, kv_heads) (tensor ranks beyond the KV
 * heads hold copies of them). */
struct split {
    double weights, kv, allocated, total;
};

static struct split split_of(const struct adv_inference *inf, const struct adv_plan_inputs *in, double tp, double pp,
                             double batch, double context)
{
    struct split s;
    double kv_ways = tp < inf->kv_heads ? tp : inf->kv_heads;
    s.weights = inf->weights_gb * GB / (tp * pp);
    s.kv = inf->kv_bytes_per_token * context * batch / (kv_ways * pp);
    s.allocated = s.weights + s.kv;
    s.total = s.allocated * (1 + in->fragmentation) + in->overhead_gb * GB;
    return s;
}

/* Bytes the weights and cache may take on one device: what fits with the headroom, less the
 * framework's context and the allocator's share. */
static double budget_bytes(const struct adv_inference *inf, const struct adv_plan_inputs *in)
{
    return ((1 - in->headroom) * inf->usable_gb * GB - in->overhead_gb * GB) / (1 + in->fragmentation);
}

/* The largest whole number of sequences (or tokens) whose cache fits beside the weights; 0 when the
 * weights alone do not. per_unit is the cache bytes of one on each device. */
static double largest(double budget, double weights, double per_unit)
{
    if (per_unit <= 0 || budget <= weights) return 0;
    return floor((budget - weights) / per_unit);
}

/* The largest batch (on the layout's devices and on one) and context that fit; -1 when device
 * memory is unknown. The context stops at the position limit when one is known. */
static void fill_largest(struct adv_inference *inf, const struct adv_plan_inputs *in)
{
    inf->max_batch = inf->max_batch_one_device = inf->max_context = -1;
    if (inf->usable_gb <= 0) return;
    double tp = inf->tensor_parallel, pp = inf->pipeline_parallel, budget = budget_bytes(inf, in);
    struct split one_seq = split_of(inf, in, tp, pp, 1, inf->context);
    struct split one_token = split_of(inf, in, tp, pp, inf->batch, 1);
    struct split alone = split_of(inf, in, 1, 1, 1, inf->context);
    inf->max_batch = largest(budget, one_seq.weights, one_seq.kv);
    inf->max_batch_one_device = largest(budget, alone.weights, alone.kv);
    inf->max_context = largest(budget, one_token.weights, one_token.kv);
    if (inf->position_limit > 0 && inf->max_context > inf->position_limit) {
        inf->max_context = inf->position_limit;
        inf->max_context_capped = 1;
    }
}

static int tp_allowed(const struct adv_inference *inf, double tp)
{
    double kv = inf->kv_heads;
    return fmod(inf->heads, tp) == 0 && (fmod(kv, tp) == 0 || fmod(tp, kv) == 0);
}

/* Whether a layout's bytes on one device fit with the headroom: the training plan's rule. */
static int holds(struct split s, const struct adv_inference *inf, const struct adv_plan_inputs *in)
{
    return s.total <= (1 - in->headroom) * inf->usable_gb * GB;
}

/* The fewest devices that hold serve_batch x serve_context: tp of 1, 2, 4, 8 dividing the heads,
 * then pipeline stages of the widest tp. */
static void search_layout(struct adv_inference *inf, const struct adv_plan_inputs *in)
{
    inf->tensor_parallel = inf->pipeline_parallel = 1;
    inf->fits = -1;
    if (inf->usable_gb <= 0) return;
    int widest = 1;
    for (int tp = 1; tp <= MAX_TP; tp *= 2) {
        if (!tp_allowed(inf, tp)) continue;
        widest = tp;
        if (holds(split_of(inf, in, tp, 1, inf->batch, inf->context), inf, in)) {
            inf->tensor_parallel = tp;
            inf->fits = 1;
            return;
        }
    }
    for (int pp = 2; pp <= MAX_PP && pp <= inf->layers; pp++) {
        if (holds(split_of(inf, in, widest, pp, inf->batch, inf->context), inf, in)) {
            inf->tensor_parallel = widest;
            inf->pipeline_parallel = pp;
            inf->fits = 1;
            return;
        }
    }
    inf->tensor_parallel = widest;
    inf->fits = 0;
}

/* Decode runs at the memory bandwidth a probe run measured on this machine's device when the
 * serving device is that device (the same rule as the training peak), else the catalog's. */
static void resolve_bandwidth(const struct adv_kb *akb, const struct adv_result *r, struct adv_inference *inf)
{
    const struct answers *a = &r->answers;
    int same = strcmp(r->hw.kind, inf->hardware) == 0 && !inf->assumed &&
               (!a->v[ANS_ACCELERATOR].given || strcmp(r->hw.catalog_id, answers_str(a, ANS_ACCELERATOR)) == 0);
    if (r->hw.memory_bandwidth_gbs > 0 && same) {
        inf->bandwidth_gbs = r->hw.memory_bandwidth_gbs;
        inf->bandwidth_measured = 1;
        adv_twinf(r->kb, inf->bandwidth_source, inf->bandwidth_source_local, sizeof inf->bandwidth_source, "measured: %.0f GB/s (%s)", inf->bandwidth_gbs,
                 r->hw.bandwidth_source[0] ? r->hw.bandwidth_source : N_("probe run"));
    } else if (inf->accelerator >= 0) {
        inf->bandwidth_gbs = akb->acc[inf->accelerator].bandwidth_gbs;
        adv_twinf(r->kb, inf->bandwidth_source, inf->bandwidth_source_local, sizeof inf->bandwidth_source, "catalog: %s, %.0f GB/s (%s)",
                 akb->acc[inf->accelerator].name, inf->bandwidth_gbs, akb->acc[inf->accelerator].source);
    } else {
        adv_twinf(r->kb, inf->bandwidth_source, inf->bandwidth_source_local, sizeof inf->bandwidth_source,
                 "unknown: no catalog device and no measured bandwidth (fwadvisor probe measures it)");
    }
    adv_utf8_trim(inf->bandwidth_source);
}

/* kv_heads must divide heads, whether the heads were answered or derived. */
static int check_kv_heads(const struct adv_result *r, char *err, size_t errsz)
{
    const struct answers *a = &r->answers;
    if (!a->v[ANS_KV_HEADS].given || r->heads <= 0) return KB_OK;
    double kv = answers_num(a, ANS_KV_HEADS);
    if (fmod(r->heads, kv) == 0) return KB_OK;
    snprintf(err, errsz,
             "keys 'kv_heads' and 'heads': kv_heads %g does not divide heads %g%s (grouped-query attention shares each "
             "KV head among heads / kv_heads query heads)",
             kv, r->heads, a->v[ANS_HEADS].given ? "" : ", derived from model_params (set heads)");
    return KB_ERR_INPUT;
}

int adv_plan_inference(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz)
{
    struct answers *a = &r->answers;
    struct adv_inference *inf = &r->inference;
    memset(inf, 0, sizeof *inf);
    if (check_kv_heads(r, err, errsz) != KB_OK) return KB_ERR_INPUT;
    int server = strcmp(answers_str(a, ANS_DEPLOY), "server") == 0;
    int llm = strcmp(answers_str(a, ANS_MODEL_KIND), "llm") == 0 && r->hidden > 0 && r->heads > 0 && r->layers > 0;
    if (!server || !llm) {
        int asked = 0;
        for (int k = ANS_SERVE_CONTEXT; k <= ANS_KV_PRECISION; k++) asked |= a->v[k].given;
        if (asked)
            adv_assume(r, "serve_context, serve_batch, kv_heads and kv_precision plan serving an LLM: no inference plan "
                          "for deploy %s and model_kind %s",
                       answers_str(a, ANS_DEPLOY), answers_str(a, ANS_MODEL_KIND));
        return KB_OK;
    }
    inf->planned = 1;
    if (!answers_has(a, ANS_SERVE_CONTEXT)) answers_set_num(a, ANS_SERVE_CONTEXT, 4096);
    if (!answers_has(a, ANS_SERVE_BATCH)) answers_set_num(a, ANS_SERVE_BATCH, 1);
    if (!answers_has(a, ANS_KV_HEADS)) answers_set_num(a, ANS_KV_HEADS, r->heads);
    inf->context = answers_num(a, ANS_SERVE_CONTEXT);
    inf->batch = answers_num(a, ANS_SERVE_BATCH);
    inf->kv_heads = answers_num(a, ANS_KV_HEADS);
    inf->layers = r->layers;
    inf->heads = r->heads;
    inf->hidden = r->hidden;
    inf->head_dim = r->hidden / r->heads;
    inf->active_params = r->in.active;

    /* The position limit is the model's max_positions (its config's max_position_embeddings) when
     * known, else the answered seq_len of a model trained here; a fine-tuned model keeps its base's. */
    inf->position_limit = -1;
    int from_config = answers_has(a, ANS_MAX_POSITIONS);
    if (from_config) inf->position_limit = answers_num(a, ANS_MAX_POSITIONS);
    else if (a->v[ANS_SEQ_LEN].given && r->in.finetune == ADV_FULL) inf->position_limit = answers_num(a, ANS_SEQ_LEN);
    if (inf->position_limit > 0 && inf->context > inf->position_limit) {
        if (from_config)
            snprintf(err, errsz, "keys 'serve_context' and 'max_positions': serve_context %g is above the model's position "
                     "limit, the %g positions of its config (lower serve_context)", inf->context, inf->position_limit);
        else
            snprintf(err, errsz,
                     "keys 'serve_context' and 'seq_len': serve_context %g is above the model's position limit, the %g tokens "
                     "it is trained at (lower serve_context, or raise seq_len to train a longer context)",
                     inf->context, inf->position_limit);
        return KB_ERR_INPUT;
    }

    resolve_device(akb, r, inf);
    int status = resolve_precisions(akb, r, inf, err, errsz);
    if (status != KB_OK) return status;
    const struct adv_plan_inputs *in = &r->in;
    inf->weights_gb = in->params * inf->weight_bytes_per_param / GB;
    inf->kv_bytes_per_token = shape_kv_bytes_per_token(&in->shape, inf->kv_bytes_per_value); /* the planner's shape */
    inf->kv_cache_gb = inf->kv_bytes_per_token * inf->context * inf->batch / GB;

    search_layout(inf, in);
    double tp = inf->tensor_parallel, pp = inf->pipeline_parallel;
    struct split s = split_of(inf, in, tp, pp, inf->batch, inf->context);
    inf->weights_gb_per_device = s.weights / GB;
    inf->kv_gb_per_device = s.kv / GB;
    inf->overhead_gb = (s.total - s.allocated) / GB;
    inf->total_gb_per_device = s.total / GB;
    fill_largest(inf, in);

    resolve_bandwidth(akb, r, inf);
    /* Every step reads each device's weights and cache; the stages of a pipeline run one after the
     * other for a token, so the step is the whole model's share of one tensor-parallel rank. */
    double kv_ways = tp < inf->kv_heads ? tp : inf->kv_heads;
    inf->decode_step_s = plan_decode_step_seconds(inf->weights_gb * GB / tp, inf->kv_cache_gb * GB / kv_ways, inf->bandwidth_gbs);
    if (inf->decode_step_s > 0) {
        inf->decode_tokens_per_s_per_sequence = 1 / inf->decode_step_s;
        inf->decode_tokens_per_s = inf->batch / inf->decode_step_s;
    }
    inf->prefill_flops = inf->batch * plan_prefill_flops(inf->active_params, inf->layers, inf->hidden, inf->context);
    if (inf->peak_tflops > 0) {
        inf->prefill_s = inf->prefill_flops / (tp * inf->peak_tflops * 1e12);
        inf->prefill_s_per_sequence = inf->prefill_s / inf->batch;
    }
    return KB_OK;
}
