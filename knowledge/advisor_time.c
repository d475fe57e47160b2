/* The time plan: FLOPs (6ND with active parameters, LoRA's frozen forward and backward, the
 * attention term of PaLM's appendix, recomputation) at the device's dense rate times its compute
 * efficiency, plus the pipeline bubble and the communication the compute does not hide (data,
 * tensor, pipeline and expert parallel traffic over the catalog's links, the data-centre network
 * between TPU slices, or a measured bus bandwidth), plus the time lost to interruptions at scale. */
#include "knowledge/advisor_kb.h"
#include "knowledge/planner.h"

#include <math.h>
#include <string.h>

static double positive(double x) { return x > 0 ? x : 0; }

/* The slowest link a group crosses whose members lie within `span` consecutive devices (the
 * group's size times the groups nested inside it: tensor innermost, then data and expert, then
 * pipeline), and that link's figure per device and direction: beyond a slice the data-centre
 * network, beyond a node the network between nodes (ICI between the hosts of a TPU slice), else
 * the node's own links. Tensor parallelism never leaves a node: the layout search keeps t within
 * the devices of one. */
static enum adv_link group_link(const struct adv_plan_inputs *in, double span, double per_node, double nodes,
                                double *gbs)
{
    if (in->slice_devices > 0 && span > in->slice_devices) {
        *gbs = in->scale_out_gbs;
        return ADV_LINK_SLICES;
    }
    if (nodes > 1 && span > per_node) {
        *gbs = in->network_gbs;
        return ADV_LINK_NETWORK;
    }
    *gbs = in->link_gbs;
    return ADV_LINK_NODE;
}

/* Data parallel: gradients (and, when parameters are sharded, the parameters gathered for every
 * micro-batch's forward and backward). Reduction in buckets overlaps the last micro-batch's backward
 * pass; sharded gathers prefetch under the whole step. With experts, the dense parameters reduce
 * over all d ranks, each expert's shard (experts / (t p e)) over the d / e replicas of that expert. */
static double dp_seconds(const struct adv_plan_inputs *in, const struct adv_memory *m, const struct adv_layout *lay,
                         double step, double link_gbs, struct adv_time *t)
{
    double tp = lay->tp, pp = lay->pp, dp = lay->dp, ep = lay->ep > 1 ? lay->ep : 1, mb = lay->micro_batches;
    double bw = in->measured_gbs > 0 ? in->measured_gbs : link_gbs;
    if (bw <= 0) t->communication_known = 0;
    int full = in->finetune == ADV_FULL;
    double experts = full && in->experts > 1 ? in->expert_params : 0;
    double dense = (full ? in->params - experts : in->adapters) / (tp * pp), expert = experts / (tp * pp * ep);
    double trainable = dense + experts / (tp * pp); /* every shard, as one group would see it */
    int megatron = m->strategy && strcmp(m->strategy, "megatron") == 0;
    double grad_bytes = megatron || in->precision == PLAN_FP32 ? 4 : 2;
    double volume, window;
    if (m->gathered_gb > 0) {
        double per_param = full || in->finetune == ADV_LORA ? 2 : in->nf4_bits / 8;
        double params = per_param * in->params / (tp * pp); /* the frozen base under LoRA */
        volume = mb * (2 * plan_allgather_seconds(params, dp, bw) + plan_allgather_seconds(trainable * 2, dp, bw));
        window = step;
    } else if (megatron) {
        /* Distributed optimizer: reduce-scatter the gradients in the last micro-batch's backward,
         * all-gather the updated 16-bit parameters in the next forward. */
        volume = plan_allgather_seconds(dense * (grad_bytes + 2), dp, bw) +
                 plan_allgather_seconds(expert * (grad_bytes + 2), dp / ep, bw);
        window = step / mb;
    } else {
        volume = plan_allreduce_seconds(trainable * grad_bytes, dp, bw);
        window = 2.0 / 3.0 * step / mb;
    }
    return positive(volume - window);
}

/* Expert parallel: dispatch and combine all-to-alls, forward and backward (two more for a
 * recomputed forward), of each token's top-k copies of h 16-bit values in every MoE layer of a
 * stage; a rank holds s b / t of a micro-batch's tokens under sequence parallelism, and (e - 1) / e
 * of the copies leave it. What the stack overlaps (moe_a2a_overlap: Megatron Core's
 * --overlap-moe-expert-parallel-comm, DeepSeek-V3's DualPipe) hides under that share of the
 * step's compute. */
static double ep_seconds(const struct adv_plan_inputs *in, const struct adv_memory *m, const struct adv_layout *lay,
                         double step, double bw, const struct adv_result *r, struct adv_time *t)
{
    if (bw <= 0) {
        t->communication_known = 0;
        return 0;
    }
    double tp = lay->tp, ep = lay->ep, b = lay->micro_batch > 0 ? lay->micro_batch : 1;
    double layers = ceil((in->moe_layers > 0 ? in->moe_layers : r->layers) / (lay->pp > 0 ? lay->pp : 1));
    double tokens = r->seq_len * b / (tp > 1 ? tp : 1);
    double bytes = tokens * in->top_k * r->hidden * 2 * (ep - 1) / ep;
    double volume = layers * lay->micro_batches * (4 + 2 * m->recompute_fraction) * bytes / (bw * 1e9);
    return positive(volume - in->a2a_overlap * step);
}

