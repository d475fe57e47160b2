/* The plan in words, one labelled line at a time, shared by the command line and the interface:
 * device, layout, memory breakdown, time split, links and what was assumed. */
#include "knowledge/advisor_kb.h"
#include "common/i18n.h"
#include "common/units.h"

#include <math.h>
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
    size_t used = (size_t)snprintf(text, sizeof text, _("%s, tp %d x pp %d x dp %d"), m->strategy ? m->strategy : "-",
                                   l->tp > 0 ? l->tp : 1, l->pp > 0 ? l->pp : 1, l->dp > 0 ? l->dp : 1);
    if (l->ep > 1) used += (size_t)snprintf(text + used, sizeof text - used, _(", %d expert-parallel ranks"), l->ep);
    if (l->vp > 1) used += (size_t)snprintf(text + used, sizeof text - used, _(", %d virtual stages per device"), l->vp);
    if (l->uneven) used += (size_t)snprintf(text + used, sizeof text - used, _(", uneven stages"));
    if (l->batch_tokens > 0) {
        char tokens[32];
        char count[32];
        snprintf(text + used, sizeof text - used, _("; micro-batch %g %s, %s per step and data-parallel rank, %s tokens per step"),
                 l->micro_batch, units_plural(l->micro_batch, _("sequence"), _("sequences")),
                 units_thousands(l->micro_batches, l->micro_batches == floor(l->micro_batches) ? 0 : 1, count, sizeof count),
                 units_short(l->batch_tokens, tokens, sizeof tokens));
    }
    say(line, ctx, N_("Layout"), text);
    const struct adv_layout *u = &m->runner_up;
    if (u->dp > 0 && m->hours > 0) {
        static const char *const why[] = {N_("more compute and recomputation"), N_("more exposed communication"),
                                          N_("a larger bubble"), N_("uneven stages (even ones are kept when one fits)")};
        used = (size_t)snprintf(text, sizeof text, _("tp %d x pp %d x dp %d"), u->tp, u->pp, u->dp);
        if (u->ep > 1) used += (size_t)snprintf(text + used, sizeof text - used, _(", %d expert-parallel ranks"), u->ep);
        if (m->runner_up_recompute_fraction > 0)
            used += (size_t)snprintf(text + used, sizeof text - used, _(", %.0f%% of the layers recomputed"),
                                     m->runner_up_recompute_fraction * 100);
        char a[32], b[32];
        double ratio = m->runner_up_hours / m->hours - 1;
        snprintf(text + used, sizeof text - used, _(": %.1f%% %s (%s hours against %s), %s %s"), fabs(ratio) * 100,
                 ratio < 0 ? _("faster") : _("slower"), units_number(m->runner_up_hours, a, sizeof a),
                 units_number(m->hours, b, sizeof b), m->runner_up_lost_by == ADV_LOST_UNEVEN ? _("but set aside for") : _("from"),
                 _(why[m->runner_up_lost_by]));
        say(line, ctx, N_("Runner-up layout"), text);
    }

    /* unknown activations are said, never printed as 0.0 GB */
    if (m->activations_estimated)
        used = (size_t)snprintf(text, sizeof text, _("%.1f GB model states + %.1f GB activations + %.1f GB buffers = %.1f GB"),
                                m->model_states_gb, m->activations_gb, m->buffers_gb, m->total_gb);
    else
        used = (size_t)snprintf(text, sizeof text, _("%.1f GB model states + %.1f GB buffers = %.1f GB"), m->model_states_gb,
                                m->buffers_gb, m->total_gb);
    if (m->device_memory_gb > 0) {
        used += (size_t)snprintf(text + used, sizeof text - used, _(" of %.0f GB"), m->device_memory_gb);
        if (m->usable_gb < m->device_memory_gb)
            used += (size_t)snprintf(text + used, sizeof text - used, _(" (%.0f GB usable by the GPU)"), m->usable_gb);
        used += (size_t)snprintf(text + used, sizeof text - used, _(": %s, %.1f GB headroom (%.0f%% of usable memory needed)"),
                                 m->fits ? _("fits") : _("DOES NOT FIT"), m->headroom_gb, r->in.headroom * 100);
    } else {
        used += (size_t)snprintf(text + used, sizeof text - used, _("; device memory unknown (set device_memory_gb or accelerator)"));
    }
    if (!m->activations_estimated && used < sizeof text) snprintf(text + used, sizeof text - used, "; %s", ADV_LOCAL(r, shape_note));
    say(line, ctx, N_("Memory per device"), text);

    if (m->activations_gb > 0) {
        if (m->recompute && strcmp(m->recompute, "full") == 0)
            snprintf(text, sizeof text, _("%s; full recomputation of %.0f%% of the layers%s"), m->activation_mode,
                     m->recompute_fraction * 100, r->in.recompute == ADV_RECOMPUTE_AUTO ? _(" (the least that fits)") : "");
        else
            snprintf(text, sizeof text, _("%s; recomputation %s"), m->activation_mode, m->recompute ? m->recompute : "none");
        say(line, ctx, N_("Activations"), text);
    }
    snprintf(text, sizeof text,
             _("gathered layers %.1f GB, communication buckets %.1f GB, recomputation working set %.1f GB, framework and "
               "allocator %.1f GB"),
             m->gathered_gb, m->buckets_gb, m->recompute_gb, m->overhead_gb);
    say(line, ctx, N_("Buffers"), text);
    if (m->cpu_gb > 0) {
        if (m->host_fits < 0)
            snprintf(text, sizeof text, _("%.1f GB per node for offload; host memory unknown (set host_memory_gb)"), m->cpu_gb);
        else
            snprintf(text, sizeof text, _("%.1f GB per node for offload of %.0f GB: %s"), m->cpu_gb, m->host_memory_gb,
                     m->host_fits ? _("fits") : _("MORE THAN THE HOST HAS"));
        say(line, ctx, N_("Host memory"), text);
    }
    if (m->paged_gb > 0) {
        snprintf(text, sizeof text,
                 _("%.1f GB of the adapters' %.1f GB of optimizer states move to host memory at the peaks (a paged "
                   "optimizer on CUDA unified memory); those steps run slower"),
                 m->paged_gb, m->pageable_gb);
        say(line, ctx, N_("Paged optimizer"), text);
    }
    if (!m->fits && m->device_memory_gb > 0) {
        if (r->fit_devices > 0) snprintf(text, sizeof text, _("nothing fits these devices; %.0f would (see remedies)"), r->fit_devices);
        else snprintf(text, sizeof text, _("nothing fits these devices"));
        say(line, ctx, N_("Nothing fits"), text);
        for (int i = 0; i < r->nremedies; i++) {
            snprintf(text, sizeof text, "%s", adv_note_local(r->remedies[i], r->remedies_local[i]));
            say(line, ctx, N_("Remedy"), text);
        }
    }
}

