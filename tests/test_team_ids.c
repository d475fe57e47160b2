/* A team names any framework of the knowledge base: the answers check an id's characters and
 * the list's length, the advisor checks each id against the frameworks table, rule conditions
 * are checked against it at import, every framework has its familiarity rule, and the wizard
 * offers every framework. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/kb.h"
#include "tests/support.h"
#include "tui/app.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(team_ids, .init = setup, .fini = teardown, .timeout = 120);

static void recommend(const char *sets)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
    cr_assert_eq(adv_recommend(fx.akb, &a, NULL, fx.res, err, sizeof err), KB_OK, "%s: %s", sets, err);
}

static const struct adv_framework *ranked(const char *id)
{
    for (int i = 0; i < fx.res->ranking.count; i++)
        if (strcmp(fx.res->ranking.items[i].id, id) == 0) return &fx.res->ranking.items[i];
    cr_assert_fail("%s is not ranked", id);
    return NULL;
}

/* The delta of the framework's reason whose label starts with `label` (found: whether it has one). */
static int reason_delta(const struct adv_framework *f, const char *label, int *found)
{
    *found = 0;
    for (int i = 0; i < f->nreasons; i++)
        if (strncmp(f->reasons[i].label, label, strlen(label)) == 0) {
            *found = 1;
            return f->reasons[i].delta_tenths;
        }
    return 0;
}

/* Naming the team's framework moves its score by familiar_points (20) plus its learning curve
 * raised to 10 (docs/advisor.md): its criteria give 60 x sum_c(w_c x score_c) / (10 x W), rounded
 * to a tenth, and sum_c grows by w_lc x (10 - lc). Off NVIDIA and CPU, at the default stage
 * research and priority iteration: debugging 1.5 x 2.5, ecosystem 1.5 x 2, hardware fit 3, the
 * other ten 1: W = 19.75, w_lc = 1, and a weighted point is worth 60 / 197.5. */
static void expect_team_gain(const char *hardware, const char *framework, const char *name, int gain_tenths)
{
    char sets[160];
    snprintf(sets, sizeof sets, "hardware=%s", hardware);
    recommend(sets);
    const struct adv_framework *before = ranked(framework);
    int was = before->score_tenths, found;
    cr_expect_eq(before->excluded, 0, "%s on %s", framework, hardware);
    reason_delta(before, "Your team knows", &found);
    cr_expect_eq(found, 0, "no team, no familiarity");
    snprintf(sets, sizeof sets, "hardware=%s team=%s", hardware, framework);
    recommend(sets);
    const struct adv_framework *after = ranked(framework);
    cr_expect_eq(after->score_tenths - was, gain_tenths, "%s on %s: %d -> %d", framework, hardware, was, after->score_tenths);
    char label[96];
    snprintf(label, sizeof label, "Your team knows %s", name);
    cr_expect_eq(reason_delta(after, label, &found), 200, "%s", label);
    cr_expect(found, "%s", label);
    cr_expect_str_eq(fx.res->ranking.items[0].id, framework, "the team's framework comes first on %s", hardware);
}

Test(team_ids, a_paddlepaddle_team_on_ascend_gains_the_familiarity_points)
{
    /* debugging 7 x 3.75, ecosystem 5 x 3, Ascend fit 7 x 3, the others 7, 6 (learning curve),
     * 5, 7, 6, 8, 6, 6, 4, 6: 123.25 -> 37.44, rounded 37.4; with the learning curve 10, 127.25 ->
     * 38.66, rounded 38.7: +1.3, and 20 for the team */
    expect_team_gain("ascend", "paddlepaddle", "PaddlePaddle", 213);
}

Test(team_ids, a_mindspore_team_on_ascend_gains_the_familiarity_points)
{
    /* debugging 5 x 3.75, ecosystem 3 x 3, Ascend fit 10 x 3, the others 51 with learning curve 4:
     * 108.75 -> 33.04, rounded 33.0; with 10, 114.75 -> 34.86, rounded 34.9: +1.9, and 20 */
    expect_team_gain("ascend", "mindspore", "MindSpore", 219);
}

