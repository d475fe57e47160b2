/* Probe workloads across MPI ranks (allreduce, train-dp), written against the MPI plug-in's
 * struct (probes/mpi/plugin.h). Every rank calls the same functions in the same order; only rank
 * 0 passes a probe run to fill. */
#ifndef FWADVISOR_PROBES_DIST_H
#define FWADVISOR_PROBES_DIST_H

#include "probes/mpi/plugin.h"
#include "probes/probe.h"

struct dist {
    const struct fw_mpi *mpi;
    int rank, size, local_rank, local_size;
    char host[64];
};

/* MPI_Init and the watchdog ($FWADVISOR_MPI_TIMEOUT seconds without an answer from the other
 * ranks, default 120, ends this rank with one line). 0, or -1 with err. */
int dist_start(struct dist *d, const struct fw_mpi *mpi, char *err, size_t errsz);
void dist_stop(struct dist *d);
/* Every rank's program version against this one's; -1 with the first mismatch in err (on every
 * rank alike). */
int dist_check_versions(struct dist *d, const char *version, char *err, size_t errsz);
/* A barrier that does not spin. */
void dist_barrier(struct dist *d);
/* The workloads in opt->workloads & probe_workload_set(PROBE_WS_DIST); run is rank 0's (NULL elsewhere). With
 * gpu set (--device cuda under MPI) allreduce runs through NCCL on each rank's GPU
 * (dist_gpu_for_rank), MPI carrying only NCCL's start-up id. */
void dist_run(struct dist *d, struct probe_run *run, const struct probe_options *opt, int gpu);
/* The GPU a rank uses: its local rank modulo the GPUs it sees, so that one GPU per rank
 * (CUDA_VISIBLE_DEVICES set per rank, as Slurm's --gpus-per-task does) and all GPUs per rank
 * both work. -1 when it sees none. */
int dist_gpu_for_rank(int local_rank, int device_count);
/* nccl-tests' allreduce bus bandwidth factor, 2 (n - 1) / n. */
double dist_busbw_factor(int ranks);

#endif
