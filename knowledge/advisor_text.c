/* The plan in words, one labelled line at a time, shared by the command line and the interface:
 * device, layout, memory breakdown, time split, links and what was assumed. */
#include "knowledge/advisor_kb.h"

#include <stdio.h>
#include <string.h>

static void say(void (*line)(void *, const char *, const char *), void *ctx, const char *label, char *text)
{
    adv_utf8_trim(text);
    line(ctx, label, text);
}

static void hours_text(double hours, char *out, size_t n)
{
    if (hours < 1) snprintf(out, n, "%.0f minutes", hours * 60);
    else if (hours < 48) snprintf(out, n, "%.1f hours", hours);
    else snprintf(out, n, "%.0f hours (%.1f days)", hours, hours / 24);
}

static void memory_lines(const struct adv_result *r, void (*line)(void *, const char *, const char *), void *ctx)
{
    const struct adv_memory *m = &r->memory;
    const struct adv_layout *l = &m->layout;
    char text[640];
    size_t used = (size_t)snprintf(text, sizeof text, "%s, tp %d x pp %d x dp %d", m->strategy ? m->strategy : "-",
                                   l->tp > 0 ? l->tp : 1, l->pp > 0 ? l->pp : 1, l->dp > 0 ? l->dp : 1);
    if (l->ep > 1) used += (size_t)snprintf(text + used, sizeof text - used, ", %d expert-parallel ranks", l->ep);
    if (l->vp > 1) used += (size_t)snprintf(text + used, sizeof text - used, ", %d virtual stages per device", l->vp);
    if (l->uneven) used += (size_t)snprintf(text + used, sizeof text - used, ", uneven stages");
    if (l->batch_tokens > 0)
        snprintf(text + used, sizeof text - used, "; micro-batch %g sequence%s, %.3g per step and data-parallel rank, %.3g tokens per step",
                 l->micro_batch, l->micro_batch == 1 ? "" : "s", l->micro_batches, l->batch_tokens);
    say(line, ctx, "Layout", text);

    used = (size_t)snprintf(text, sizeof text, "%.1f GB model states + %.1f GB activations + %.1f GB buffers = %.1f GB",
                            m->model_states_gb, m->activations_gb, m->buffers_gb, m->total_gb);
    if (m->device_memory_gb > 0) {
        used += (size_t)snprintf(text + used, sizeof text - used, " of %.0f GB", m->device_memory_gb);
        if (m->usable_gb < m->device_memory_gb)
            used += (size_t)snprintf(text + used, sizeof text - used, " (%.0f GB usable by the GPU)", m->usable_gb);
        snprintf(text + used, sizeof text - used, ": %s, %.1f GB headroom (%.0f%% of usable memory needed)",
                 m->fits ? "fits" : "DOES NOT FIT", m->headroom_gb, r->in.headroom * 100);
    } else {
        snprintf(text + used, sizeof text - used, "; device memory unknown (set device_memory_gb or accelerator)");
    }
    say(line, ctx, "Memory per device", text);

    if (m->activations_gb > 0) {
        if (m->recompute && strcmp(m->recompute, "full") == 0)
            snprintf(text, sizeof text, "%s; full recomputation of %.0f%% of the layers%s", m->activation_mode,
                     m->recompute_fraction * 100, r->in.recompute == ADV_RECOMPUTE_AUTO ? " (the least that fits)" : "");
        else
            snprintf(text, sizeof text, "%s; recomputation %s", m->activation_mode, m->recompute ? m->recompute : "none");
        say(line, ctx, "Activations", text);
    }
    snprintf(text, sizeof text,
             "gathered layers %.1f GB, communication buckets %.1f GB, recomputation working set %.1f GB, framework and "
             "allocator %.1f GB",
             m->gathered_gb, m->buckets_gb, m->recompute_gb, m->overhead_gb);
    say(line, ctx, "Buffers", text);
    if (m->cpu_gb > 0) {
        if (m->host_fits < 0)
            snprintf(text, sizeof text, "%.1f GB per node for offload; host memory unknown (set host_memory_gb)", m->cpu_gb);
        else
            snprintf(text, sizeof text, "%.1f GB per node for offload of %.0f GB: %s", m->cpu_gb, m->host_memory_gb,
                     m->host_fits ? "fits" : "MORE THAN THE HOST HAS");
        say(line, ctx, "Host memory", text);
    }
    if (!m->fits && m->device_memory_gb > 0) {
        if (r->fit_devices > 0) snprintf(text, sizeof text, "nothing fits these devices; %.0f would (see remedies)", r->fit_devices);
        else snprintf(text, sizeof text, "nothing fits these devices");
        say(line, ctx, "Nothing fits", text);
        for (int i = 0; i < r->nremedies; i++) {
            snprintf(text, sizeof text, "%s", r->remedies[i]);
            say(line, ctx, "Remedy", text);
        }
    }
}

