/* fwadvisor.answers/1: parsing, --set, defaults, and every kind of bad answer. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/answers.h"

static char err[512];

static int parse(struct answers *a, const char *json)
{
    return answers_parse_json(a, json, strlen(json), "answers.json", err, sizeof err);
}

Test(answers, parses_every_key)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"schema\": \"fwadvisor.answers/1\", \"stage\": \"production\", \"hardware\": \"tpu\","
                           " \"os\": \"linux\", \"devices\": 256, \"nodes\": 32, \"device_memory_gb\": 95,"
                           " \"model_kind\": \"llm\", \"model_params\": 7e9, \"tokens\": 1.4e11, \"seq_len\": 4096,"
                           " \"hidden\": 4096, \"layers\": 32, \"heads\": 32, \"team\": [\"jax\", \"keras\"],"
                           " \"functional\": true, \"higher_order_grad\": false, \"deploy\": \"server\","
                           " \"priority\": \"cost\", \"price_per_device_hour\": 1.2}"),
                 0, "%s", err);
    cr_expect_str_eq(answers_str(&a, ANS_STAGE), "production");
    cr_expect_str_eq(answers_str(&a, ANS_HARDWARE), "tpu");
    cr_expect_eq(answers_num(&a, ANS_DEVICES), 256);
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 7e9);
    cr_expect(answers_team_has(&a, "jax") && answers_team_has(&a, "keras") && !answers_team_has(&a, "pytorch"));
    cr_expect(a.v[ANS_FUNCTIONAL].flag);
    cr_expect(a.v[ANS_STAGE].given);
}

Test(answers, plan_keys_parse_and_default)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"accelerator\": \"H100-SXM\", \"precision\": \"fp8\", \"finetune\": \"qlora\","
                           " \"lora_rank\": 64, \"recompute\": \"selective\", \"host_memory_gb\": 512,"
                           " \"active_params\": 1.29e10, \"experts\": 8}"),
                 0, "%s", err);
    cr_expect_str_eq(answers_str(&a, ANS_ACCELERATOR), "h100-sxm", "ids are lower-case");
    cr_expect_str_eq(answers_str(&a, ANS_PRECISION), "fp8");
    cr_expect_str_eq(answers_str(&a, ANS_FINETUNE), "qlora");
    cr_expect_eq(answers_num(&a, ANS_LORA_RANK), 64);
    cr_expect_eq(answers_num(&a, ANS_ACTIVE_PARAMS), 12.9e9);
    struct answers copy = a; /* an id lives inside the struct: a copy keeps it */
    memset(&a, 0, sizeof a);
    cr_expect_str_eq(answers_str(&copy, ANS_ACCELERATOR), "h100-sxm");
    answers_init(&a);
    answers_fill_defaults(&a);
    cr_expect_str_eq(answers_str(&a, ANS_FINETUNE), "full");
    cr_expect_str_eq(answers_str(&a, ANS_RECOMPUTE), "auto");
    cr_expect_eq(answers_num(&a, ANS_LORA_RANK), 16);
    cr_expect_not(answers_has(&a, ANS_ACCELERATOR), "the planner resolves it");
    cr_expect_not(answers_has(&a, ANS_PRECISION), "the planner resolves it from the device");
    answers_init(&a);
    cr_expect_eq(parse(&a, "{\"accelerator\": \"h100 sxm\"}"), -1, "not an id");
    cr_expect(strstr(err, "key 'accelerator'") != NULL, "%s", err);
    cr_expect_eq(parse(&a, "{\"finetune\": \"partial\"}"), -1);
    cr_expect(strstr(err, "full, lora, qlora") != NULL, "%s", err);
    cr_expect_eq(parse(&a, "{\"lora_rank\": 0}"), -1);
}

