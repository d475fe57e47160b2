/* The tables that variants are rows of: each row reaches every place that reads it (kb list
 * kinds, kb subcommands, the wizard's questions against the answer keys, the probe workloads). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "knowledge/answer_keys.h"
#include "knowledge/answers.h"
#include "knowledge/kb.h"
#include "probes/probe.h"
#include "tui/app.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4300];
static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(tables, .init = setup, .fini = teardown, .timeout = 60);

/* The names are the rows' names, in order, NULL-terminated; every row finds itself; the first
 * row is what a plain `kb list` shows. */
Test(tables, kb_list_kind_names_follow_the_rows)
{
    const char *const *names = kb_list_kind_names();
    cr_assert_eq(kb_list_kind_count, 8);
    for (int i = 0; i < kb_list_kind_count; i++) {
        cr_expect_str_eq(names[i], kb_list_kind_rows[i].name);
        cr_expect_eq(kb_list_kind_find(names[i]), &kb_list_kind_rows[i]);
        cr_expect(kb_list_kind_rows[i].matrix || kb_list_kind_rows[i].cols[0].header, "%s has no columns", names[i]);
    }
    cr_expect_null(names[kb_list_kind_count]);
    cr_expect_null(kb_list_kind_find("Frameworks"), "exact names only; the command line folds case");
    cr_expect_str_eq(kb_list_kind_rows[0].name, "frameworks");
}

/* `kb list KIND` prints each row's column headers in the row's order, and counts its rows under
 * the row's name; a plain `kb list` is the first row's. */
Test(tables, kb_list_prints_each_kinds_columns)
{
    for (int i = 0; i < kb_list_kind_count; i++) {
        const struct kb_list_kind *k = &kb_list_kind_rows[i];
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "--wide", "kb", "list", k->name, NULL}), 0);
        cr_expect_eq(r.status, 0, "%s: %s", k->name, r.err);
        const char *at = r.out;
        for (int c = 0; !k->matrix && c < KB_LIST_MAX_COLUMNS && k->cols[c].header; c++) {
            const char *h = strstr(at, k->cols[c].header);
            cr_expect(h && h < strchr(r.out, '\n'), "%s: header %s missing or out of order:\n%s", k->name,
                      k->cols[c].header, r.out);
            if (h) at = h + strlen(k->cols[c].header);
        }
        char tail[64];
        snprintf(tail, sizeof tail, " %s. Details: fwadvisor kb show ID\n", k->name);
        cr_expect(k->matrix || strstr(r.out, tail), "%s:\n%s", k->name, r.out);
        ts_run_free(&r);
    }
    struct ts_run a, b;
    cr_assert_eq(ts_run(&a, env, NULL, (const char *const[]){dbarg, "--wide", "kb", "list", NULL}), 0);
    cr_assert_eq(ts_run(&b, env, NULL, (const char *const[]){dbarg, "--wide", "kb", "list", kb_list_kind_rows[0].name, NULL}), 0);
    cr_expect_str_eq(a.out, b.out);
    ts_run_free(&a), ts_run_free(&b);
}

/* An unknown kind names every row, the last after "or". */
Test(tables, an_unknown_kind_lists_the_rows)
{
    struct ts_kb t;
    char err[512];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    cJSON *rows = NULL;
    cr_expect_eq(kb_list(t.kb, "gpus", &rows, err, sizeof err), KB_ERR_INPUT);
    cr_expect_str_eq(err, "unknown kind 'gpus' (use frameworks, criteria, hardware, distributed, deployment, "
                          "accelerators, rules or sources)");
    cr_expect_null(rows);
    ts_kb_close(&t);
}

/* --- the wizard's questions -------------------------------------------------------------------- */

/* Every option the wizard offers is a value its answer key takes: the validator would refuse a
 * value the two lists disagree on, and the wizard would then say so on every screen. */
