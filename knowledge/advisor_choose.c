/* The advisor's choices: the distributed strategy (among those the framework runs on the
 * hardware: the simplest that fits, then the rules' preferences) and the deployment runtime
 * (among those that serve the model kind on the serving hardware: the rules' preferences and
 * how directly the framework's model gets there), each with its reasons. */
#include "knowledge/advisor_kb.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Points as tenths, bounded so that no imported number overflows the sums. */
static int points_tenths(double points)
{
    if (!isfinite(points)) return 0;
    return (int)lround((points > 1e4 ? 1e4 : points < -1e4 ? -1e4 : points) * 10);
}

/* 1 when e is the first member of its object with its name (a lookup by name finds that one). */
static int first_of_name(const cJSON *e)
{
    for (const cJSON *p = e->prev; p && p->next; p = p->prev) /* cJSON's first item has prev = last */
        if (strcmp(p->string, e->string) == 0) return 0;
    return 1;
}

/* Preference points (x10) of every strategy or runtime (`member` "strategy" or "runtime", index
 * its lookup by id) from the rules that apply, into points (n of them): one pass over the rules,
 * however many strategies and runtimes there are. */
static void preference_points(const struct adv_kb *akb, const unsigned char *applies, const char *member,
                              int (*index)(const struct adv_kb *, const char *), int *points, int n)
{
    memset(points, 0, (size_t)n * sizeof *points);
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *m = applies[i] ? cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, member) : NULL;
        for (const cJSON *e = cJSON_IsObject(m) ? m->child : NULL; e; e = e->next) {
            int k = cJSON_IsNumber(e) && first_of_name(e) ? index(akb, e->string) : -1;
            if (k >= 0) points[k] += points_tenths(e->valuedouble);
        }
    }
}

/* 1 when a rule that applies lists strategy s in its "not_offered" (expert parallelism for a
 * dense model). */
static int not_offered(const struct adv_kb *akb, const unsigned char *applies, int s)
{
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *id;
        if (!applies[i]) continue;
        cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "not_offered"))
            if (cJSON_IsString(id) && strcmp(id->valuestring, akb->strat[s].id) == 0) return 1;
    }
    return 0;
}

static int better(const struct adv_kb *akb, const struct adv_candidate *x, const struct adv_candidate *y)
{
    /* A strategy made for this kind of model (TorchRec and ParameterServerStrategy for
     * recommendation models: they shard embedding tables row-wise and keep hot rows cached) comes
     * before general ones even when it needs more devices: offloading a dense optimizer does not
     * serve sparse lookups, and the plan then says how many devices it needs. */
    int xs = akb->strat[x->s].kinds != 0, ys = akb->strat[y->s].kinds != 0;
    if (xs != ys) return xs;
    if (x->mem.fits != y->mem.fits) return x->mem.fits;
    /* Neither fits a known device memory: the one closest to fitting. */
    if (!x->mem.fits && x->mem.device_memory_gb > 0 && x->mem.total_gb != y->mem.total_gb)
        return x->mem.total_gb < y->mem.total_gb;
    if (x->group != y->group) return x->group < y->group;
    if (x->points != y->points) return x->points > y->points;
    if (akb->strat[x->s].sharded != akb->strat[y->s].sharded) return akb->strat[x->s].sharded < akb->strat[y->s].sharded;
    return strcmp(akb->strat[x->s].id, akb->strat[y->s].id) < 0;
}

/* Adds a reason naming the strategies fw offers that do not run on hardware h (DeepSpeed,
 * Megatron or Horovod on a TPU, ...). */
static void not_on_hardware_reason(const struct adv_kb *akb, struct adv_result *r, int fw, int h, const char *hardware)
{
    if (fw < 0 || h < 0) return;
    char list[256];
    size_t used = 0;
    list[0] = '\0';
    for (int s = 0; s < akb->nstrat && used < sizeof list; s++)
        if ((akb->strat[s].frameworks & (1u << fw)) && !adv_strategy_runs_on(akb, s, fw, h) &&
            strcmp(akb->strat[s].id, "single") != 0)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", akb->strat[s].id);
    struct adv_reason *rs;
    if (used && (rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, NULL, NULL)))
        ADV_REASONF(akb, rs, "Not offered: %s (their %s implementations do not run on %s)", list, akb->fw[fw].name,
                    hardware);
}