Test(answers, defaults_follow_design)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{}"), 0, "%s", err);
    answers_fill_defaults(&a);
    cr_expect_str_eq(answers_str(&a, ANS_STAGE), "research");
    cr_expect_str_eq(answers_str(&a, ANS_HARDWARE), "auto");
    cr_expect_str_eq(answers_str(&a, ANS_OS), answers_running_os());
    cr_expect_eq(answers_num(&a, ANS_DEVICES), 1);
    cr_expect_eq(answers_num(&a, ANS_NODES), 1);
    cr_expect_str_eq(answers_str(&a, ANS_MODEL_KIND), "other");
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 1e7);
    cr_expect_not(answers_has(&a, ANS_TOKENS), "tokens default only for llm");
    cr_expect_str_eq(answers_str(&a, ANS_DEPLOY), "none");
    cr_expect_str_eq(answers_str(&a, ANS_PRIORITY), "iteration");
    cr_expect_not(a.v[ANS_STAGE].given, "a default is not the user's answer");
    /* llm: tokens = 20 x params (Chinchilla) */
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"model_kind\": \"llm\", \"model_params\": 1e9}"), 0);
    answers_fill_defaults(&a);
    cr_expect_eq(answers_num(&a, ANS_TOKENS), 2e10);
    /* ... within the largest number an answer holds: 20 x 5e13 = 1e15 exactly; 20 x 7e14 is cut
     * to 1e15 (found by the answers fuzzer) */
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"model_kind\": \"llm\", \"model_params\": 5e13}"), 0);
    answers_fill_defaults(&a);
    cr_expect_eq(answers_num(&a, ANS_TOKENS), 1e15);
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"model_kind\": \"llm\", \"model_params\": 4.9e13}"), 0);
    answers_fill_defaults(&a);
    cr_expect_eq(answers_num(&a, ANS_TOKENS), 9.8e14);
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"model_kind\": \"llm\", \"model_params\": 7e14}"), 0);
    answers_fill_defaults(&a);
    cr_expect_eq(answers_num(&a, ANS_TOKENS), 1e15);
}

Test(answers, set_overrides_the_file_in_order)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"stage\": \"research\", \"devices\": 8}"), 0);
    cr_assert_eq(answers_set(&a, "stage=production", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "devices=16", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "devices=32", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "team=pytorch,jax", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "functional=yes", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "model_params=7.5e9", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "team=", err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(answers_str(&a, ANS_STAGE), "production");
    cr_expect_eq(answers_num(&a, ANS_DEVICES), 32);
    cr_expect_eq(answers_id_count(&a, ANS_TEAM), 0, "team= empties the list");
    cr_expect(a.v[ANS_FUNCTIONAL].flag);
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 7.5e9);
}

struct bad {
    char input[200];
    int is_set; /* 1: a --set assignment, 0: a JSON document */
    char expect[160];
};

static struct bad bads[] = {
    {"{\"hardwre\": \"tpu\"}", 0, "unknown key 'hardwre' (did you mean 'hardware'?)"},
    {"hardwre=tpu", 1, "unknown key 'hardwre' (did you mean 'hardware'?)"},
    {"{\"colour\": \"red\"}", 0, "unknown key 'colour' (keys: stage, hardware"},
    {"{\"stage\": \"prod\"}", 0, "key 'stage': 'prod' is not one of learning, research, prototype, production"},
    {"stage=prod", 1, "key 'stage': 'prod' is not one of learning, research, prototype, production"},
    {"{\"hardware\": \"gpu\"}", 0, "'gpu' is not one of auto, nvidia, amd, tpu, apple, intel, ascend, trainium, gaudi, cpu"},
    {"{\"devices\": 2.5}", 0, "key 'devices': 2.5 is not a whole number from 1 to 1e+15"},
    {"{\"devices\": 0}", 0, "key 'devices': 0 is not a whole number from 1 to 1e+15"},
    {"devices=eight", 1, "key 'devices': 'eight' is not a whole number from 1 to 1e+15"},
    {"{\"devices\": \"8x\"}", 0, "key 'devices': '8x' is not a whole number from 1 to 1e+15 (K, M, B, T suffixes"},
    {"{\"devices\": \"1.5K3\"}", 0, "key 'devices': '1.5K3' is not a whole number"},
    {"{\"devices\": \"2.5\"}", 0, "key 'devices': '2.5' is not a whole number"},
    {"devices=1,2", 1, "key 'devices': '1,2' is not a whole number"},
    {"model_params=0x10", 1, "key 'model_params': '0x10' is not a number >= 1"},
    {"{\"description\": 5}", 0, "description: expected a string"},
    {"{\"device_memory_gb\": 0}", 0, "key 'device_memory_gb': 0 is not a number > 0"},
    {"{\"model_params\": -5}", 0, "key 'model_params': -5 is not a number >= 1"},
    {"{\"team\": \"pytorch\"}", 0, "key 'team': 'pytorch' is not a list of framework ids (fwadvisor kb list frameworks)"},
    {"{\"team\": [\"pytorch\", \"caffe 2\"]}", 0, "key 'team': 'caffe 2' is not a framework id (lower-case letters"},
    {"team=pytorch,caffe!", 1, "key 'team': 'caffe!' is not a framework id"},
    {"{\"functional\": \"yes\"}", 0, "key 'functional': 'yes' is not true or false"},
    {"functional=maybe", 1, "key 'functional': 'maybe' is not true or false"},
    {"{\"priority\": null}", 0, "key 'priority': null is not one of iteration, cost, stability"},
    {"{\"schema\": \"fwadvisor.kb/1\"}", 0, "schema: expected \"fwadvisor.answers/1\""},
    {"[\"stage\", \"research\"]", 0, "expected a JSON object of answers"},
    {"{\"stage\": \"research\",}", 0, "malformed JSON at byte 21"},
    {"{\"stage\": \"research\"} {}", 0, "text after the document"},
    {"stage", 1, "--set stage: expected KEY=VALUE"},
    {"=research", 1, "expected KEY=VALUE"},
};

