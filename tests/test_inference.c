/* The inference plan: KV cache and weights worked by hand, the fewest devices, the largest batch
 * and context on both sides of the fit boundary, decode against the bandwidth formula, prefill
 * against the FLOP count, the serving device and precisions, and bad input. GB are 10^9 bytes.
 *
 * The fit rule is the training plan's: weights and cache x (1 + 5% allocator) + 1 GB framework
 * <= 90% of device memory. On an 80 GB H100 the weights and cache may take
 * (0.9 x 80 - 1) / 1.05 = 67.619047619 GB. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor_kb.h"
#include "knowledge/planner.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_kb *akb;
static struct adv_result *res;
static const struct adv_inference *inf;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    akb = fx.akb;
    res = fx.res;
    inf = &res->inference;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(inference, .init = setup, .fini = teardown);

static int plan_with(const char *json, const struct adv_hw *hw)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(answers_parse_json(&a, json, strlen(json), "answers", err, sizeof err), 0, "%s", err);
    return adv_recommend(akb, &a, hw, res, err, sizeof err);
}

static void plan(const char *json) { cr_assert_eq(plan_with(json, NULL), KB_OK, "%s", err); }

/* The serving layout the last plan chose: tensor ranks, pipeline stages and whether it fits. */
static void expect_layout(int tp, int pp, int fits)
{
    cr_expect_eq(inf->tensor_parallel, tp);
    cr_expect_eq(inf->pipeline_parallel, pp);
    cr_expect_eq(inf->fits, fits);
}

/* A Llama-2/3-70B-like model (80 layers, hidden 8192, 64 heads of 128, 8 KV heads) served from H100s. */
#define LLAMA70 "\"model_kind\": \"llm\", \"model_params\": 70e9, \"hidden\": 8192, \"layers\": 80, \"heads\": 64, " \
                "\"kv_heads\": 8, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\""
/* A Llama-3-8B-like model: 32 layers, hidden 4096, 32 heads, 8 KV heads. */
#define LLAMA8 "\"model_kind\": \"llm\", \"model_params\": 8.03e9, \"hidden\": 4096, \"layers\": 32, \"heads\": 32, " \
               "\"kv_heads\": 8, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\""

Test(inference, formulas)
{
    /* 2 (K, V) x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes per token. */
    cr_expect_float_eq(plan_kv_cache_bytes(80, 8, 128, 1, 2), 327680, 1e-9);
    cr_expect_float_eq(plan_kv_cache_bytes(80, 8, 128, 8192 * 32, 1), 327680.0 / 2 * 8192 * 32, 1e-3);
    /* PagedAttention's OPT-13B (Kwon et al. 2023): 2 x 5120 x 40 layers x 2 bytes = 800 KB per token. */
    cr_expect_float_eq(plan_kv_cache_bytes(40, 40, 128, 1, 2), 800 * 1024, 1e-9);
    /* 56.47483648 GB at 3,350 GB/s. */
    cr_expect_float_eq(plan_decode_step_seconds(35e9, 21.47483648e9, 3350), 56.47483648 / 3350, 1e-15);
    cr_expect_float_eq(plan_decode_step_seconds(35e9, 1e9, 0), 0, 1e-15, "no bandwidth, no estimate");
    /* 2 x 70e9 x 8192 + 2 x 80 x 8192 x 8192^2 = 1.14688e15 + 8.796093022208e13. */
    cr_expect_float_eq(plan_prefill_flops(70e9, 80, 8192, 8192), 1.23484093022208e15, 1);
}

