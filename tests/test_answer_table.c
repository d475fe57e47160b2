/* The answer-key table is the one source: docs/report.md's list of answer keys and the report
 * schema's `answers` say what ans_keys says, every key and every value, nothing more; and the
 * wizard's questions take their options and defaults from it. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>

#include "knowledge/answer_keys.h"
#include "knowledge/answers.h"
#include "knowledge/kb_tables.h"
#include "support.h"
#include "tui/app.h"

static char *read_doc(const char *name)
{
    const char *dir = getenv("FWADVISOR_SCHEMA_DIR");
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "docs", name);
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text, "cannot read %s", path);
    return text;
}

/* How the list in docs/report.md writes a key's type. */
static void type_words(const struct ans_key *key, char *out, size_t n)
{
    const char *op = key->min_exclusive ? ">" : ">=";
    switch (key->type) {
    case ANS_ENUM: snprintf(out, n, "one of"); break;
    case ANS_ID_LIST: snprintf(out, n, "list of ids"); break;
    case ANS_INT: snprintf(out, n, "whole number %s %g", op, key->min); break;
    case ANS_NUMBER: snprintf(out, n, "number %s %g", op, key->min); break;
    case ANS_BOOL: snprintf(out, n, "true or false"); break;
    case ANS_ID: snprintf(out, n, "id"); break;
    }
}

/* The backquoted words of a cell, comma-separated ("`a`, `b`" -> "a,b"). */
static void quoted_words(const char *cell, size_t len, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = cell; p < cell + len; p++) {
        if (*p != '`') continue;
        const char *end = memchr(p + 1, '`', (size_t)(cell + len - p - 1));
        if (!end) break;
        used += (size_t)snprintf(out + used, n - used, "%s%.*s", used ? "," : "", (int)(end - p - 1), p + 1);
        p = end;
    }
}

/* The key's values as quoted_words writes them. */
static void choice_words(const struct ans_key *key, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; key->type != ANS_BOOL && i < key->nchoices; i++)
        if (key->type == ANS_ENUM || key->type == ANS_ID_LIST)
            used += (size_t)snprintf(out + used, n - used, "%s%s", used ? "," : "", key->choices[i].value);
}

/* The default as the list writes it: a quoted value, or words. */
static void default_words(const struct ans_key *key, char *out, size_t n)
{
    int choice = answers_default_choice((enum ans_index)(key - ans_keys));
    out[0] = '\0';
    if (key == &ans_keys[ANS_OS]) return; /* the running system: words */
    if ((key->type == ANS_ENUM || key->type == ANS_BOOL) && choice >= 0)
        snprintf(out, n, "%s", key->choices[choice].value);
    else if (key->default_number > 0) snprintf(out, n, "%.15g", key->default_number);
}

/* The cells of one table row "| a | b | c | d |": starts and lengths. */
static int cells(const char *line, const char *eol, const char *start[4], size_t len[4])
{
    int n = 0;
    const char *p = line + 1;
    while (p < eol && n < 4) {
        const char *bar = memchr(p, '|', (size_t)(eol - p));
        if (!bar) break;
        start[n] = p;
        len[n++] = (size_t)(bar - p);
        p = bar + 1;
    }
    return n;
}

Test(answer_table, the_report_doc_lists_every_key_with_its_values_and_default)
{
    char *doc = read_doc("report.md");
    const char *at = strstr(doc, "\n## Answer keys\n");
    cr_assert_not_null(at, "docs/report.md has no Answer keys section");
    const char *end = strstr(at + 1, "\n## ");
    int row = 0;
    for (const char *line = strstr(at, "\n| `"); line && (!end || line < end); line = strstr(line + 1, "\n| `")) {
        line++;
        const char *eol = strchr(line, '\n');
        const char *start[4];
        size_t len[4];
        cr_assert_eq(cells(line, eol ? eol : line + strlen(line), start, len), 4, "%.80s", line);
        char name[64], want[400], have[400];
        quoted_words(start[0], len[0], name, sizeof name);
        cr_assert_lt(row, ans_key_count, "an extra row: %s", name);
        const struct ans_key *key = &ans_keys[row++];
        cr_expect_str_eq(name, key->name, "row %d", row);
        type_words(key, want, sizeof want);
        snprintf(have, sizeof have, "%.*s", (int)len[1] - 2, start[1] + 1);
        cr_expect_str_eq(have, want, "%s's type", key->name);
        choice_words(key, want, sizeof want);
        quoted_words(start[2], len[2], have, sizeof have);
        cr_expect_str_eq(have, want, "%s's values", key->name);
        default_words(key, want, sizeof want);
        quoted_words(start[3], len[3], have, sizeof have);
        cr_expect_str_eq(have, want, "%s's default", key->name);
    }
    cr_expect_eq(row, ans_key_count, "the list has %d of %d keys", row, ans_key_count);
    free(doc);
}

