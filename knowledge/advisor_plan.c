/* adv_recommend: hardware and accelerator resolution, the checks answers must pass against each
 * other and the catalog, the plan's inputs and assumptions, the time plan's totals, pitfalls. The
 * choice of strategy and runtime is advisor_choose.c's, memory advisor_memory.c's, the time split
 * advisor_time.c's. */
#include "knowledge/advisor_kb.h"
#include "common/units.h"
#include "knowledge/model_answers.h"
#include "knowledge/model_config.h"
#include "knowledge/planner.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct adv_reason *adv_push_reason(struct adv_reason *list, int *n, int max, int delta_tenths,
                                      const char *detail, const char *source)
{
    if (*n == max) return NULL;
    struct adv_reason *r = &list[(*n)++];
    r->label[0] = '\0';
    r->detail = detail;
    r->delta_tenths = delta_tenths;
    r->source = source;
    r->also = NULL;
    return r;
}

/* A note in English into list and in the reader's language into local (adv_twinf's words). */
static void add_note(const struct adv_kb *akb, char (*list)[240], char (*local)[240], int *n, int max, const char *fmt,
                     va_list ap)
{
    if (*n == max) return;
    adv_twinf_v(akb, list[*n], local[*n], sizeof list[*n], fmt, ap);
    (*n)++;
}

void adv_assume(struct adv_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_note(r->kb, r->assumptions, r->assumptions_local, &r->nassumptions, ADV_MAX_NOTES, fmt, ap);
    va_end(ap);
}

void adv_warn(struct adv_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_note(r->kb, r->warnings, r->warnings_local, &r->nwarnings, (int)(sizeof r->warnings / sizeof r->warnings[0]), fmt,
             ap);
    va_end(ap);
}

const char *adv_note_local(const char *en, const char *local) { return local[0] ? local : en; }

/* --- the catalog ---------------------------------------------------------------------------- */

int adv_kb_accelerator_count(const struct adv_kb *akb) { return akb->nacc; }

const char *adv_kb_accelerator(const struct adv_kb *akb, int i, const char **name, const char **vendor, double *memory_gb)
{
    if (i < 0 || i >= akb->nacc) return NULL;
    if (name) *name = akb->acc[i].name;
    if (vendor) *vendor = akb->acc[i].vendor;
    if (memory_gb) *memory_gb = akb->acc[i].memory_gb;
    return akb->acc[i].id;
}

int adv_accelerator_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->acc, akb->nacc, id); }

/* The catalog device a driver-reported name means: the longest `match` found in it and followed by
 * a character that cannot continue a model name ("nvidia l40" is in "nvidia l40s" but names
 * another board). */
static int match_accelerator(const struct adv_kb *akb, const char *vendor, const char *name)
{
    char lower[128];
    size_t i = 0;
    for (; name && name[i] && i < sizeof lower - 1; i++) lower[i] = (char)tolower((unsigned char)name[i]);
    lower[i] = '\0';
    int best = -1;
    size_t best_len = 0;
    for (int a = 0; a < akb->nacc && lower[0]; a++) {
        if (strcmp(akb->acc[a].vendor, vendor) != 0 || !*akb->acc[a].match) continue;
        size_t len = strlen(akb->acc[a].match);
        int found = 0;
        for (const char *at = strstr(lower, akb->acc[a].match); at && !found; at = strstr(at + 1, akb->acc[a].match))
            found = !isalnum((unsigned char)at[len]);
        if (found && len > best_len) {
            best = a;
            best_len = len;
        }
    }
    return best;
}

int adv_default_accelerator(const struct adv_kb *akb, const char *vendor)
{
    for (int a = 0; a < akb->nacc; a++)
        if (akb->acc[a].planner_default && strcmp(akb->acc[a].vendor, vendor) == 0) return a;
    return -1;
}

/* "x, y, z": the three catalog ids nearest to an unknown one (those containing it first, then by
 * edit distance). */
static void nearest_accelerators(const struct adv_kb *akb, const char *id, char *out, size_t n)
{
    int picked[3] = {-1, -1, -1};
    for (int k = 0; k < 3; k++) {
        int best = -1, best_score = 1 << 20;
        for (int i = 0; i < akb->nacc; i++) {
            if (i == picked[0] || i == picked[1]) continue;
            int score = strstr(akb->acc[i].id, id) ? 0 : edit_distance(id, akb->acc[i].id);
            if (score < best_score) best = i, best_score = score;
        }
        picked[k] = best;
    }
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < 3 && picked[k] >= 0 && used < n; k++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", k ? ", " : "", akb->acc[picked[k]].id);
}

/* --- hardware ----------------------------------------------------------------------------- */

/* Whether a CPU plan is for this very machine: the hardware came from detection (auto), or the
 * answers name one CPU on one node. */
static int plan_is_this_machine(const struct adv_result *r)
{
    const struct answers *a = &r->answers;
    return strcmp(r->hardware_source, "answers") != 0 || (answers_num(a, ANS_DEVICES) <= 1 && answers_num(a, ANS_NODES) <= 1);
}

/* Settles `hardware`, `accelerator` and `device_memory_gb`; r->accelerator is the catalog device
 * planned for (-1 none), r->assumed_accelerator set when the device was neither answered nor
 * detected. Fails on an unknown id or an accelerator of another kind than `hardware`. */