void adv_choose_strategy(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies)
{
    const struct answers *a = &r->answers;
    double D = answers_num(a, ANS_DEVICES);
    const char *hardware = answers_str(a, ANS_HARDWARE);
    int h = adv_hw_index(akb, hardware);
    unsigned kind = adv_value_bit(ANS_MODEL_KIND, answers_str(a, ANS_MODEL_KIND));
    struct adv_candidate *cands = akb->work.cands; /* room for every strategy and the fallback */
    int *points = akb->work.strategy_points, n = 0;
    preference_points(akb, applies, "strategy", adv_strategy_index, points, akb->nstrat);
    for (int s = 0; s < akb->nstrat; s++) {
        const char *id = akb->strat[s].id;
        if (!adv_strategy_runs_on(akb, s, fw, h)) continue;
        if (strcmp(akb->strat[s].status, "legacy") == 0 || strcmp(akb->strat[s].status, "deprecated") == 0) continue;
        if (akb->strat[s].min_devices > D) continue;
        if (akb->strat[s].kinds && !(akb->strat[s].kinds & kind)) continue;
        if (D > 1 && strcmp(id, "single") == 0) continue;
        if (D == 1 && akb->strat[s].min_devices > 1) continue;
        if (not_offered(akb, applies, s)) continue;
        struct adv_candidate *c = &cands[n++];
        c->s = s;
        c->points = points[s];
        c->group = akb->strat[s].cpu > 0 ? 3 : D == 1 || akb->strat[s].sharded == 0 ? (D == 1 ? 0 : 1) : 2;
        adv_strategy_memory(akb, r, s, &c->mem);
    }
    if (n == 0) { /* the framework offers nothing for this hardware and device count */
        int s = adv_strategy_index(akb, "single");
        if (s < 0) return;
        cands[n].s = s;
        cands[n].points = 0;
        cands[n].group = 0;
        adv_strategy_memory(akb, r, s, &cands[n++].mem);
    }
    int best = 0;
    for (int i = 1; i < n; i++)
        if (better(akb, &cands[i], &cands[best])) best = i;
    /* Without a device memory figure nothing "fits"; prefer the simplest then. */
    const struct adv_candidate *c = &cands[best];
    if (!c->mem.fits && c->mem.device_memory_gb > 0) { /* nothing fits: how many devices would, what else helps */
        int *idx = akb->work.cand_index;
        for (int i = 0; i < n; i++) idx[i] = cands[i].s;
        r->memory = c->mem;
        adv_plan_nothing_fits(akb, r, idx, n);
    }
    int s = c->s;
    r->strategy = akb->strat[s].id;
    r->strategy_name = akb->strat[s].name;
    r->memory = c->mem;

    struct adv_reason *rs;
    const char *fw_name = fw >= 0 ? akb->fw[fw].name : N_("the framework");
    double nodes = answers_num(a, ANS_NODES);
    if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, akb->strat[s].summary, akb->strat[s].source))) {
        if (D == 1 && nodes == 1) ADV_REASONF(akb, rs, "%g device on %g node with %s", D, nodes, fw_name);
        else if (D == 1) ADV_REASONF(akb, rs, "%g device on %g nodes with %s", D, nodes, fw_name);
        else if (nodes == 1) ADV_REASONF(akb, rs, "%g devices on %g node with %s", D, nodes, fw_name);
        else ADV_REASONF(akb, rs, "%g devices on %g nodes with %s", D, nodes, fw_name);
    }
    if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, NULL, akb->strat[s].source))) {
        if (c->mem.device_memory_gb > 0 && c->mem.fits)
            ADV_REASONF(akb, rs, "%s needs %.1f GB per device of %.0f GB: fits", akb->strat[s].id, c->mem.total_gb,
                        c->mem.device_memory_gb);
        else if (c->mem.device_memory_gb > 0)
            ADV_REASONF(akb, rs, "%s needs %.1f GB per device of %.0f GB: does not fit", akb->strat[s].id, c->mem.total_gb,
                        c->mem.device_memory_gb);
        else
            ADV_REASONF(akb, rs, "%s needs %.1f GB per device; device memory unknown", akb->strat[s].id, c->mem.total_gb);
    }
    /* Why simpler groups were passed over. */
    for (int i = 0; i < n; i++) {
        if (cands[i].group >= c->group || cands[i].mem.fits || cands[i].mem.device_memory_gb <= 0) continue;
        if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, NULL, akb->strat[cands[i].s].source)))
            ADV_REASONF(akb, rs, "%s would need %.1f GB per device, more than %.0f GB", akb->strat[cands[i].s].id,
                        cands[i].mem.total_gb, cands[i].mem.device_memory_gb);
    }
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "strategy"),
                                                          akb->strat[s].id);
        if (!cJSON_IsNumber(v) || !applies[i]) continue;
        if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, points_tenths(v->valuedouble),
                                  akb->rules[i].text, akb->rules[i].source))) {
            rs->also = akb->rules[i].also;
            adv_reason_label(akb, rs, akb->rules[i].title);
        }
    }
    not_on_hardware_reason(akb, r, fw, h, hardware);
    if (c->mem.cpu_gb > 0 && (rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, akb->strat[s].formula,
                                               akb->strat[s].source)))
        ADV_REASONF(akb, rs, "Offload keeps %.1f GB of optimizer state in each node's CPU memory", c->mem.cpu_gb);
    /* Alternatives: the other candidates, best first; when the choice fits, only those that fit
     * too (a strategy that cannot hold the model is no alternative). */
    int *used = akb->work.cand_used;
    memset(used, 0, (size_t)n * sizeof *used);
    used[best] = 1;
    for (int k = 1; k < n && r->nalternatives < ADV_MAX_ALTERNATIVES; k++) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (!c->mem.fits || cands[i].mem.fits) && (pick < 0 || better(akb, &cands[i], &cands[pick])))
                pick = i;
        if (pick < 0) break;
        used[pick] = 1;
        r->alternatives[r->nalternatives++] = akb->strat[cands[pick].s].id;
    }
}