/* A part of the time: "0" when there is none. */
static const char *span(double hours, char *out, size_t n)
{
    if (hours <= 0) snprintf(out, n, "0");
    else units_hours_text(hours, out, n);
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
                      ? (size_t)snprintf(out, n, _("(6 x %s %sparameters"), p, in->active < in->params ? _("active ") : "")
                      : (size_t)snprintf(out, n, _("(4 x %s frozen + 6 x %s adapter parameters"), p,
                                         units_short(in->adapters, ad, sizeof ad));
    if (t->attention_flops > 0 && used < n)
        used += (size_t)snprintf(out + used, n - used, _(" + %s attention"), units_short(t->attention_flops / tokens, at, sizeof at));
    if (used < n)
        used += (size_t)snprintf(out + used, n - used, _(") FLOP per token x %s tokens = %s model FLOP"), units_short(tokens, tk, sizeof tk),
                                 units_number(t->model_flops, at, sizeof at));
    return used < n ? used : n - 1;
}

static void time_lines(const struct adv_result *r, void (*line)(void *, const char *, const char *), void *ctx)
{
    const struct answers *a = &r->answers;
    const struct adv_time *t = &r->time;
    char text[1200], h[6][48], num[3][48];
    if (!r->has_hours) {
        snprintf(text, sizeof text, "%s", answers_has(a, ANS_TOKENS)      ? _("no peak throughput known for this hardware")
                                          : r->job == ADV_JOB_FINETUNE ? _("give dataset_tokens (and epochs) or tokens to plan "
                                                                           "fine-tuning time")
                                                                       : _("give tokens (samples x steps) to plan training time"));
        say(line, ctx, N_("Time"), text);
        return;
    }
    if (r->job == ADV_JOB_FINETUNE && r->optimizer_steps > 0) {
        char tk[2][32], steps[48];
        snprintf(text, sizeof text, _("%s tokens / %s tokens per step (%g sequences of %g) = %s optimizer steps"),
                 units_short(answers_num(a, ANS_TOKENS), tk[0], sizeof tk[0]),
                 units_short(r->memory.layout.batch_tokens, tk[1], sizeof tk[1]), r->memory.layout.batch_tokens / r->seq_len,
                 r->seq_len, units_thousands(r->optimizer_steps, 0, steps, sizeof steps));
        say(line, ctx, N_("Steps"), text);
    }
    double devices = answers_num(a, ANS_DEVICES);
    size_t used = flops_formula(r, text, sizeof text);
    if (t->recompute_flops > 0)
        used += (size_t)snprintf(text + used, sizeof text - used, _(" + %s recomputed = %s FLOP"),
                                 units_number(t->recompute_flops, num[0], sizeof num[0]),
                                 units_number(t->model_flops + t->recompute_flops, num[1], sizeof num[1]));
    used += (size_t)snprintf(text + used, sizeof text - used, _(" / (%s x %.4g TFLOP/s x efficiency %.0f%%) = compute %s"),
                             units_count(devices, _("device"), _("devices"), num[0], sizeof num[0]), r->in.rate_tflops,
                             r->efficiency * 100, units_hours_text(t->compute_hours, h[0], sizeof h[0]));
    if (devices <= 1)
        used += (size_t)snprintf(text + used, sizeof text - used, _(" + no communication (one device)"));
    else if (t->communication_known)
        /* what is left once the overlap with compute is taken off: "0" reads as a bug without the word */
        used += (size_t)snprintf(text + used, sizeof text - used, _(" + exposed communication %s (data %s, tensor %s, pipeline %s, "
                                 "expert %s%s)"), span(t->communication_hours, h[1], sizeof h[1]),
                                 span(t->dp_hours, h[2], sizeof h[2]), span(t->tp_hours, h[3], sizeof h[3]),
                                 span(t->pp_hours, h[4], sizeof h[4]), span(t->ep_hours, h[5], sizeof h[5]),
                                 t->communication_hours > 0 ? "" : _("; all of it overlapped with compute"));
    else used += (size_t)snprintf(text + used, sizeof text - used, _(" + communication not estimated (no link figure or shape)"));
    snprintf(text + used, sizeof text - used, _(" + bubble %s + interruptions %s = %s, %s device-hours, MFU %.0f%%"),
             span(t->bubble_hours, h[1], sizeof h[1]), span(t->lost_hours, h[2], sizeof h[2]),
             units_hours_text(r->hours, h[3], sizeof h[3]), units_thousands(r->device_hours, 0, num[1], sizeof num[1]), r->mfu * 100);
    say(line, ctx, N_("Time"), text);
    if (r->has_cost) {
        snprintf(text, sizeof text, _("%s (price_per_device_hour %g x %s device-hours)"), units_thousands(r->cost, 0, num[0], sizeof num[0]),
                 answers_num(a, ANS_PRICE_PER_DEVICE_HOUR), units_thousands(r->device_hours, 0, num[1], sizeof num[1]));
        say(line, ctx, N_("Cost"), text);
    }
}