static int resolve_hardware(const struct adv_kb *akb, const struct adv_hw *hw, struct adv_result *r, char *err,
                            size_t errsz)
{
    struct answers *a = &r->answers;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    int detected = hw && hw->kind[0];
    if (detected) r->hw = *hw;
    int answered = -1;
    r->accelerator = -1;
    if (a->v[ANS_ACCELERATOR].given) {
        const char *id = answers_str(a, ANS_ACCELERATOR);
        answered = adv_accelerator_index(akb, id);
        if (answered < 0) {
            char near[160];
            nearest_accelerators(akb, id, near, sizeof near);
            snprintf(err, errsz, "key 'accelerator': '%s' is not in the catalog (nearest: %s; fwadvisor kb list accelerators)",
                     id, near);
            return KB_ERR_INPUT;
        }
        if (strcmp(hardware, "auto") != 0 && strcmp(hardware, akb->acc[answered].vendor) != 0) {
            snprintf(err, errsz, "keys 'accelerator' and 'hardware' disagree: %s is %s hardware, not %s", id,
                     akb->acc[answered].vendor, hardware);
            return KB_ERR_INPUT;
        }
    }
    if (strcmp(hardware, "auto") == 0 && answered >= 0) {
        answers_set_str(a, ANS_HARDWARE, akb->acc[answered].vendor);
        snprintf(r->hardware_source, sizeof r->hardware_source, "answers");
        ADV_NOTEF(r, hardware_note, "hardware: auto -> %s (accelerator %s)",
                 akb->acc[answered].vendor, akb->acc[answered].id);
    } else if (strcmp(hardware, "auto") == 0) {
        if (detected && ans_key_allows(&ans_keys[ANS_HARDWARE], hw->kind)) {
            answers_set_str(a, ANS_HARDWARE, hw->kind);
            snprintf(r->hardware_source, sizeof r->hardware_source, "%s", hw->source[0] ? hw->source : "detected");
            ADV_NOTEF(r, hardware_note, "hardware: auto -> %s (%s)", hw->kind,
                     hw->evidence[0] ? hw->evidence : r->hardware_source);
        } else {
            answers_set_str(a, ANS_HARDWARE, "cpu");
            snprintf(r->hardware_source, sizeof r->hardware_source, "detected");
            ADV_NOTEF(r, hardware_note, "hardware: auto -> cpu (nothing detected)");
        }
    } else {
        snprintf(r->hardware_source, sizeof r->hardware_source, "answers");
        ADV_NOTEF(r, hardware_note, "hardware: %s, as answered", hardware);
    }
    adv_utf8_trim(r->hardware_note);
    hardware = answers_str(a, ANS_HARDWARE);
    int same_kind = detected && strcmp(hw->kind, hardware) == 0;
    if (same_kind && hw->count > 1 && !a->v[ANS_DEVICES].given) {
        size_t used = strlen(r->hardware_note);
        snprintf(r->hardware_note + used, sizeof r->hardware_note - used,
                 "; %d found, planning for devices=%g (set devices to change)", hw->count, answers_num(a, ANS_DEVICES));
        adv_utf8_trim(r->hardware_note);
    }
    int matched = -1;
    if (answered >= 0) r->accelerator = answered;
    else if (strcmp(hardware, "cpu") != 0) {
        if (same_kind) matched = match_accelerator(akb, hardware, hw->name);
        r->accelerator = matched >= 0 ? matched : adv_default_accelerator(akb, hardware);
        if (matched < 0 && r->accelerator >= 0) {
            const struct adv_kb *k = akb;
            r->assumed_accelerator = k->acc[r->accelerator].id;
            if (same_kind && hw->name[0])
                adv_assume(r, "%s (%s) for peaks and links: the detected '%.60s' is not in the catalog; set "
                              "accelerator (fwadvisor kb list accelerators)",
                           k->acc[r->accelerator].name, k->acc[r->accelerator].id, hw->name);
            else
                adv_assume(r, "%s (%s, %.0f GB) for hardware %s: no accelerator answered or detected; set accelerator "
                              "(fwadvisor kb list accelerators)",
                           k->acc[r->accelerator].name, k->acc[r->accelerator].id, k->acc[r->accelerator].memory_gb,
                           hardware);
        }
    }
    if (r->accelerator >= 0) answers_set_id(a, ANS_ACCELERATOR, akb->acc[r->accelerator].id);
    int acc = r->accelerator;
    if (a->v[ANS_DEVICE_MEMORY_GB].given) {
        ADV_NOTEF(r, device_memory_source, "answers");
    } else if (answered < 0 && same_kind && hw->memory_gb > 0) {
        answers_set_num(a, ANS_DEVICE_MEMORY_GB, hw->memory_gb);
        snprintf(r->device_memory_source, sizeof r->device_memory_source, "%s", r->hardware_source); /* an id */
        r->device_memory_source_local[0] = '\0';
    } else if (strcmp(hardware, "cpu") == 0) {
        /* This machine's memory only when the plan is for this machine. */
        double mem = detected && plan_is_this_machine(r) && hw->host_memory_gb > 0 ? hw->host_memory_gb : 0;
        if (mem > 0) {
            answers_set_num(a, ANS_DEVICE_MEMORY_GB, mem);
            ADV_NOTEF(r, device_memory_source, "host memory of this machine");
        } else {
            ADV_NOTEF(r, device_memory_source, "unknown (set device_memory_gb)");
        }
    } else if (acc >= 0) {
        answers_set_num(a, ANS_DEVICE_MEMORY_GB, akb->acc[acc].memory_gb);
        if (r->assumed_accelerator)
            ADV_NOTEF(r, device_memory_source, "catalog: %s (assumed; set accelerator or device_memory_gb)", akb->acc[acc].name);
        else
            ADV_NOTEF(r, device_memory_source, "catalog: %s", akb->acc[acc].name);
    } else {
        ADV_NOTEF(r, device_memory_source, "unknown (set device_memory_gb)");
    }
    adv_utf8_trim(r->device_memory_source);
    return KB_OK;
}

/* seq_len, hidden, layers, heads for activation memory (LLMs), and the GPT-like shape LoRA's
 * adapter count needs for other models. */