Test(team_ids, an_mlx_team_on_apple_gains_the_familiarity_points)
{
    /* debugging 6 x 3.75, ecosystem 4 x 3, Apple fit 10 x 3, the others 47 with learning curve 6:
     * 111.5 -> 33.87, rounded 33.9; with 10, 115.5 -> 35.09, rounded 35.1: +1.2, and 20 */
    expect_team_gain("apple", "mlx", "MLX", 212);
}

/* Every framework of the knowledge base, named alone, is known (familiarity 1 from its
 * tree-team-* rule), makes every other framework one to learn (or a related one), and keeps seed
 * 002's PyTorch default away unless the framework is PyTorch or fastai, built on it. At stage
 * production, where no other rule makes the same claim first. */
Test(team_ids, every_framework_is_a_team_with_its_rules)
{
    int n = adv_kb_framework_count(fx.akb);
    cr_assert_geq(n, 8);
    for (int f = 0; f < n; f++) {
        const char *id = adv_kb_framework_id(fx.akb, f);
        char sets[160], label[96];
        snprintf(sets, sizeof sets, "hardware=cpu stage=production team=%s", id);
        recommend(sets);
        int found;
        snprintf(label, sizeof label, "Your team knows %s", adv_kb_framework_name(fx.akb, f));
        cr_expect_eq(reason_delta(ranked(id), label, &found), 200, "%s", id);
        cr_expect(found, "%s has no familiarity rule", id);
        for (int g = 0; g < n; g++) {
            const struct adv_framework *other = ranked(adv_kb_framework_id(fx.akb, g));
            int learn, close;
            int delta = reason_delta(other, "Your team would have to learn", &learn);
            reason_delta(other, "Your team knows a framework close to", &close);
            if (other->excluded) continue;
            if (g == f) cr_expect(!learn && !close, "%s", id);
            else cr_expect_eq(learn + close, 1, "%s for a %s team: to learn or close, one of them", other->id, id);
            if (learn) cr_expect_eq(delta, -100, "%s for a %s team", other->id, id);
        }
        int pytorch_default = strcmp(id, "pytorch") == 0 || strcmp(id, "fastai") == 0;
        reason_delta(ranked("pytorch"), "Starting a new project", &found);
        cr_expect_eq(found, pytorch_default, "seed 002's PyTorch default for a %s team", id);
    }
    recommend("hardware=cpu stage=production");
    int found;
    reason_delta(ranked("pytorch"), "Starting a new project", &found);
    cr_expect(found, "an unknown team still gets seed 002's default");
}

/* --- the answers -------------------------------------------------------------------------- */

Test(team_ids, the_answers_take_ids_in_any_case_once_each_in_order)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(answers_set(&a, "team=MindSpore,paddlepaddle,mindspore", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_id_count(&a, ANS_TEAM), 2);
    cr_expect_str_eq(answers_id(&a, ANS_TEAM, 0), "mindspore");
    cr_expect_str_eq(answers_id(&a, ANS_TEAM, 1), "paddlepaddle");
    cr_expect_null(answers_id(&a, ANS_TEAM, 2));
    cr_expect(answers_team_has(&a, "paddlepaddle") && !answers_team_has(&a, "pytorch"));
    cJSON *doc = answers_to_json(&a);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(doc, "team"));
    cr_expect_str_eq(text, "[\"mindspore\",\"paddlepaddle\"]");
    free(text);
    cJSON_Delete(doc);
}

Test(team_ids, none_with_a_framework_is_refused)
{
    struct answers a;
    answers_init(&a);
    cr_expect_eq(answers_set(&a, "team=mlx,none", err, sizeof err), -1);
    cr_expect(strstr(err, "key 'team': 'none' cannot be combined with a framework"), "%s", err);
    const char *ids[] = {"none", "paddlepaddle"};
    cr_expect_eq(answers_set_ids(&a, ANS_TEAM, ids, 2, err, sizeof err), -1);
    cr_expect(strstr(err, "key 'team': 'none' cannot be combined with a framework"), "%s", err);
    cr_expect_eq(answers_set_ids(&a, ANS_TEAM, ids, 1, err, sizeof err), 0, "%s", err);
    cr_expect(answers_team_has(&a, "none"));
}

/* At most as many ids as the advisor holds frameworks: 32 distinct ones pass the parser (the
 * advisor then checks them), a 33rd is refused; a repeated one does not count twice. */
