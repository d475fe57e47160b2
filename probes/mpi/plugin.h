/* The MPI plug-in's interface: fwadvisor-mpi.so, built with mpicc when it is found, holds every
 * MPI call the program makes; the main binary loads it with dlopen only when it runs under an MPI
 * launcher (mpirun, srun), so MPI is never a requirement of the binary. The calls are thin: the
 * workloads themselves (probes/dist.c) are written against this struct. */
#ifndef FWADVISOR_PROBES_MPI_PLUGIN_H
#define FWADVISOR_PROBES_MPI_PLUGIN_H

#include <stddef.h>

#define FW_MPI_ABI 3

struct fw_mpi {
    int abi;               /* FW_MPI_ABI: first, where every version of the interface has it */
    const char *version;   /* the program version the plug-in was built with */
    size_t size;           /* sizeof(struct fw_mpi) as the plug-in was compiled */
    const char *library;   /* the MPI library's own version line */
    /* MPI_Init; errors return instead of aborting. 0, or -1 with err. */
    int (*init)(int *rank, int *size, int *local_rank, int *local_size, char *err, size_t errsz);
    void (*finalize)(void);
    void (*abort)(int code);
    double (*wtime)(void);
    void (*host)(char *out, size_t outsz);
    /* Collectives over MPI_COMM_WORLD; 0, or -1 (the text from last_error). */
    int (*allreduce_sum_f32)(const float *send, float *recv, size_t count); /* send NULL: in place */
    int (*allreduce_sum_i64)(long long *v, int n);                         /* in place */
    int (*allreduce_max_f64)(double *v, int n);                            /* in place */
    int (*allgather)(const void *send, void *recv, int bytes);
    int (*gather)(const void *send, void *recv, int bytes, int root);
    int (*bcast)(void *buf, int bytes, int root);
    /* A barrier that sleeps while it waits (MPI_Ibarrier polled every millisecond), so ranks
     * that wait for rank 0 do not take the cores it measures with. */
    int (*quiet_barrier)(void);
    const char *(*last_error)(void);
};

typedef const struct fw_mpi *(*fw_mpi_fn)(void);

/* Main program side (probes/mpi_loader.c). 1 when the environment shows an MPI launcher started
 * this process with more than one rank (Open MPI, MPICH/Hydra, PMIx, Slurm's srun). */
int fw_mpi_launched(void);
/* 1 when an MPI launcher started this process, one rank or many (its rank variable is set:
 * Open MPI, MPICH/Hydra, PMIx, MVAPICH). Open MPI gives ranks a pseudo-terminal, so a terminal
 * on stdout proves nothing there. */
int fw_mpi_rank_env(void);
/* Loads the plug-in (FWADVISOR_MPI_PLUGIN, else fwadvisor-mpi.so beside the binary, build/, or
 * ../lib/fwadvisor/), or NULL with the reason. */
const struct fw_mpi *fw_mpi_load(char *err, size_t errsz);

#endif
