/* The fwadvisor.report/1 document (docs/report.md, docs/report.schema.json). */
#include "knowledge/advisor_kb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double round3(double x) { return round(x * 1000) / 1000; }

/* "sources": the source and its further sources, as an array of ids. */
static void add_sources(cJSON *o, const char *source, const char *also)
{
    char cite[512];
    adv_cite(source, also, cite, sizeof cite);
    cJSON *arr = cJSON_AddArrayToObject(o, "sources");
    for (char *save = NULL, *t = strtok_r(cite, ", ", &save); arr && t; t = strtok_r(NULL, ", ", &save))
        cJSON_AddItemToArray(arr, cJSON_CreateString(t));
}

/* The document's words come in English, or with `local` (the loaded knowledge base) in the
 * reader's language for the page made from it (adv_report_json_local). */
static const char *words(const struct adv_kb *local, const char *en) { return local ? adv_kb_local(local, en) : en; }

static cJSON *reasons_json(const struct adv_kb *local, const struct adv_reason *reasons, int n)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; arr && i < n; i++) {
        char text[1024];
        if (local) adv_reason_local(local, &reasons[i], text, sizeof text);
        else adv_reason_text(&reasons[i], text, sizeof text);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "text", text);
        cJSON_AddNumberToObject(o, "delta", reasons[i].delta_tenths / 10.0);
        if (reasons[i].source) cJSON_AddStringToObject(o, "source", reasons[i].source);
        else cJSON_AddNullToObject(o, "source");
        add_sources(o, reasons[i].source, reasons[i].also);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *notes_json(const char (*notes)[240], const char (*local)[240], int n)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; arr && i < n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(local ? adv_note_local(notes[i], local[i]) : notes[i]));
    return arr;
}

static void add_number_or_null(cJSON *o, const char *key, int has, double v)
{
    if (has) cJSON_AddNumberToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

/* Every source the document cites, in the order first cited: the members of each "sources"
 * array, and each "source" or "*_source" member that names a source (others are descriptions,
 * such as peak_source). Walking the finished document picks up whatever cites a source. */
static void cited(const struct adv_kb *akb, const cJSON *node, unsigned char *seen, cJSON *out)
{
    const cJSON *child;
    cJSON_ArrayForEach(child, node) {
        const char *key = child->string;
        size_t klen = key ? strlen(key) : 0;
        int citing = key && (strcmp(key, "source") == 0 || (klen > 7 && strcmp(key + klen - 7, "_source") == 0));
        if (cJSON_IsString(child) && (citing || (node->string && strcmp(node->string, "sources") == 0))) {
            int i = adv_source_index(akb, child->valuestring);
            if (i < 0 || seen[i]) continue;
            seen[i] = 1;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "id", akb->sources[i].id);
            cJSON_AddStringToObject(o, "title", akb->sources[i].title);
            cJSON_AddStringToObject(o, "url", akb->sources[i].url);
            cJSON_AddStringToObject(o, "published", akb->sources[i].published);
            cJSON_AddItemToArray(out, o);
        } else if (cJSON_IsObject(child) || cJSON_IsArray(child)) {
            cited(akb, child, seen, out);
        }
    }
}