Test(inference, kv_cache_and_weights_of_a_70b_model_with_gqa)
{
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32}");
    cr_assert(inf->planned);
    cr_expect_float_eq(inf->head_dim, 128, 1e-12, "8192 / 64");
    cr_expect_float_eq(inf->kv_bytes_per_token, 327680, 1e-9);
    /* 327,680 x 8,192 tokens x 32 sequences = 85,899,345,920 bytes. */
    cr_expect_float_eq(inf->kv_cache_gb, 85.89934592, 1e-9);
    cr_expect_float_eq(inf->weights_gb, 140, 1e-9, "70e9 x 2 bytes (bf16)");
    cr_expect_str_eq(inf->precision, "bf16");
    cr_expect_str_eq(inf->kv_precision, "bf16");
    /* tp 2: (70 + 42.95) x 1.05 + 1 = 119.6 GB > 72; tp 4: (35 + 21.47483648) x 1.05 + 1 = 60.298578304 GB. */
    expect_layout(4, 1, 1);
    cr_expect_float_eq(inf->weights_gb_per_device, 35, 1e-9);
    cr_expect_float_eq(inf->kv_gb_per_device, 21.47483648, 1e-9);
    cr_expect_float_eq(inf->total_gb_per_device, 60.298578304, 1e-9);
    /* Largest batch at 8192 on the 4: (67.619047619 - 35) / 0.67108864 = 48.6; context for 32:
     * (67.619047619e9 - 35e9) / (327680 x 32 / 4) = 12443.2. One device cannot hold 140 GB. */
    cr_expect_float_eq(inf->max_batch, 48, 1e-12);
    cr_expect_float_eq(inf->max_context, 12443, 1e-12);
    cr_expect_float_eq(inf->max_batch_one_device, 0, 1e-12);
    cr_expect_float_eq(answers_num(&res->answers, ANS_SERVE_CONTEXT), 8192, 1e-12);

    /* An 8-bit cache is half: fp8 on Hopper, int8 anywhere. */
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32, \"kv_precision\": \"fp8\"}");
    cr_expect_float_eq(inf->kv_cache_gb, 42.94967296, 1e-9);
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32, \"kv_precision\": \"int8\"}");
    cr_expect_float_eq(inf->kv_cache_gb, 42.94967296, 1e-9);
    /* FP8 weights are one byte per parameter. */
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32, \"precision\": \"fp8\"}");
    cr_expect_float_eq(inf->weights_gb, 70, 1e-9);
}

Test(inference, decode_is_bound_by_memory_bandwidth_and_prefill_by_compute)
{
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32}");
    /* Each token reads a rank's weights and cache: (140/4 + 85.89934592/4) GB at 3,350 GB/s. */
    double step = (140e9 / 4 + 85.89934592e9 / 4) / 3350e9;
    cr_expect_float_eq(inf->bandwidth_gbs, 3350, 1e-9);
    cr_expect_eq(inf->bandwidth_measured, 0);
    cr_expect(strncmp(inf->bandwidth_source, "catalog:", 8) == 0, "%s", inf->bandwidth_source);
    cr_expect_float_eq(inf->decode_step_s, step, 1e-15);
    cr_expect_float_eq(inf->decode_tokens_per_s_per_sequence, 59.3184541789, 1e-6);
    cr_expect_float_eq(inf->decode_tokens_per_s, 1898.1905337249, 1e-6);
    /* 32 x 1.23484093022208e15 FLOP at 4 x 989.4 TFLOP/s dense bf16: 9.98 s at the least. */
    cr_expect_float_eq(inf->prefill_flops, 3.951490976710656e16, 1e3);
    cr_expect_float_eq(inf->peak_tflops, 989.4, 1e-9);
    cr_expect_float_eq(inf->prefill_s, 3.951490976710656e16 / (4 * 989.4e12), 1e-9);
    cr_expect_float_eq(inf->prefill_s_per_sequence, inf->prefill_s / 32, 1e-12);
}