static void resolve_shape(const struct adv_kb *akb, struct adv_result *r)
{
    struct answers *a = &r->answers;
    r->micro_batch = 1;
    int llm = strcmp(answers_str(a, ANS_MODEL_KIND), "llm") == 0;
    if (!llm) {
        ADV_NOTEF(r, shape_note, "activations not estimated for model_kind %s (they depend on the architecture); keep headroom",
                 answers_str(a, ANS_MODEL_KIND));
        return;
    }
    double per_layer = 128, head_dim = 128, seq = 2048, mb = 1;
    adv_fact(akb, a, "hidden_per_layer", &per_layer, NULL);
    adv_fact(akb, a, "head_dim", &head_dim, NULL);
    adv_fact(akb, a, "default_seq_len", &seq, NULL);
    adv_fact(akb, a, "micro_batch", &mb, NULL);
    /* GPT-3 style (12 L h^2), or for arch llama as many Llama layers as the parameters less the
     * embeddings hold (model_shape.h). */
    enum shape_arch arch = model_answers_arch(a);
    struct model_shape derived_shape;
    /* With active_params a mixture is shaped as the dense model its active parameters make; by its
     * size alone, as a mixture of Mixtral's proportions that the size fills. */
    int by_size = !answers_has(a, ANS_ACTIVE_PARAMS);
    shape_derive(arch, by_size ? answers_num(a, ANS_MODEL_PARAMS) : answers_num(a, ANS_ACTIVE_PARAMS), per_layer, head_dim,
                 answers_has(a, ANS_VOCAB) ? answers_num(a, ANS_VOCAB) : adv_fact_or(akb, a, "vocab", 0),
                 by_size && answers_has(a, ANS_EXPERTS) ? answers_num(a, ANS_EXPERTS) : 0, &derived_shape);
    int derived = 0;
    if (!answers_has(a, ANS_HIDDEN)) answers_set_num(a, ANS_HIDDEN, derived_shape.hidden), derived = 1;
    if (!answers_has(a, ANS_LAYERS)) answers_set_num(a, ANS_LAYERS, derived_shape.layers), derived = 1;
    if (!answers_has(a, ANS_HEADS)) answers_set_num(a, ANS_HEADS, derived_shape.heads), derived = 1;
    int seq_default = !answers_has(a, ANS_SEQ_LEN);
    if (seq_default) answers_set_num(a, ANS_SEQ_LEN, seq);
    r->seq_len = answers_num(a, ANS_SEQ_LEN);
    r->hidden = answers_num(a, ANS_HIDDEN);
    r->layers = answers_num(a, ANS_LAYERS);
    r->heads = answers_num(a, ANS_HEADS);
    r->micro_batch = mb;
    ADV_NOTEF(r, shape_note, "%s: hidden %g, layers %g, heads %g, seq_len %g%s, micro-batch %g",
             !derived                             ? N_("shape as answered")
             : derived_shape.arch == SHAPE_LLAMA ? N_("shape derived from the parameters like Llama")
             : derived_shape.arch == SHAPE_MOE   ? N_("shape derived from the parameters like Mixtral (experts in every layer)")
                                                 : N_("shape derived from the parameters like GPT-3"),
             r->hidden, r->layers,
             r->heads, r->seq_len, seq_default ? N_(" (default)") : "", mb);
    if (derived) {
        adv_assume(r, "Model shape: %s", r->shape_note);
        /* the note's own twin in the twin of the assumption */
        if (r->shape_note_local[0] && r->nassumptions > 0)
            snprintf(r->assumptions_local[r->nassumptions - 1], sizeof r->assumptions_local[0], _("Model shape: %s"),
                     r->shape_note_local);
    }
    int known = answers_has(a, ANS_MODEL) ? model_known_find(answers_str(a, ANS_MODEL)) : -1;
    if (known >= 0) {
        char source[200], read[16];
        adv_assume(r, "Model shape of %s (%s, %.1fB parameters): %s, read %s", answers_str(a, ANS_MODEL),
                   answers_str(a, ANS_ARCH), answers_num(a, ANS_MODEL_PARAMS) / 1e9, model_known_source((size_t)known, source, sizeof source),
                   model_known_read((size_t)known, read, sizeof read));
    }
}

/* --- the plan's inputs ---------------------------------------------------------------------- */

static const char *const precision_names[] = {"bf16", "fp16", "fp8", "fp32"};

double adv_precision_rate(const struct adv_kb *akb, int acc, int precision)
{
    switch (precision) {
    case PLAN_BF16: return akb->acc[acc].bf16;
    case PLAN_FP16: return akb->acc[acc].fp16;
    case PLAN_FP8: return akb->acc[acc].fp8;
    default: return akb->acc[acc].fp32;
    }
}

const char *adv_precision_name(int precision) { return precision >= 0 && precision < 4 ? precision_names[precision] : "fp32"; }

int adv_precision_index(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (name && strcmp(precision_names[i], name) == 0) return i;
    return PLAN_BF16;
}

int adv_best_precision(const struct adv_kb *akb, int acc)
{
    return akb->acc[acc].bf16 > 0 ? PLAN_BF16 : akb->acc[acc].fp16 > 0 ? PLAN_FP16 : PLAN_FP32;
}

/* Parameters, active parameters and experts (mixture of experts). */
static void resolve_moe(const struct adv_kb *akb, struct adv_result *r)
{
    const struct answers *a = &r->answers;
    struct adv_plan_inputs *in = &r->in;
    in->top_k = answers_has(a, ANS_TOP_K) ? answers_num(a, ANS_TOP_K) : adv_fact_or(akb, a, "moe_top_k", 2);
    in->params = answers_num(a, ANS_MODEL_PARAMS);
    in->active = answers_has(a, ANS_ACTIVE_PARAMS) ? answers_num(a, ANS_ACTIVE_PARAMS) : in->params;
    in->experts = answers_has(a, ANS_EXPERTS) ? answers_num(a, ANS_EXPERTS) : 1;
    struct model_shape s;
    model_answers_shape(a, in->top_k, &s);
    if (s.vocab <= 0) s.vocab = adv_fact_or(akb, a, "vocab", 0);
    int shaped = s.hidden > 0 && shape_moe_layers(&s) > 0 && shape_total_params(&s) > 0;
    if (in->experts > 1 && !answers_has(a, ANS_ACTIVE_PARAMS) && shaped) {
        /* The share of the parameters a token uses in the shape, applied to model_params. */
        in->active = in->params * shape_active_params(&s) / shape_total_params(&s);
        adv_assume(r, "Mixture of %g experts without active_params: %.3g of %.3g parameters active per token (top-%g), "
                      "the share of the shape's; set active_params to override",
                   in->experts, in->active, in->params, in->top_k);
    } else if (in->experts > 1 && !answers_has(a, ANS_ACTIVE_PARAMS))
        adv_assume(r, "Mixture of %g experts without active_params: FLOPs counted on all %.3g parameters", in->experts,
                   in->params);
    else if (in->active < in->params && in->experts <= 1)
        adv_assume(r, "active_params without experts: FLOPs by active parameters, no expert parallelism planned");
    else if (in->experts > 1)
        adv_assume(r,
                   "Mixture of experts: %.3g of %.3g parameters active per token; the active ones are counted as shared, "
                   "the rest as experts split by expert parallelism; top-%g routing for traffic",
                   in->active, in->params, in->top_k);

}