static void time_lines(const struct adv_result *r, void (*line)(void *, const char *, const char *), void *ctx)
{
    const struct answers *a = &r->answers;
    const struct adv_time *t = &r->time;
    char text[800], h[64];
    if (!r->has_hours) {
        snprintf(text, sizeof text, "%s", !answers_has(a, ANS_TOKENS) ? "give tokens (samples x steps) to plan training time"
                                                                     : "no peak throughput known for this hardware");
        say(line, ctx, "Time", text);
        return;
    }
    hours_text(r->hours, h, sizeof h);
    size_t used = (size_t)snprintf(text, sizeof text, "%.3g model FLOP", t->model_flops);
    if (t->attention_flops > 0)
        used += (size_t)snprintf(text + used, sizeof text - used, " (attention %.0f%%)", 100 * t->attention_flops / t->model_flops);
    if (t->recompute_flops > 0) used += (size_t)snprintf(text + used, sizeof text - used, " + %.3g recomputed", t->recompute_flops);
    used += (size_t)snprintf(text + used, sizeof text - used,
                             " at %g x %.4g TFLOP/s x efficiency %.0f%% = compute %.0f h", answers_num(a, ANS_DEVICES),
                             r->in.rate_tflops, r->efficiency * 100, t->compute_hours);
    if (t->communication_known)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 " + communication %.0f h (data %.0f, tensor %.0f, pipeline %.0f, expert %.0f)",
                                 t->communication_hours, t->dp_hours, t->tp_hours, t->pp_hours, t->ep_hours);
    else used += (size_t)snprintf(text + used, sizeof text - used, " + communication not estimated (no link figure or shape)");
    snprintf(text + used, sizeof text - used, " + bubble %.0f h + interruptions %.0f h = %s, %.4g device-hours, MFU %.0f%%",
             t->bubble_hours, t->lost_hours, h, r->device_hours, r->mfu * 100);
    say(line, ctx, "Time", text);
    if (r->has_cost) {
        snprintf(text, sizeof text, "%.0f (price_per_device_hour %g x %.4g device-hours)", r->cost,
                 answers_num(a, ANS_PRICE_PER_DEVICE_HOUR), r->device_hours);
        say(line, ctx, "Cost", text);
    }
}

void adv_plan_text(const struct adv_kb *akb, const struct adv_result *r,
                   void (*line)(void *ctx, const char *label, const char *text), void *ctx)
{
    const struct answers *a = &r->answers;
    char text[640];
    if (r->assumed_accelerator && r->nassumptions > 0) {
        snprintf(text, sizeof text, "%s", r->assumptions[0]);
        say(line, ctx, "Assumed", text);
    }
    if (r->accelerator >= 0)
        snprintf(text, sizeof text, "%g x %s (%s) on %g node%s, %s, fine-tuning %s", answers_num(a, ANS_DEVICES),
                 akb->acc[r->accelerator].name, akb->acc[r->accelerator].id, answers_num(a, ANS_NODES),
                 answers_num(a, ANS_NODES) == 1 ? "" : "s", r->precision, answers_str(a, ANS_FINETUNE));
    else
        snprintf(text, sizeof text, "%g x %s on %g node%s, %s", answers_num(a, ANS_DEVICES), answers_str(a, ANS_HARDWARE),
                 answers_num(a, ANS_NODES), answers_num(a, ANS_NODES) == 1 ? "" : "s", r->precision ? r->precision : "fp32");
    say(line, ctx, "Devices", text);
    memory_lines(r, line, ctx);
    time_lines(r, line, ctx);
    snprintf(text, sizeof text, "%s; efficiency %.0f%% [%s]", r->peak_source, r->efficiency * 100,
             r->efficiency_source ? r->efficiency_source : "default");
    say(line, ctx, "Peak", text);
    if (r->communication_source[0]) {
        snprintf(text, sizeof text, "%s", r->communication_source);
        say(line, ctx, "Links", text);
    }
    snprintf(text, sizeof text, "%s", r->device_memory_source);
    say(line, ctx, "Device memory", text);
    /* What the stored probe runs gave the plan, and which runs did not match. */
    if (r->hw.nmeasured > 0) {
        size_t used = (size_t)snprintf(text, sizeof text, "probe run %s:", r->hw.measured_run[0] ? r->hw.measured_run : "-");
        for (int i = 0; i < r->hw.nmeasured && used < sizeof text; i++) {
            const struct adv_measured *f = &r->hw.measured[i];
            used += (size_t)snprintf(text + used, sizeof text - used, "%s %s %.4g %s%s", i ? "," : "", f->name, f->value,
                                     f->unit, adv_measured_used(r, f->name) ? " (used)" : "");
        }
        say(line, ctx, "Measured", text);
    }
    for (int i = 0; i < r->hw.nskipped; i++) {
        snprintf(text, sizeof text, "run %s: %s", r->hw.skipped[i].run, r->hw.skipped[i].why);
        say(line, ctx, "Not used", text);
    }
    for (int i = r->assumed_accelerator ? 1 : 0; i < r->nassumptions; i++) {
        snprintf(text, sizeof text, "%s", r->assumptions[i]);
        say(line, ctx, "Assumed", text);
    }
    for (int i = 0; i < r->nwarnings; i++) {
        snprintf(text, sizeof text, "%s", r->warnings[i]);
        say(line, ctx, "Warning", text);
    }
}