Test(inference, a_measured_bandwidth_replaces_the_catalog)
{
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    strcpy(hw.source, "probe");
    strcpy(hw.kind, "nvidia");
    strcpy(hw.name, "NVIDIA H100 80GB HBM3");
    hw.count = 1;
    strcpy(hw.catalog_id, "h100-sxm");
    hw.memory_bandwidth_gbs = 3000;
    strcpy(hw.bandwidth_source, "copy kernel, probe run 7");
    const char *answers = "{\"model_kind\": \"llm\", \"model_params\": 70e9, \"hidden\": 8192, \"layers\": 80, "
                          "\"heads\": 64, \"kv_heads\": 8, \"deploy\": \"server\", \"hardware\": \"nvidia\", "
                          "\"serve_context\": 8192, \"serve_batch\": 32}";
    cr_assert_eq(plan_with(answers, &hw), KB_OK, "%s", err);
    cr_expect_str_eq(answers_str(&res->answers, ANS_ACCELERATOR), "h100-sxm", "matched from the driver's name");
    cr_expect_eq(inf->bandwidth_measured, 1);
    cr_expect_float_eq(inf->bandwidth_gbs, 3000, 1e-9);
    cr_expect(strstr(inf->bandwidth_source, "measured") && strstr(inf->bandwidth_source, "probe run 7"), "%s",
              inf->bandwidth_source);
    /* 32 x 3000 / 56.47483648 = 1699.87 tokens/s. */
    cr_expect_float_eq(inf->decode_tokens_per_s, 1699.8721197537, 1e-6);
    cr_expect_eq(adv_measured_used(res, "memory_bandwidth"), 1, "plan.measured says the figure was used");
    /* The measured device answered by its id: still measured; another device answered: the
     * catalog's, as for the training peak. */
    cr_assert_eq(plan_with("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32}", &hw), KB_OK, "%s", err);
    cr_expect_eq(inf->bandwidth_measured, 1);
    cr_assert_eq(plan_with("{\"model_kind\": \"llm\", \"model_params\": 70e9, \"hidden\": 8192, \"layers\": 80, "
                           "\"heads\": 64, \"kv_heads\": 8, \"deploy\": \"server\", \"accelerator\": \"h200-sxm\"}",
                           &hw),
                 KB_OK, "%s", err);
    cr_expect_eq(inf->bandwidth_measured, 0);
    cr_expect_float_eq(inf->bandwidth_gbs, 4800, 1e-9);
    cr_expect_eq(adv_measured_used(res, "memory_bandwidth"), 0);
}

Test(inference, largest_batch_on_one_h100_both_sides_of_the_boundary)
{
    /* 8B: weights 16.06 GB, cache 2 x 32 x 8 x 128 x 2 = 131,072 bytes per token, 1.073741824 GB per
     * sequence of 8192. (67.619047619 - 16.06) / 1.073741824 = 48.02 sequences. */
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"serve_batch\": 48}");
    cr_expect_float_eq(inf->max_batch_one_device, 48, 1e-12);
    cr_expect_float_eq(inf->max_batch, 48, 1e-12);
    /* 48: (16.06 + 51.539607552) x 1.05 + 1 = 71.98 GB <= 72 on one device. */
    cr_expect_eq(inf->tensor_parallel, 1);
    cr_expect_eq(inf->fits, 1);
    cr_expect_float_eq(inf->total_gb_per_device, 71.9795879296, 1e-9);
    /* 49: (16.06 + 52.613349376) x 1.05 + 1 = 73.11 GB > 72: two devices. */
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"serve_batch\": 49}");
    cr_expect_eq(inf->tensor_parallel, 2);
    cr_expect_float_eq(inf->max_batch_one_device, 48, 1e-12);
    /* One sequence may be (67.619047619e9 - 16.06e9) / 131072 = 393,364 tokens long: memory says so
     * when the position limit is unknown, the limit when seq_len is answered for a model trained here. */
    plan("{" LLAMA8 ", \"serve_context\": 8192}");
    cr_expect_float_eq(inf->max_context, 393364, 1e-12);
    cr_expect_eq(inf->max_context_capped, 0);
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"seq_len\": 8192}");
    cr_expect_float_eq(inf->max_context, 8192, 1e-12);
    cr_expect_eq(inf->max_context_capped, 1);
}

/* The largest batch in words: on one device once; on several, the devices' figure and then one
 * device's (48 sequences of 8192 fit one H100; 49 take two, which hold more). */
Test(inference, largest_batch_in_words)
{
    static char text[8192];
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"serve_batch\": 48}");
    text[0] = '\0';
    adv_inference_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    cr_expect(strstr(text, "Largest: 48 sequences of 8192 tokens on one device; context up to") != NULL, "%s", text);
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"serve_batch\": 49}");
    text[0] = '\0';
    adv_inference_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    char want[96];
    snprintf(want, sizeof want, "Largest: %.0f sequences of 8192 tokens on these devices; 48 on one device;", inf->max_batch);
    cr_expect(strstr(text, want) != NULL, "'%s' not in:\n%s", want, text);
}