/* Precision: as answered (the device must have it), else the best of bf16/fp16 it has. */
static int resolve_precision(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz)
{
    struct answers *a = &r->answers;
    struct adv_plan_inputs *in = &r->in;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    int acc = r->accelerator;
    int given = a->v[ANS_PRECISION].given;
    int prec = given ? adv_precision_index(answers_str(a, ANS_PRECISION)) : PLAN_BF16;
    if (acc >= 0) {
        if (given && adv_precision_rate(akb, acc, prec) <= 0) {
            const char *other = a->v[ANS_ACCELERATOR].given ? "accelerator" : "hardware";
            snprintf(err, errsz, "keys 'precision' and '%s': no %s matrix rate on %s (%s)%s; use %s", other,
                     precision_names[prec], akb->acc[acc].id, akb->acc[acc].name,
                     r->assumed_accelerator ? ", the device assumed for this hardware" : "",
                     akb->acc[acc].bf16 > 0 ? "bf16" : akb->acc[acc].fp16 > 0 ? "fp16" : "fp32");
            return KB_ERR_INPUT;
        }
        if (!given) prec = adv_best_precision(akb, acc);
    } else if (!given) {
        prec = strcmp(hardware, "cpu") == 0 ? PLAN_FP32 : PLAN_BF16;
    }
    in->precision = prec;
    r->precision = precision_names[prec];
    answers_set_str(a, ANS_PRECISION, r->precision);

    return KB_OK;
}

/* The peak: a probe's measured figure for this hardware when no other device was answered, else
 * the catalog's dense rate at the precision (FP8: the realised share of its gain). Returns
 * whether the figure is measured. */
static int resolve_peak(const struct adv_kb *akb, struct adv_result *r)
{
    struct answers *a = &r->answers;
    struct adv_plan_inputs *in = &r->in;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    int acc = r->accelerator;
    int prec = in->precision;
    double gain = adv_fact_or(akb, a, "fp8_realised_gain", 0.3);
    int measured = r->hw.peak_tflops > 0 && strcmp(r->hw.kind, hardware) == 0 &&
                   (!a->v[ANS_ACCELERATOR].given || strcmp(r->hw.catalog_id, answers_str(a, ANS_ACCELERATOR)) == 0);
    r->peak_measured = measured;
    if (measured) {
        r->peak_tflops = r->hw.peak_tflops;
        in->rate_tflops = r->hw.peak_tflops;
        snprintf(r->peak_source, sizeof r->peak_source, "%s", r->hw.peak_source); /* the probe's words */
        r->peak_source_local[0] = '\0';
    } else if (acc >= 0) {
        r->peak_tflops = adv_precision_rate(akb, acc, prec);
        in->rate_tflops = r->peak_tflops;
        if (prec == PLAN_FP8 && akb->acc[acc].bf16 > 0) {
            double ratio = akb->acc[acc].fp8 / akb->acc[acc].bf16;
            in->rate_tflops = akb->acc[acc].bf16 * (1 + (ratio - 1) * gain);
            adv_assume(r, "FP8: %.4g TFLOP/s dense, planned at %.4g (BF16 x %.2f: %.0f%% of the peak ratio's gain)",
                       r->peak_tflops, in->rate_tflops, in->rate_tflops / akb->acc[acc].bf16, gain * 100);
        }
        /* figures the vendor does not publish say so where the plan uses them */
        const char *fig = akb->acc[acc].figures ? akb->acc[acc].figures : "vendor";
        ADV_NOTEF(r, peak_source, "catalog: %s, dense %s (%s%s)", akb->acc[acc].name,
                 precision_names[prec], akb->acc[acc].source,
                 strcmp(fig, "secondary") == 0 ? N_("; secondary figures, not the vendor's: fwadvisor probe measures it")
                 : strcmp(fig, "derived") == 0 ? N_("; some figures derived, not published by the vendor")
                                                : "");
        if (prec == PLAN_FP32 && akb->acc[acc].tf32 > 0)
            adv_assume(r, "FP32 planned at the %.4g TFLOP/s vector rate; TF32 tensor cores give %.4g "
                          "(torch.backends.cuda.matmul.allow_tf32 = True)",
                       akb->acc[acc].fp32, akb->acc[acc].tf32);
    } else if (strcmp(hardware, "cpu") == 0) {
        double per_cycle = 32, ghz = 2.5;
        int rule = -1;
        adv_fact(akb, a, "cpu_flop_per_cycle_per_core", &per_cycle, &rule);
        adv_fact(akb, a, "cpu_assumed_ghz", &ghz, NULL);
        /* This machine's cores when the plan is for it (hardware auto, or one CPU on one node);
         * for CPU servers elsewhere, the cores of a typical server socket, said as assumed. */
        int this_machine = plan_is_this_machine(r);
        double server_cores = 64;
        int cores_rule = -1;
        adv_fact(akb, a, "cpu_cores_per_device", &server_cores, &cores_rule);
        int threads = this_machine ? (r->hw.cpu_threads > 0 ? r->hw.cpu_threads : 1) : (int)server_cores;
        r->peak_tflops = threads * per_cycle * ghz / 1e3;
        in->rate_tflops = r->peak_tflops;
        ADV_NOTEF(r, peak_source, "estimate: %d %s x %g FP32 FLOP/cycle x %g GHz (%s); run fwadvisor probe%s to measure", threads,
                 this_machine ? N_("cores of this machine") : N_("cores per CPU server (assumed)"), per_cycle, ghz,
                 rule >= 0 ? akb->rules[rule].source : N_("assumed"), this_machine ? "" : N_(" on one of those servers"));
        if (!this_machine)
            adv_assume(r, "Each CPU device is a %d-core server socket (%s): the CPUs of this machine are not the ones planned",
                       threads, cores_rule >= 0 ? akb->rules[cores_rule].source : N_("assumed"));
    } else {
        ADV_NOTEF(r, peak_source, "unknown: no %s device in the catalog", hardware);
    }
    adv_utf8_trim(r->peak_source);

    return measured;
}

/* The planning efficiency, or the MFU a probe measured on this very device. */
static void resolve_efficiency(const struct adv_kb *akb, struct adv_result *r, int measured)
{
    const struct answers *a = &r->answers;
    int rule = -1;
    r->efficiency = 0.4;
    if (adv_fact(akb, a, "compute_efficiency", &r->efficiency, &rule)) {
        r->efficiency_source = akb->rules[rule].source;
        r->efficiency_text = akb->rules[rule].text;
    }
    /* A training step measured on this very device, against the same measured peak: its MFU
     * replaces the catalog's efficiency. */
    if (measured && r->hw.train_mfu > 0) {
        adv_assume(r, "Efficiency %.0f%% measured (%s) instead of the planning figure %.0f%%", r->hw.train_mfu * 100,
                   r->hw.train_mfu_source, r->efficiency * 100);
        r->efficiency = r->hw.train_mfu;
        r->efficiency_source = "probe";
        r->efficiency_measured = 1;
        r->efficiency_text = r->hw.train_mfu_source;
    }
    r->mfu_source = r->efficiency_source;
    r->mfu_text = r->efficiency_text;

}