Test(tables, every_wizard_option_is_a_value_its_key_takes)
{
    int checked = 0;
    for (int q = 0; q < wiz_question_count; q++) {
        const struct wiz_question *wq = &wiz_questions[q];
        const char *name = ans_keys[wq->key].name;
        cr_expect_gt(wizard_own_count(q), 0, "%s", name);
        cr_expect_lt(wizard_default_option(q), wizard_own_count(q), "%s", name);
        for (int i = 0; i < wizard_own_count(q); i++) {
            if (!wizard_own_option(q, i)->value) continue;
            struct answers a;
            char assign[160], err[256];
            answers_init(&a);
            snprintf(assign, sizeof assign, "%s=%s", name, wizard_own_option(q, i)->value);
            cr_expect_eq(answers_set(&a, assign, err, sizeof err), 0, "%s: %s", assign, err);
            checked++;
        }
    }
    cr_expect_geq(checked, 86, "only %d options checked", checked);
}

/* A value the answers refuse (a loaded or typed one) is said, not silently dropped. */
Test(tables, the_wizard_says_what_the_answers_refuse)
{
    struct ts_wizard t;
    char err[512];
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    struct app *a = t.app;
    struct answers out;
    cr_expect_eq(wizard_build(a, &out, -1, 0, err, sizeof err), 0, "the defaults: %s", err);
    int q = 0;
    while (wiz_questions[q].key != ANS_DEVICES) q++;
    snprintf(a->custom[q], sizeof a->custom[q], "-3");
    a->sel[q] = wizard_own_count(q); /* the given value, past the options */
    err[0] = '\0';
    cr_expect_eq(wizard_build(a, &out, -1, 0, err, sizeof err), -1);
    cr_expect(strstr(err, "devices"), "%s", err);
    ts_wizard_close(&t);
}

/* --- kb subcommands ------------------------------------------------------------------------- */

/* Each option is refused, exit 2, by every subcommand whose row does not take it, naming those
 * that do; argument counts are checked on both sides. */
Test(tables, kb_subcommands_refuse_what_their_row_does_not_take)
{
    static const struct {
        const char *args[4];
        const char *message;
    } cases[] = {
        {{"export", "--json"}, "--json applies to kb list and kb show"},
        {{"reset", "--json"}, "--json applies to kb list and kb show"},
        {{"list", "-o", "x.json"}, "--output applies to kb export"},
        {{"show", "jax", "--user"}, "--user applies to kb export"},
        {{"list", "--yes"}, "--yes applies to kb reset"},
        {{"list", "rules", "sources"}, "kb list takes at most one KIND"},
        {{"show"}, "kb show takes one ID"},
        {{"show", "jax", "pytorch"}, "kb show takes one ID"},
        {{"import"}, "kb import takes one FILE (or - for standard input)"},
        {{"path", "x"}, "kb path takes no arguments"},
        {{"reset"}, "kb reset replaces the knowledge base (your imported facts and probe runs go with it, into "
                    "FILE.bak); add --yes to confirm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[8] = {dbarg, "kb"};
        int n = 2;
        for (int j = 0; j < 4 && cases[i].args[j]; j++) argv[n++] = cases[i].args[j];
        argv[n] = NULL;
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, argv), 0);
        cr_expect_eq(r.status, 2, "%s: %s", cases[i].message, r.err);
        cr_expect(strncmp(r.err, "fwadvisor: ", 11) == 0 && strncmp(r.err + 11, cases[i].message, strlen(cases[i].message)) == 0,
                  "%s", r.err);
        ts_run_free(&r);
    }
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "kb", "show", "jax", "--json", NULL}), 0);
    cr_expect_eq(r.status, 0, "one ID with --json is taken: %s", r.err);
    ts_run_free(&r);
}

/* --- probe workloads ------------------------------------------------------------------------- */

/* Every workload row: a bit of its own (its place in the table), all of them PROBE_WS_ALL; its
 * name taken by --workload (any case), listed with its help line in `probe --help`, in
 * docs/probe.md and in the run document's schema enum, which names no other. */