Test(inference, largest_batch_on_eight_h100_with_tensor_parallelism)
{
    /* tp 4 holds 48 sequences of 8192 (above): 49 need 8. On 8: 17.5 GB of weights, 0.33554432 GB
     * of cache per sequence and device; (67.619047619 - 17.5) / 0.33554432 = 149.4. */
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 49}");
    cr_expect_eq(inf->tensor_parallel, 8);
    cr_expect_eq(inf->pipeline_parallel, 1);
    cr_expect_float_eq(inf->max_batch, 149, 1e-12);
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 149}");
    expect_layout(8, 1, 1);
    /* 150: (17.5 + 50.331648) x 1.05 + 1 = 72.22 GB: a second node of 8 as pipeline stage. */
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 150}");
    expect_layout(8, 2, 1);
    cr_expect_float_eq(inf->weights_gb_per_device, 8.75, 1e-9);
}

/* The context the position limit cuts, on both sides of the limit: memory holds 393,364 tokens of
 * one sequence (above), so a limit of exactly that cuts nothing, and one token less cuts it. */
Test(inference, context_cap_at_the_position_limit_both_sides)
{
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"seq_len\": 393364}");
    cr_expect_float_eq(inf->max_context, 393364, 1e-12);
    cr_expect_eq(inf->max_context_capped, 0, "a limit equal to what memory holds cuts nothing");
    plan("{" LLAMA8 ", \"serve_context\": 8192, \"seq_len\": 393363}");
    cr_expect_float_eq(inf->max_context, 393363, 1e-12);
    cr_expect_eq(inf->max_context_capped, 1);
}

/* Pipeline stages go up to the model's layer count and no further: one head, so no tensor
 * parallelism; 50e9 parameters are 100 GB of weights, which two stages of one layer each hold
 * (50 GB a device) and one layer cannot be split. */
Test(inference, pipeline_stages_up_to_the_layer_count)
{
#define ONE_HEAD "\"model_kind\": \"llm\", \"model_params\": 50e9, \"hidden\": 8192, \"heads\": 1, \"kv_heads\": 1, " \
                 "\"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"serve_context\": 1024, \"serve_batch\": 1"
    plan("{" ONE_HEAD ", \"layers\": 2}");
    expect_layout(1, 2, 1);
    plan("{" ONE_HEAD ", \"layers\": 1}");
    expect_layout(1, 1, 0);
#undef ONE_HEAD
}

/* The layout search's fit at exactly its headroom, in the tensor-parallel loop and in the pipeline
 * loop, with the device memory chosen to the last bit (as the training plan's boundary test):
 * both models below take 20e9 bytes of weights and cache on one layout, 20e9 x 1.05 + 1e9 = 22e9
 * bytes in all, and 0.9 x 24.444444444444443 GB is exactly 22 GB.
 *   tp: an 8B-like shape (131,072 bytes of cache a token, 1,073,741,824 for 8192 tokens) with
 *       9,463,129,088 parameters (18,926,258,176 bytes): one device at the boundary, two
 *       (11.5 GB each) one ulp below it.
 *   pp: one head, so no tensor parallelism; 2 layers x 8192 x 2 (K, V) x 2 bytes = 65,536 bytes a
 *       token, 67,108,864 for 1024; 19,966,445,568 parameters on two stages hold 19,966,445,568 +
 *       33,554,432 bytes each (43 GB on one device): two stages at the boundary, no fit one ulp
 *       below it (a third stage would need a third layer). */
Test(inference, the_layout_fits_at_exactly_its_headroom)
{
    static const struct {
        double memory; /* printed with %.17g, read back to the same double */
        int tp_devices, pp_fits;
    } cases[] = {
        {24.444444444444443, 1, 1}, /* 0.9 x m == 22.0 exactly */
        {24.44444444444444, 2, 0},  /* one ulp below: 21.999999999999996 < 22 */
        {24.444444444444446, 1, 1}, /* one ulp above */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[400];
        snprintf(json, sizeof json,
                 "{\"model_kind\": \"llm\", \"model_params\": 9463129088, \"hidden\": 4096, \"layers\": 32, \"heads\": 32, "
                 "\"kv_heads\": 8, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"serve_context\": 8192, "
                 "\"serve_batch\": 1, \"device_memory_gb\": %.17g}",
                 cases[i].memory);
        plan(json);
        cr_expect(inf->usable_gb == cases[i].memory, "case %zu: usable %.17g", i, inf->usable_gb);
        cr_expect_eq(inf->tensor_parallel, cases[i].tp_devices, "case %zu: tp %d", i, inf->tensor_parallel);
        cr_expect_eq(inf->fits, 1, "case %zu", i);
        cr_expect(inf->total_gb_per_device == (cases[i].tp_devices == 1 ? 22.0 : 11.5), "case %zu: total %.17g", i,
                  inf->total_gb_per_device);

        snprintf(json, sizeof json,
                 "{\"model_kind\": \"llm\", \"model_params\": 19966445568, \"hidden\": 8192, \"layers\": 2, \"heads\": 1, "
                 "\"kv_heads\": 1, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"serve_context\": 1024, "
                 "\"serve_batch\": 1, \"device_memory_gb\": %.17g}",
                 cases[i].memory);
        plan(json);
        cr_expect_eq(inf->tensor_parallel, 1, "case %zu", i);
        cr_expect_eq(inf->pipeline_parallel, cases[i].pp_fits ? 2 : 1, "case %zu: pp %d", i, inf->pipeline_parallel);
        cr_expect_eq(inf->fits, cases[i].pp_fits, "case %zu", i);
        cr_expect(inf->total_gb_per_device == (cases[i].pp_fits ? 22.0 : 43.0), "case %zu: total %.17g", i,
                  inf->total_gb_per_device);
    }
}