/* Slices: the devices one ICI domain holds (slice_devices) and the data-centre network between
 * such domains (scale_out_gbs per device and direction), facts by accelerator; devices beyond a
 * slice fill several, and the groups that span them talk over that network. */
static void resolve_slices(const struct adv_kb *akb, struct adv_result *r)
{
    struct adv_plan_inputs *in = &r->in;
    int rule = -1, dcn_rule = -1;
    in->slice_devices = in->scale_out_gbs = 0;
    in->slices = 1;
    if (!adv_fact(akb, &r->answers, "slice_devices", &in->slice_devices, &rule) || in->slice_devices < 1) {
        in->slice_devices = 0;
        return;
    }
    adv_fact(akb, &r->answers, "scale_out_gbs", &in->scale_out_gbs, &dcn_rule);
    double D = answers_num(&r->answers, ANS_DEVICES);
    if (D <= in->slice_devices) return;
    in->slices = ceil(D / in->slice_devices);
    const char *acc = r->accelerator >= 0 ? akb->acc[r->accelerator].id : answers_str(&r->answers, ANS_HARDWARE);
    if (in->scale_out_gbs > 0)
        ADV_NOTEF(r, communication_source, "catalog: ICI %g GB/s within a slice of up to %g chips; across %g slices the data-centre network, "
                 "%g GB/s (%g Gb/s) per chip and direction (%s)",
                 in->network_gbs, in->slice_devices, in->slices, in->scale_out_gbs, in->scale_out_gbs * 8, acc);
    else
        ADV_NOTEF(r, communication_source, "catalog: ICI within a slice of up to %g chips; across %g slices the data-centre network, its "
                 "figure unknown (%s)", in->slice_devices, in->slices, acc);
    adv_assume(r, "%g devices fill %g slices of at most %g (%s [%s]): groups that span slices talk over the data-centre "
                  "network, %g GB/s per chip and direction [%s]; tensor parallelism stays inside a host",
               D, in->slices, in->slice_devices, akb->rules[rule].title, akb->rules[rule].source, in->scale_out_gbs,
               dcn_rule >= 0 ? akb->rules[dcn_rule].source : N_("unknown"));
}

/* Links: a probe's measured bus bandwidth for this hardware, else the catalog's, and past a
 * slice the data-centre network's. */
static void resolve_links(const struct adv_kb *akb, struct adv_result *r)
{
    struct adv_plan_inputs *in = &r->in;
    const char *hardware = answers_str(&r->answers, ANS_HARDWARE);
    int acc = r->accelerator;
    if (acc >= 0) {
        in->link_gbs = akb->acc[acc].link_gbs;
        in->network_gbs = akb->acc[acc].network_gbs;
        if (in->link_gbs > 0)
            ADV_NOTEF(r, communication_source,
                      "catalog: %s, %g GB/s in a node, %g GB/s between nodes per device and direction (%s)",
                      akb->acc[acc].interconnect, in->link_gbs, in->network_gbs, akb->acc[acc].id);
        else
            ADV_NOTEF(r, communication_source,
                      "catalog: %s, no link in a node (one device a node), %g GB/s between nodes per device and "
                      "direction (%s)",
                      akb->acc[acc].interconnect, in->network_gbs, akb->acc[acc].id);
    }
    resolve_slices(akb, r);
    if (r->hw.bus_bandwidth_gbs > 0 && strcmp(r->hw.kind, hardware) == 0) {
        in->measured_gbs = r->hw.bus_bandwidth_gbs;
        r->communication_measured = 1;
        in->measured_inter_node = r->hw.bus_inter_node;
        ADV_NOTEF(r, communication_source, "measured: %.1f GB/s all-reduce bus bandwidth over %d ranks%s (%s) for data-parallel traffic",
                 r->hw.bus_bandwidth_gbs, r->hw.bus_ranks, r->hw.bus_inter_node ? N_(" across nodes") : "", r->hw.bus_source);
    }
    adv_utf8_trim(r->communication_source);

}

/* QLoRA's back-end on this hardware, from the knowledge base's qlora_backend rows: without one
 * the plan is LoRA on a 16-bit base, said in a warning with the route that works; with slow
 * fallback kernels only, the plan stays and the warning names the faster route. */
static void resolve_method(const struct adv_kb *akb, struct adv_result *r)
{
    struct adv_plan_inputs *in = &r->in;
    r->method_support = -1;
    if (in->finetune != ADV_QLORA) return;
    int rule = -1;
    double level = 1;
    if (!adv_fact(akb, &r->answers, "qlora_backend", &level, &rule)) return;
    r->method_support = level;
    r->method_note = akb->rules[rule].text;
    r->method_source = akb->rules[rule].source;
    r->method_also = akb->rules[rule].also;
    const char *hardware = answers_str(&r->answers, ANS_HARDWARE);
    if (level <= 0) {
        in->finetune = ADV_LORA;
        r->method_replanned = 1;
        adv_warn(r, "QLoRA has no 4-bit back-end on %s: planned as LoRA on a 16-bit base [%s]", hardware, r->method_source);
    } else if (level < 1) {
        adv_warn(r, "QLoRA on %s runs on slow fallback kernels only [%s]", hardware, r->method_source);
    }
}

