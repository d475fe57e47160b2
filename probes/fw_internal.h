/* What the parts of the frameworks workload share (frameworks.c: interpreters and framework
 * processes; fw_engine.c: the engine's reference models, their files and the run's description
 * for the scripts; fw_isolation.c: the children's private folder and environment). Not for
 * other modules: frameworks.h is the workload's interface. */
#ifndef FWADVISOR_PROBES_FW_INTERNAL_H
#define FWADVISOR_PROBES_FW_INTERNAL_H

#include <limits.h>
#include <stdint.h>

#include "common/strset.h"
#include "probes/probe.h"

struct fw_state {
    struct probe_run *run;
    const struct probe_options *opt;
    int threads;
    char dir[PATH_MAX];                          /* the private folder, absolute; "" when none was made */
    int dir_fd;                                  /* it, open and locked while the run lasts; -1 */
    char **env;                                  /* the scripts' environment (owned) */
    char exe[PROBE_FW_MAX_PYTHONS][PATH_MAX];    /* per run->frameworks.python[]: its sys.executable */
    unsigned keras[PROBE_FW_MAX_PYTHONS];        /* Keras 3's importable backends, a bit each */
    double timeout;                              /* seconds per framework process */
    uint64_t memory_limit;                       /* bytes per framework process and all it starts */
    double engine_loss[2];                       /* first-step losses of the MLP and the GPT; NAN when not run */
    char engine_why[256];                        /* why the engine could not run a model */
    void (*progress)(void *ctx, double planned_seconds, const char *what);
    void *progress_ctx;
    double plan_left;                            /* planned seconds not yet reported */
    struct strset devices;                       /* "python/found/device": the devices already listed */
};

int fw_stopped(const struct fw_state *s);

/* The private folder (fw_isolation.c): stale ones of this user's removed, s->dir made and
 * locked, the scripts written into it. 0, or -1 with why. */
int fw_folder_make(struct fw_state *s, char *why, size_t whysz);
/* Removes s->dir and all it holds, following no link. */
void fw_folder_remove(struct fw_state *s);
/* Removes the folders in base that runs of this user left (fwadvisor-frameworks-PID-XXXXXX)
 * whose process is gone and that no run holds locked. */
void fw_remove_stale(const char *base);
/* The children's environment into s->env: 0, or -1 when out of memory. */
int fw_env_make(struct fw_state *s);
void fw_env_free(char **env);
/* Reports `share` of the workload's planned seconds as done (at most what is left). */
void fw_progress(struct fw_state *s, double share, const char *what);

/* The models' sizes and step counts for --quick, --full or a smoke run. */
void fw_shape(const struct probe_options *opt, struct probe_fw_models *m);

/* The engine's half: builds the MLP and the GPT, writes their initial weights and every step's
 * batch into s->dir with spec.json (the scripts' description of the run), and trains them on the
 * CPU (and on the GPU when the CUDA plug-in is open): the engine's rows, and s->engine_loss.
 * 0, or -1 with why when neither model could be made (nothing for a framework to match). */
int fw_engine(struct fw_state *s, char *why, size_t whysz);

/* A frameworks row's params (docs/probe.md): framework, version, mode, model ("mlp" for 0, "gpt"
 * for 1, none for -1) with what a step trains on, the device's kind, the interpreter's index
 * (-1: none), the first-step loss beside the engine's, and the first step's seconds
 * (compilation included); NAN figures are left out. */
void fw_row_params(const struct fw_state *s, struct probe_result *res, const char *framework, const char *version,
                   const char *mode, int model, const char *kind, int python, double first_loss, double first_step_s);

#endif
