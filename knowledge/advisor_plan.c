/* adv_recommend: hardware resolution, the memory and time plan, pitfalls; the choice of strategy
 * and runtime is advisor_choose.c's. */
#include "knowledge/advisor_kb.h"
#include "knowledge/planner.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9

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

/* The catalog device a driver-reported name means: the longest `match` found in it. */
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
        if (strstr(lower, akb->acc[a].match) && len > best_len) {
            best = a;
            best_len = len;
        }
    }
    return best;
}

static int default_accelerator(const struct adv_kb *akb, const char *vendor)
{
    for (int a = 0; a < akb->nacc; a++)
        if (akb->acc[a].planner_default && strcmp(akb->acc[a].vendor, vendor) == 0) return a;
    return -1;
}

/* Settles `hardware` and `device_memory_gb`; returns the catalog device assumed, or -1. */
static int resolve_hardware(const struct adv_kb *akb, const struct adv_hw *hw, struct adv_result *r)
{
    struct answers *a = &r->answers;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    int detected = hw && hw->kind[0];
    if (detected) r->hw = *hw;
    if (strcmp(hardware, "auto") == 0) {
        if (detected && ans_key_allows(&ans_keys[ANS_HARDWARE], hw->kind)) {
            answers_set_str(a, ANS_HARDWARE, hw->kind);
            snprintf(r->hardware_source, sizeof r->hardware_source, "%s", hw->source[0] ? hw->source : "detected");
            snprintf(r->hardware_note, sizeof r->hardware_note, "hardware: auto -> %s (%s)", hw->kind,
                     hw->evidence[0] ? hw->evidence : r->hardware_source);
        } else {
            answers_set_str(a, ANS_HARDWARE, "cpu");
            snprintf(r->hardware_source, sizeof r->hardware_source, "detected");
            snprintf(r->hardware_note, sizeof r->hardware_note, "hardware: auto -> cpu (nothing detected)");
        }
    } else {
        snprintf(r->hardware_source, sizeof r->hardware_source, "answers");
        snprintf(r->hardware_note, sizeof r->hardware_note, "hardware: %s, as answered", hardware);
    }
    hardware = answers_str(a, ANS_HARDWARE);
    int same_kind = detected && strcmp(hw->kind, hardware) == 0;
    if (same_kind && hw->count > 1 && !a->v[ANS_DEVICES].given) {
        size_t used = strlen(r->hardware_note);
        snprintf(r->hardware_note + used, sizeof r->hardware_note - used,
                 "; %d found, planning for devices=%g (set devices to change)", hw->count, answers_num(a, ANS_DEVICES));
    }
    int acc = -1;
    if (strcmp(hardware, "cpu") != 0) {
        if (same_kind) acc = match_accelerator(akb, hardware, hw->name);
        if (acc < 0) acc = default_accelerator(akb, hardware);
    }
    if (a->v[ANS_DEVICE_MEMORY_GB].given) {
        snprintf(r->device_memory_source, sizeof r->device_memory_source, "answers");
    } else if (same_kind && hw->memory_gb > 0) {
        answers_set_num(a, ANS_DEVICE_MEMORY_GB, hw->memory_gb);
        snprintf(r->device_memory_source, sizeof r->device_memory_source, "%s", r->hardware_source);
    } else if (strcmp(hardware, "cpu") == 0) {
        double mem = detected && hw->host_memory_gb > 0 ? hw->host_memory_gb : 0;
        if (mem > 0) {
            answers_set_num(a, ANS_DEVICE_MEMORY_GB, mem);
            snprintf(r->device_memory_source, sizeof r->device_memory_source, "host memory of this machine");
        } else {
            snprintf(r->device_memory_source, sizeof r->device_memory_source, "unknown (set device_memory_gb)");
        }
    } else if (acc >= 0) {
        answers_set_num(a, ANS_DEVICE_MEMORY_GB, akb->acc[acc].memory_gb);
        snprintf(r->device_memory_source, sizeof r->device_memory_source, "catalog: %s%s", akb->acc[acc].name,
                 same_kind && hw->name[0] ? "" : " (assumed; set device_memory_gb)");
    } else {
        snprintf(r->device_memory_source, sizeof r->device_memory_source, "unknown (set device_memory_gb)");
    }
    return acc;
}

