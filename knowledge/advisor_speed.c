/* The single-device speed criterion's measured reason: how the frameworks compared when a probe
 * run trained the same models in each of them on this machine (advisor.h, adv_measured_speed). */
#include "knowledge/advisor_kb.h"

#include <stdio.h>
#include <string.h>

/* The fastest row of one framework (or of every framework but `not`, the engine left out) on
 * one kind of hardware and model; -1 when there is none. */
static int fastest(const struct adv_fw_speeds *s, const char *kind, int model, const char *only, const char *not)
{
    int best = -1;
    for (int i = 0; i < s->count; i++) {
        const struct adv_fw_speed *r = &s->rows[i];
        if (strcmp(r->kind, kind) || r->model != model || !(r->step_s > 0)) continue;
        if (only && strcmp(r->framework, only)) continue;
        if (not && (!strcmp(r->framework, not) || !strcmp(r->framework, "engine"))) continue;
        if (best < 0 || r->step_s < s->rows[best].step_s) best = i;
    }
    return best;
}

int adv_measured_speed_in(const struct adv_fw_speeds *s, const char *hardware, const char *id,
                          const char *(*name)(const void *ctx, const char *id), const void *ctx, int local, char *out,
                          size_t n)
{
    if (!s || !s->count || !hardware || !id || !strcmp(id, "engine")) return 0;
    /* the GPT when this framework trained it on this hardware, else the MLP */
    int model = fastest(s, hardware, 1, id, NULL) >= 0 ? 1 : 0;
    int mine = fastest(s, hardware, model, id, NULL);
    if (mine < 0) return 0;
    int other = fastest(s, hardware, model, NULL, id), engine = fastest(s, hardware, model, "engine", NULL);
    const struct adv_fw_speed *m = &s->rows[mine];
    const char *what = s->models[model][0] ? s->models[model] : model ? "GPT" : "MLP";
    if (other >= 0) {
        const struct adv_fw_speed *o = &s->rows[other];
        double ratio = m->step_s < o->step_s ? o->step_s / m->step_s : m->step_s / o->step_s;
        if (ratio < 1.005)
            ADV_TEXTF(local, out, n, "on this machine %s %s ran the %s as fast as %s %s (probe run %s)", name(ctx, id),
                      m->mode, what, name(ctx, o->framework), o->mode, s->run);
        else if (m->step_s < o->step_s)
            ADV_TEXTF(local, out, n, "on this machine %s %s ran the %s %.2fx faster than %s %s, the next fastest (probe run %s)",
                      name(ctx, id), m->mode, what, ratio, name(ctx, o->framework), o->mode, s->run);
        else
            ADV_TEXTF(local, out, n, "on this machine %s %s ran the %s %.2fx slower than %s %s, the fastest (probe run %s)",
                      name(ctx, id), m->mode, what, ratio, name(ctx, o->framework), o->mode, s->run);
    } else if (engine >= 0) {
        ADV_TEXTF(local, out, n,
                  "on this machine %s %s ran the %s at %.2fx the speed of this program's engine, the only other "
                  "measured (probe run %s)",
                  name(ctx, id), m->mode, what, s->rows[engine].step_s / m->step_s, s->run);
    } else {
        ADV_TEXTF(local, out, n, "on this machine %s %s trained the %s in %.3g ms a step, no other framework measured (probe run %s)",
                  name(ctx, id), m->mode, what, m->step_s * 1e3, s->run);
    }
    return 1;
}

int adv_measured_speed(const struct adv_fw_speeds *s, const char *hardware, const char *id,
                       const char *(*name)(const void *ctx, const char *id), const void *ctx, char *out, size_t n)
{
    return adv_measured_speed_in(s, hardware, id, name, ctx, 0, out, n);
}