Test(team_ids, a_list_longer_than_the_advisor_holds_is_refused)
{
    cr_assert_eq(ANS_ID_LIST_MAX, ADV_MAX_FRAMEWORKS);
    char sets[2048] = "team=";
    for (int i = 0; i < ANS_ID_LIST_MAX; i++)
        snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%sfw%d", i ? "," : "", i);
    struct answers a;
    answers_init(&a);
    char json[2400] = "{\"team\": [";
    for (int i = 0; i < ANS_ID_LIST_MAX; i++)
        snprintf(json + strlen(json), sizeof json - strlen(json), "%s\"fw%d\"", i ? ", " : "", i);
    strcat(json, ", \"fw0\"]}");
    cr_expect_eq(answers_parse_json(&a, json, strlen(json), "t.json", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_id_count(&a, ANS_TEAM), ANS_ID_LIST_MAX);
    json[strlen(json) - 2] = '\0';
    strcat(json, ", \"fw32\"]}");
    cr_expect_eq(answers_parse_json(&a, json, strlen(json), "t.json", err, sizeof err), -1);
    cr_expect_str_eq(err, "t.json: key 'team': more than 32 frameworks (the most the knowledge base holds)");
    strcat(sets, ",fw32");
    cr_expect_eq(answers_set(&a, sets, err, sizeof err), -1);
    cr_expect(strstr(err, "more than 32 frameworks"), "%s", err);
}

Test(team_ids, an_id_with_other_characters_is_refused_when_read)
{
    struct answers a;
    answers_init(&a);
    cr_expect_eq(answers_set(&a, "team=paddle paddle", err, sizeof err), -1);
    cr_expect_str_eq(err, "--set team=paddle paddle: key 'team': 'paddle paddle' is not a framework id (lower-case "
                          "letters, digits, '-', '_', '.') or none");
    cr_expect_eq(answers_set(&a, "team=-jax", err, sizeof err), -1);
}

/* An id the knowledge base lacks is refused by the advisor with the nearest id, as input. */
Test(team_ids, an_unknown_framework_is_refused_with_the_nearest_id)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, "hardware=ascend team=mindspore,paddle", err, sizeof err), 0, "%s", err);
    cr_expect_eq(adv_recommend(fx.akb, &a, NULL, fx.res, err, sizeof err), KB_ERR_INPUT);
    cr_expect_str_eq(err, "key 'team': 'paddle' is not a framework of the knowledge base (did you mean 'paddlepaddle'? "
                          "fwadvisor kb list frameworks)");
    cr_assert_eq(ts_answers_sets(&a, "team=zzzzzzzz", err, sizeof err), 0, "%s", err);
    cr_expect_eq(adv_recommend(fx.akb, &a, NULL, fx.res, err, sizeof err), KB_ERR_INPUT);
    cr_expect_str_eq(err, "key 'team': 'zzzzzzzz' is not a framework of the knowledge base (fwadvisor kb list frameworks)");
}

Test(team_ids, the_command_line_refuses_an_unknown_framework_with_exit_3)
{
    char *dir = ts_tmpdir(), dbarg[4200];
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "recommend", "--set", "team=mindspor", NULL}), 0);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "key 'team': 'mindspor' is not a framework of the knowledge base (did you mean 'mindspore'?"),
              "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "recommend", "--set", "team=none,mlx", NULL}), 0);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "key 'team': 'none' cannot be combined with a framework"), "%s", r.err);
    ts_run_free(&r);
    ts_rmtree(dir);
    free(dir);
}

/* --- rule conditions ------------------------------------------------------------------------ */

static int import_rule(const char *condition)
{
    char doc[1200];
    snprintf(doc, sizeof doc,
             "{\"schema\": \"fwadvisor.kb/1\", \"rules\": [{\"id\": \"my-team\", \"kind\": \"decision\", \"title\": \"t\","
             " \"text\": \"x\", \"condition\": %s, \"effect\": {\"score\": {\"pytorch\": 1}}, \"priority\": 99,"
             " \"source\": \"seed-000\", \"also\": [], \"as_of\": \"2026-12-02\"}]}",
             condition);
    struct kb_import_stats stats;
    return kb_import(fx.kb.kb, doc, strlen(doc), "mine.json", &stats, err, sizeof err);
}