/* seq_len, hidden, layers, heads for activation memory (LLMs only). */
static void resolve_shape(const struct adv_kb *akb, struct adv_result *r)
{
    struct answers *a = &r->answers;
    r->micro_batch = 1;
    if (strcmp(answers_str(a, ANS_MODEL_KIND), "llm") != 0) {
        snprintf(r->shape_note, sizeof r->shape_note,
                 "activations not estimated for model_kind %s (they depend on the architecture); keep headroom",
                 answers_str(a, ANS_MODEL_KIND));
        return;
    }
    double per_layer = 128, head_dim = 128, seq = 2048, mb = 1;
    adv_fact(akb, a, "hidden_per_layer", &per_layer, NULL);
    adv_fact(akb, a, "head_dim", &head_dim, NULL);
    adv_fact(akb, a, "default_seq_len", &seq, NULL);
    adv_fact(akb, a, "micro_batch", &mb, NULL);
    double h, l, heads;
    plan_llm_shape(answers_num(a, ANS_MODEL_PARAMS), per_layer, head_dim, &h, &l, &heads);
    int derived = 0;
    if (!answers_has(a, ANS_HIDDEN)) answers_set_num(a, ANS_HIDDEN, h), derived = 1;
    if (!answers_has(a, ANS_LAYERS)) answers_set_num(a, ANS_LAYERS, l), derived = 1;
    if (!answers_has(a, ANS_HEADS)) answers_set_num(a, ANS_HEADS, heads), derived = 1;
    int seq_default = !answers_has(a, ANS_SEQ_LEN);
    if (seq_default) answers_set_num(a, ANS_SEQ_LEN, seq);
    r->seq_len = answers_num(a, ANS_SEQ_LEN);
    r->hidden = answers_num(a, ANS_HIDDEN);
    r->layers = answers_num(a, ANS_LAYERS);
    r->heads = answers_num(a, ANS_HEADS);
    r->micro_batch = mb;
    snprintf(r->shape_note, sizeof r->shape_note,
             "%s: hidden %g, layers %g, heads %g, seq_len %g%s, micro-batch %g; 16-bit activations (Korthikanti et al.)",
             derived ? "shape derived from model_params like GPT-3" : "shape as answered", r->hidden, r->layers,
             r->heads, r->seq_len, seq_default ? " (default)" : "", mb);
}

/* Memory per device for strategy s. */
void adv_strategy_memory(const struct adv_kb *akb, const struct adv_result *r, int s, struct adv_memory *m)
{
    const struct answers *a = &r->answers;
    double P = answers_num(a, ANS_MODEL_PARAMS), D = answers_num(a, ANS_DEVICES), nodes = answers_num(a, ANS_NODES);
    memset(m, 0, sizeof *m);
    m->strategy = akb->strat[s].id;
    double states = plan_model_states_bytes(akb->strat[s].replicated, akb->strat[s].sharded, P, D);
    double largest_layer = r->hidden > 0 ? 4 * r->hidden * r->hidden : 0; /* an MLP projection */
    if (akb->strat[s].cpu > 0) {
        states += 4 * largest_layer; /* DeepSpeed keeps 4 x the largest layer on the GPU */
        m->cpu_gb = akb->strat[s].cpu * P / (nodes > 0 ? nodes : 1) / GB;
    }
    double device_gb = answers_has(a, ANS_DEVICE_MEMORY_GB) ? answers_num(a, ANS_DEVICE_MEMORY_GB) : 0;
    double acts = 0;
    m->activation_mode = "not estimated";
    if (r->hidden > 0) {
        /* Tensor-parallel strategies (Megatron, FSDP2 + TP) split each layer over the ranks
         * within a node (at most 8). */
        double tp = 1;
        if (akb->strat[s].tensor_parallel) {
            double per_node = D / (nodes > 0 ? nodes : 1);
            tp = per_node >= 8 ? 8 : (per_node >= 1 ? per_node : 1);
            acts = r->layers * plan_activation_layer_tp_sp_selective_bytes(r->seq_len, r->micro_batch, r->hidden, tp);
            m->activation_mode = "tensor + sequence parallel (t = devices per node, up to 8), selective recomputation";
        } else {
            acts = r->layers * plan_activation_layer_bytes(r->seq_len, r->micro_batch, r->hidden, r->heads);
            m->activation_mode = "all layers stored, no recomputation";
        }
        /* When that does not fit, recompute every layer in the backward pass (activation
         * checkpointing): only each layer's input stays, for about a third more compute. */
        if (device_gb > 0 && (states + acts) / GB > device_gb) {
            acts = r->layers * plan_activation_layer_full_recompute_bytes(r->seq_len, r->micro_batch, r->hidden, tp);
            m->activation_mode = "full recomputation (activation checkpointing), about a third more compute";
        }
    }
    m->model_states_gb = states / GB;
    m->activations_gb = acts / GB;
    m->total_gb = m->model_states_gb + m->activations_gb;
    m->device_memory_gb = device_gb;
    m->fits = m->device_memory_gb > 0 && m->total_gb <= m->device_memory_gb;
}

