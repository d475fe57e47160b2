/* Which link each parallel group's traffic crosses: a node's own links inside it, the network
 * between nodes past it, and between TPU slices the data-centre network (slice_devices and
 * scale_out_gbs in data/kb/55_plan.sql). The data-parallel all-reduce by hand on both sides of
 * each boundary. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor_kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }
TestSuite(links, .init = setup, .fini = teardown);

static void plan(const char *json) { cr_assert_eq(ts_advisor_recommend(&fx, json, err, sizeof err), KB_OK, "%s", err); }

/* Plain data parallelism over every device, micro-batches of one sequence, gradients all-reduced
 * (no sharded gathers, no recomputation), under the answers just planned. */
static struct adv_memory ddp_layout(int devices, double seq, double micro_batches)
{
    struct adv_memory m;
    adv_strategy_memory(fx.akb, fx.res, adv_strategy_index(fx.akb, "ddp"), &m);
    m.strategy = "ddp", m.gathered_gb = 0, m.recompute = "none", m.recompute_fraction = 0;
    m.layout.tp = m.layout.pp = m.layout.ep = m.layout.vp = 1, m.layout.dp = devices, m.layout.uneven = 0;
    m.layout.micro_batch = 1, m.layout.micro_batches = micro_batches;
    m.layout.batch_tokens = devices * seq * micro_batches;
    return m;
}

/* The exposed data-parallel seconds of a step: the all-reduce of 2-byte gradients over d ranks
 * at gbs, less the last micro-batch's backward (two thirds of its compute). */
static double exposed(double params, double d, double gbs, const struct adv_time *t, double micro_batches)
{
    double step = t->compute_hours * 3600 / t->steps;
    double x = 2 * (d - 1) / d * params * 2 / (gbs * 1e9) - 2.0 / 3.0 * step / micro_batches;
    return x > 0 ? x : 0;
}

#define H100_MODEL                                                                                                       \
    "\"model_kind\": \"llm\", \"model_params\": 1.3e9, \"layers\": 24, \"hidden\": 2048, \"heads\": 16, \"seq_len\": 512," \
    " \"tokens\": 2.6e10"

/* 1.3B parameters (24 layers, hidden 2048, sequence 512) on H100s (NVLink 450 GB/s, 400 Gb/s NDR
 * = 50 GB/s per GPU between nodes), 2.6e10 tokens in steps of 4e6 / 512 / d micro-batches a rank:
 *   FLOPs per token 6 x 1.3e9 + 12 x 24 x 2048 x 512 = 8.101989888e9; one micro-batch of 512
 *   tokens takes 512 x 8.101989888e9 / (989.4e12 x 0.5) = 8.3853 ms on every side, so the last
 *   backward hides 2/3 of it, 5.5902 ms.
 *   8 devices, one node (devices_per_node 8): 2 x 7/8 x 2.6e9 / 450e9 = 10.1111 ms, 4.5209 ms
 *   exposed a step, x 6,500 steps = 0.0081626 h. Over the network it would be 91 ms a step.
 *   16 devices, two nodes (one node more): 2 x 15/16 x 2.6e9 / 50e9 = 97.5 ms, 91.910 ms exposed,
 *   x 6,500 = 0.16595 h. */
Test(links, data_parallel_inside_one_node_and_across_two)
{
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 8, \"nodes\": 1, " H100_MODEL "}");
    struct adv_memory m = ddp_layout(8, 512, 4e6 / 512 / 8);
    struct adv_time t;
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_assert_float_eq(t.steps, 6500, 1e-9);
    cr_expect_eq(t.dp_link, ADV_LINK_NODE);
    double in_node = exposed(1.3e9, 8, 450, &t, 4e6 / 512 / 8);
    cr_expect_float_eq(in_node, 0.0045209, 1e-6, "in a node %.7f s a step", in_node);
    cr_expect_float_eq(t.dp_hours, 0.0081626, 1e-6, "in a node %.7f h", t.dp_hours);
    cr_expect(t.communication_known);

    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 16, \"nodes\": 2, " H100_MODEL "}");
    m = ddp_layout(16, 512, 4e6 / 512 / 16);
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_expect_eq(t.dp_link, ADV_LINK_NETWORK);
    double across = exposed(1.3e9, 16, 50, &t, 4e6 / 512 / 16);
    cr_expect_float_eq(across, 0.091910, 1e-5, "across nodes %.6f s a step", across);
    cr_expect_float_eq(t.dp_hours, 0.16595, 1e-4, "across nodes %.6f h", t.dp_hours);
    /* GPUs have no slices: their network figure is already the scale-out NIC's. */
    cr_expect_float_eq(fx.res->in.slices, 1, 1e-12);
    cr_expect_float_eq(fx.res->in.slice_devices, 0, 1e-12);
}