/* plan.inference: null without an inference plan; figures that cannot be known are null. */
static cJSON *inference_json(const struct adv_kb *akb, const struct adv_inference *inf, const struct adv_kb *local)
{
    if (!inf->planned) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *dev = cJSON_AddObjectToObject(o, "device");
    cJSON_AddStringToObject(dev, "hardware", inf->hardware);
    if (inf->accelerator >= 0) cJSON_AddStringToObject(dev, "accelerator", akb->acc[inf->accelerator].id);
    else cJSON_AddNullToObject(dev, "accelerator");
    cJSON_AddBoolToObject(dev, "assumed", inf->assumed);
    add_number_or_null(dev, "memory_gb", inf->memory_gb > 0, round3(inf->memory_gb));
    add_number_or_null(dev, "usable_gb", inf->usable_gb > 0, round3(inf->usable_gb));
    cJSON_AddStringToObject(o, "precision", inf->precision);
    cJSON_AddStringToObject(o, "kv_precision", inf->kv_precision);
    cJSON_AddNumberToObject(o, "context", inf->context);
    cJSON_AddNumberToObject(o, "batch", inf->batch);
    cJSON_AddNumberToObject(o, "kv_heads", inf->kv_heads);
    cJSON_AddNumberToObject(o, "head_dim", round3(inf->head_dim));
    add_number_or_null(o, "position_limit", inf->position_limit > 0, inf->position_limit);
    cJSON_AddNumberToObject(o, "weights_gb", round3(inf->weights_gb));
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", round3(inf->kv_bytes_per_token));
    cJSON_AddNumberToObject(o, "kv_cache_gb", round3(inf->kv_cache_gb));
    cJSON *lay = cJSON_AddObjectToObject(o, "layout");
    cJSON_AddNumberToObject(lay, "tensor_parallel", inf->tensor_parallel);
    cJSON_AddNumberToObject(lay, "pipeline_parallel", inf->pipeline_parallel);
    cJSON_AddNumberToObject(lay, "devices", inf->tensor_parallel * inf->pipeline_parallel);
    cJSON *mem = cJSON_AddObjectToObject(o, "per_device");
    cJSON_AddNumberToObject(mem, "weights_gb", round3(inf->weights_gb_per_device));
    cJSON_AddNumberToObject(mem, "kv_cache_gb", round3(inf->kv_gb_per_device));
    cJSON_AddNumberToObject(mem, "overhead_gb", round3(inf->overhead_gb));
    cJSON_AddNumberToObject(mem, "total_gb", round3(inf->total_gb_per_device));
    if (inf->fits >= 0) cJSON_AddBoolToObject(o, "fits", inf->fits);
    else cJSON_AddNullToObject(o, "fits");
    add_number_or_null(o, "max_batch", inf->max_batch >= 0, inf->max_batch);
    add_number_or_null(o, "max_batch_one_device", inf->max_batch_one_device >= 0, inf->max_batch_one_device);
    add_number_or_null(o, "max_context", inf->max_context >= 0, inf->max_context);
    cJSON_AddBoolToObject(o, "max_context_capped", inf->max_context_capped);
    cJSON *dec = cJSON_AddObjectToObject(o, "decode");
    add_number_or_null(dec, "bandwidth_gbs", inf->bandwidth_gbs > 0, round3(inf->bandwidth_gbs));
    cJSON_AddStringToObject(dec, "bandwidth_source", inf->bandwidth_measured ? "measured" : inf->bandwidth_gbs > 0 ? "catalog" : "unknown");
    cJSON_AddStringToObject(dec, "bandwidth_note", local ? ADV_LOCAL(inf, bandwidth_source) : inf->bandwidth_source);
    add_number_or_null(dec, "step_ms", inf->decode_step_s > 0, round3(inf->decode_step_s * 1e3));
    add_number_or_null(dec, "tokens_per_s_per_sequence", inf->decode_step_s > 0, round3(inf->decode_tokens_per_s_per_sequence));
    add_number_or_null(dec, "tokens_per_s", inf->decode_step_s > 0, round3(inf->decode_tokens_per_s));
    cJSON *pre = cJSON_AddObjectToObject(o, "prefill");
    cJSON_AddNumberToObject(pre, "flops", inf->prefill_flops);
    add_number_or_null(pre, "peak_tflops_per_device", inf->peak_tflops > 0, round3(inf->peak_tflops));
    add_number_or_null(pre, "seconds", inf->prefill_s > 0, inf->prefill_s);
    add_number_or_null(pre, "seconds_per_sequence", inf->prefill_s > 0, inf->prefill_s_per_sequence);
    cJSON_AddItemToObject(o, "notes", notes_json(inf->notes, local ? inf->notes_local : NULL, inf->nnotes));
    return o;
}