void adv_resolve_deploy_hardware(struct adv_result *r)
{
    struct answers *a = &r->answers;
    const char *deploy = answers_str(a, ANS_DEPLOY), *dh = answers_str(a, ANS_DEPLOY_HARDWARE);
    if (!deploy || !dh) return;
    if (strcmp(deploy, "none") == 0) {
        ADV_NOTEF(r, deploy_hardware_note, "deploy_hardware: %s (no deployment target)", dh);
        return;
    }
    if (strcmp(dh, "auto") != 0) {
        ADV_NOTEF(r, deploy_hardware_note, "deploy_hardware: %s, as answered", dh);
        return;
    }
    const char *hw = answers_str(a, ANS_HARDWARE);
    if (strcmp(deploy, "server") == 0 && hw && adv_value_bit(ANS_DEPLOY_HARDWARE, hw)) {
        answers_set_str(a, ANS_DEPLOY_HARDWARE, hw);
        ADV_NOTEF(r, deploy_hardware_note, "deploy_hardware: auto -> %s (servers like the training hardware)", hw);
    } else {
        answers_set_str(a, ANS_DEPLOY_HARDWARE, "cpu");
        ADV_NOTEF(r, deploy_hardware_note, "deploy_hardware: auto -> cpu (%s)",
                 strcmp(deploy, "mobile") == 0 ? N_("the phone's CPU, with NPU or GPU delegates where the runtime has them; "
                                                    "set apple for iPhones and iPads, qualcomm for Snapdragon NPUs")
                 : strcmp(deploy, "edge") == 0  ? N_("an Arm or x86 board; set nvidia for Jetson, intel, qualcomm or ascend for NPUs")
                                                : N_("the user's device"));
    }
}

