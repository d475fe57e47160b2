/* The advisor's choices: the distributed strategy (the simplest that fits, then the rules'
 * preferences) and the deployment runtime, each with its reasons. */
#include "knowledge/advisor_kb.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Preference points (x10) for a strategy or runtime (`member` "strategy" or "runtime") from the
 * rules that apply. */
static int preference_points(const struct adv_kb *akb, const unsigned char *applies, const char *member, const char *id)
{
    int pts = 0;
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, member), id);
        if (cJSON_IsNumber(v) && applies[i]) pts += (int)lround(v->valuedouble * 10);
    }
    return pts;
}

struct candidate {
    int s, points, group; /* group: 0 single device, 1 replicated, 2 sharded, 3 offload */
    struct adv_memory mem;
};

static int better(const struct adv_kb *akb, const struct candidate *x, const struct candidate *y)
{
    if (x->mem.fits != y->mem.fits) return x->mem.fits;
    /* Neither fits a known device memory: the one closest to fitting. */
    if (!x->mem.fits && x->mem.device_memory_gb > 0 && x->mem.total_gb != y->mem.total_gb)
        return x->mem.total_gb < y->mem.total_gb;
    if (x->group != y->group) return x->group < y->group;
    if (x->points != y->points) return x->points > y->points;
    if (akb->strat[x->s].sharded != akb->strat[y->s].sharded) return akb->strat[x->s].sharded < akb->strat[y->s].sharded;
    return strcmp(akb->strat[x->s].id, akb->strat[y->s].id) < 0;
}

void adv_choose_strategy(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies)
{
    const struct answers *a = &r->answers;
    double D = answers_num(a, ANS_DEVICES);
    const char *hardware = answers_str(a, ANS_HARDWARE);
    struct candidate cands[ADV_MAX_STRATEGIES];
    int n = 0;
    for (int s = 0; s < akb->nstrat; s++) {
        const char *id = akb->strat[s].id;
        if (fw >= 0 && !(akb->strat[s].frameworks & (1u << fw))) continue;
        if (strcmp(akb->strat[s].status, "legacy") == 0 || strcmp(akb->strat[s].status, "deprecated") == 0) continue;
        if (akb->strat[s].min_devices > D) continue;
        if (strcmp(id, "tf-tpu") == 0 && strcmp(hardware, "tpu") != 0) continue;
        if (D > 1 && strcmp(id, "single") == 0) continue;
        if (D == 1 && strcmp(id, "single") != 0 && akb->strat[s].cpu == 0 && strcmp(id, "tf-tpu") != 0) continue;
        struct candidate *c = &cands[n++];
        c->s = s;
        c->points = preference_points(akb, applies, "strategy", id);
        c->group = D == 1 ? (akb->strat[s].cpu > 0 ? 3 : 0)
                   : akb->strat[s].cpu > 0 ? 3
                   : akb->strat[s].sharded == 0 ? 1 : 2;
        adv_strategy_memory(akb, r, s, &c->mem);
    }
    if (n == 0) { /* the framework offers nothing for this many devices */
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
    const struct candidate *c = &cands[best];
    if (!c->mem.fits && c->mem.device_memory_gb > 0) { /* nothing fits: how many devices would, what else helps */
        int idx[ADV_MAX_STRATEGIES];
        for (int i = 0; i < n; i++) idx[i] = cands[i].s;
        r->memory = c->mem;
        adv_plan_nothing_fits(akb, r, idx, n);
    }
    int s = c->s;
    r->strategy = akb->strat[s].id;
    r->strategy_name = akb->strat[s].name;
    r->memory = c->mem;

    struct adv_reason *rs;
    const char *fw_name = fw >= 0 ? akb->fw[fw].name : "the framework";
    if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, akb->strat[s].summary, akb->strat[s].source)))
        snprintf(rs->label, sizeof rs->label, "%g device%s on %g node%s with %s", D, D == 1 ? "" : "s",
                 answers_num(a, ANS_NODES), answers_num(a, ANS_NODES) == 1 ? "" : "s", fw_name);
    if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, NULL, akb->strat[s].source))) {
        if (c->mem.device_memory_gb > 0)
            snprintf(rs->label, sizeof rs->label, "%s needs %.1f GB per device of %.0f GB: %s", akb->strat[s].id,
                     c->mem.total_gb, c->mem.device_memory_gb, c->mem.fits ? "fits" : "does not fit");
        else
            snprintf(rs->label, sizeof rs->label, "%s needs %.1f GB per device; device memory unknown", akb->strat[s].id,
                     c->mem.total_gb);
    }
    /* Why simpler groups were passed over. */
    for (int i = 0; i < n; i++) {
        if (cands[i].group >= c->group || cands[i].mem.fits || cands[i].mem.device_memory_gb <= 0) continue;
        if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, NULL, akb->strat[cands[i].s].source)))
            snprintf(rs->label, sizeof rs->label, "%s would need %.1f GB per device, more than %.0f GB",
                     akb->strat[cands[i].s].id, cands[i].mem.total_gb, cands[i].mem.device_memory_gb);
    }
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "strategy"),
                                                          akb->strat[s].id);
        if (!cJSON_IsNumber(v) || !applies[i]) continue;
        if ((rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, (int)lround(v->valuedouble * 10),
                              akb->rules[i].text, akb->rules[i].source)))
            snprintf(rs->label, sizeof rs->label, "%s", akb->rules[i].title);
    }
    if (c->mem.cpu_gb > 0 && (rs = adv_push_reason(r->strategy_reasons, &r->nstrategy_reasons, 16, 0, akb->strat[s].formula,
                                               akb->strat[s].source)))
        snprintf(rs->label, sizeof rs->label, "Offload keeps %.1f GB of optimizer state in each node's CPU memory",
                 c->mem.cpu_gb);
    /* Alternatives: the other candidates, best first. */
    int used[ADV_MAX_STRATEGIES] = {0};
    used[best] = 1;
    for (int k = 1; k < n && r->nalternatives < 6; k++) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (pick < 0 || better(akb, &cands[i], &cands[pick]))) pick = i;
        if (pick < 0) break;
        used[pick] = 1;
        r->alternatives[r->nalternatives++] = akb->strat[cands[pick].s].id;
    }
}