/* The sections of the report, in the order the document has them. */
static void report_hardware(cJSON *doc, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *hw = cJSON_AddObjectToObject(doc, "hardware");
    cJSON_AddStringToObject(hw, "source", r->hardware_source);
    cJSON_AddStringToObject(hw, "kind", answers_str(&r->answers, ANS_HARDWARE));
    cJSON_AddStringToObject(hw, "name", r->hw.name);
    cJSON_AddNumberToObject(hw, "count", r->hw.count);
    add_number_or_null(hw, "device_memory_gb", answers_has(&r->answers, ANS_DEVICE_MEMORY_GB),
                       round3(answers_num(&r->answers, ANS_DEVICE_MEMORY_GB)));
    cJSON_AddStringToObject(hw, "device_memory_source", local ? ADV_LOCAL(r, device_memory_source) : r->device_memory_source);
    cJSON_AddStringToObject(hw, "note", local ? ADV_LOCAL(r, hardware_note) : r->hardware_note);

}

static void report_ranking(cJSON *doc, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *ranking = cJSON_AddArrayToObject(doc, "ranking");
    for (int i = 0; i < r->ranking.count; i++) {
        const struct adv_framework *f = &r->ranking.items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "framework", f->id);
        cJSON_AddStringToObject(o, "name", f->name);
        cJSON_AddNumberToObject(o, "score", f->score_tenths / 10.0);
        cJSON_AddBoolToObject(o, "excluded", f->excluded);
        cJSON_AddItemToObject(o, "reasons", reasons_json(local, f->reasons, f->nreasons));
        cJSON_AddItemToArray(ranking, o);
    }
}

static int report_weights(cJSON *doc, const struct adv_kb *akb, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *weights = cJSON_AddArrayToObject(doc, "weights");
    double *weight = malloc(((size_t)akb->ncrit + 1) * sizeof *weight);
    if (!weight) return -1;
    adv_criterion_weights(akb, &r->answers, weight);
    for (int k = 0; k < akb->ncrit; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "criterion", akb->crit[k].id);
        cJSON_AddStringToObject(o, "name", words(local, akb->crit[k].name));
        cJSON_AddNumberToObject(o, "weight", round3(weight[k]));
        /* the knowledge base's score of every framework on this criterion (the comparison) */
        cJSON *scores = cJSON_AddObjectToObject(o, "scores");
        for (int f = 0; scores && f < akb->nfw; f++) {
            int v = adv_kb_score(akb, f, k);
            if (v >= 0) cJSON_AddNumberToObject(scores, akb->fw[f].id, v);
            else cJSON_AddNullToObject(scores, akb->fw[f].id);
        }
        cJSON_AddItemToArray(weights, o);
    }
    free(weight);

    return 0;
}

/* The deployment target's memory check, or null when it did not run. */
static void report_deploy_fit(cJSON *dep, const struct adv_deploy_fit *f)
{
    static const char *const names[ADV_WEIGHT_FORMATS] = {"bf16", "int8", "int4"};
    if (!f->checked) {
        cJSON_AddNullToObject(dep, "fit");
        return;
    }
    cJSON *fit = cJSON_AddObjectToObject(dep, "fit");
    cJSON_AddStringToObject(fit, "device", f->device);
    cJSON_AddNumberToObject(fit, "memory_gb", f->memory_gb);
    cJSON_AddNumberToObject(fit, "share", f->share);
    cJSON_AddNumberToObject(fit, "budget_gb", f->budget_gb);
    cJSON *w = cJSON_AddObjectToObject(fit, "weights_gb");
    for (int i = 0; i < ADV_WEIGHT_FORMATS; i++) cJSON_AddNumberToObject(w, names[i], f->weights_gb[i]);
    if (f->fits >= 0) cJSON_AddStringToObject(fit, "fits", names[f->fits]);
    else cJSON_AddNullToObject(fit, "fits");
    cJSON_AddNumberToObject(fit, "largest_params", f->largest_params);
    if (f->runtime_bits > 0) cJSON_AddNumberToObject(fit, "runtime_bits", f->runtime_bits);
    else cJSON_AddNullToObject(fit, "runtime_bits");
    cJSON_AddStringToObject(fit, "source", f->source ? f->source : "");
}

