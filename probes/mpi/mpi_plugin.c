/* fwadvisor-mpi.so: the program's MPI calls (probes/mpi/plugin.h). Built with mpicc; any MPI
 * implementation with MPI-3 (MPI_Ibarrier) does. */
#include "probes/mpi/plugin.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif

static char error_text[MPI_MAX_ERROR_STRING + 64];
static char library_text[MPI_MAX_LIBRARY_VERSION_STRING];

static int check(int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return 0;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", rc);
    snprintf(error_text, sizeof error_text, "%s: %s", what, text);
    return -1;
}

static int p_init(int *rank, int *size, int *local_rank, int *local_size, char *err, size_t errsz)
{
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(err, errsz, "MPI_Init failed");
        return -1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    /* ranks on this host: a communicator split by shared memory */
    MPI_Comm local;
    *local_size = 1;
    *local_rank = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
        MPI_Comm_size(local, local_size);
        MPI_Comm_rank(local, local_rank);
        MPI_Comm_free(&local);
    }
    int len = 0;
    MPI_Get_library_version(library_text, &len);
    char *nl = strchr(library_text, '\n');
    if (nl) *nl = 0;
    return 0;
}

static void p_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
}

static void p_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
static double p_wtime(void) { return MPI_Wtime(); }

static void p_host(char *out, size_t outsz)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS) snprintf(name, sizeof name, "?");
    snprintf(out, outsz, "%s", name);
}

static int p_allreduce_sum_f32(const float *send, float *recv, size_t count)
{
    /* counts beyond INT_MAX in pieces */
    const size_t piece = (size_t)1 << 30;
    for (size_t at = 0; at < count; at += piece) {
        int n = (int)(count - at < piece ? count - at : piece);
        const void *s = send ? (const void *)(send + at) : MPI_IN_PLACE;
        if (check(MPI_Allreduce(s, recv + at, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce")) return -1;
    }
    return 0;
}

static int p_allreduce_sum_i64(long long *v, int n)
{
    return check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
}

static int p_allreduce_max_f64(double *v, int n)
{
    return check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
}

static int p_allgather(const void *send, void *recv, int bytes)
{
    return check(MPI_Allgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD), "MPI_Allgather");
}

static int p_gather(const void *send, void *recv, int bytes, int root)
{
    return check(MPI_Gather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Gather");
}

static int p_bcast(void *buf, int bytes, int root)
{
    return check(MPI_Bcast(buf, bytes, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

static int p_quiet_barrier(void)
{
    MPI_Request req;
    if (check(MPI_Ibarrier(MPI_COMM_WORLD, &req), "MPI_Ibarrier")) return -1;
    for (;;) {
        int done = 0;
        if (check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test")) return -1;
        if (done) return 0;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

static const char *p_last_error(void) { return error_text; }

static const struct fw_mpi plugin = {
    .abi = FW_MPI_ABI,
    .version = FWADVISOR_VERSION,
    .size = sizeof(struct fw_mpi),
    .library = library_text,
    .init = p_init,
    .finalize = p_finalize,
    .abort = p_abort,
    .wtime = p_wtime,
    .host = p_host,
    .allreduce_sum_f32 = p_allreduce_sum_f32,
    .allreduce_sum_i64 = p_allreduce_sum_i64,
    .allreduce_max_f64 = p_allreduce_max_f64,
    .allgather = p_allgather,
    .gather = p_gather,
    .bcast = p_bcast,
    .quiet_barrier = p_quiet_barrier,
    .last_error = p_last_error,
};

__attribute__((visibility("default"))) const struct fw_mpi *fwadvisor_mpi_plugin(void) { return &plugin; }
