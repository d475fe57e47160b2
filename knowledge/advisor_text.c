/* The plan in words, one labelled line at a time, shared by the command line and the interface:
 * device, layout, memory breakdown, time split, links and what was assumed. */
#include "knowledge/advisor_kb.h"
#include "knowledge/units.h"

#include <stdio.h>
#include <string.h>

static void say(void (*line)(void *, const char *, const char *), void *ctx, const char *label, char *text)
{
    adv_utf8_trim(text);
    line(ctx, label, text);
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
    if (l->batch_tokens > 0) {
        char tokens[32];
        snprintf(text + used, sizeof text - used, "; micro-batch %g %s, %.3g per step and data-parallel rank, %s tokens per step",
                 l->micro_batch, units_plural(l->micro_batch, "sequence", "sequences"), l->micro_batches,
                 units_short(l->batch_tokens, tokens, sizeof tokens));
    }
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

/* A part of the time: "0" when there is none. */
static const char *span(double hours, char *out, size_t n)
{
    if (hours <= 0) snprintf(out, n, "0");
    else units_hours(hours, out, n);
    return out;
}

/* FLOPs per token as a formula: 6 N for full training, 4 N + 6 adapters under LoRA, plus attention. */
static size_t flops_formula(const struct adv_result *r, char *out, size_t n)
{
    const struct adv_plan_inputs *in = &r->in;
    const struct adv_time *t = &r->time;
    double tokens = answers_num(&r->answers, ANS_TOKENS);
    char p[32], ad[32], at[32], tk[32];
    units_short(in->active, p, sizeof p);
    size_t used = in->finetune == ADV_FULL
                      ? (size_t)snprintf(out, n, "(6 x %s %sparameters", p, in->active < in->params ? "active " : "")
                      : (size_t)snprintf(out, n, "(4 x %s frozen + 6 x %s adapter parameters", p,
                                         units_short(in->adapters, ad, sizeof ad));
    if (t->attention_flops > 0 && used < n)
        used += (size_t)snprintf(out + used, n - used, " + %s attention", units_short(t->attention_flops / tokens, at, sizeof at));
    if (used < n)
        used += (size_t)snprintf(out + used, n - used, ") FLOP per token x %s tokens = %.3g model FLOP", units_short(tokens, tk, sizeof tk),
                                 t->model_flops);
    return used < n ? used : n - 1;
}

static void time_lines(const struct adv_result *r, void (*line)(void *, const char *, const char *), void *ctx)
{
    const struct answers *a = &r->answers;
    const struct adv_time *t = &r->time;
    char text[1200], h[6][48], num[3][48];
    if (!r->has_hours) {
        snprintf(text, sizeof text, "%s", !answers_has(a, ANS_TOKENS) ? "give tokens (samples x steps) to plan training time"
                                                                     : "no peak throughput known for this hardware");
        say(line, ctx, "Time", text);
        return;
    }
    double devices = answers_num(a, ANS_DEVICES);
    size_t used = flops_formula(r, text, sizeof text);
    if (t->recompute_flops > 0)
        used += (size_t)snprintf(text + used, sizeof text - used, " + %.3g recomputed = %.3g FLOP", t->recompute_flops,
                                 t->model_flops + t->recompute_flops);
    used += (size_t)snprintf(text + used, sizeof text - used, " / (%s x %.4g TFLOP/s x efficiency %.0f%%) = compute %s",
                             units_count(devices, "device", "devices", num[0], sizeof num[0]), r->in.rate_tflops,
                             r->efficiency * 100, units_hours(t->compute_hours, h[0], sizeof h[0]));
    if (t->communication_known)
        used += (size_t)snprintf(text + used, sizeof text - used, " + communication %s (data %s, tensor %s, pipeline %s, expert %s)",
                                 span(t->communication_hours, h[1], sizeof h[1]), span(t->dp_hours, h[2], sizeof h[2]),
                                 span(t->tp_hours, h[3], sizeof h[3]), span(t->pp_hours, h[4], sizeof h[4]),
                                 span(t->ep_hours, h[5], sizeof h[5]));
    else used += (size_t)snprintf(text + used, sizeof text - used, " + communication not estimated (no link figure or shape)");
    snprintf(text + used, sizeof text - used, " + bubble %s + interruptions %s = %s, %s device-hours, MFU %.0f%%",
             span(t->bubble_hours, h[1], sizeof h[1]), span(t->lost_hours, h[2], sizeof h[2]),
             units_hours(r->hours, h[3], sizeof h[3]), units_thousands(r->device_hours, 0, num[1], sizeof num[1]), r->mfu * 100);
    say(line, ctx, "Time", text);
    if (r->has_cost) {
        snprintf(text, sizeof text, "%s (price_per_device_hour %g x %s device-hours)", units_thousands(r->cost, 0, num[0], sizeof num[0]),
                 answers_num(a, ANS_PRICE_PER_DEVICE_HOUR), units_thousands(r->device_hours, 0, num[1], sizeof num[1]));
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
    char devices[48], nodes[48];
    units_thousands(answers_num(a, ANS_DEVICES), 0, devices, sizeof devices);
    units_count(answers_num(a, ANS_NODES), "node", "nodes", nodes, sizeof nodes);
    if (r->accelerator >= 0)
        snprintf(text, sizeof text, "%s x %s (%s) on %s, %s, fine-tuning %s", devices, akb->acc[r->accelerator].name,
                 akb->acc[r->accelerator].id, nodes, r->precision, answers_str(a, ANS_FINETUNE));
    else
        snprintf(text, sizeof text, "%s x %s on %s, %s", devices, answers_str(a, ANS_HARDWARE), nodes,
                 r->precision ? r->precision : "fp32");
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
    for (int i = r->assumed_accelerator ? 1 : 0; i < r->nassumptions; i++) {
        snprintf(text, sizeof text, "%s", r->assumptions[i]);
        say(line, ctx, "Assumed", text);
    }
    for (int i = 0; i < r->nwarnings; i++) {
        snprintf(text, sizeof text, "%s", r->warnings[i]);
        say(line, ctx, "Warning", text);
    }
}

void adv_plan_verdict(const struct adv_result *r, char *out, size_t n)
{
    const struct adv_memory *m = &r->memory;
    char h[48], devices[48], cost[48];
    size_t used;
    if (m->device_memory_gb > 0)
        used = (size_t)snprintf(out, n, "Memory: %.1f of %.0f GB usable per device, %s.", m->total_gb,
                                m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb, m->fits ? "fits" : "DOES NOT FIT");
    else
        used = (size_t)snprintf(out, n, "Memory: %.1f GB per device; the device's memory is unknown.", m->total_gb);
    if (used >= n) return;
    if (r->has_hours)
        used += (size_t)snprintf(out + used, n - used, " Time: %s on %s.", units_hours(r->hours, h, sizeof h),
                                 units_count(answers_num(&r->answers, ANS_DEVICES), "device", "devices", devices, sizeof devices));
    else
        used += (size_t)snprintf(out + used, n - used, " Time: not planned (%s).",
                                 answers_has(&r->answers, ANS_TOKENS) ? "no peak known for this hardware" : "give tokens");
    if (used < n && r->has_cost) snprintf(out + used, n - used, " Cost: %s.", units_thousands(r->cost, 0, cost, sizeof cost));
}