Test(team_ids, a_rule_condition_on_an_unknown_framework_is_refused_at_import)
{
    cr_expect_eq(import_rule("{\"not\": {\"team\": [\"mlx\", \"caffe\"]}}"), KB_ERR_INPUT);
    cr_expect(strstr(err, "condition.not.team: unknown framework id 'caffe' (not in frameworks, nor none)"), "%s", err);
    cr_expect_eq(import_rule("{\"team\": \"PyTorch\"}"), KB_ERR_INPUT, "ids are lower-case");
    cr_expect_eq(import_rule("{\"team\": [\"paddlepaddle\", \"mindspore\", \"none\"]}"), KB_OK, "%s", err);
}

/* --- the wizard ------------------------------------------------------------------------------ */

Test(team_ids, the_wizard_offers_every_framework_of_the_knowledge_base)
{
    struct ts_wizard t;
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    struct app *a = t.app;
    int q = 0;
    while (wiz_questions[q].key != ANS_TEAM) q++;
    int n = adv_kb_framework_count(a->akb);
    cr_assert_eq(wizard_option_count(a, q), 1 + n);
    char buf[256];
    cr_expect_str_eq(wizard_option_label(a, q, 0, buf, sizeof buf), "None yet");
    int paddle = -1;
    for (int f = 0; f < n; f++) {
        cr_expect_str_eq(wizard_option_label(a, q, 1 + f, buf, sizeof buf), adv_kb_framework_name(a->akb, f));
        cr_expect_str_eq(wizard_option_help(a, q, 1 + f, buf, sizeof buf), adv_kb_framework_summary(a->akb, f));
        if (strcmp(adv_kb_framework_id(a->akb, f), "paddlepaddle") == 0) paddle = 1 + f;
    }
    cr_assert_geq(paddle, 0);
    /* tick PaddlePaddle and the last framework: both are the team; then "None yet" alone */
    a->q = q;
    a->sel[q] = paddle;
    wizard_key(a, ' ');
    a->sel[q] = n;
    wizard_key(a, ' ');
    struct answers out;
    cr_assert_eq(wizard_build(a, &out, -1, 0, err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_id_count(&out, ANS_TEAM), 2);
    cr_expect(answers_team_has(&out, "paddlepaddle") && answers_team_has(&out, adv_kb_framework_id(a->akb, n - 1)));
    a->sel[q] = 0;
    wizard_key(a, ' ');
    cr_assert_eq(wizard_build(a, &out, -1, 0, err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_id_count(&out, ANS_TEAM), 1);
    cr_expect(answers_team_has(&out, "none"));
    ts_wizard_close(&t);
    /* loaded answers tick their frameworks */
    struct answers loaded;
    cr_assert_eq(ts_answers_sets(&loaded, "team=mindspore,mlx", err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_wizard_open(&t, &loaded, err, sizeof err), 0, "%s", err);
    cr_assert_eq(wizard_build(t.app, &out, -1, 0, err, sizeof err), 0, "%s", err);
    cr_expect(answers_team_has(&out, "mindspore") && answers_team_has(&out, "mlx") && answers_id_count(&out, ANS_TEAM) == 2);
    cr_expect_str_eq(t.app->message, "", "nothing to say of ids the wizard offers");
    ts_wizard_close(&t);
    /* a loaded id the knowledge base lacks is said, not dropped in silence */
    cr_assert_eq(ts_answers_sets(&loaded, "team=jax,caffe", err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_wizard_open(&t, &loaded, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(t.app->message, "key 'team': 'caffe' is not offered here (fwadvisor kb list frameworks); left out");
    cr_expect(t.app->message_bad);
    cr_assert_eq(wizard_build(t.app, &out, -1, 0, err, sizeof err), 0, "%s", err);
    cr_expect(answers_team_has(&out, "jax") && answers_id_count(&out, ANS_TEAM) == 1);
    ts_wizard_close(&t);
    /* several are said in one message */
    cr_assert_eq(ts_answers_sets(&loaded, "team=caffe,jax,theano", err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_wizard_open(&t, &loaded, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(t.app->message,
                     "key 'team': 'caffe', 'theano' are not offered here (fwadvisor kb list frameworks); left out");
    ts_wizard_close(&t);
}
