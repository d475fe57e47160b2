/* Finds the MPI plug-in (probes/mpi/plugin.h) when an MPI launcher started this process. It is
 * opened RTLD_GLOBAL: MPI libraries load their own components, which look for the library's
 * symbols in the global scope. */
#include "probes/mpi/plugin.h"
#include "engine/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif

int fw_mpi_launched(void)
{
    static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MV2_COMM_WORLD_SIZE",
                                        "SLURM_NTASKS"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const char *v = getenv(sizes[i]);
        if (v && atoi(v) > 1) {
            /* srun sets SLURM_NTASKS in the batch script too: it counts only with a task id */
            if (i == 4 && !getenv("SLURM_PROCID")) continue;
            return 1;
        }
    }
    return 0;
}

int fw_mpi_rank_env(void)
{
    static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK"};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        if (getenv(ranks[i])) return 1;
    return 0;
}

static int check_plugin(const void *api, const char *path, char *why, size_t whysz)
{
    const struct fw_mpi *p = api;
    if (p->abi == FW_MPI_ABI && p->version && strcmp(p->version, FWADVISOR_VERSION) == 0 &&
        p->size == sizeof(struct fw_mpi))
        return 0;
    if (p->abi == FW_MPI_ABI && p->version && strcmp(p->version, FWADVISOR_VERSION) == 0)
        snprintf(why, whysz, "%s was built from other headers (interface struct %zu bytes, this program's %zu): rebuild it",
                 path, p->size, sizeof(struct fw_mpi));
    else
        snprintf(why, whysz, "%s is from another build (version %s): rebuild it", path, p->version ? p->version : "?");
    return -1;
}

const struct fw_mpi *fw_mpi_load(char *err, size_t errsz)
{
    const void *api;
    if (eng_plugin_open("FWADVISOR_MPI_PLUGIN", "fwadvisor-mpi.so", "fwadvisor_mpi_plugin", 1, check_plugin, &api, err,
                        errsz) == ENG_PLUGIN_ABSENT)
        snprintf(err, errsz, "this build has no MPI plug-in (fwadvisor-mpi.so; build where mpicc is found)");
    return api;
}