#define V5P_MODEL                                                                                                        \
    "\"model_kind\": \"llm\", \"model_params\": 7e9, \"layers\": 32, \"hidden\": 4096, \"heads\": 32, \"seq_len\": 512,"   \
    " \"tokens\": 1e12"

/* 7B parameters (32 layers, hidden 4096, sequence 512) on TPU v5p (ICI 600 GB/s per chip and
 * direction within a slice, slices of at most 6,144 chips, 50 Gb/s = 6.25 GB/s a chip of
 * data-centre network between them), four micro-batches of one sequence a rank:
 *   FLOPs per token 6 x 7e9 + 12 x 32 x 4096 x 512 = 4.2805306368e10; a micro-batch takes
 *   512 x 4.2805306368e10 / (459e12 x 0.55) = 86.814 ms, its backward hides 57.876 ms.
 *   6,144 chips, one slice: 2 x 6143/6144 x 1.4e10 / 600e9 = 46.659 ms: hidden, 0.
 *   12,288 chips, two slices: 2 x 12287/12288 x 1.4e10 / 6.25e9 = 4.4796 s, 4.4218 s exposed
 *   a step of 347 ms compute, x 1e12 / (12,288 x 2,048) = 39,736 steps = 48.806 h beside 3.83 h
 *   of compute: the data-centre network bounds the run. */
Test(links, tpu_v5p_inside_one_slice_and_across_two)
{
    plan("{\"accelerator\": \"tpu-v5p\", \"devices\": 6144, " V5P_MODEL "}");
    cr_expect_float_eq(fx.res->in.slice_devices, 6144, 1e-9);
    cr_expect_float_eq(fx.res->in.scale_out_gbs, 6.25, 1e-12);
    cr_expect_float_eq(fx.res->in.slices, 1, 1e-12);
    struct adv_memory m = ddp_layout(6144, 512, 4);
    struct adv_time t;
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_expect_eq(t.dp_link, ADV_LINK_NETWORK, "hosts of one slice talk over ICI");
    cr_expect_float_eq(t.dp_hours, 0, 1e-12, "in one slice %.6f h", t.dp_hours);
    double step = t.compute_hours * 3600 / t.steps;
    cr_expect_float_eq(step, 4 * 0.086814, 1e-5, "a step %.6f s", step);

    plan("{\"accelerator\": \"tpu-v5p\", \"devices\": 12288, " V5P_MODEL "}");
    cr_expect_float_eq(fx.res->in.slices, 2, 1e-12);
    m = ddp_layout(12288, 512, 4);
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_expect_eq(t.dp_link, ADV_LINK_SLICES);
    double across = exposed(7e9, 12288, 6.25, &t, 4);
    cr_expect_float_eq(across, 4.4218, 1e-3, "across slices %.5f s a step", across);
    cr_expect_float_eq(t.dp_hours, 48.806, 0.01, "across slices %.4f h", t.dp_hours);
    cr_expect_float_eq(t.compute_hours, 3.833, 0.01, "compute %.4f h", t.compute_hours);
    cr_expect(t.communication_known);
}

/* The whole plan says so: the Links line names the data-centre network and each group's link,
 * and an assumption gives the MFU the network bounds. */