static void report_strategy_runtime(cJSON *doc, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *dist = cJSON_AddObjectToObject(doc, "distributed");
    cJSON_AddStringToObject(dist, "strategy", r->strategy ? r->strategy : "single");
    cJSON_AddStringToObject(dist, "name", r->strategy_name ? words(local, r->strategy_name) : "");
    cJSON_AddItemToObject(dist, "reasons", reasons_json(local, r->strategy_reasons, r->nstrategy_reasons));
    cJSON *alts = cJSON_AddArrayToObject(dist, "alternatives");
    for (int i = 0; i < r->nalternatives; i++) cJSON_AddItemToArray(alts, cJSON_CreateString(r->alternatives[i]));

    cJSON *dep = cJSON_AddObjectToObject(doc, "deployment");
    cJSON_AddStringToObject(dep, "runtime", r->runtime ? r->runtime : "none");
    cJSON_AddStringToObject(dep, "name", r->runtime_name ? r->runtime_name : "");
    cJSON_AddStringToObject(dep, "hardware", answers_str(&r->answers, ANS_DEPLOY_HARDWARE));
    cJSON_AddStringToObject(dep, "hardware_note", local ? ADV_LOCAL(r, deploy_hardware_note) : r->deploy_hardware_note);
    cJSON_AddItemToObject(dep, "reasons", reasons_json(local, r->runtime_reasons, r->nruntime_reasons));
    report_deploy_fit(dep, &r->deploy_fit);
}

/* The next-fastest layout that fits, its run's hours and what made it slower; null without one. */
static void report_runner_up(cJSON *mem, const struct adv_memory *m)
{
    const struct adv_layout *u = &m->runner_up;
    if (u->dp <= 0 || m->hours <= 0) {
        cJSON_AddNullToObject(mem, "layout_runner_up");
        return;
    }
    static const char *const why[] = {"compute", "communication", "bubble", "uneven_stages"};
    cJSON *o = cJSON_AddObjectToObject(mem, "layout_runner_up");
    cJSON_AddNumberToObject(o, "tp", u->tp);
    cJSON_AddNumberToObject(o, "pp", u->pp);
    cJSON_AddNumberToObject(o, "dp", u->dp);
    cJSON_AddNumberToObject(o, "ep", u->ep > 0 ? u->ep : 1);
    cJSON_AddNumberToObject(o, "recompute_fraction", round3(m->runner_up_recompute_fraction));
    cJSON_AddNumberToObject(o, "hours", round3(m->runner_up_hours));
    cJSON_AddNumberToObject(o, "chosen_hours", round3(m->hours));
    cJSON_AddStringToObject(o, "lost_by", why[m->runner_up_lost_by]);
}