/* Fine-tuning, recomputation, attention kernels and the facts the layout search needs. */
static void resolve_training_facts(const struct adv_kb *akb, struct adv_result *r)
{
    struct answers *a = &r->answers;
    struct adv_plan_inputs *in = &r->in;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    const char *ft = answers_str(a, ANS_FINETUNE);
    in->finetune = strcmp(ft, "lora") == 0 ? ADV_LORA : strcmp(ft, "qlora") == 0 ? ADV_QLORA : ADV_FULL;
    resolve_method(akb, r);
    in->vocab = answers_has(a, ANS_VOCAB) ? answers_num(a, ANS_VOCAB) : adv_fact_or(akb, a, "vocab", 0);
    if (r->hidden > 0) model_answers_shape(a, in->top_k, &in->shape);
    if (in->finetune != ADV_FULL) {
        double h = r->hidden, l = r->layers, heads;
        if (h <= 0) plan_llm_shape(in->params, 128, 128, &h, &l, &heads);
        enum shape_lora_targets targets = (enum shape_lora_targets)answers_choice(a, ANS_LORA_TARGETS);
        static const char *const on[] = {N_("every linear layer"), N_("the attention's Q, K, V and O"),
                                         N_("the attention's Q and V")};
        in->adapters = h == r->hidden ? shape_lora_params(&in->shape, answers_num(a, ANS_LORA_RANK), targets)
                                      : plan_lora_params(l, h, answers_num(a, ANS_LORA_RANK));
        if (in->finetune == ADV_LORA)
            adv_assume(r, "LoRA rank %g on %s: %.3g trainable parameters", answers_num(a, ANS_LORA_RANK),
                       h == r->hidden ? on[targets] : on[0], in->adapters);
        else
            adv_assume(r, "QLoRA rank %g on %s: %.3g trainable parameters", answers_num(a, ANS_LORA_RANK),
                       h == r->hidden ? on[targets] : on[0], in->adapters);
    }
    const char *rc = answers_str(a, ANS_RECOMPUTE);
    in->recompute = strcmp(rc, "none") == 0        ? ADV_RECOMPUTE_NONE
                    : strcmp(rc, "selective") == 0 ? ADV_RECOMPUTE_SELECTIVE
                    : strcmp(rc, "full") == 0      ? ADV_RECOMPUTE_FULL
                                                   : ADV_RECOMPUTE_AUTO;
    in->flash = adv_fact_or(akb, a, "fused_attention", 1) != 0;
    if (r->hidden > 0 && in->flash)
        adv_assume(r, "Attention with FlashAttention-style kernels (PyTorch SDPA, Megatron, JAX): no s x s scores stored");
    else if (r->hidden > 0)
        adv_assume(r, "Attention without a fused backward on this hardware: the s x s scores are stored (Korthikanti et al.)");
    in->working_set = adv_fact_or(akb, a, "gpu_working_set", 1);
    in->headroom = adv_fact_or(akb, a, "memory_headroom", 0.10);
    in->overhead_gb = adv_fact_or(akb, a, "framework_overhead_gb", 1.0);
    in->fragmentation = adv_fact_or(akb, a, "allocator_fragmentation", 0.05);
    in->host_memory_gb = answers_has(a, ANS_HOST_MEMORY_GB) ? answers_num(a, ANS_HOST_MEMORY_GB)
                         : r->hw.host_memory_gb > 0 && answers_num(a, ANS_NODES) == 1 && strcmp(r->hw.kind, hardware) == 0
                             ? r->hw.host_memory_gb
                             : 0;
    in->adapter_bytes = adv_fact_or(akb, a, "adapter_bytes_per_param", 16);
    in->paged_optimizer = adv_fact_or(akb, a, "paged_optimizer", 0) != 0;
    in->nf4_bits = adv_fact_or(akb, a, "nf4_bits_per_param", 4.127);
    in->ds_bucket_elements = adv_fact_or(akb, a, "ds_bucket_elements", 5e8);
    in->batch_tokens = adv_fact_or(akb, a, "global_batch_tokens", 4e6);
    /* A fine-tune steps on tens of sequences, not on a pre-training batch of millions of tokens. */
    if (r->job == ADV_JOB_FINETUNE && r->seq_len > 0) {
        r->batch_sequences = adv_fact_or(akb, a, "finetune_batch_sequences", 16);
        in->batch_tokens = r->batch_sequences * r->seq_len;
    }
    in->lost_at_16k = adv_fact_or(akb, a, "lost_time_at_16k_devices", 0);
    if (in->working_set < 1)
        adv_assume(r, "GPU working set capped at %.0f%% of unified memory by macOS (raise it with `sudo sysctl "
                      "iogpu.wired_limit_mb=N`)",
                   in->working_set * 100);
}

/* What expert parallelism splits and moves: the routed experts' parameters (from a mixture-of-
 * experts shape that holds model_params, else every parameter beyond the active ones), the layers
 * that hold them (all of them without such a shape) and how much of the all-to-all the stack overlaps with compute. */
static void resolve_moe_traffic(const struct adv_kb *akb, struct adv_result *r)
{
    struct adv_plan_inputs *in = &r->in;
    in->expert_params = in->moe_layers = in->a2a_overlap = 0;
    if (in->experts <= 1) return;
    /* The shape speaks for the experts when it accounts for model_params (a known model, a
     * config file); a shape derived around answered counts does not. */
    int shaped = in->shape.hidden > 0 && shape_moe_layers(&in->shape) > 0 &&
                 fabs(shape_total_params(&in->shape) - in->params) <= 0.01 * in->params;
    in->expert_params = shaped ? shape_routed_expert_params(&in->shape) : in->params - in->active;
    if (in->expert_params > in->params) in->expert_params = in->params;
    if (in->expert_params < 0) in->expert_params = 0;
    in->moe_layers = shaped ? shape_moe_layers(&in->shape) : r->layers;
    in->a2a_overlap = adv_fact_or(akb, &r->answers, "moe_a2a_overlap", 0);
}

/* Precision, peak, efficiency, links, LoRA and MoE inputs and the facts the layout search needs,
 * into r->in. Fails when the precision is one the device lacks (answers_check_combination has
 * compared active_params with model_params). */
static int resolve_inputs(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz)
{
    resolve_moe(akb, r);
    int status = resolve_precision(akb, r, err, errsz);
    if (status != KB_OK) return status;
    int measured = resolve_peak(akb, r);
    resolve_efficiency(akb, r, measured);
    resolve_links(akb, r);
    resolve_training_facts(akb, r);
    resolve_moe_traffic(akb, r);
    return KB_OK;
}

/* --- the time plan's totals ------------------------------------------------------------------ */