void adv_choose_runtime(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies)
{
    const struct answers *a = &r->answers;
    const char *deploy = answers_str(a, ANS_DEPLOY), *dh = answers_str(a, ANS_DEPLOY_HARDWARE);
    const char *kind = answers_str(a, ANS_MODEL_KIND);
    int none = adv_runtime_index(akb, "none");
    struct adv_reason *rs;
    r->runtime = none >= 0 ? akb->rt[none].id : "none";
    r->runtime_name = none >= 0 ? akb->rt[none].name : "none";
    if (strcmp(deploy, "none") == 0) {
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, NULL, none >= 0 ? akb->rt[none].source : NULL)))
            ADV_REASONF(akb, rs, "No deployment target in the answers (deploy: none)");
        return;
    }
    unsigned bit = adv_value_bit(ANS_DEPLOY, deploy), hw_bit = adv_value_bit(ANS_DEPLOY_HARDWARE, dh),
             kind_bit = adv_value_bit(ANS_MODEL_KIND, kind);
    double maintenance = 0;
    adv_fact(akb, a, "runtime_maintenance", &maintenance, NULL);
    double path_points[PATH_NATIVE + 1] = {0, 0, 0, 0};
    static const char *const path_facts[] = {NULL, "runtime_indirect", "runtime_converter", "runtime_native"};
    for (int p = PATH_INDIRECT; p <= PATH_NATIVE; p++) adv_fact(akb, a, path_facts[p], &path_points[p], NULL);
    int *points = akb->work.runtime_points;
    preference_points(akb, applies, "runtime", adv_runtime_index, points, akb->nrt);
    int best = -1, best_pts = 0;
    char elsewhere[256];
    size_t used = 0;
    elsewhere[0] = '\0';
    for (int rt = 0; rt < akb->nrt; rt++) {
        if (!(akb->rt[rt].targets & bit) || (fw >= 0 && akb->rt[rt].path[fw] == PATH_NONE)) continue;
        if (akb->rt[rt].kinds && !(akb->rt[rt].kinds & kind_bit)) continue;
        if (akb->rt[rt].hardware && !(akb->rt[rt].hardware & hw_bit)) {
            if (used < sizeof elsewhere)
                used += (size_t)snprintf(elsewhere + used, sizeof elsewhere - used, "%s%s", used ? ", " : "", akb->rt[rt].id);
            continue;
        }
        int pts = points[rt];
        if (fw >= 0) pts += points_tenths(path_points[akb->rt[rt].path[fw]]);
        if (strcmp(akb->rt[rt].status, "current") != 0) pts += points_tenths(maintenance);
        /* Ties go to a current runtime over one in maintenance, then to the first id. */
        if (best < 0 || pts > best_pts ||
            (pts == best_pts && strcmp(akb->rt[rt].status, "current") == 0 && strcmp(akb->rt[best].status, "current") != 0)) {
            best = rt;
            best_pts = pts;
        }
    }
    const char *fw_name = fw >= 0 ? akb->fw[fw].name : N_("the framework");
    if (best < 0) {
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, NULL, NULL)))
            ADV_REASONF(akb, rs, "No runtime in the knowledge base takes %s %s models to %s on %s", fw_name, kind, deploy, dh);
        return;
    }
    r->runtime = akb->rt[best].id;
    r->runtime_name = akb->rt[best].name;
    if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, akb->rt[best].summary, akb->rt[best].source)))
        ADV_REASONF(akb, rs, "%s serves %s models on %s %s targets", akb->rt[best].name, kind, dh, deploy);
    if (fw >= 0) {
        int p = akb->rt[best].path[fw];
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, points_tenths(path_points[p]), NULL,
                                  akb->rt[best].source)))
        {
            if (p == PATH_NATIVE) ADV_REASONF(akb, rs, "%s's models get there natively (its own format)", fw_name);
            else if (p == PATH_CONVERTER) ADV_REASONF(akb, rs, "%s's models get there through an official converter", fw_name);
            else ADV_REASONF(akb, rs, "%s's models get there indirectly, through another format", fw_name);
        }
    }
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "runtime"),
                                                          akb->rt[best].id);
        if (!cJSON_IsNumber(v) || !applies[i]) continue;
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, points_tenths(v->valuedouble),
                                  akb->rules[i].text, akb->rules[i].source))) {
            rs->also = akb->rules[i].also;
            adv_reason_label(akb, rs, akb->rules[i].title);
        }
    }
    if (strcmp(akb->rt[best].status, "current") != 0 &&
        (rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, points_tenths(maintenance), NULL, akb->rt[best].source)))
        ADV_REASONF(akb, rs, "Status: %s", akb->rt[best].status);
    if (used && (rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, NULL, NULL)))
        ADV_REASONF(akb, rs, "Not on %s hardware: %s", dh, elsewhere);
}
