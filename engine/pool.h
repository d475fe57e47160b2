/* pool: the CPU back-end's worker threads for the kernels that run between matrix products
 * (attention, LayerNorm, GELU, the optimizer).
 *
 * Why a pool of our own and not OpenMP: OpenBLAS (Debian's default build uses pthreads) keeps its
 * own pool for GEMM. After a parallel region libgomp's threads spin for a while (GOMP_SPINCOUNT)
 * before sleeping, straight into the next GEMM, where they compete with OpenBLAS's threads for the
 * same cores; the usual cure, OMP_WAIT_POLICY=passive, is an environment setting a library cannot
 * impose. Here the workers sleep on a condition variable the moment a kernel is done, so at any
 * time only one of the two pools is busy; OpenBLAS's idle threads yield the processor while they
 * wait, so a kernel right after a GEMM loses little to them. Both pools are sized the same (the
 * physical cores by default), the caller's thread counting as one of ours.
 *
 * One caller at a time runs work (a mutex serialises callers); a kernel never calls the pool
 * from inside a task. */
#ifndef FWADVISOR_ENGINE_POOL_H
#define FWADVISOR_ENGINE_POOL_H

#define ENG_POOL_MAX_THREADS 256

/* Sets the number of threads work runs on (the caller included), 1 to ENG_POOL_MAX_THREADS.
 * Workers are started on first use and kept for the life of the process. */
void eng_pool_set_threads(int threads);
int eng_pool_threads(void);

/* Runs fn(ctx, task, worker) for every task in [0, ntasks), each exactly once, on at most
 * max_workers threads (<= 0: all); worker is in [0, threads) and no two tasks run at once with
 * the same worker, so it can index per-thread scratch. Tasks are handed out in order as threads
 * come free. Returns when every task is done. */
void eng_pool_run(int ntasks, int max_workers, void (*fn)(void *ctx, int task, int worker), void *ctx);

#endif