static void plan_time(const struct adv_kb *akb, struct adv_result *r)
{
    const struct answers *a = &r->answers;
    double D = answers_num(a, ANS_DEVICES);
    r->scaling = 1;
    double seed_ddp = 0;
    int seed_rule = -1;
    if (adv_fact(akb, a, "scaling_efficiency_pytorch_ddp", &seed_ddp, &seed_rule)) {
        r->scaling_seed = akb->rules[seed_rule].text;
        r->scaling_seed_source = akb->rules[seed_rule].source;
        double tf = 0, jax = 0, n = 0;
        adv_fact(akb, a, "scaling_efficiency_tf_mirrored", &tf, NULL);
        adv_fact(akb, a, "scaling_efficiency_jax_pmap", &jax, NULL);
        adv_fact(akb, a, "scaling_devices", &n, NULL);
        snprintf(r->scaling_seed_short, sizeof r->scaling_seed_short,
                 "%s: DDP %.0f%%, MirroredStrategy %.0f%%, pmap %.0f%% on %.0f GPUs", r->scaling_seed_source,
                 seed_ddp * 100, tf * 100, jax * 100, n);
    }
    double hours = adv_plan_time(akb, r, &r->memory, &r->time);
    r->total_flops = r->time.model_flops;
    /* A model with a shape has its communication computed from the links (or a measured bus
     * bandwidth); without one, a probe's measured data-parallel efficiency stands in for it. */
    int apply = !r->time.communication_known && D > 1 && r->hw.dp_efficiency > 0 && hours > 0;
    if (apply) {
        /* Each rank of train-dp trains the baseline's rows, so it cannot beat one process: a
         * figure above 100% is timing noise and counts as 100% (no communication time), never as
         * a speed-up that would shorten the plan. */
        int above = r->hw.dp_efficiency > 1;
        r->scaling = above ? 1 : r->hw.dp_efficiency;
        double extra = (hours - r->time.lost_hours) * (1 / r->scaling - 1);
        r->time.dp_hours = r->time.communication_hours = extra;
        r->time.communication_known = 1;
        hours += extra;
        r->scaling_measured = 1;
        ADV_NOTEF(r, scaling_source, "measured: %.0f%% (%s)%s, applied as communication time",
                 r->hw.dp_efficiency * 100, r->hw.dp_source,
                 above ? N_("; above 100%, which data parallelism cannot gain, so counted as 100%") : "");
    } else if (r->hw.dp_efficiency > 0) {
        ADV_NOTEF(r, scaling_source, "measured %.0f%% (%s), not applied: %s", r->hw.dp_efficiency * 100,
                 r->hw.dp_source, D > 1 ? N_("communication computed from the links") : N_("one device"));
    } else {
        ADV_NOTEF(r, scaling_source, "communication from the links; `mpirun -np N fwadvisor probe` measures this machine");
    }
    adv_utf8_trim(r->scaling_source);
    if (hours <= 0) return;
    r->hours = hours;
    r->has_hours = 1;
    r->device_hours = hours * D;
    r->mfu = r->peak_tflops > 0 ? r->time.model_flops / (D * r->peak_tflops * 1e12 * hours * 3600) : 0;
    if (answers_has(a, ANS_PRICE_PER_DEVICE_HOUR)) {
        r->cost = r->device_hours * answers_num(a, ANS_PRICE_PER_DEVICE_HOUR);
        r->has_cost = 1;
    }
    if (hours > 90 * 24) {
        char took[48];
        adv_warn(r, "The run takes %s, more than 90 days: hardware fails and plans change over months; use more devices, "
                    "fewer tokens or a smaller model",
                 units_hours(hours, took, sizeof took));
    }
}

/* Which link each parallel group of the planned layout crosses, after the Links line's figures,
 * and for a plan whose groups span TPU slices the share of the run the data-centre network takes,
 * which bounds its MFU. */
static void links_note(struct adv_result *r)
{
    static const char *const over[] = {"", N_("inside a node"), N_("between nodes"), N_("across slices (data-centre network)")};
    const struct adv_time *t = &r->time;
    const struct adv_layout *lay = &r->memory.layout;
    if (answers_num(&r->answers, ANS_DEVICES) <= 1 || lay->dp <= 0 || t->steps <= 0) return;
    size_t used = strlen(r->communication_source), size = sizeof r->communication_source;
    const struct { const char *name; int size; enum adv_link link; } groups[] = {
        {N_("tensor parallel"), lay->tp, lay->tp > 1 ? ADV_LINK_NODE : ADV_LINK_NONE},
        {N_("data parallel"), lay->dp, t->dp_link}, {N_("pipeline parallel"), lay->pp, t->pp_link},
        {N_("expert parallel"), lay->ep, t->ep_link}};
    int said = 0, slices = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0] && used < size; i++) {
        if (groups[i].link == ADV_LINK_NONE) continue;
        slices |= groups[i].link == ADV_LINK_SLICES;
        ADV_NOTEF_APPEND(r, communication_source, "%s %s (%d) %s", said++ ? N_(",") : N_(";"), groups[i].name,
                         groups[i].size, over[groups[i].link]);
        used = strlen(r->communication_source);
    }
    adv_utf8_trim(r->communication_source);
    if (!slices || !r->has_hours) return;
    if (!t->communication_known) {
        adv_warn(r, "Groups span %g TPU slices and the data-centre network between them has no figure: communication "
                    "is not estimated",
                 r->in.slices);
        return;
    }
    adv_assume(r, "Across %g slices: %.3g h of communication left exposed in the %.3g h run (data parallel %.3g h), MFU "
                  "%.0f%%, bounded by the data-centre network, %g Gb/s a chip",
               r->in.slices, t->communication_hours, r->hours, t->dp_hours, r->mfu * 100, r->in.scale_out_gbs * 8);
}

/* 1 when the pitfall's "concerns" (frameworks, strategies, runtimes) include the choices made,
 * or it names none; "switching": true limits it to a framework the team would have to learn. */
static int concerns_choice(const cJSON *effect, const struct adv_result *r, const char *framework)
{
    const cJSON *concerns = cJSON_GetObjectItemCaseSensitive(effect, "concerns");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(concerns, "switching")) && framework &&
        answers_team_has(&r->answers, framework))
        return 0;
    static const char *const members[] = {"frameworks", "strategies", "runtimes"};
    const char *chosen[] = {framework, r->strategy, r->runtime};
    for (int m = 0; concerns && m < 3; m++) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(concerns, members[m]);
        if (!list) continue;
        int found = 0;
        const cJSON *id;
        cJSON_ArrayForEach(id, list) found |= chosen[m] && cJSON_IsString(id) && strcmp(id->valuestring, chosen[m]) == 0;
        if (!found) return 0;
    }
    return 1;
}

/* Offload under LoRA or QLoRA moves the trainable parameters' states only: the strategy's bytes
 * per parameter count the adapters, not the frozen model. */
