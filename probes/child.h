/* child: runs another program under limits and reads its answer line by line, for the probe's
 * framework scripts (a Python interpreter that may crash, hang, leak or print nonsense).
 *
 * A small supervising process stands between this one and the program: a fork of this one that
 * runs nothing else, so that nothing of this process (its other threads' children, its own
 * orphans) is involved. On Linux it is a child subreaper (PR_SET_CHILD_SUBREAPER): every process
 * the program starts stays under it, those that leave its process group or session (setsid)
 * and the orphans of those that die included. When the program ends, or the run is ended, the
 * supervisor kills every process under it and reaps them before it reports the end; it does the
 * same when this process dies (even by SIGKILL). The program runs in its own process group, in
 * the working directory given, with standard input from /dev/null, and dies with the
 * supervisor (PR_SET_PDEATHSIG). Every 100 ms this process checks the stop flag, the time limit
 * and the resident memory of everything under the supervisor (/proc/PID/stat, by parent); past
 * any of them, or when on_line asks, the run is ended, so a cancel takes effect within a
 * second; its pipes, when something outside the supervisor's reach holds them open, are read for
 * 2 s more at most, 0.2 s after a stop. Safe to call from any thread: nothing between fork and
 * exec allocates. Nothing here
 * prints. */
#ifndef FWADVISOR_PROBES_CHILD_H
#define FWADVISOR_PROBES_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct probe_child_limits {
    double seconds;                /* wall time; <= 0: none */
    uint64_t memory_bytes;         /* resident memory of the program and all it started; 0: none */
    volatile sig_atomic_t *stop;   /* may be NULL */
};

enum probe_child_end {
    PROBE_CHILD_EXITED,    /* code: the exit status */
    PROBE_CHILD_SIGNALED,  /* code: the signal that ended it */
    PROBE_CHILD_TIMEOUT,   /* killed at the time limit */
    PROBE_CHILD_MEMORY,    /* killed above the memory limit */
    PROBE_CHILD_STOPPED,   /* killed: the stop flag was set */
    PROBE_CHILD_REFUSED,   /* killed: on_line asked (its output made no sense) */
    PROBE_CHILD_NOT_RUN,   /* could not be started (why in err_tail) */
};

struct probe_child_result {
    enum probe_child_end end;
    int code;
    double seconds;           /* from start to end */
    uint64_t peak_rss_bytes;  /* largest total seen at the checks */
    char err_tail[1024];      /* the end of its standard error (its last lines) */
};

/* Runs argv (argv[0] an absolute path) with the environment env (NULL-terminated "KEY=VALUE"
 * entries; NULL: this process's). Each complete line of its standard output (without the
 * newline; a line over 1 MiB is cut there) goes to on_line, which returns 0 to go on or 1 to
 * have the child killed (PROBE_CHILD_REFUSED). Returns 0 when the child ran (however it ended),
 * -1 when it could not be started. */
int probe_child_run(const char *const *argv, const char *const *env, const struct probe_child_limits *lim,
                    int (*on_line)(void *ctx, const char *line), void *ctx, struct probe_child_result *out);
/* The same in working directory dir (NULL: this process's); a directory it cannot enter makes it
 * one that could not be started ("cannot run PROGRAM in DIR: REASON"). */
int probe_child_run_in(const char *dir, const char *const *argv, const char *const *env,
                       const struct probe_child_limits *lim, int (*on_line)(void *ctx, const char *line), void *ctx,
                       struct probe_child_result *out);

/* The resident memory in bytes of every process under process pid (its children, theirs, ...;
 * not pid itself), from /proc; 0 when none is found. */
uint64_t probe_child_tree_rss(int pid);

/* One line saying how a child ended, for a result row: "timed out after 60 s", "killed above
 * the memory limit of 12.0 GB", "crashed (signal 11: Segmentation fault)", "exited with status
 * 1", "cancelled", ...; with the last line of its standard error when there is one. */
void probe_child_describe(const struct probe_child_result *r, const struct probe_child_limits *lim, char *out,
                          size_t outsz);

#endif