/* The schema's enum of a key as quoted_words writes it, null left out. */
static void schema_words(const cJSON *values, char *out, size_t n)
{
    size_t used = 0;
    const cJSON *v;
    out[0] = '\0';
    cJSON_ArrayForEach(v, values)
        if (cJSON_IsString(v)) used += (size_t)snprintf(out + used, n - used, "%s%s", used ? "," : "", v->valuestring);
}

static int schema_type_has(const cJSON *prop, const char *type)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(prop, "type"), *item;
    if (cJSON_IsString(t)) return strcmp(t->valuestring, type) == 0;
    cJSON_ArrayForEach(item, t)
        if (cJSON_IsString(item) && strcmp(item->valuestring, type) == 0) return 1;
    return 0;
}

/* A list of ids: an array of at most ANS_ID_LIST_MAX strings whose pattern takes what the
 * parser takes (kb_valid_ident's characters), the key's words among them. */
static void check_schema_ids(const struct ans_key *key, const cJSON *prop)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(prop, "items");
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(prop, "maxItems");
    const char *pattern = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(items, "pattern"));
    cr_expect(schema_type_has(prop, "array"), "%s", key->name);
    cr_expect(schema_type_has(items, "string"), "%s's items", key->name);
    cr_expect(cJSON_IsNumber(max) && max->valuedouble == ANS_ID_LIST_MAX, "%s's maxItems", key->name);
    cr_assert_not_null(pattern, "%s's items have no pattern", key->name);
    regex_t re;
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0, "%s", pattern);
    static const char *const samples[] = {"pytorch", "paddlepaddle", "mlx", "jax-0.4_x", "9lives", "PyTorch", "-x",
                                          ".jax", "pad dle", "caffe!", ""};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        cr_expect_eq(regexec(&re, samples[i], 0, NULL, 0) == 0, kb_valid_ident(samples[i]), "'%s' against %s",
                     samples[i], pattern);
    for (int c = 0; c < key->nchoices; c++)
        cr_expect_eq(regexec(&re, key->choices[c].value, 0, NULL, 0), 0, "%s", key->choices[c].value);
    regfree(&re);
}

static void check_schema_key(const struct ans_key *key, const cJSON *prop)
{
    char want[400], have[400];
    switch (key->type) {
    case ANS_ENUM:
        choice_words(key, want, sizeof want);
        /* the report resolves hardware's auto before it is written */
        if (key == &ans_keys[ANS_HARDWARE]) memmove(want, want + strlen("auto,"), strlen(want) - strlen("auto,") + 1);
        schema_words(cJSON_GetObjectItemCaseSensitive(prop, "enum"), have, sizeof have);
        cr_expect_str_eq(have, want, "%s's enum", key->name);
        break;
    case ANS_ID_LIST: check_schema_ids(key, prop); break;
    case ANS_INT:
    case ANS_NUMBER: {
        cr_expect(schema_type_has(prop, key->type == ANS_INT ? "integer" : "number"), "%s's type", key->name);
        const cJSON *min = cJSON_GetObjectItemCaseSensitive(prop, key->min_exclusive ? "exclusiveMinimum" : "minimum");
        cr_expect(cJSON_IsNumber(min) && min->valuedouble == key->min, "%s's minimum", key->name);
        break;
    }
    case ANS_BOOL: cr_expect(schema_type_has(prop, "boolean"), "%s", key->name); break;
    case ANS_ID: cr_expect(schema_type_has(prop, "string"), "%s", key->name); break;
    }
}

Test(answer_table, the_schemas_answers_are_the_keys_and_their_values)
{
    char *text = read_doc("report.schema.json");
    cJSON *schema = cJSON_Parse(text);
    cr_assert_not_null(schema);
    const cJSON *answers = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(schema, "properties"), "answers");
    const cJSON *required = cJSON_GetObjectItemCaseSensitive(answers, "required");
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(answers, "properties");
    cr_assert_eq(cJSON_GetArraySize(required), ans_key_count);
    cr_assert_eq(cJSON_GetArraySize(props), ans_key_count, "a property that is no key, or a key missing");
    for (int i = 0; i < ans_key_count; i++) {
        cr_expect_str_eq(cJSON_GetArrayItem(required, i)->valuestring, ans_keys[i].name);
        const cJSON *prop = cJSON_GetObjectItemCaseSensitive(props, ans_keys[i].name);
        cr_assert_not_null(prop, "the schema has no %s", ans_keys[i].name);
        check_schema_key(&ans_keys[i], prop);
    }
    cJSON_Delete(schema);
    free(text);
}