static void report_memory(cJSON *plan, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *mem = cJSON_AddObjectToObject(plan, "memory");
    const struct adv_memory *m = &r->memory;
    cJSON_AddStringToObject(mem, "strategy", m->strategy ? m->strategy : "single");
    cJSON *layout = cJSON_AddObjectToObject(mem, "layout");
    cJSON_AddNumberToObject(layout, "tp", m->layout.tp > 0 ? m->layout.tp : 1);
    cJSON_AddNumberToObject(layout, "pp", m->layout.pp > 0 ? m->layout.pp : 1);
    cJSON_AddNumberToObject(layout, "dp", m->layout.dp > 0 ? m->layout.dp : 1);
    cJSON_AddNumberToObject(layout, "ep", m->layout.ep > 0 ? m->layout.ep : 1);
    cJSON_AddNumberToObject(layout, "virtual_stages", m->layout.vp > 0 ? m->layout.vp : 1);
    cJSON_AddBoolToObject(layout, "uneven_stages", m->layout.uneven);
    cJSON_AddNumberToObject(layout, "micro_batches", round3(m->layout.micro_batches));
    add_number_or_null(layout, "batch_tokens", m->layout.batch_tokens > 0, m->layout.batch_tokens);
    report_runner_up(mem, m);
    cJSON_AddNumberToObject(mem, "model_states_gb_per_device", round3(m->model_states_gb));
    cJSON_AddNumberToObject(mem, "activations_gb_per_device", round3(m->activations_gb));
    cJSON_AddNumberToObject(mem, "buffers_gb_per_device", round3(m->buffers_gb));
    cJSON *buffers = cJSON_AddObjectToObject(mem, "buffers");
    cJSON_AddNumberToObject(buffers, "gathered_layers_gb", round3(m->gathered_gb));
    cJSON_AddNumberToObject(buffers, "buckets_gb", round3(m->buckets_gb));
    cJSON_AddNumberToObject(buffers, "recompute_working_set_gb", round3(m->recompute_gb));
    cJSON_AddNumberToObject(buffers, "framework_overhead_gb", round3(m->overhead_gb));
    cJSON_AddNumberToObject(mem, "total_gb_per_device", round3(m->total_gb));
    add_number_or_null(mem, "device_memory_gb", m->device_memory_gb > 0, round3(m->device_memory_gb));
    add_number_or_null(mem, "usable_gb", m->device_memory_gb > 0, round3(m->usable_gb));
    add_number_or_null(mem, "headroom_gb", m->device_memory_gb > 0, round3(m->headroom_gb));
    cJSON_AddBoolToObject(mem, "fits", m->fits);
    cJSON_AddStringToObject(mem, "recompute", m->recompute ? m->recompute : "none");
    cJSON_AddNumberToObject(mem, "recompute_fraction", round3(m->recompute_fraction));
    cJSON_AddNumberToObject(mem, "cpu_gb_per_node", round3(m->cpu_gb));
    cJSON_AddNumberToObject(mem, "optimizer_paged_gb", round3(m->paged_gb));
    add_number_or_null(mem, "host_memory_gb_per_node", m->host_memory_gb > 0, round3(m->host_memory_gb));
    if (m->host_fits < 0) cJSON_AddNullToObject(mem, "host_fits");
    else cJSON_AddBoolToObject(mem, "host_fits", m->host_fits);
    cJSON_AddStringToObject(mem, "activations_note", local ? ADV_LOCAL(r, shape_note) : r->shape_note);
    cJSON_AddStringToObject(mem, "activations_mode", m->activation_mode ? m->activation_mode : "not estimated");
    add_number_or_null(mem, "fit_devices", r->fit_devices > 0, r->fit_devices);
    cJSON_AddItemToObject(mem, "remedies", notes_json(r->remedies, local ? r->remedies_local : NULL, r->nremedies));
}

static void report_time(cJSON *plan, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *time = cJSON_AddObjectToObject(plan, "time");
    add_number_or_null(time, "total_flops", r->total_flops > 0, r->total_flops);
    add_number_or_null(time, "attention_flops", r->time.attention_flops > 0, r->time.attention_flops);
    add_number_or_null(time, "recompute_flops", r->total_flops > 0, r->time.recompute_flops);
    add_number_or_null(time, "peak_tflops_per_device", r->peak_tflops > 0, round3(r->peak_tflops));
    cJSON_AddStringToObject(time, "peak_source", local ? ADV_LOCAL(r, peak_source) : r->peak_source);
    cJSON_AddNumberToObject(time, "efficiency", r->efficiency);
    if (r->efficiency_source) cJSON_AddStringToObject(time, "efficiency_source", r->efficiency_source);
    else cJSON_AddNullToObject(time, "efficiency_source");
    cJSON_AddNumberToObject(time, "mfu", round3(r->mfu));
    if (r->mfu_source) cJSON_AddStringToObject(time, "mfu_source", r->mfu_source);
    else cJSON_AddNullToObject(time, "mfu_source");
    add_number_or_null(time, "compute_hours", r->has_hours, round3(r->time.compute_hours));
    add_number_or_null(time, "communication_hours", r->has_hours && r->time.communication_known,
                       round3(r->time.communication_hours));
    add_number_or_null(time, "bubble_hours", r->has_hours, round3(r->time.bubble_hours));
    add_number_or_null(time, "lost_hours", r->has_hours, round3(r->time.lost_hours));
    cJSON *comm = cJSON_AddObjectToObject(time, "communication");
    add_number_or_null(comm, "data_parallel_hours", r->has_hours && r->time.communication_known, round3(r->time.dp_hours));
    add_number_or_null(comm, "tensor_parallel_hours", r->has_hours && r->time.communication_known, round3(r->time.tp_hours));
    add_number_or_null(comm, "pipeline_parallel_hours", r->has_hours && r->time.communication_known, round3(r->time.pp_hours));
    add_number_or_null(comm, "expert_parallel_hours", r->has_hours && r->time.communication_known, round3(r->time.ep_hours));
    cJSON_AddStringToObject(comm, "source", local ? ADV_LOCAL(r, communication_source) : r->communication_source);
    cJSON_AddNumberToObject(time, "scaling_efficiency", round3(r->scaling));
    cJSON_AddStringToObject(time, "scaling_source", local ? ADV_LOCAL(r, scaling_source) : r->scaling_source);
    if (r->scaling_seed) cJSON_AddStringToObject(time, "scaling_seed", r->scaling_seed);
    else cJSON_AddNullToObject(time, "scaling_seed");
    if (r->scaling_seed_source) cJSON_AddStringToObject(time, "scaling_seed_source", r->scaling_seed_source);
    else cJSON_AddNullToObject(time, "scaling_seed_source");
    add_number_or_null(time, "hours", r->has_hours, round3(r->hours));
    add_number_or_null(time, "device_hours", r->has_hours, round3(r->device_hours));
    add_number_or_null(time, "cost", r->has_cost, round(r->cost * 100) / 100);

}