void adv_choose_runtime(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies)
{
    const struct answers *a = &r->answers;
    const char *deploy = answers_str(a, ANS_DEPLOY);
    int none = adv_runtime_index(akb, "none");
    struct adv_reason *rs;
    if (strcmp(deploy, "none") == 0) {
        r->runtime = none >= 0 ? akb->rt[none].id : "none";
        r->runtime_name = none >= 0 ? akb->rt[none].name : "none";
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, NULL, none >= 0 ? akb->rt[none].source : NULL)))
            snprintf(rs->label, sizeof rs->label, "No deployment target in the answers (deploy: none)");
        return;
    }
    const struct ans_key *key = &ans_keys[ANS_DEPLOY];
    unsigned bit = 0;
    for (int i = 0; key->allowed[i]; i++)
        if (strcmp(key->allowed[i], deploy) == 0) bit = 1u << i;
    double maintenance = 0;
    adv_fact(akb, a, "runtime_maintenance", &maintenance, NULL);
    int best = -1, best_pts = 0;
    for (int rt = 0; rt < akb->nrt; rt++) {
        if (!(akb->rt[rt].targets & bit) || (fw >= 0 && !(akb->rt[rt].frameworks & (1u << fw)))) continue;
        int pts = preference_points(akb, applies, "runtime", akb->rt[rt].id);
        if (strcmp(akb->rt[rt].status, "current") != 0) pts += (int)lround(maintenance * 10);
        if (best < 0 || pts > best_pts) {
            best = rt;
            best_pts = pts;
        }
    }
    const char *fw_name = fw >= 0 ? akb->fw[fw].name : "the framework";
    if (best < 0) {
        r->runtime = none >= 0 ? akb->rt[none].id : "none";
        r->runtime_name = none >= 0 ? akb->rt[none].name : "none";
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, NULL, NULL)))
            snprintf(rs->label, sizeof rs->label, "No runtime in the knowledge base deploys %s to %s", fw_name, deploy);
        return;
    }
    r->runtime = akb->rt[best].id;
    r->runtime_name = akb->rt[best].name;
    if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, 0, akb->rt[best].summary, akb->rt[best].source)))
        snprintf(rs->label, sizeof rs->label, "%s takes %s models to %s targets", akb->rt[best].name, fw_name, deploy);
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "runtime"),
                                                          akb->rt[best].id);
        if (!cJSON_IsNumber(v) || !applies[i]) continue;
        if ((rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, (int)lround(v->valuedouble * 10),
                              akb->rules[i].text, akb->rules[i].source)))
            snprintf(rs->label, sizeof rs->label, "%s", akb->rules[i].title);
    }
    if (strcmp(akb->rt[best].status, "current") != 0 &&
        (rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 16, (int)lround(maintenance * 10), NULL, akb->rt[best].source)))
        snprintf(rs->label, sizeof rs->label, "Status: %s", akb->rt[best].status);
}