/* Every key's choices are whole: a value, a label and a help line; booleans true then false;
 * defaults among the choices; suggested numbers ones the key takes. */
Test(answer_table, every_choice_has_a_value_label_and_help)
{
    int enums = 0;
    for (int i = 0; i < ans_key_count; i++) {
        const struct ans_key *key = &ans_keys[i];
        for (int c = 0; c < key->nchoices; c++) {
            cr_expect(key->choices[c].value && key->choices[c].label && key->choices[c].help, "%s choice %d", key->name, c);
            cr_expect_eq(ans_key_value_index(key, key->choices[c].value), c, "%s: %s twice", key->name,
                         key->choices[c].value);
        }
        cr_expect_lt(key->default_choice, key->nchoices, "%s", key->name);
        if (key->type == ANS_ENUM) {
            cr_expect_gt(key->nchoices, 1, "%s", key->name);
            enums++;
        }
        /* a list of ids names its table and has its words (a team's "none") */
        cr_expect_eq(key->table != NULL, key->type == ANS_ID_LIST, "%s", key->name);
        if (key->type == ANS_ID_LIST) cr_expect(key->nchoices >= 1 && key->noun, "%s", key->name);
        if (key->type == ANS_BOOL) {
            cr_assert_eq(key->nchoices, 2, "%s", key->name);
            cr_expect_str_eq(key->choices[0].value, "true");
            cr_expect_str_eq(key->choices[1].value, "false");
        }
        if (key->unset) cr_expect(key->unset->value == NULL && key->unset->label && key->unset->help, "%s", key->name);
    }
    cr_expect_eq(enums, 15); /* with job, deploy_device, arch and lora_targets */
}

/* The defaults the table gives are the ones answers_fill_defaults fills. */
Test(answer_table, defaults_come_from_the_rows)
{
    struct answers a;
    answers_init(&a);
    answers_fill_defaults(&a);
    cr_expect_str_eq(answers_str(&a, ANS_STAGE), "research");
    cr_expect_str_eq(answers_str(&a, ANS_MODEL_KIND), "other");
    cr_expect_str_eq(answers_str(&a, ANS_OS), answers_running_os());
    cr_expect_eq(answers_num(&a, ANS_MODEL_PARAMS), 1e7);
    cr_expect_eq(answers_num(&a, ANS_LORA_RANK), 16);
    cr_expect_eq(answers_choice(&a, ANS_FUNCTIONAL), 1, "false");
    cr_expect_eq(a.v[ANS_FUNCTIONAL].flag, 0);
    cr_expect_null(answers_str(&a, ANS_PRECISION));
    cr_expect(!answers_has(&a, ANS_TOKENS), "tokens only for an LLM");
    cr_expect(!answers_has(&a, ANS_PRICE_PER_DEVICE_HOUR));
    cr_expect_eq(answers_choice(&a, ANS_STAGE), 1, "held as the index of research");
}

/* The wizard offers a key's choices in the row's order, with its unset choice (the row's, else
 * the question's) first and the row's default marked. */
Test(answer_table, the_wizard_offers_the_rows_choices)
{
    for (int q = 0; q < wiz_question_count; q++) {
        const struct ans_key *key = &ans_keys[wiz_questions[q].key];
        int off = key->unset != NULL || wiz_questions[q].leave_out != NULL;
        cr_expect_eq(wizard_own_count(q), off + key->nchoices, "%s", key->name);
        for (int i = 0; i < key->nchoices; i++)
            cr_expect_eq(wizard_own_option(q, off + i), &key->choices[i], "%s option %d", key->name, off + i);
    }
    static const struct {
        enum ans_index key;
        int option;
    } defaults[] = {{ANS_STAGE, 1}, {ANS_HARDWARE, 0}, {ANS_ACCELERATOR, 0}, {ANS_DEVICES, 0}, {ANS_MODEL_KIND, 7},
                    {ANS_MODEL_PARAMS, 2}, {ANS_TEAM, -1}, {ANS_FUNCTIONAL, 1}, {ANS_PRICE_PER_DEVICE_HOUR, 0}};
    for (size_t d = 0; d < sizeof defaults / sizeof defaults[0]; d++) {
        int q = 0;
        while (wiz_questions[q].key != defaults[d].key) q++;
        cr_expect_eq(wizard_default_option(q), defaults[d].option, "%s", ans_keys[defaults[d].key].name);
    }
}