static void plan_time(const struct adv_kb *akb, struct adv_result *r, int acc)
{
    const struct answers *a = &r->answers;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    double P = answers_num(a, ANS_MODEL_PARAMS), D = answers_num(a, ANS_DEVICES);
    if (r->hw.peak_tflops > 0 && strcmp(r->hw.kind, hardware) == 0) {
        r->peak_tflops = r->hw.peak_tflops;
        snprintf(r->peak_source, sizeof r->peak_source, "%s", r->hw.peak_source);
    } else if (acc >= 0) {
        const char *which = akb->acc[acc].bf16 > 0 ? "BF16" : akb->acc[acc].fp16 > 0 ? "FP16" : "FP32";
        r->peak_tflops = akb->acc[acc].bf16 > 0 ? akb->acc[acc].bf16 : akb->acc[acc].fp16 > 0 ? akb->acc[acc].fp16 : akb->acc[acc].fp32;
        snprintf(r->peak_source, sizeof r->peak_source, "catalog: %s, dense %s (%s)", akb->acc[acc].name, which,
                 akb->acc[acc].source);
    } else if (strcmp(hardware, "cpu") == 0) {
        double per_cycle = 32, ghz = 2.5;
        int rule = -1;
        adv_fact(akb, a, "cpu_flop_per_cycle_per_core", &per_cycle, &rule);
        adv_fact(akb, a, "cpu_assumed_ghz", &ghz, NULL);
        int threads = r->hw.cpu_threads > 0 ? r->hw.cpu_threads : 1;
        r->peak_tflops = threads * per_cycle * ghz / 1e3;
        snprintf(r->peak_source, sizeof r->peak_source,
                 "estimate: %d CPU threads x %g FP32 FLOP/cycle x %g GHz (%s); run fwadvisor probe to measure", threads,
                 per_cycle, ghz, rule >= 0 ? akb->rules[rule].source : "assumed");
    } else {
        snprintf(r->peak_source, sizeof r->peak_source, "unknown: no %s device in the catalog", hardware);
    }
    int rule = -1;
    r->mfu = 0.4;
    if (adv_fact(akb, a, "planning_mfu", &r->mfu, &rule)) {
        r->mfu_source = akb->rules[rule].source;
        r->mfu_text = akb->rules[rule].text;
    }
    /* Scaling across devices: a measured efficiency when a probe over MPI ranks exists, beside
     * the seed article's anecdote (DDP, MirroredStrategy, pmap on eight A100s). */
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
    if (r->hw.dp_efficiency > 0 && D > 1) {
        r->scaling = r->hw.dp_efficiency;
        snprintf(r->scaling_source, sizeof r->scaling_source, "measured: %.0f%% (%s)", r->hw.dp_efficiency * 100,
                 r->hw.dp_source);
    } else if (r->hw.dp_efficiency > 0) {
        snprintf(r->scaling_source, sizeof r->scaling_source, "measured %.0f%% (%s), not applied to one device",
                 r->hw.dp_efficiency * 100, r->hw.dp_source);
    } else {
        snprintf(r->scaling_source, sizeof r->scaling_source,
                 "not measured: run `mpirun -np N fwadvisor probe` to measure data-parallel scaling");
    }
    if (!answers_has(a, ANS_TOKENS)) return;
    r->total_flops = plan_training_flops(P, answers_num(a, ANS_TOKENS));
    if (r->peak_tflops <= 0 || r->mfu <= 0) return;
    r->hours = plan_hours(r->total_flops, D, r->peak_tflops, r->mfu * r->scaling);
    r->has_hours = 1;
    if (answers_has(a, ANS_PRICE_PER_DEVICE_HOUR)) {
        r->cost = r->hours * D * answers_num(a, ANS_PRICE_PER_DEVICE_HOUR);
        r->has_cost = 1;
    }
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

int adv_recommend(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                  struct adv_result *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->answers = *answers;
    answers_fill_defaults(&out->answers);
    int acc = resolve_hardware(akb, hw, out);
    if (answers_settle_os(&out->answers)) {
        size_t used = strlen(out->hardware_note);
        snprintf(out->hardware_note + used, sizeof out->hardware_note - used, "; os: %s, the system %s runs on",
                 answers_str(&out->answers, ANS_OS), answers_str(&out->answers, ANS_HARDWARE));
    }
    if (answers_check_combination(&out->answers, err, errsz)) return KB_ERR_INPUT;
    adv_resolve_deploy_hardware(out);
    resolve_shape(akb, out);
    adv_rank(akb, &out->answers, &out->ranking);
    int fw = out->ranking.count > 0 && !out->ranking.items[0].excluded ? adv_fw_index(akb, out->ranking.items[0].id) : -1;
    unsigned char applies[ADV_MAX_RULES];
    adv_applicable(akb, &out->answers, applies);
    adv_choose_strategy(akb, out, fw, applies);
    adv_choose_runtime(akb, out, fw, applies);
    plan_time(akb, out, acc);
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