static const char *const job_names[] = {"pretrain", "finetune", "serve"};

/* What the run is, whether a training plan was made and why not, a fine-tune's batch and steps,
 * and QLoRA's back-end on this hardware. */
static void report_training(cJSON *plan, const struct adv_result *r)
{
    cJSON_AddStringToObject(plan, "job", job_names[r->job]);
    cJSON *tr = cJSON_AddObjectToObject(plan, "training");
    cJSON_AddBoolToObject(tr, "planned", r->job != ADV_JOB_SERVE);
    cJSON_AddBoolToObject(tr, "job_derived", r->job_derived);
    if (r->job == ADV_JOB_SERVE)
        cJSON_AddStringToObject(tr, "reason", r->job_derived ? "job serve, derived: deploy given without tokens or fine-tuning"
                                                             : "job serve: serving only");
    else cJSON_AddNullToObject(tr, "reason");
    cJSON_AddStringToObject(tr, "finetune_planned", r->in.finetune == ADV_LORA    ? "lora"
                                                    : r->in.finetune == ADV_QLORA ? "qlora"
                                                                                  : "full");
    add_number_or_null(tr, "batch_sequences", r->batch_sequences > 0, r->batch_sequences);
    add_number_or_null(tr, "optimizer_steps", r->optimizer_steps > 0, r->optimizer_steps);
    if (r->method_support < 0 || !r->method_note) {
        cJSON_AddNullToObject(tr, "qlora_backend");
        return;
    }
    cJSON *m = cJSON_AddObjectToObject(tr, "qlora_backend");
    cJSON_AddNumberToObject(m, "level", r->method_support);
    cJSON_AddBoolToObject(m, "replanned_as_lora", r->method_replanned);
    cJSON_AddStringToObject(m, "note", r->method_note);
    cJSON_AddStringToObject(m, "source", r->method_source);
    add_sources(m, r->method_source, r->method_also);
}

static void report_measured(cJSON *plan, const struct adv_result *r)
{
    /* What stored probe runs supplied, what of it the plan used, and the runs passed over. */
    cJSON *meas = cJSON_AddObjectToObject(plan, "measured");
    if (r->hw.measured_run[0]) cJSON_AddStringToObject(meas, "run", r->hw.measured_run);
    else cJSON_AddNullToObject(meas, "run");
    cJSON *figs = cJSON_AddArrayToObject(meas, "figures");
    for (int i = 0; i < r->hw.nmeasured; i++) {
        const struct adv_measured *f = &r->hw.measured[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", f->name);
        cJSON_AddNumberToObject(o, "value", round3(f->value));
        cJSON_AddStringToObject(o, "unit", f->unit);
        cJSON_AddStringToObject(o, "run", f->run);
        cJSON_AddStringToObject(o, "note", f->note);
        cJSON_AddBoolToObject(o, "used", adv_measured_used(r, f->name));
        cJSON_AddItemToArray(figs, o);
    }
    cJSON *skip = cJSON_AddArrayToObject(meas, "skipped");
    for (int i = 0; i < r->hw.nskipped; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "run", r->hw.skipped[i].run);
        cJSON_AddStringToObject(o, "why", r->hw.skipped[i].why);
        cJSON_AddItemToArray(skip, o);
    }

}