void adv_plan_text(const struct adv_kb *akb, const struct adv_result *r,
                   void (*line)(void *ctx, const char *label, const char *text), void *ctx)
{
    const struct answers *a = &r->answers;
    char text[640];
    if (r->assumed_accelerator && r->nassumptions > 0) {
        snprintf(text, sizeof text, "%s", adv_note_local(r->assumptions[0], r->assumptions_local[0]));
        say(line, ctx, N_("Assumed"), text);
    }
    char devices[48], nodes[48];
    units_thousands(answers_num(a, ANS_DEVICES), 0, devices, sizeof devices);
    units_count(answers_num(a, ANS_NODES), _("node"), _("nodes"), nodes, sizeof nodes);
    if (r->job == ADV_JOB_SERVE) {
        snprintf(text, sizeof text, _("none: job serve%s, so no training is planned (no tokens, batch, training memory or "
                                    "offload); the serving plan is above"),
                 r->job_derived ? _(" (derived: deploy given without tokens or fine-tuning)") : "");
        say(line, ctx, N_("Training"), text);
        return;
    }
    /* What is trained, in words: "full" is every parameter, pre-training or fine-tuning alike; a
     * QLoRA re-planned where it has no back-end is said as the LoRA it is planned as. */
    const char *trained = r->in.finetune == ADV_LORA    ? r->method_replanned ? _("LoRA adapters on frozen 16-bit weights "
                                                                                  "(QLoRA re-planned: no 4-bit back-end here)")
                                                                              : _("LoRA adapters on frozen weights")
                          : r->in.finetune == ADV_QLORA ? _("QLoRA: LoRA adapters on 4-bit frozen weights")
                                                        : _("all parameters trained");
    if (r->accelerator >= 0)
        snprintf(text, sizeof text, _("%s x %s (%s) on %s, %s, %s"), devices, akb->acc[r->accelerator].name,
                 akb->acc[r->accelerator].id, nodes, r->precision, trained);
    else
        snprintf(text, sizeof text, _("%s x %s on %s, %s"), devices, answers_str(a, ANS_HARDWARE), nodes,
                 r->precision ? r->precision : "fp32");
    say(line, ctx, N_("Devices"), text);
    if (r->method_note && r->method_support < 1) {
        char cite[160];
        adv_cite(r->method_source, r->method_also, cite, sizeof cite);
        snprintf(text, sizeof text, "%s [%s]", adv_kb_local(akb, r->method_note), cite);
        say(line, ctx, N_("Method"), text);
    }
    memory_lines(r, line, ctx);
    time_lines(r, line, ctx);
    snprintf(text, sizeof text, _("%s; efficiency %.0f%% [%s]"), ADV_LOCAL(r, peak_source), r->efficiency * 100,
             r->efficiency_source ? r->efficiency_source : "default");
    say(line, ctx, N_("Peak"), text);
    if (r->communication_source[0]) {
        snprintf(text, sizeof text, "%s", ADV_LOCAL(r, communication_source));
        say(line, ctx, N_("Links"), text);
    }
    snprintf(text, sizeof text, "%s", ADV_LOCAL(r, device_memory_source));
    say(line, ctx, N_("Device memory"), text);
    /* What the stored probe runs gave the plan, and which runs did not match. */
    if (r->hw.nmeasured > 0) {
        size_t used = (size_t)snprintf(text, sizeof text, _("probe run %s:"), r->hw.measured_run[0] ? r->hw.measured_run : "-");
        for (int i = 0; i < r->hw.nmeasured && used < sizeof text; i++) {
            const struct adv_measured *f = &r->hw.measured[i];
            used += (size_t)snprintf(text + used, sizeof text - used, "%s %s %.4g %s%s", i ? "," : "", f->name, f->value,
                                     f->unit, adv_measured_used(r, f->name) ? _(" (used)") : "");
        }
        say(line, ctx, N_("Measured"), text);
    }
    for (int i = 0; i < r->hw.nskipped; i++) {
        snprintf(text, sizeof text, _("run %s: %s"), r->hw.skipped[i].run, r->hw.skipped[i].why);
        say(line, ctx, N_("Not used"), text);
    }
    for (int i = r->assumed_accelerator ? 1 : 0; i < r->nassumptions; i++) {
        snprintf(text, sizeof text, "%s", adv_note_local(r->assumptions[i], r->assumptions_local[i]));
        say(line, ctx, N_("Assumed"), text);
    }
    for (int i = 0; i < r->nwarnings; i++) {
        snprintf(text, sizeof text, "%s", adv_note_local(r->warnings[i], r->warnings_local[i]));
        say(line, ctx, N_("Warning"), text);
    }
}