static void offload_note(const struct adv_kb *akb, struct adv_result *r)
{
    const struct adv_memory *m = &r->memory;
    int s = m->strategy ? adv_strategy_index(akb, m->strategy) : -1;
    if (r->in.finetune == ADV_FULL || m->cpu_gb <= 0 || s < 0 || akb->strat[s].cpu <= 0) return;
    char trainable[32], whole[32];
    adv_assume(r, "Offload moves only the %s trainable parameters' states to host memory: %g bytes each, %.1f GB per node "
                  "(not %g bytes for each of the model's %s parameters)",
               units_short(r->in.adapters, trainable, sizeof trainable), akb->strat[s].cpu, m->cpu_gb, akb->strat[s].cpu,
               units_short(r->in.params, whole, sizeof whole));
}

/* The serving plan and the pitfalls, the last of every answer. */
static int plan_serving(const struct adv_kb *akb, struct adv_result *out, int fw, const unsigned char *applies, char *err,
                        size_t errsz)
{
    int status = adv_plan_inference(akb, out, err, errsz);
    if (status != KB_OK) return status;
    const char *framework = fw >= 0 ? akb->fw[fw].id : NULL;
    for (int i = 0; i < akb->nrules && out->npitfalls < ADV_MAX_PITFALLS; i++) {
        if (strcmp(akb->rules[i].kind, "pitfall") != 0 || !applies[i]) continue;
        if (!concerns_choice(akb->rules[i].effect, out, framework)) continue;
        out->pitfalls[out->npitfalls].id = akb->rules[i].id;
        out->pitfalls[out->npitfalls].text = akb->rules[i].text;
        out->pitfalls[out->npitfalls].also = akb->rules[i].also;
        out->pitfalls[out->npitfalls++].source = akb->rules[i].source;
    }
    return KB_OK;
}

enum adv_job adv_job_of(const struct answers *a)
{
    int choice = answers_choice(a, ANS_JOB);
    return choice == ADV_JOB_FINETUNE ? ADV_JOB_FINETUNE : choice == ADV_JOB_SERVE ? ADV_JOB_SERVE : ADV_JOB_PRETRAIN;
}
_Static_assert(ADV_JOB_SERVE == 2, "enum adv_job follows the job key's choices: pretrain, finetune, serve");

int adv_recommend(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                  struct adv_result *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->kb = akb;
    out->answers = *answers;
    out->job_derived = !answers->v[ANS_JOB].present;
    if (model_answers_apply_known(&out->answers, err, errsz)) return KB_ERR_INPUT;
    model_answers_shape_params(&out->answers);
    answers_fill_defaults(&out->answers);
    out->job = adv_job_of(&out->answers);
    int status = adv_check_answer_ids(akb, &out->answers, err, errsz);
    if (status != KB_OK) return status;
    status = resolve_hardware(akb, hw, out, err, errsz);
    if (status != KB_OK) return status;
    if (answers_settle_os(&out->answers)) {
        size_t used = strlen(out->hardware_note);
        snprintf(out->hardware_note + used, sizeof out->hardware_note - used, "; os: %s, the system %s runs on",
                 answers_str(&out->answers, ANS_OS), answers_str(&out->answers, ANS_HARDWARE));
    }
    if (answers_check_combination(&out->answers, err, errsz) || model_answers_check(&out->answers, err, errsz))
        return KB_ERR_INPUT;
    if ((status = adv_check_topology(akb, out, err, errsz)) != KB_OK) return status;
    adv_resolve_deploy_hardware(out);
    resolve_shape(akb, out);
    if ((status = resolve_inputs(akb, out, err, errsz)) != KB_OK) return status;
    adv_rank_measured(akb, &out->answers, hw ? &hw->fw_speeds : NULL, &out->ranking);
    int fw = out->ranking.count > 0 && !out->ranking.items[0].excluded ? adv_fw_index(akb, out->ranking.items[0].id) : -1;
    if ((status = adv_check_fp8_stack(akb, out, fw, err, errsz)) != KB_OK) return status;
    const unsigned char *applies = adv_applicable(akb, &out->answers);
    adv_choose_strategy(akb, out, fw, applies);
    adv_choose_runtime(akb, out, fw, applies);
    adv_check_deploy_size(akb, out);
    if (out->job == ADV_JOB_SERVE) { /* serving only: no training memory, time or offload to speak of */
        memset(&out->memory, 0, sizeof out->memory);
        return plan_serving(akb, out, fw, applies, err, errsz);
    }
    const struct adv_memory *m = &out->memory;
    if (m->layout.batch_tokens > out->in.batch_tokens * 1.001) {
        if (m->layout.pp > 1)
            adv_assume(out, "Global batch %.3g tokens (the usual %.3g raised so that each of the %d data-parallel ranks x "
                            "pipeline stages has a micro-batch)",
                       m->layout.batch_tokens, out->in.batch_tokens, m->layout.dp);
        else
            adv_assume(out, "Global batch %.3g tokens (the usual %.3g raised so that each of the %d data-parallel ranks has "
                            "a micro-batch)",
                       m->layout.batch_tokens, out->in.batch_tokens, m->layout.dp);
    }
    offload_note(akb, out);
    if (m->cpu_gb > 0 && m->host_fits < 0)
        adv_warn(out, "Offload needs %.0f GB of host memory per node; host memory unknown: set host_memory_gb", m->cpu_gb);
    else if (m->cpu_gb > 0 && !m->host_fits)
        adv_warn(out, "Offload needs %.0f GB of host memory per node, more than %.0f GB less %.0f%% headroom", m->cpu_gb,
                 m->host_memory_gb, out->in.headroom * 100);
    plan_time(akb, out);
    links_note(out);
    if (out->job == ADV_JOB_FINETUNE && out->has_hours && m->layout.batch_tokens > 0)
        out->optimizer_steps = ceil(answers_num(&out->answers, ANS_TOKENS) / m->layout.batch_tokens);
    return plan_serving(akb, out, fw, applies, err, errsz);
}

int adv_measured_used(const struct adv_result *r, const char *name)
{
    if (strcmp(name, "gemm_peak") == 0) return r->peak_measured;
    if (strcmp(name, "training_mfu") == 0) return r->efficiency_measured;
    if (strcmp(name, "allreduce_busbw") == 0) return r->communication_measured;
    if (strcmp(name, "data_parallel_efficiency") == 0) return r->scaling_measured;
    if (strcmp(name, "memory_bandwidth") == 0) return r->inference.bandwidth_measured;
    return 0;
}