/* A contradiction says which keys it is about, as a set: the wizard keeps the question only
 * when that question's key is among them. */
Test(answer_table, a_contradiction_names_its_keys)
{
    static const struct {
        const char *sets;
        ans_key_set keys;
    } cases[] = {
        {"devices=2 nodes=4", ANS_KEY_BIT(ANS_NODES) | ANS_KEY_BIT(ANS_DEVICES)},
        {"os=macos hardware=nvidia", ANS_KEY_BIT(ANS_OS) | ANS_KEY_BIT(ANS_HARDWARE)},
        {"deploy_hardware=cpu", ANS_KEY_BIT(ANS_DEPLOY_HARDWARE) | ANS_KEY_BIT(ANS_DEPLOY)},
        {"active_params=2e9 model_params=1e9", ANS_KEY_BIT(ANS_ACTIVE_PARAMS) | ANS_KEY_BIT(ANS_MODEL_PARAMS)},
        {"devices=8 nodes=2 deploy=server deploy_hardware=cpu", 0},
        /* devices a whole multiple of nodes: 12 on 4 and 12 on 12 are, 12 on 5 and 13 on 2 are not */
        {"devices=12 nodes=4", 0},
        {"devices=12 nodes=12", 0},
        {"devices=12 nodes=5", ANS_KEY_BIT(ANS_DEVICES) | ANS_KEY_BIT(ANS_NODES)},
        {"devices=13 nodes=2", ANS_KEY_BIT(ANS_DEVICES) | ANS_KEY_BIT(ANS_NODES)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct answers a;
        char err[512] = "";
        cr_assert_eq(ts_answers_sets(&a, cases[i].sets, err, sizeof err), 0, "%s", err);
        answers_fill_defaults(&a);
        cr_expect_eq(answers_conflict(&a, err, sizeof err), cases[i].keys, "%s: %s", cases[i].sets, err);
        cr_expect_eq(answers_check_combination(&a, err, sizeof err), cases[i].keys ? -1 : 0, "%s", cases[i].sets);
    }
}

/* Every operating system against every hardware kind: the pairs no machine has are refused,
 * naming both keys, and every other pair passes. */
Test(answer_table, every_os_and_hardware_pair_is_refused_or_allowed)
{
    static const char *const oses[] = {"linux", "windows", "macos"};
    static const char *const hws[] = {"nvidia", "amd", "tpu", "apple", "intel", "ascend", "trainium", "gaudi", "cpu"};
    /* 1 where the pair is refused: rows follow oses, columns hws */
    static const int refused[3][9] = {
        {0, 0, 0, 1, 0, 0, 0, 0, 0},
        {0, 0, 1, 1, 0, 1, 1, 1, 0},
        {1, 1, 1, 0, 1, 1, 1, 1, 0},
    };
    for (size_t o = 0; o < 3; o++)
        for (size_t h = 0; h < 9; h++) {
            char sets[64], err[512] = "";
            snprintf(sets, sizeof sets, "os=%s hardware=%s", oses[o], hws[h]);
            struct answers a;
            cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
            answers_fill_defaults(&a);
            ans_key_set want = refused[o][h] ? ANS_KEY_BIT(ANS_OS) | ANS_KEY_BIT(ANS_HARDWARE) : 0;
            cr_expect_eq(answers_conflict(&a, err, sizeof err), want, "%s: %s", sets, err);
            cr_expect_eq(answers_check_combination(&a, err, sizeof err), want ? -1 : 0, "%s", sets);
        }
}

/* Each side of the count and needs rows: equal counts pass, one more is refused; LoRA's rank
 * needs a LoRA fine-tune; epochs needs the data set's size. */
Test(answer_table, count_and_needs_rows_on_each_side)
{
    static const struct {
        const char *sets;
        ans_key_set keys;
    } cases[] = {
        {"devices=8 nodes=8", 0},
        {"devices=8 nodes=9", ANS_KEY_BIT(ANS_NODES) | ANS_KEY_BIT(ANS_DEVICES)},
        {"active_params=1e9 model_params=1e9", 0},
        {"active_params=1.5e9 model_params=1e9", ANS_KEY_BIT(ANS_ACTIVE_PARAMS) | ANS_KEY_BIT(ANS_MODEL_PARAMS)},
        {"job=finetune finetune=lora lora_rank=8", 0},
        {"job=finetune finetune=qlora lora_rank=8", 0},
        {"job=finetune finetune=full lora_rank=8", ANS_KEY_BIT(ANS_LORA_RANK) | ANS_KEY_BIT(ANS_FINETUNE)},
        {"job=finetune dataset_tokens=1e9 epochs=2", 0},
        {"job=finetune epochs=2", ANS_KEY_BIT(ANS_EPOCHS) | ANS_KEY_BIT(ANS_DATASET_TOKENS)},
        {"job=pretrain dataset_tokens=1e9", ANS_KEY_BIT(ANS_DATASET_TOKENS) | ANS_KEY_BIT(ANS_JOB)},
        {"deploy=mobile deploy_hardware=apple", 0},
        {"deploy=mobile deploy_hardware=nvidia", ANS_KEY_BIT(ANS_DEPLOY) | ANS_KEY_BIT(ANS_DEPLOY_HARDWARE)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct answers a;
        char err[512] = "";
        cr_assert_eq(ts_answers_sets(&a, cases[i].sets, err, sizeof err), 0, "%s: %s", cases[i].sets, err);
        answers_fill_defaults(&a);
        cr_expect_eq(answers_conflict(&a, err, sizeof err), cases[i].keys, "%s: %s", cases[i].sets, err);
    }
}

/* The refusal of uneven nodes, word for word: both keys, both numbers, why. */
Test(answer_table, devices_uneven_over_nodes_is_refused_in_one_line)
{
    struct answers a;
    char err[512] = "";
    cr_assert_eq(ts_answers_sets(&a, "devices=12 nodes=5", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_check_combination(&a, err, sizeof err), -1);
    cr_expect_str_eq(err, "keys 'devices' and 'nodes': devices 12 is not a multiple of nodes 5 (every node holds the same "
                          "number of accelerators: devices is nodes times the devices per node)");
}

static int question_of(enum ans_index key)
{
    for (int q = 0; q < wiz_question_count; q++)
        if (wiz_questions[q].key == key) return q;
    cr_assert_fail("no question asks %s", ans_keys[key].name);
    return -1;
}

/* Loaded answers that serve on a CPU without a deployment target: the deployment question
 * stays until it is answered, the hardware question (whose key only shares a word with
 * deploy_hardware) does not, and the contradiction is said on the way. */
Test(answer_table, the_wizard_keeps_only_the_question_a_contradiction_is_about)
{
    struct ts_wizard t;
    char err[512];
    struct answers loaded;
    cr_assert_eq(ts_answers_sets(&loaded, "deploy_hardware=cpu", err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_wizard_open(&t, &loaded, err, sizeof err), 0, "%s", err);
    struct app *a = t.app;
    a->q = question_of(ANS_HARDWARE);
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_HARDWARE) + 1, "the hardware question was kept: %s", a->message);
    cr_expect(strstr(a->message, "keys 'deploy_hardware' and 'deploy'") != NULL, "not said: '%s'", a->message);
    a->q = question_of(ANS_DEPLOY);
    a->message[0] = '\0';
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_DEPLOY), "deploy none went on with deploy_hardware cpu");
    cr_expect(strstr(a->message, "keys 'deploy_hardware' and 'deploy'") != NULL, "'%s'", a->message);
    a->sel[a->q] = 1; /* servers */
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_DEPLOY_HARDWARE), "%s", a->message);
    ts_wizard_close(&t);
}

/* Every refusal is said, not only the first. */
Test(answer_table, the_wizard_says_every_refusal)
{
    struct ts_wizard t;
    char err[512];
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    struct app *a = t.app;
    int devices = question_of(ANS_DEVICES), nodes = question_of(ANS_NODES);
    snprintf(a->custom[devices], sizeof a->custom[devices], "-3");
    a->sel[devices] = wizard_own_count(devices);
    snprintf(a->custom[nodes], sizeof a->custom[nodes], "0.5");
    a->sel[nodes] = wizard_own_count(nodes);
    struct answers out;
    cr_expect_eq(wizard_build(a, &out, -1, 0, err, sizeof err), -1);
    cr_expect(strstr(err, "--set devices=-3: key 'devices'") && strstr(err, "; --set nodes=0.5: key 'nodes'"), "%s", err);
    cr_expect(!answers_has(&out, ANS_DEVICES) && !answers_has(&out, ANS_NODES), "refused values kept out");
    ts_wizard_close(&t);
}
