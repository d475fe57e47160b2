/* The worker pool (pool.h): workers parked on a condition variable, tasks handed out through an
 * atomic counter. */
#include "engine/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct job {
    void (*fn)(void *ctx, int task, int worker);
    void *ctx;
    int ntasks;
    int nworkers;          /* workers taking part, the caller included */
    atomic_int next;       /* next task to hand out */
};

static struct {
    pthread_mutex_t call;  /* one caller at a time */
    pthread_mutex_t lock;  /* guards generation, running, quit */
    pthread_cond_t wake, done;
    int threads;           /* wanted, the caller included */
    int started;           /* workers running (threads - 1 at most) */
    pthread_t tid[ENG_POOL_MAX_THREADS];
    unsigned long generation;
    int running;           /* workers still busy with the current job */
    int quit;
    struct job job;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
          1, 0, {0}, 0, 0, 0, {0}};

static void work(struct job *j, int worker)
{
    for (;;) {
        int t = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
        if (t >= j->ntasks) return;
        j->fn(j->ctx, t, worker);
    }
}

static void *worker_main(void *arg)
{
    int id = (int)(long)arg; /* 1 .. started */
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.generation == seen) pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.quit) break;
        seen = pool.generation;
        if (id >= pool.job.nworkers) continue; /* not needed this time */
        pthread_mutex_unlock(&pool.lock);
        work(&pool.job, id);
        pthread_mutex_lock(&pool.lock);
        if (--pool.running == 0) pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

static void shutdown_pool(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.quit = 1;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 1; i <= pool.started; i++) pthread_join(pool.tid[i], NULL);
    pool.started = 0;
}

void eng_pool_set_threads(int threads)
{
    if (threads < 1) threads = 1;
    if (threads > ENG_POOL_MAX_THREADS) threads = ENG_POOL_MAX_THREADS;
    pthread_mutex_lock(&pool.call);
    pool.threads = threads;
    pthread_mutex_unlock(&pool.call);
}

int eng_pool_threads(void) { return pool.threads; }

/* Starts workers up to threads - 1 (called with pool.call held). Fewer may start when the system
 * refuses; the work then runs on those there are. */
static void grow(int threads)
{
    static int registered;
    while (pool.started < threads - 1) {
        int id = pool.started + 1;
        if (pthread_create(&pool.tid[id], NULL, worker_main, (void *)(long)id) != 0) break;
        pool.started = id;
        if (!registered) registered = atexit(shutdown_pool) == 0;
    }
}

void eng_pool_run(int ntasks, int max_workers, void (*fn)(void *ctx, int task, int worker), void *ctx)
{
    if (ntasks <= 0) return;
    pthread_mutex_lock(&pool.call);
    int n = pool.threads;
    if (max_workers > 0 && n > max_workers) n = max_workers;
    if (n > ntasks) n = ntasks;
    if (n > 1) grow(n);
    if (n > pool.started + 1) n = pool.started + 1;
    if (n <= 1) {
        for (int t = 0; t < ntasks; t++) fn(ctx, t, 0);
        pthread_mutex_unlock(&pool.call);
        return;
    }
    pthread_mutex_lock(&pool.lock);
    pool.job.fn = fn;
    pool.job.ctx = ctx;
    pool.job.ntasks = ntasks;
    pool.job.nworkers = n;
    atomic_store_explicit(&pool.job.next, 0, memory_order_relaxed);
    pool.running = n - 1;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    work(&pool.job, 0);
    pthread_mutex_lock(&pool.lock);
    while (pool.running > 0) pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.call);
}
