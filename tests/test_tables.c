/* The tables that variants are rows of: each row reaches every place that reads it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "knowledge/kb.h"
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