Test(links, multi_slice_plan_says_it_is_bounded_by_the_network)
{
    plan("{\"accelerator\": \"tpu-v5p\", \"devices\": 12288, " V5P_MODEL "}");
    const struct adv_result *r = fx.res;
    cr_expect(strstr(r->communication_source, "across 2 slices the data-centre network, 6.25 GB/s (50 Gb/s)") != NULL,
              "%s", r->communication_source);
    cr_expect(strstr(r->communication_source, "across slices (data-centre network)") != NULL, "%s", r->communication_source);
    int bounded = 0;
    for (int i = 0; i < r->nassumptions; i++)
        bounded |= strstr(r->assumptions[i], "bounded by the data-centre network, 50 Gb/s a chip") != NULL;
    cr_expect(bounded, "no assumption says the data-centre network bounds the plan");
    cr_expect_eq(r->time.dp_link, ADV_LINK_SLICES);

    /* One slice: nothing crosses it, and no such assumption. */
    plan("{\"accelerator\": \"tpu-v5p\", \"devices\": 6144, " V5P_MODEL "}");
    bounded = 0;
    for (int i = 0; i < fx.res->nassumptions; i++) bounded |= strstr(fx.res->assumptions[i], "data-centre") != NULL;
    cr_expect(!bounded);
    cr_expect(strstr(fx.res->communication_source, "data parallel (6144) between nodes") != NULL, "%s",
              fx.res->communication_source);
}

/* v5e: 256-chip slices and 2 x 100 Gb/s per host of 8 chips (3.125 GB/s a chip); v6e 4 x 200 Gb/s
 * per 8 (12.5 GB/s); v4 slices of 4,096 with no published figure between them: not estimated. */
Test(links, slice_sizes_and_networks_by_generation)
{
    static const struct {
        const char *answers;
        double slice, gbs, slices;
    } rows[] = {
        {"{\"accelerator\": \"tpu-v5e\", \"devices\": 512, " V5P_MODEL "}", 256, 3.125, 2},
        {"{\"accelerator\": \"tpu-v5e\", \"devices\": 256, " V5P_MODEL "}", 256, 3.125, 1},
        {"{\"accelerator\": \"tpu-v6e\", \"devices\": 1024, " V5P_MODEL "}", 256, 12.5, 4},
        {"{\"accelerator\": \"tpu-v4\", \"devices\": 8192, " V5P_MODEL "}", 4096, 0, 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        plan(rows[i].answers);
        cr_expect_float_eq(fx.res->in.slice_devices, rows[i].slice, 1e-9, "row %zu", i);
        cr_expect_float_eq(fx.res->in.scale_out_gbs, rows[i].gbs, 1e-9, "row %zu", i);
        cr_expect_float_eq(fx.res->in.slices, rows[i].slices, 1e-9, "row %zu", i);
    }
    /* 512 v5e chips in data parallel: the gradients cross the 3.125 GB/s network. */
    plan("{\"accelerator\": \"tpu-v5e\", \"devices\": 512, " V5P_MODEL "}");
    struct adv_memory m = ddp_layout(512, 512, 4);
    struct adv_time t;
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_expect_eq(t.dp_link, ADV_LINK_SLICES);
    cr_expect(t.dp_hours > 0);
    /* v4 across slices: no figure, so the communication is unknown rather than free. */
    plan("{\"accelerator\": \"tpu-v4\", \"devices\": 8192, " V5P_MODEL "}");
    m = ddp_layout(8192, 512, 4);
    adv_plan_time(fx.akb, fx.res, &m, &t);
    cr_expect_eq(t.dp_link, ADV_LINK_SLICES);
    cr_expect(!t.communication_known);
}

/* The links in words: a node's figure when it has one; a Mac (one GPU a node, link 0 in the
 * catalog) says it has no link in a node rather than "0 GB/s". */
Test(links, a_node_without_a_link_says_so)
{
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 8, \"model_params\": 1e9}");
    cr_expect(strstr(fx.res->communication_source, ", 450 GB/s in a node, 50 GB/s between nodes") != NULL, "%s",
              fx.res->communication_source);
    plan("{\"hardware\": \"apple\", \"accelerator\": \"apple-m4-max\", \"model_params\": 1e9}");
    cr_expect(strstr(fx.res->communication_source, ", no link in a node (one device a node), 15 GB/s between nodes") != NULL,
              "%s", fx.res->communication_source);
    cr_expect(strstr(fx.res->communication_source, " 0 GB/s") == NULL, "%s", fx.res->communication_source);
}