void adv_plan_verdict(const struct adv_result *r, char *out, size_t n)
{
    const struct adv_memory *m = &r->memory;
    char h[48], devices[48], cost[48];
    size_t used;
    if (r->job == ADV_JOB_SERVE) {
        const struct adv_inference *inf = &r->inference;
        if (!inf->planned) snprintf(out, n, _("Serving only: no training planned."));
        else if (inf->fits >= 0)
            snprintf(out, n, _("Serving only: %.1f of %.0f GB per device on %d %s, %s. No training planned."),
                     inf->total_gb_per_device, inf->memory_gb, inf->tensor_parallel * inf->pipeline_parallel,
                     inf->tensor_parallel * inf->pipeline_parallel == 1 ? _("device") : _("devices"), inf->fits ? _("fits") : _("DOES NOT FIT"));
        else snprintf(out, n, _("Serving only: %.1f GB per device; the device's memory is unknown. No training planned."),
                      inf->total_gb_per_device);
        return;
    }
    if (m->device_memory_gb > 0)
        used = (size_t)snprintf(out, n, _("Memory: %.1f of %.0f GB usable per device, %s."), m->total_gb,
                                m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb, m->fits ? _("fits") : _("DOES NOT FIT"));
    else
        used = (size_t)snprintf(out, n, _("Memory: %.1f GB per device; the device's memory is unknown."), m->total_gb);
    if (used >= n) return;
    if (r->has_hours)
        used += (size_t)snprintf(out + used, n - used, _(" Time: %s on %s."), units_hours_text(r->hours, h, sizeof h),
                                 units_count(answers_num(&r->answers, ANS_DEVICES), _("device"), _("devices"), devices, sizeof devices));
    else
        used += (size_t)snprintf(out + used, n - used, _(" Time: not planned (%s)."),
                                 answers_has(&r->answers, ANS_TOKENS) ? _("no peak known for this hardware") : _("give tokens"));
    if (used < n && r->has_cost) snprintf(out + used, n - used, _(" Cost: %s."), units_thousands(r->cost, 0, cost, sizeof cost));
}