ParameterizedTestParameters(answers, bad_answers_name_key_values_and_typo)
{
    return cr_make_param_array(struct bad, bads, sizeof bads / sizeof bads[0]);
}

ParameterizedTest(struct bad *b, answers, bad_answers_name_key_values_and_typo)
{
    struct answers a, before;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"stage\": \"learning\", \"devices\": 4}"), 0);
    before = a;
    int rc = b->is_set ? answers_set(&a, b->input, err, sizeof err) : parse(&a, b->input);
    cr_expect_eq(rc, -1, "%s was accepted", b->input);
    cr_expect(strstr(err, b->expect) != NULL, "%s: error '%s' lacks '%s'", b->input, err, b->expect);
    cr_expect(strchr(err, '\n') == NULL, "error must be one line");
    cr_expect(memcmp(&a, &before, sizeof a) == 0, "%s: a rejected input changed the answers", b->input);
}

Test(answers, conditions_match_as_documented)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(parse(&a, "{\"stage\": \"production\", \"devices\": 16, \"team\": [\"jax\"], \"functional\": true}"), 0);
    answers_fill_defaults(&a);
    struct { const char *cond; int want; } cases[] = {
        {"{}", 1},
        {"{\"stage\": \"production\"}", 1},
        {"{\"stage\": \"research\"}", 0},
        {"{\"stage\": [\"research\", \"production\"]}", 1},
        {"{\"team\": \"jax\"}", 1},
        {"{\"team\": \"pytorch\"}", 0},
        {"{\"team\": [\"pytorch\", \"jax\"]}", 1},
        {"{\"devices\": {\">=\": 8, \"<=\": 16}}", 1},
        {"{\"devices\": {\">\": 16}}", 0},
        {"{\"functional\": true}", 1},
        {"{\"higher_order_grad\": true}", 0},
        {"{\"not\": {\"team\": [\"pytorch\", \"tensorflow\"]}}", 1},
        {"{\"any\": [{\"stage\": \"learning\"}, {\"devices\": {\"==\": 16}}]}", 1},
        {"{\"any\": [{\"stage\": \"learning\"}, {\"devices\": {\"==\": 8}}]}", 0},
        {"{\"tokens\": {\">\": 0}}", 0}, /* absent keys never match */
        {"{\"stage\": \"production\", \"devices\": {\"<\": 8}}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *c = cJSON_Parse(cases[i].cond);
        cr_assert_not_null(c);
        cr_expect_eq(answers_match(&a, c), cases[i].want, "%s", cases[i].cond);
        cJSON_Delete(c);
    }
}

Test(answers, json_has_every_key)
{
    struct answers a;
    answers_init(&a);
    answers_fill_defaults(&a);
    cJSON *doc = answers_to_json(&a);
    cr_expect_eq(cJSON_GetArraySize(doc), ANS_KEY_COUNT);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(doc, "price_per_device_hour")));
    cr_expect(cJSON_IsArray(cJSON_GetObjectItem(doc, "team")));
    cJSON_Delete(doc);
}

#include "knowledge/presets.h"

/* Every preset's answers come back the same through the interface's "show as command" line (each
 * --set applied in turn) and through its "save answers" file (parsed again): the answers JSON of
 * both equals the original's, key by key, and only given keys are written. */