Test(inference, tensor_ranks_beyond_the_kv_heads_hold_copies)
{
    /* 4 KV heads: 163,840 bytes per token, 134.217728 GB for 100 x 8192. tp 4: 35 + 33.55 GB,
     * x 1.05 + 1 = 72.98 > 72; tp 8 splits the weights 8 ways but the cache only 4. */
    plan("{\"model_kind\": \"llm\", \"model_params\": 70e9, \"hidden\": 8192, \"layers\": 80, \"heads\": 64, "
         "\"kv_heads\": 4, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"serve_context\": 8192, "
         "\"serve_batch\": 100}");
    cr_expect_float_eq(inf->kv_cache_gb, 134.217728, 1e-9);
    cr_expect_eq(inf->tensor_parallel, 8);
    cr_expect_float_eq(inf->weights_gb_per_device, 17.5, 1e-9);
    cr_expect_float_eq(inf->kv_gb_per_device, 33.554432, 1e-9);
}

Test(inference, serving_device_and_precisions)
{
    /* A device without BF16 stores the cache in fp16 when kv_precision is not answered. */
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"v100-sxm2-32gb\"}");
    cr_expect_str_eq(inf->kv_precision, "fp16");
    cr_expect_float_eq(inf->kv_bytes_per_value, 2, 1e-12);
    cr_expect_eq(answers_has(&res->answers, ANS_KV_PRECISION), 0, "the answer stays unset: fp16 is not one of its values");
    cr_expect_gt(inf->nnotes, 0);
    /* Serving elsewhere than training: the vendor's usual device, assumed and said so. */
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", "
         "\"deploy_hardware\": \"amd\"}");
    cr_expect_eq(inf->assumed, 1);
    cr_assert_geq(inf->accelerator, 0);
    cr_expect_str_eq(akb->acc[inf->accelerator].id, "mi300x");
    cr_expect_float_eq(inf->bandwidth_gbs, 5300, 1e-9);
    cr_expect(strstr(inf->notes[0], "mi300x") != NULL, "%s", inf->notes[0]);
    /* Serving on a CPU of unknown memory: no fit, no decode estimate, and no crash. */
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", "
         "\"deploy_hardware\": \"cpu\"}");
    cr_expect_eq(inf->fits, -1);
    cr_expect_float_eq(inf->max_batch, -1, 1e-12);
    cr_expect_float_eq(inf->decode_tokens_per_s, 0, 1e-12);
    cJSON *doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cJSON *i = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "inference");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(i, "fits")));
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(i, "decode"), "tokens_per_s")));
    cJSON_Delete(doc);
}

Test(inference, only_for_llms_served_from_a_server)
{
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"accelerator\": \"h100-sxm\"}");
    cr_expect_eq(inf->planned, 0, "deploy none");
    cr_expect_eq(answers_has(&res->answers, ANS_SERVE_CONTEXT), 0);
    cJSON *doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "inference")));
    cJSON_Delete(doc);
    plan("{\"model_kind\": \"vision\", \"deploy\": \"server\", \"serve_batch\": 8}");
    cr_expect_eq(inf->planned, 0, "not an LLM");
    int said = 0;
    for (int i = 0; i < res->nassumptions; i++) said |= strstr(res->assumptions[i], "no inference plan") != NULL;
    cr_expect(said, "answered serving keys that plan nothing are said to");
}

