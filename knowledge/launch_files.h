/* launch_files: the chosen training plan as ready-to-edit launch files (fwadvisor recommend --emit
 * DIR): a torchrun, accelerate launch or Megatron-LM command in launch.sh, an accelerate config and
 * a DeepSpeed JSON for ZeRO and FSDP plans, a Slurm sbatch script for clusters, a jax.distributed
 * note for JAX, and a README.txt that says what each file holds and which documentation its keys
 * follow. Every file but the JSON cites that documentation in a comment line (JSON has no
 * comments; README.txt cites it). Text only: writing the files is the caller's. */
#ifndef FWADVISOR_LAUNCH_FILES_H
#define FWADVISOR_LAUNCH_FILES_H

#include <stddef.h>

#include "knowledge/advisor.h"

#define LAUNCH_MAX_FILES 6

struct launch_file {
    const char *name; /* a plain file name: README.txt, launch.sh, accelerate.yaml, ds_config.json, ... */
    char *text;       /* owned, NUL-terminated */
    size_t len;
};

struct launch_files {
    int count;
    struct launch_file files[LAUNCH_MAX_FILES];
};

/* A site's Slurm settings (the config file's [site]): "" where not given. Each is letters, digits,
 * '.', '_', '-' (and ',' between a partition list's names), as the config reader checks, so it
 * can be written into job.sbatch as it is. */
#define LAUNCH_SITE_MAX 64
struct launch_site {
    char partition[LAUNCH_SITE_MAX], account[LAUNCH_SITE_MAX];
};

/* The files for the plan in r (adv_recommend's result); job.sbatch names site's partition and
 * account, and keeps a commented placeholder for each one site leaves empty (site may be NULL).
 * Returns 0, or -1 with one line in err (out of memory); out is then empty. Free with
 * launch_files_free. */
int launch_files_make(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site,
                      struct launch_files *out, char *err, size_t errsz);
void launch_files_free(struct launch_files *f);

/* The plan's launch files written into dir, all or none (common/file.h's file_dir_write_new: a
 * new path in a folder that exists, or an empty directory of the user's that nobody else can
 * write), the scripts executable; the command line's --emit and the interface's `L` both. Returns
 * FILE_OK with the files' names, space-separated, in names; FILE_REFUSED (the path cannot be one)
 * or another FILE_* status with one line in err. */
int launch_files_write(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site, const char *dir,
                       char *names, size_t namesz, char *err, size_t errsz);

#endif