Test(answers, command_line_and_saved_file_give_the_same_answers)
{
    for (size_t p = 0; p < presets_size(); p++) {
        const char *text = preset_text(p);
        struct answers orig, back, file;
        answers_init(&orig);
        cr_assert_eq(answers_parse_json(&orig, text, strlen(text), "preset", err, sizeof err), 0, "%s", err);
        answers_fill_defaults(&orig); /* the defaults are present, not given: neither is written */
        char cmd[4096];
        size_t len = answers_command(&orig, cmd, sizeof cmd);
        cr_assert_lt(len, sizeof cmd - 1);
        cr_assert(strncmp(cmd, "fwadvisor recommend", 19) == 0, "%s", cmd);
        answers_init(&back);
        char *save = NULL, *word = strtok_r(cmd + 19, " ", &save);
        int sets = 0;
        for (; word; word = strtok_r(NULL, " ", &save)) {
            if (strcmp(word, "--set") == 0) continue;
            cr_assert(strchr(word, '\'') == NULL, "a preset's values need no quotes: %s", word);
            cr_assert_eq(answers_set(&back, word, err, sizeof err), 0, "%s: %s", word, err);
            sets++;
        }
        int given = 0;
        for (int i = 0; i < ANS_KEY_COUNT; i++) given += orig.v[i].given;
        cr_expect_eq(sets, given, "one --set per given key");
        cJSON *saved = answers_given_json(&orig);
        cr_assert_not_null(saved);
        cr_expect_str_eq(cJSON_GetObjectItem(saved, "schema")->valuestring, "fwadvisor.answers/1");
        cr_expect_eq(cJSON_GetArraySize(saved), given + 1, "the schema and the given keys");
        char *saved_text = cJSON_Print(saved);
        answers_init(&file);
        cr_assert_eq(answers_parse_json(&file, saved_text, strlen(saved_text), "saved", err, sizeof err), 0, "%s", err);
        answers_fill_defaults(&back);
        answers_fill_defaults(&file);
        cJSON *a = answers_to_json(&orig), *b = answers_to_json(&back), *c = answers_to_json(&file);
        char *sa = cJSON_PrintUnformatted(a), *sb = cJSON_PrintUnformatted(b), *sc = cJSON_PrintUnformatted(c);
        cr_expect_str_eq(sb, sa, "preset %zu via the command line", p);
        cr_expect_str_eq(sc, sa, "preset %zu via the saved file", p);
        free(sa), free(sb), free(sc), free(saved_text);
        cJSON_Delete(a), cJSON_Delete(b), cJSON_Delete(c), cJSON_Delete(saved);
    }
}

/* Numbers in their shortest exact form ("7e10", never "7e+10" or "70000000000.000"), lists joined
 * by commas, an empty answers set the bare command. */
Test(answers, command_line_numbers_and_lists)
{
    struct answers a;
    answers_init(&a);
    char cmd[512];
    answers_command(&a, cmd, sizeof cmd);
    cr_expect_str_eq(cmd, "fwadvisor recommend");
    cr_assert_eq(answers_set(&a, "model_params=7e10", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "team=pytorch,jax", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "price_per_device_hour=2.49", err, sizeof err), 0, "%s", err);
    answers_command(&a, cmd, sizeof cmd);
    cr_expect(strstr(cmd, " --set model_params=70B") != NULL, "%s", cmd);
    cr_expect(strstr(cmd, " --set team=pytorch,jax") != NULL, "%s", cmd);
    cr_expect(strstr(cmd, " --set price_per_device_hour=2.49") != NULL, "%s", cmd);
    cr_expect(strstr(cmd, "e+") == NULL, "%s", cmd);
    /* a whole number no suffix divides stays whole; 1.4T is 1400B; a fraction is exact */
    cr_assert_eq(answers_set(&a, "devices=2000", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "tokens=1.4T", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "price_per_device_hour=0.00000025", err, sizeof err), 0, "%s", err);
    answers_command(&a, cmd, sizeof cmd);
    cr_expect(strstr(cmd, " --set devices=2000 ") != NULL, "%s", cmd);
    cr_expect(strstr(cmd, " --set tokens=1400B") != NULL, "%s", cmd);
    cr_expect(strstr(cmd, " --set price_per_device_hour=2.5e-7") != NULL, "%s", cmd);
}