Test(inference, report_json)
{
    plan("{" LLAMA70 ", \"serve_context\": 8192, \"serve_batch\": 32}");
    cJSON *doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cJSON *i = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "inference");
    cr_assert(cJSON_IsObject(i));
    cr_expect_float_eq(cJSON_GetObjectItem(i, "kv_cache_gb")->valuedouble, 85.899, 1e-9);
    cr_expect_float_eq(cJSON_GetObjectItem(i, "weights_gb")->valuedouble, 140, 1e-9);
    cr_expect_float_eq(cJSON_GetObjectItem(i, "kv_bytes_per_token")->valuedouble, 327680, 1e-9);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(i, "layout"), "devices")->valueint, 4);
    cr_expect_float_eq(cJSON_GetObjectItem(i, "max_batch")->valuedouble, 48, 1e-9);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(i, "decode"), "bandwidth_source")->valuestring, "catalog");
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(i, "device"), "accelerator")->valuestring, "h100-sxm");
    cr_expect_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "answers"), "kv_heads")->valuedouble, 8, 1e-9);
    cJSON_Delete(doc);
}

struct bad_case {
    char answers[240];
    char message[120];
};

static struct bad_case bad_cases[] = {
    {"{\"model_kind\": \"llm\", \"model_params\": 70e9, \"heads\": 64, \"kv_heads\": 6}",
     "keys 'kv_heads' and 'heads': kv_heads 6 does not divide heads 64 ("},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"kv_heads\": 7}", "heads 32, derived from model_params (set heads)"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"heads\": 32, \"kv_heads\": 64}", "kv_heads 64 does not divide heads 32"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"seq_len\": 4096, \"serve_context\": 4097, \"deploy\": \"server\"}",
     "keys 'serve_context' and 'seq_len': serve_context 4097 is above the model's position limit"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"a100-sxm4-80gb\", "
     "\"kv_precision\": \"fp8\"}",
     "keys 'kv_precision' and 'accelerator': a100-sxm4-80gb (NVIDIA A100 SXM4 80GB) has no fp8"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"v100-sxm2-32gb\", "
     "\"kv_precision\": \"bf16\"}",
     "keys 'kv_precision' and 'accelerator': v100-sxm2-32gb (NVIDIA Tesla V100 SXM2 32GB) has no bf16"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"hardware\": \"nvidia\", "
     "\"deploy_hardware\": \"tpu\", \"kv_precision\": \"fp8\"}",
     "keys 'kv_precision' and 'deploy_hardware': tpu-v5e"},
    {"{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", "
     "\"precision\": \"fp8\", \"deploy_hardware\": \"tpu\"}",
     "keys 'precision' and 'deploy_hardware': no fp8 on tpu-v5e"},
};

ParameterizedTestParameters(inference, bad_input_names_the_keys)
{
    return cr_make_param_array(struct bad_case, bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
}

ParameterizedTest(struct bad_case *c, inference, bad_input_names_the_keys)
{
    cr_assert_eq(plan_with(c->answers, NULL), KB_ERR_INPUT, "accepted: %s", c->answers);
    cr_expect(strstr(err, c->message) != NULL, "message: %s\nwant: %s", err, c->message);
}

Test(inference, the_other_side_of_each_bad_input_is_accepted)
{
    plan("{\"model_kind\": \"llm\", \"model_params\": 70e9, \"heads\": 64, \"kv_heads\": 8}");
    /* The position limit itself, and a fine-tune (whose base's limit the answers do not give). */
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"seq_len\": 4096, \"serve_context\": 4096, \"deploy\": \"server\"}");
    cr_expect_float_eq(inf->position_limit, 4096, 1e-12);
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"seq_len\": 4096, \"serve_context\": 32768, \"deploy\": \"server\", "
         "\"finetune\": \"lora\"}");
    cr_expect_float_eq(inf->position_limit, -1, 1e-12);
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"a100-sxm4-80gb\", "
         "\"kv_precision\": \"int8\"}");
    cr_expect_str_eq(inf->kv_precision, "int8");
    plan("{\"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", "
         "\"kv_precision\": \"fp8\"}");
    cr_expect_str_eq(inf->kv_precision, "fp8");
}
