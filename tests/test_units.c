/* Numbers as people write and read them (common/units.h), "did you mean"
 * (common/suggest.h), and the answers that use both: suffixes, any case, contradictions. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "knowledge/answers.h"
#include "common/suggest.h"
#include "common/units.h"

Test(units, durations_switch_unit_at_each_boundary)
{
    /* seconds below 90, minutes below 90, hours up to 72, days up to 60, months up to 24
     * (30.4375 days each), then years (365.25 days); one decimal below 10, ".0" dropped. */
    static const struct { double seconds; const char *want; } cases[] = {
        {0, "0 seconds"},
        {1, "1 second"},
        {0.042, "0.042 seconds"},
        {0.35, "0.35 seconds"},
        {2.25, "2.2 seconds"},        /* %.1f of 2.25 rounds to even: 2.2 */
        {89.4, "89 seconds"},
        {90, "1.5 minutes"},          /* 90 s = 1.5 min */
        {60 * 89, "89 minutes"},
        {60 * 90, "1.5 hours"},       /* 90 min */
        {3600, "1 hour"},             /* below 90 min: minutes, so 60 minutes */
        {72 * 3600, "72 hours"},      /* the last in hours */
        {72 * 3600 + 36, "3 days"},   /* 72.01 h = 3.0004 days */
        {60 * 86400, "60 days"},
        {61 * 86400, "2 months"},     /* 61 / 30.4375 = 2.004 */
        {24 * 30.4375 * 86400, "24 months"},
        {25 * 30.4375 * 86400, "2.1 years"}, /* 761 days / 365.25 = 2.083 */
        {1234.4 * 365.25 * 86400, "1,234 years"},
        {-1, "unknown"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        units_duration(cases[i].seconds, out, sizeof out);
        if (cases[i].seconds == 3600) cr_expect_str_eq(out, "60 minutes", "3600 s is below 90 minutes");
        else cr_expect_str_eq(out, cases[i].want, "%g s", cases[i].seconds);
    }
    cr_expect_str_eq(units_duration(NAN, out, sizeof out), "unknown");
    cr_expect_str_eq(units_hours(1.5, out, sizeof out), "1.5 hours");
    cr_expect_str_eq(units_hours(856.8 * 24, out, sizeof out), "2.3 years", "856.8 days = 2.35 years");
    cr_expect_str_eq(units_hours(28.2 * 30.4375 * 24, out, sizeof out), "2.4 years", "28.2 months = 2.35 years");
}

Test(units, thousands_separators_and_plurals)
{
    char out[64];
    cr_expect_str_eq(units_thousands(0, 0, out, sizeof out), "0");
    cr_expect_str_eq(units_thousands(999, 0, out, sizeof out), "999");
    cr_expect_str_eq(units_thousands(1000, 0, out, sizeof out), "1,000");
    cr_expect_str_eq(units_thousands(1234567.89, 2, out, sizeof out), "1,234,567.89");
    cr_expect_str_eq(units_thousands(-1234567.5, 0, out, sizeof out), "-1,234,568");
    cr_expect_str_eq(units_thousands(213452184, 0, out, sizeof out), "213,452,184");
    cr_expect_str_eq(units_thousands(1e22, 0, out, sizeof out), "1e+22");
    cr_expect_str_eq(units_count(1, "device", "devices", out, sizeof out), "1 device");
    cr_expect_str_eq(units_count(0, "device", "devices", out, sizeof out), "0 devices");
    cr_expect_str_eq(units_count(2048, "reason", "reasons", out, sizeof out), "2,048 reasons");
    cr_expect_str_eq(units_plural(1, "node", "nodes"), "node");
    cr_expect_str_eq(units_plural(1.5, "node", "nodes"), "nodes");
}