double adv_plan_time(const struct adv_kb *akb, const struct adv_result *r, const struct adv_memory *m,
                     struct adv_time *t)
{
    (void)akb;
    const struct answers *a = &r->answers;
    const struct adv_plan_inputs *in = &r->in;
    memset(t, 0, sizeof *t);
    t->communication_known = 1;
    if (!answers_has(a, ANS_TOKENS)) return 0;
    double T = answers_num(a, ANS_TOKENS), D = answers_num(a, ANS_DEVICES), nodes = answers_num(a, ANS_NODES);
    double per_node = D / (nodes > 0 ? nodes : 1);
    int shaped = r->hidden > 0 && r->layers > 0;
    double L = r->layers, h = r->hidden, s = r->seq_len;
    double b = m->layout.micro_batch > 0 ? m->layout.micro_batch : r->micro_batch > 0 ? r->micro_batch : 1;

    /* FLOPs per token. LoRA: the frozen base runs forward (2N) and passes gradients back through
     * its activations (2N) but computes no weight gradients; adapters train in full (6N). */
    double attention = shaped ? plan_attention_flops_per_token(L, h, s) : 0;
    double model = (in->finetune == ADV_FULL ? 6 * in->active : 4 * in->active + 6 * in->adapters) + attention;
    double recompute = 0;
    if (m->recompute && strcmp(m->recompute, "full") == 0) recompute = m->recompute_fraction * (2 * in->active + attention / 3);
    else if (m->recompute && strcmp(m->recompute, "selective") == 0 && !in->flash) recompute = attention / 3;
    t->model_flops = model * T;
    t->attention_flops = attention * T;
    t->recompute_flops = recompute * T;
    if (in->rate_tflops <= 0 || r->efficiency <= 0 || D <= 0) return 0;
    double compute = (model + recompute) * T / (D * in->rate_tflops * 1e12 * r->efficiency);
    double total = compute;
    struct adv_layout lay = m->layout;
    if (lay.dp <= 0) lay.tp = lay.pp = lay.ep = lay.vp = 1, lay.dp = (int)D;

    if (shaped && lay.batch_tokens > 0) {
        t->steps = T / lay.batch_tokens;
        double step = compute / t->steps, mb = lay.micro_batches;
        double bubble = step * plan_bubble_fraction(lay.pp, mb, lay.vp);
        double tp = lay.tp, pp = lay.pp, dp = lay.dp, ep = lay.ep;
        double layers = ceil(L / pp);
        double dp_bw = 0, pp_bw = 0, ep_bw = 0;
        if (dp > 1) t->dp_link = group_link(in, tp * dp, per_node, nodes, &dp_bw);
        if (pp > 1) t->pp_link = group_link(in, D, per_node, nodes, &pp_bw);
        if (ep > 1) t->ep_link = group_link(in, tp * ep, per_node, nodes, &ep_bw);
        double dp_time = dp > 1 ? dp_seconds(in, m, &lay, step, dp_bw, t) : 0;
        /* Tensor parallel: four all-reduces (or all-gather + reduce-scatter pairs with sequence
         * parallelism) of s*b*h 16-bit values per layer and micro-batch, two more for a
         * recomputed forward; on the critical path. */
        double tp_time = 0, act = 2 * s * b * h;
        if (tp > 1) {
            if (in->link_gbs <= 0) t->communication_known = 0;
            double coll = 4 + 2 * m->recompute_fraction;
            tp_time = layers * mb * coll * plan_allreduce_seconds(act, tp, in->link_gbs);
        }
        /* Pipeline: each micro-batch's activations forward and gradients back across every
         * (virtual) stage boundary, sequence-parallel split over t. */
        double pp_time = 0;
        if (pp > 1) {
            if (pp_bw <= 0) t->communication_known = 0;
            else pp_time = mb * 2 * (lay.vp > 1 ? lay.vp : 1) * act / tp / (pp_bw * 1e9);
        }
        double ep_time = ep > 1 ? ep_seconds(in, m, &lay, step, ep_bw, r, t) : 0;
        t->bubble_hours = t->steps * bubble / 3600;
        t->dp_hours = t->steps * dp_time / 3600;
        t->tp_hours = t->steps * tp_time / 3600;
        t->pp_hours = t->steps * pp_time / 3600;
        t->ep_hours = t->steps * ep_time / 3600;
        t->communication_hours = t->dp_hours + t->tp_hours + t->pp_hours + t->ep_hours;
        total = compute + t->steps * (bubble + dp_time + tp_time + pp_time + ep_time);
    } else if (D > 1) {
        t->communication_known = 0; /* without a shape there is no step to spread traffic over */
    }
    t->compute_hours = compute / 3600;
    /* Interruptions grow with the number of devices (Llama 3: under 10% lost on 16K GPUs). */
    double lost = in->lost_at_16k * D / 16384;
    if (lost > 0.5) lost = 0.5;
    double wall = total / (1 - lost);
    t->lost_hours = (wall - total) / 3600;
    return wall / 3600;
}
