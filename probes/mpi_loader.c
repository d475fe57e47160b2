/* Finds the MPI plug-in (probes/mpi/plugin.h) when an MPI launcher started this process. It is
 * opened RTLD_GLOBAL: MPI libraries load their own components, which look for the library's
 * symbols in the global scope. */
#include "probes/mpi/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static const struct fw_mpi *open_plugin(const char *path, char *why, size_t whysz)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, whysz, "%s", e ? e : path);
        return NULL;
    }
    void *sym = dlsym(h, "fwadvisor_mpi_plugin");
    fw_mpi_fn fn;
    memcpy(&fn, &sym, sizeof fn);
    const struct fw_mpi *p = sym ? fn() : NULL;
    if (!p) snprintf(why, whysz, "%s has no fwadvisor_mpi_plugin", path);
    else if (p->abi != FW_MPI_ABI || !p->version || strcmp(p->version, FWADVISOR_VERSION) != 0) {
        snprintf(why, whysz, "%s is from another build (version %s): rebuild it", path, p->version ? p->version : "?");
        p = NULL;
    }
    if (!p) dlclose(h);
    return p;
}

const struct fw_mpi *fw_mpi_load(char *err, size_t errsz)
{
    const char *env = getenv("FWADVISOR_MPI_PLUGIN");
    if (env && *env) return open_plugin(env, err, errsz);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(err, errsz, "cannot find the program's own folder");
        return NULL;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"fwadvisor-mpi.so", "build/fwadvisor-mpi.so", "../lib/fwadvisor/fwadvisor-mpi.so"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", exe, rel[i]);
        if (access(path, F_OK) == 0) return open_plugin(path, err, errsz);
    }
    snprintf(err, errsz, "this build has no MPI plug-in (fwadvisor-mpi.so; build where mpicc is found)");
    return NULL;
}