Test(units, short_numbers_with_suffixes)
{
    static const struct { double v; const char *want; } cases[] = {
        {512, "512"}, {4096, "4.1K"}, {1.3e9, "1.3B"}, {7e10, "70B"}, {1.8e12, "1.8T"}, {125e6, "125M"},
        {999.4e9, "999B"}, {999.6e9, "1T"}, /* rounds to 1000B in three digits: one step up */
        {4.194304e6, "4.19M"}, {2e15, "2e+15"},
    };
    char out[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_str_eq(units_short(cases[i].v, out, sizeof out), cases[i].want, "%g", cases[i].v);
}

Test(units, numbers_with_suffixes)
{
    static const struct { const char *in; double want; } good[] = {
        {"70B", 70e9}, {"70b", 70e9}, {"2T", 2e12}, {"2.5k", 2500}, {"30M", 30e6}, {"7G", 7e9},
        {"1e9", 1e9}, {"1,024", 1024}, {"12,345,678", 12345678}, {" 8 ", 8}, {"0.5", 0.5}, {".5", 0.5},
        {"1,000.5K", 1000500},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        cr_expect_eq(units_parse(good[i].in, &v), 0, "%s refused", good[i].in);
        cr_expect_eq(v, good[i].want, "%s gave %g", good[i].in, v);
    }
    static const char *const bad[] = {"", "B", "70BB", "70X", "1,2", "1,0000", ",100", "0x10", "inf", "nan",
                                      "7 billion", "1e", "1e999", "12,34,567"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v;
        cr_expect_eq(units_parse(bad[i], &v), -1, "'%s' accepted", bad[i]);
    }
}

Test(suggest, prefix_then_containment_then_edit_distance)
{
    static const char *const commands[] = {"recommend", "probe", "train", "kb", NULL};
    static const char *const presets[] = {"tpu-pod", "mobile-app", "nvidia-2000-gpus", "raspberry-pi", NULL};
    static const char *const ids[] = {"b200", "h100-sxm", "h100-pcie", "h200", "a10g", NULL};
    struct suggest s;
    cr_expect_str_eq(suggest_from(&s, "recomend", commands), "recommend", "one edit");
    cr_expect_str_eq(suggest_from(&s, "Recommend", commands), "recommend", "any case");
    cr_expect_str_eq(suggest_from(&s, "rec", commands), "recommend", "a prefix");
    cr_expect_str_eq(suggest_from(&s, "tpu", presets), "tpu-pod", "a prefix");
    cr_expect_str_eq(suggest_from(&s, "raspberry", presets), "raspberry-pi");
    cr_expect_str_eq(suggest_from(&s, "2000", presets), "nvidia-2000-gpus", "contained");
    cr_expect_str_eq(suggest_from(&s, "h100", ids), "h100-sxm", "the shortest of two prefixes, not b200 (one edit)");
    cr_expect_str_eq(suggest_from(&s, "h100-sxn", ids), "h100-sxm");
    cr_expect_null(suggest_from(&s, "tensorboard", commands), "nothing near");
    cr_expect_null(suggest_from(&s, "kb", commands), "the word itself is no suggestion");
    cr_expect_null(suggest_from(&s, "x", commands), "one letter is near everything two letters long");
    cr_expect_eq(edit_distance("kitten", "SITTING"), 3);
}

static char err[512];

Test(answers_units, suffixes_and_case_in_files_and_set)
{
    struct answers a;
    answers_init(&a);
    const char *doc = "{\"description\": \"a sample\", \"model_params\": \"70B\", \"tokens\": \"2T\", \"devices\": \"2,048\","
                      " \"hardware\": \"NVIDIA\", \"team\": [\"PyTorch\"], \"deploy\": \"Server\"}";
    cr_assert_eq(answers_parse_json(&a, doc, strlen(doc), "a.json", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 70e9);
    cr_expect_eq(answers_num(&a, ANS_TOKENS), 2e12);
    cr_expect_eq(answers_num(&a, ANS_DEVICES), 2048);
    cr_expect_str_eq(answers_str(&a, ANS_HARDWARE), "nvidia", "the allowed value, not the case given");
    cr_expect_str_eq(answers_str(&a, ANS_DEPLOY), "server");
    cr_expect(answers_team_has(&a, "pytorch"));
    cr_assert_eq(answers_set(&a, "model_params=30b", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 30e9);
    cr_assert_eq(answers_set(&a, "price_per_device_hour=2.5", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_num(&a, ANS_PRICE_PER_DEVICE_HOUR), 2.5);
    cr_assert_eq(answers_set(&a, "stage=PRODUCTION", err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(answers_str(&a, ANS_STAGE), "production");
    cr_expect_eq(answers_set(&a, "devices=1.5K", err, sizeof err), 0, "1500 is whole: %s", err);
    cr_expect_eq(answers_set(&a, "devices=1.5", err, sizeof err), -1, "1.5 is not");
    cr_expect_eq(answers_set(&a, "model_params=2000T", err, sizeof err), -1, "2e15 is above the ceiling of 1e15");
}

/* Each contradiction names both keys; both sides of each numeric boundary. */
Test(answers_units, contradictions_name_both_keys)
{
    static const struct { const char *sets[3]; const char *expect; } cases[] = {
        {{"devices=8", "nodes=16"}, "keys 'nodes' and 'devices': nodes 16 is more than devices 8"},
        {{"devices=8", "nodes=9"}, "keys 'nodes' and 'devices'"},
        {{"devices=8", "nodes=8"}, NULL}, /* one device per node: allowed */
        {{"model_params=7e9", "active_params=8e9"}, "keys 'active_params' and 'model_params'"},
        {{"model_params=7e9", "active_params=7e9"}, NULL},
        {{"lora_rank=8", "finetune=full"}, "keys 'lora_rank' and 'finetune': lora_rank applies only with finetune lora, qlora"},
        {{"lora_rank=8", "finetune=qlora"}, NULL},
        {{"deploy_hardware=nvidia", "deploy=none"}, "keys 'deploy_hardware' and 'deploy'"},
        {{"deploy_hardware=auto", "deploy=none"}, NULL},
        {{"deploy_hardware=nvidia", "deploy=server"}, NULL},
        {{"os=macos", "hardware=nvidia"}, "keys 'os' and 'hardware'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct answers a;
        answers_init(&a);
        for (int k = 0; cases[i].sets[k]; k++) cr_assert_eq(answers_set(&a, cases[i].sets[k], err, sizeof err), 0, "%s", err);
        err[0] = '\0';
        int rc = answers_check_combination(&a, err, sizeof err);
        if (!cases[i].expect) {
            cr_expect_eq(rc, 0, "%s %s: %s", cases[i].sets[0], cases[i].sets[1], err);
            continue;
        }
        cr_expect_eq(rc, -1, "%s %s accepted", cases[i].sets[0], cases[i].sets[1]);
        cr_expect(strstr(err, cases[i].expect) != NULL, "'%s' lacks '%s'", err, cases[i].expect);
    }
    /* Left-out answers are not compared: nodes alone is no contradiction until defaults fill devices. */
    struct answers a;
    answers_init(&a);
    cr_assert_eq(answers_set(&a, "nodes=4", err, sizeof err), 0);
    cr_expect_eq(answers_check_combination(&a, err, sizeof err), 0);
    answers_fill_defaults(&a);
    cr_expect_eq(answers_check_combination(&a, err, sizeof err), -1, "devices defaults to 1");
}