/* Seconds in the unit that reads best. */
static void seconds_text(double s, char *out, size_t n)
{
    if (s < 1) snprintf(out, n, "%.0f ms", s * 1e3);
    else if (s < 120) snprintf(out, n, "%.1f s", s);
    else snprintf(out, n, "%.1f minutes", s / 60);
}

void adv_inference_text(const struct adv_kb *akb, const struct adv_result *r,
                        void (*line)(void *ctx, const char *label, const char *text), void *ctx)
{
    const struct adv_inference *inf = &r->inference;
    if (!inf->planned) return;
    char text[800], t[64];
    int devices = inf->tensor_parallel * inf->pipeline_parallel;
    const char *device = inf->accelerator >= 0 ? akb->acc[inf->accelerator].name : inf->hardware;
    size_t used = (size_t)snprintf(text, sizeof text, "%g sequence%s of %g tokens on %d x %s%s", inf->batch,
                                   inf->batch == 1 ? "" : "s", inf->context, devices, device, inf->assumed ? " (assumed)" : "");
    if (devices > 1)
        used += (size_t)snprintf(text + used, sizeof text - used, ", tensor parallel %d%s", inf->tensor_parallel,
                                 inf->pipeline_parallel > 1 ? "" : " (the fewest devices that hold it)");
    if (inf->pipeline_parallel > 1)
        used += (size_t)snprintf(text + used, sizeof text - used, " x %d pipeline stages (beyond one node of %d)",
                                 inf->pipeline_parallel, inf->tensor_parallel);
    snprintf(text + used, sizeof text - used, "; weights %s, KV cache %s", inf->precision, inf->kv_precision);
    say(line, ctx, "Serving", text);

    used = (size_t)snprintf(text, sizeof text,
                            "weights %.1f GB + KV cache %.1f GB (%.0f bytes per token = 2 x %g layers x %g KV heads x %g x %g "
                            "bytes); per device %.1f + %.1f + %.1f GB framework and allocator = %.1f GB",
                            inf->weights_gb, inf->kv_cache_gb, inf->kv_bytes_per_token, inf->layers, inf->kv_heads,
                            inf->head_dim, inf->kv_bytes_per_value, inf->weights_gb_per_device, inf->kv_gb_per_device,
                            inf->overhead_gb, inf->total_gb_per_device);
    if (inf->fits >= 0)
        snprintf(text + used, sizeof text - used, " of %.0f GB: %s", inf->memory_gb,
                 inf->fits ? "fits" : "DOES NOT FIT even with pipeline stages");
    else snprintf(text + used, sizeof text - used, "; device memory unknown");
    say(line, ctx, "Serving memory", text);

    if (inf->max_batch >= 0) {
        used = (size_t)snprintf(text, sizeof text, "%.0f sequences of %g tokens on %s; %.0f on one device", inf->max_batch,
                                inf->context, devices == 1 ? "one device" : "these devices", inf->max_batch_one_device);
        snprintf(text + used, sizeof text - used, "; context up to %.0f tokens for %g sequence%s%s", inf->max_context,
                 inf->batch, inf->batch == 1 ? "" : "s", inf->max_context_capped ? " (the position limit, seq_len)" : "");
        say(line, ctx, "Largest", text);
    }
    if (inf->decode_step_s > 0)
        snprintf(text, sizeof text,
                 "at most %.0f tokens/s per sequence, %.0f in all for %g (each token reads %.1f GB of weights and %.1f GB of "
                 "cache per tensor-parallel rank; %s)",
                 inf->decode_tokens_per_s_per_sequence, inf->decode_tokens_per_s, inf->batch,
                 inf->weights_gb / inf->tensor_parallel, inf->kv_gb_per_device * inf->pipeline_parallel,
                 inf->bandwidth_source);
    else snprintf(text, sizeof text, "not estimated: %s", inf->bandwidth_source);
    say(line, ctx, "Decode", text);
    if (inf->prefill_s > 0) {
        seconds_text(inf->prefill_s, t, sizeof t);
        snprintf(text, sizeof text, "%.3g FLOP for %g prompt%s of %g tokens: at least %s at %d x %.4g TFLOP/s dense %s",
                 inf->prefill_flops, inf->batch, inf->batch == 1 ? "" : "s", inf->context, t, inf->tensor_parallel,
                 inf->peak_tflops, inf->precision);
    } else {
        snprintf(text, sizeof text, "%.3g FLOP for %g prompt%s of %g tokens; no peak known for the serving device",
                 inf->prefill_flops, inf->batch, inf->batch == 1 ? "" : "s", inf->context);
    }
    say(line, ctx, "Prefill", text);
    for (int i = 0; i < inf->nnotes; i++) {
        snprintf(text, sizeof text, "%s", inf->notes[i]);
        say(line, ctx, "Serving note", text);
    }
}