static void report_pitfalls(cJSON *doc, const struct adv_result *r, const struct adv_kb *local)
{
    cJSON *pit = cJSON_AddArrayToObject(doc, "pitfalls");
    for (int i = 0; i < r->npitfalls; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", r->pitfalls[i].id);
        cJSON_AddStringToObject(o, "text", words(local, r->pitfalls[i].text));
        cJSON_AddStringToObject(o, "source", r->pitfalls[i].source);
        add_sources(o, r->pitfalls[i].source, r->pitfalls[i].also);
        cJSON_AddItemToArray(pit, o);
    }
}

static cJSON *report_doc(const struct adv_kb *akb, const struct adv_result *r, const char *generated_at,
                         const struct adv_kb *local)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return NULL;
    cJSON_AddStringToObject(doc, "schema", "fwadvisor.report/1");
    cJSON_AddStringToObject(doc, "generated_at", generated_at);
    cJSON *kbinfo = cJSON_AddObjectToObject(doc, "kb");
    cJSON_AddStringToObject(kbinfo, "version", akb->version);
    cJSON_AddStringToObject(kbinfo, "date", akb->date);
    cJSON_AddItemToObject(doc, "answers", answers_to_json(&r->answers));
    report_hardware(doc, r, local);
    report_ranking(doc, r, local);
    if (report_weights(doc, akb, r, local)) {
        cJSON_Delete(doc);
        return NULL;
    }
    report_strategy_runtime(doc, r, local);
    cJSON *plan = cJSON_AddObjectToObject(doc, "plan");
    if (r->assumed_accelerator) cJSON_AddStringToObject(plan, "assumed_accelerator", r->assumed_accelerator);
    else cJSON_AddNullToObject(plan, "assumed_accelerator");
    if (r->accelerator >= 0) cJSON_AddStringToObject(plan, "accelerator", akb->acc[r->accelerator].id);
    else cJSON_AddNullToObject(plan, "accelerator");
    cJSON_AddStringToObject(plan, "precision", r->precision ? r->precision : "fp32");
    cJSON_AddStringToObject(plan, "finetune", answers_str(&r->answers, ANS_FINETUNE));
    cJSON_AddItemToObject(plan, "assumptions", notes_json(r->assumptions, local ? r->assumptions_local : NULL, r->nassumptions));
    cJSON_AddItemToObject(plan, "warnings", notes_json(r->warnings, local ? r->warnings_local : NULL, r->nwarnings));
    report_training(plan, r);
    if (r->job == ADV_JOB_SERVE) { /* serving only: no training memory or time to report */
        cJSON_AddNullToObject(plan, "memory");
        cJSON_AddNullToObject(plan, "time");
    } else {
        report_memory(plan, r, local);
        report_time(plan, r, local);
    }
    report_measured(plan, r);
    cJSON_AddItemToObject(plan, "inference", inference_json(akb, &r->inference, local));
    report_pitfalls(doc, r, local);
    unsigned char *seen = calloc((size_t)akb->nsources + 1, 1);
    cJSON *sources = seen ? cJSON_CreateArray() : NULL;
    if (sources) cited(akb, doc, seen, sources);
    free(seen);
    if (!sources) {
        cJSON_Delete(doc);
        return NULL;
    }
    cJSON_AddItemToObject(doc, "sources", sources);
    return doc;
}

cJSON *adv_report_json(const struct adv_kb *akb, const struct adv_result *r, const char *generated_at)
{
    return report_doc(akb, r, generated_at, NULL);
}

cJSON *adv_report_json_local(const struct adv_kb *akb, const struct adv_result *r, const char *generated_at)
{
    return report_doc(akb, r, generated_at, i18n_lang() == I18N_EN ? NULL : akb);
}