void adv_inference_text(const struct adv_kb *akb, const struct adv_result *r,
                        void (*line)(void *ctx, const char *label, const char *text), void *ctx)
{
    const struct adv_inference *inf = &r->inference;
    if (!inf->planned) return;
    char text[800], t[64];
    int devices = inf->tensor_parallel * inf->pipeline_parallel;
    const char *device = inf->accelerator >= 0 ? akb->acc[inf->accelerator].name : inf->hardware;
    size_t used = (size_t)snprintf(text, sizeof text, _("%g %s of %g tokens on %d x %s%s"), inf->batch,
                                   units_plural(inf->batch, _("sequence"), _("sequences")), inf->context, devices, device,
                                   inf->assumed ? _(" (assumed)") : "");
    if (devices > 1)
        used += (size_t)snprintf(text + used, sizeof text - used, _(", tensor parallel %d%s"), inf->tensor_parallel,
                                 inf->pipeline_parallel > 1 ? "" : _(" (the fewest devices that hold it)"));
    if (inf->pipeline_parallel > 1)
        used += (size_t)snprintf(text + used, sizeof text - used, _(" x %d pipeline stages (beyond one node of %d)"),
                                 inf->pipeline_parallel, inf->tensor_parallel);
    snprintf(text + used, sizeof text - used, _("; weights %s, KV cache %s"), inf->precision, inf->kv_precision);
    say(line, ctx, N_("Serving"), text);

    used = (size_t)snprintf(text, sizeof text,
                            _("weights %.1f GB + KV cache %.1f GB (%.0f bytes per token = 2 x %g layers x %g KV heads x %g x %g "
                              "bytes); per device %.1f + %.1f + %.1f GB framework and allocator = %.1f GB"),
                            inf->weights_gb, inf->kv_cache_gb, inf->kv_bytes_per_token, inf->layers, inf->kv_heads,
                            inf->head_dim, inf->kv_bytes_per_value, inf->weights_gb_per_device, inf->kv_gb_per_device,
                            inf->overhead_gb, inf->total_gb_per_device);
    if (inf->fits >= 0)
        snprintf(text + used, sizeof text - used, _(" of %.0f GB: %s"), inf->memory_gb,
                 inf->fits ? _("fits") : _("DOES NOT FIT even with pipeline stages"));
    else snprintf(text + used, sizeof text - used, _("; device memory unknown"));
    say(line, ctx, N_("Serving memory"), text);

    if (inf->max_batch >= 0) {
        used = (size_t)snprintf(text, sizeof text, _("%.0f sequences of %g tokens on %s"), inf->max_batch, inf->context,
                                devices == 1 ? _("one device") : _("these devices"));
        if (devices > 1)
            used += (size_t)snprintf(text + used, sizeof text - used, _("; %.0f on one device"), inf->max_batch_one_device);
        snprintf(text + used, sizeof text - used, _("; context up to %.0f tokens for %g %s%s"), inf->max_context,
                 inf->batch, units_plural(inf->batch, _("sequence"), _("sequences")),
                 inf->max_context_capped ? _(" (the position limit, seq_len)") : "");
        say(line, ctx, N_("Largest"), text);
    }
    if (inf->decode_step_s > 0)
        snprintf(text, sizeof text,
                 _("at most %.0f tokens/s per sequence, %.0f in all for %g (each token reads %.1f GB of weights and %.1f GB "
                   "of cache per tensor-parallel rank; %s)"),
                 inf->decode_tokens_per_s_per_sequence, inf->decode_tokens_per_s, inf->batch,
                 inf->weights_gb / inf->tensor_parallel, inf->kv_gb_per_device * inf->pipeline_parallel,
                 ADV_LOCAL(inf, bandwidth_source));
    else snprintf(text, sizeof text, _("not estimated: %s"), ADV_LOCAL(inf, bandwidth_source));
    say(line, ctx, N_("Decode"), text);
    if (inf->prefill_s > 0) {
        units_duration_text(inf->prefill_s, t, sizeof t);
        char fl[32];
        snprintf(text, sizeof text, _("%s FLOP for %g %s of %g tokens: at least %s at %d x %.4g TFLOP/s dense %s"),
                 units_number(inf->prefill_flops, fl, sizeof fl), inf->batch, units_plural(inf->batch, _("prompt"), _("prompts")),
                 inf->context, t, inf->tensor_parallel,
                 inf->peak_tflops, inf->precision);
    } else {
        char fl[32];
        snprintf(text, sizeof text, _("%s FLOP for %g %s of %g tokens; no peak known for the serving device"),
                 units_number(inf->prefill_flops, fl, sizeof fl), inf->batch, units_plural(inf->batch, _("prompt"), _("prompts")),
                 inf->context);
    }
    say(line, ctx, N_("Prefill"), text);
    for (int i = 0; i < inf->nnotes; i++) {
        snprintf(text, sizeof text, "%s", adv_note_local(inf->notes[i], inf->notes_local[i]));
        say(line, ctx, N_("Serving note"), text);
    }
}