Test(tables, workload_rows_reach_the_parser_the_help_the_docs_and_the_schema)
{
    unsigned all = 0, bit;
    int n = 0;
    struct ts_run help;
    cr_assert_eq(ts_run(&help, env, NULL, (const char *const[]){"probe", "--help", NULL}), 0);
    const char *sd = getenv("FWADVISOR_SCHEMA_DIR");
    char path[4200];
    snprintf(path, sizeof path, "%s/probe.schema.json", sd && *sd ? sd : "docs");
    char *schema_text = ts_read(path, NULL);
    snprintf(path, sizeof path, "%s/probe.md", sd && *sd ? sd : "docs");
    char *doc = ts_read(path, NULL);
    cr_assert(schema_text && doc);
    cJSON *schema = cJSON_Parse(schema_text);
    const cJSON *enums = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                             cJSON_GetObjectItem(cJSON_GetObjectItem(schema, "properties"), "results"), "items"), "properties"),
                             "workload"), "enum");
    cr_assert_not_null(enums, "the schema's workload enum");
    for (const char *name; (name = probe_workload_name(n, &bit)); n++) {
        cr_expect_eq(bit & (bit - 1), 0, "%s: one bit", name);
        cr_expect_eq(all & bit, 0, "%s: a bit of its own", name);
        all |= bit;
        unsigned parsed = 0;
        char err[256], upper[32];
        snprintf(upper, sizeof upper, "%s", name);
        for (char *c = upper; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        cr_expect_eq(probe_parse_workloads(upper, &parsed, err, sizeof err), 0, "%s: %s", upper, err);
        cr_expect_eq(parsed, bit, "%s", name);
        cr_expect_eq(probe_workload_bit(name), bit, "%s", name);
        cr_expect_eq(bit, 1u << n, "%s: the bit of its place", name);
        char line[40];
        snprintf(line, sizeof line, "\n  %-12s ", name);
        cr_expect(strstr(help.out, line), "probe --help lacks the line of %s", name);
        char quoted[40];
        snprintf(quoted, sizeof quoted, "`%s`", name);
        cr_expect(strstr(doc, quoted), "docs/probe.md lacks %s", quoted);
        int in_enum = 0;
        const cJSON *v;
        cJSON_ArrayForEach(v, enums) in_enum |= cJSON_IsString(v) && strcmp(v->valuestring, name) == 0;
        cr_expect(in_enum, "the schema's enum lacks %s", name);
    }
    cr_expect_eq(n, 9);
    cr_expect_eq(cJSON_GetArraySize(enums), n, "the schema names workloads the table lacks");
    cr_expect_eq(all, probe_workload_set(PROBE_WS_ALL));
    cr_expect_eq(all, 511u); /* nine rows */
    /* The default: all but frameworks (row 6); under MPI: allreduce and train-dp (rows 7, 8). */
    cr_expect_eq(probe_workload_set(PROBE_WS_DEFAULT), 511u - 64u);
    cr_expect_eq(probe_workload_set(PROBE_WS_DIST), 128u + 256u);
    cr_expect_eq(probe_workload_bit("bogus"), 0u);
    cr_expect(strstr(help.out, "default: all but frameworks; under\nmpirun: allreduce,train-dp)"), "%s", help.out);
    unsigned parsed = 0;
    char err[256];
    cr_expect_eq(probe_parse_workloads("all", &parsed, err, sizeof err), 0);
    cr_expect_eq(parsed, all);
    cr_expect_eq(probe_parse_workloads("gemm,bogus", &parsed, err, sizeof err), -1);
    cr_expect_str_eq(err, "unknown workload 'bogus' (train-tiny, stream, transfer, gemm, train-mlp, train-gpt, frameworks, "
                          "allreduce, train-dp, all)");
    cJSON_Delete(schema);
    free(schema_text), free(doc);
    ts_run_free(&help);
}
