/* The child runner (child.h): a supervising process between this one and the program, which
 * gathers every process the program starts and ends them all with it. */
#include "probes/child.h"
#include "common/clock.h"
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#define LINE_MAX_BYTES ((size_t)1 << 20)
#define TICK_MS 100  /* the parent's look at the limits */
#define WATCH_MS 20  /* the supervisor's look at its children */
/* How long the pipes may stay open once the run is over (held by something outside the
 * supervisor's reach): a while for its last output, but not past a cancel's second. */
#define PIPE_GRACE_S 2.0
#define PIPE_GRACE_STOPPED_S 0.2

extern char **environ;

/* --- /proc: processes, their parents and their memory ----------------------------------------- */
/* Called between fork and exec too: no allocation, no stdio, only system calls. */

/* The decimal number at *s, *s moved past it; -1 when there is none. */
static long parse_long(const char **s)
{
    const char *p = *s;
    long v = 0;
    if (*p < '0' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9' && v < 0x7fffffffL) v = v * 10 + (*p++ - '0');
    *s = p;
    return v;
}

/* "/proc/PID/stat" into out (at least 40 bytes). */
static void stat_path(long pid, char *out)
{
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + pid % 10);
    while ((pid /= 10) > 0 && n < 20);
    memcpy(out, "/proc/", 6);
    char *p = out + 6;
    while (n) *p++ = digits[--n];
    memcpy(p, "/stat", 6);
}

/* The parent and the resident pages of process pid. 0, or -1 when it is gone. */
static int proc_stat(long pid, long *ppid, long *rss_pages)
{
    char path[40], buf[1024];
    stat_path(pid, path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    /* "pid (comm) state ppid pgrp ... rss": the name may hold anything, so fields are counted
     * from its last closing parenthesis; ppid is the 4th field, rss the 24th. */
    const char *p = NULL;
    for (ssize_t i = n - 1; i >= 0 && !p; i--)
        if (buf[i] == ')') p = buf + i + 1;
    if (!p) return -1;
    for (int field = 3; field <= 24; field++) {
        while (*p == ' ') p++;
        if (field == 4 && (*ppid = parse_long(&p)) < 0) return -1;
        if (field == 24) return (*rss_pages = parse_long(&p)) < 0 ? -1 : 0;
        while (*p && *p != ' ') p++;
    }
    return -1;
}

/* Calls fn(ctx, n) for each entry of dir named by a number: every process in /proc, every open
 * descriptor in /proc/self/fd (fds: but the one reading it). Nothing where there is no /proc. */
static void each_number(const char *dir, int fds, void (*fn)(void *ctx, long n), void *ctx)
{
#ifdef __linux__
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    union {
        char bytes[4096];
        unsigned long long align;
    } buf;
    long got;
    while ((got = syscall(SYS_getdents64, fd, buf.bytes, sizeof buf.bytes)) > 0)
        for (long off = 0; off < got;) {
            /* struct linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), d_name */
            unsigned short reclen;
            memcpy(&reclen, buf.bytes + off + 16, sizeof reclen);
            const char *name = buf.bytes + off + 19;
            if (reclen == 0) break;
            off += reclen;
            long n = parse_long(&name);
            if (n >= 0 && *name == '\0' && !(fds && n == fd)) fn(ctx, n);
        }
    close(fd);
#else
    (void)dir, (void)fds, (void)fn, (void)ctx;
#endif
}

struct proc_entry {
    long pid, ppid, rss_pages;
};
struct proc_list {
    struct proc_entry *v;
    size_t n, cap;
    int failed;
};

static void collect(void *ctx, long pid)
{
    struct proc_list *l = ctx;
    struct proc_entry e = {pid, 0, 0};
    if (l->failed || proc_stat(pid, &e.ppid, &e.rss_pages) != 0) return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 512;
        struct proc_entry *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->failed = 1;
            return;
        }
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = e;
}

static int by_parent(const void *a, const void *b)
{
    long x = ((const struct proc_entry *)a)->ppid, y = ((const struct proc_entry *)b)->ppid;
    return (x > y) - (x < y);
}

uint64_t probe_child_tree_rss(int root)
{
    struct proc_list l = {NULL, 0, 0, 0};
    each_number("/proc", 0, collect, &l);
    uint64_t total = 0;
    long *queue = malloc((l.n + 1) * sizeof *queue);
    if (queue && !l.failed && l.n) {
        /* breadth first from root: each process's children are a run of the list sorted by
         * parent; at most n are taken, whatever a list read while processes come and go holds */
        qsort(l.v, l.n, sizeof *l.v, by_parent);
        size_t head = 0, tail = 0;
        queue[tail++] = root;
        long page = sysconf(_SC_PAGESIZE);
        while (head < tail) {
            long parent = queue[head++];
            size_t lo = 0, hi = l.n;
            while (lo < hi) { /* the first entry whose parent is not below `parent` */
                size_t mid = lo + (hi - lo) / 2;
                if (l.v[mid].ppid < parent) lo = mid + 1;
                else hi = mid;
            }
            for (size_t i = lo; i < l.n && l.v[i].ppid == parent && tail <= l.n; i++) {
                total += (uint64_t)l.v[i].rss_pages * (uint64_t)page;
                queue[tail++] = l.v[i].pid;
            }
        }
    }
    free(queue);
    free(l.v);
    return total;
}

/* --- the program's output ------------------------------------------------------------------------ */

/* The last lines of standard error, kept in a fixed buffer: older text gives way. */
static void keep_tail(char *tail, size_t cap, size_t *len, const char *data, size_t n)
{
    if (n >= cap - 1) {
        data += n - (cap - 1);
        n = cap - 1;
    }
    if (*len + n > cap - 1) {
        size_t drop = *len + n - (cap - 1);
        memmove(tail, tail + drop, *len - drop);
        *len -= drop;
    }
    memcpy(tail + *len, data, n);
    *len += n;
    tail[*len] = '\0';
}

struct reader {
    char *line;
    size_t used;
    int overlong; /* the current line passed LINE_MAX_BYTES: the rest of it is dropped */
    int (*on_line)(void *ctx, const char *line);
    void *ctx;
    int refused;
};

static void feed(struct reader *rd, const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n') {
            rd->line[rd->used] = '\0';
            if (!rd->refused && rd->on_line && rd->on_line(rd->ctx, rd->line)) rd->refused = 1;
            rd->used = 0;
            rd->overlong = 0;
        } else if (rd->used < LINE_MAX_BYTES) {
            rd->line[rd->used++] = data[i];
        } else {
            rd->overlong = 1;
        }
    }
}

/* A pipe whose ends close on exec, so that no program started later inherits them. */
static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* --- the supervisor ------------------------------------------------------------------------------- */

/* What the supervisor tells this process, and the program's start tells the supervisor, in
 * messages of two ints (one write each, so never split). */
enum report_kind {
    REPORT_STARTED,  /* the program runs */
    REPORT_FAILED,   /* value: errno of the exec (or of the fork) */
    REPORT_NO_DIR,   /* value: errno of changing to the working directory */
    REPORT_ENDED,    /* value: the program's wait status; it and every process under it are gone */
};
struct report {
    int kind, value;
};

static void send_report(int fd, int kind, int value)
{
    struct report r = {kind, value};
    ssize_t unused = write(fd, &r, sizeof r);
    (void)unused;
}

/* What the supervisor needs, set up before the fork. */
struct spawn {
    const char *const *argv;
    char *const *envp;
    const char *dir;      /* the program's working directory; NULL: this one's */
    int in, out, err;     /* the program's standard input, output and error */
    int ctl;              /* read end; closed at the other end: end the run now */
    int report;           /* write end for struct report */
    pid_t parent;
};

/* In the program's process, between fork and exec. */
static void exec_child(const struct spawn *sp, int report, pid_t supervisor)
{
    setpgid(0, 0); /* its own group: helpers it starts go with it */
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != supervisor) _exit(127); /* the supervisor is already gone */
#else
    (void)supervisor;
#endif
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (dup2(sp->in, 0) < 0 || dup2(sp->out, 1) < 0 || dup2(sp->err, 2) < 0) _exit(127);
    if (sp->dir && chdir(sp->dir) != 0) {
        send_report(report, REPORT_NO_DIR, errno);
        _exit(127);
    }
    execve(sp->argv[0], (char *const *)sp->argv, sp->envp);
    send_report(report, REPORT_FAILED, errno);
    _exit(127);
}

struct keep_fds {
    const int *fd;
    int n;
};

static void close_unless_kept(void *ctx, long fd)
{
    const struct keep_fds *k = ctx;
    for (int i = 0; i < k->n; i++)
        if (k->fd[i] == fd) return;
    if (fd > 2) close((int)fd);
}

static void kill_if_child(void *ctx, long pid)
{
    long ppid = 0, rss = 0;
    /* a child of this process: its pid stays its own until this process reaps it */
    if (proc_stat(pid, &ppid, &rss) == 0 && ppid == *(const long *)ctx) kill((pid_t)pid, SIGKILL);
}

/* Until the program ends, the parent closes ctl (or is gone). Orphans that come here and end
 * meanwhile are reaped; the program is left unreaped, so that its group is still its own. */
static void watch(const struct spawn *sp, pid_t program)
{
    for (;;) {
        struct pollfd p = {sp->ctl, POLLIN, 0};
        if (poll(&p, 1, WATCH_MS) > 0 || getppid() != sp->parent) return;
        for (;;) {
            siginfo_t si;
            si.si_pid = 0;
            if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0) break;
            if (si.si_pid == program) return;
            waitpid(si.si_pid, NULL, 0);
        }
    }
}

/* Kills the program's group and every process left under this one (those that left the group,
 * the orphans of the ones that died: a subreaper's children), and reaps them all. The
 * program's wait status. */
static int end_all(pid_t program)
{
    int status = 0, st;
    kill(-program, SIGKILL);
#ifdef __linux__
    long self = getpid();
    for (;;) {
        each_number("/proc", 0, kill_if_child, &self);
        pid_t w = waitpid(-1, &st, 0);
        if (w < 0) break; /* ECHILD: nothing is left under this process */
        do
            if (w == program) status = st;
        while ((w = waitpid(-1, &st, WNOHANG)) > 0);
    }
#else
    if (waitpid(program, &st, 0) == program) status = st;
#endif
    return status;
}

/* The supervising process: starts the program, watches it, ends everything under it, reports. */
static void supervise(const struct spawn *sp)
{
    setpgid(0, 0); /* out of the terminal's group: Ctrl-C reaches the parent, which ends the run */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &dfl, NULL); /* children to wait for, even where the parent ignores them */
    int keep[] = {sp->in, sp->out, sp->err, sp->ctl, sp->report};
    struct keep_fds k = {keep, 5};
    each_number("/proc/self/fd", 1, close_unless_kept, &k); /* another run's descriptors among them */
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    if (getppid() != sp->parent) _exit(127);
    int ex[2];
    if (cloexec_pipe(ex) != 0) {
        send_report(sp->report, REPORT_FAILED, errno);
        _exit(127);
    }
    pid_t self = getpid(), program = fork();
    if (program == 0) exec_child(sp, ex[1], self);
    int fork_errno = errno;
    close(ex[1]), close(sp->in), close(sp->out), close(sp->err);
    struct report r;
    if (program < 0) {
        send_report(sp->report, REPORT_FAILED, fork_errno);
        _exit(127);
    }
    setpgid(program, program); /* as the program does: whichever runs first */
    if (read(ex[0], &r, sizeof r) == (ssize_t)sizeof r) {
        waitpid(program, NULL, 0);
        send_report(sp->report, r.kind, r.value);
        _exit(0);
    }
    close(ex[0]);
    send_report(sp->report, REPORT_STARTED, 0);
    watch(sp, program);
    send_report(sp->report, REPORT_ENDED, end_all(program));
    _exit(0);
}

/* --- the parent's side ------------------------------------------------------------------------------ */

int probe_child_run(const char *const *argv, const char *const *env, const struct probe_child_limits *lim,
                    int (*on_line)(void *ctx, const char *line), void *ctx, struct probe_child_result *out)
{
    return probe_child_run_in(NULL, argv, env, lim, on_line, ctx, out);
}

int probe_child_run_in(const char *dir, const char *const *argv, const char *const *env,
                       const struct probe_child_limits *lim, int (*on_line)(void *ctx, const char *line), void *ctx,
                       struct probe_child_result *out)
{
    memset(out, 0, sizeof *out);
    out->end = PROBE_CHILD_NOT_RUN;
    int outp[2] = {-1, -1}, errp[2] = {-1, -1}, rep[2] = {-1, -1}, ctl[2] = {-1, -1};
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct reader rd = {malloc(LINE_MAX_BYTES + 1), 0, 0, on_line, ctx, 0};
    pid_t pid = -1;
    if (!rd.line || devnull < 0 || cloexec_pipe(outp) || cloexec_pipe(errp) || cloexec_pipe(rep) || cloexec_pipe(ctl)) {
        snprintf(out->err_tail, sizeof out->err_tail, "cannot start %s: %s", argv[0], strerror(errno));
        goto fail;
    }
    double start = clock_now_s();
    struct spawn sp = {argv, env ? (char *const *)env : environ, dir, devnull, outp[1], errp[1],
                       ctl[0], rep[1], getpid()};
    pid = fork();
    if (pid < 0) {
        snprintf(out->err_tail, sizeof out->err_tail, "cannot start %s: %s", argv[0], strerror(errno));
        goto fail;
    }
    if (pid == 0) supervise(&sp);
    setpgid(pid, pid); /* as the supervisor does: whichever runs first */
    close(outp[1]), close(errp[1]), close(rep[1]), close(ctl[0]);
    outp[1] = errp[1] = rep[1] = ctl[0] = -1;
    struct report r;
    ssize_t got = read(rep[0], &r, sizeof r);
    if (got != (ssize_t)sizeof r || r.kind != REPORT_STARTED) {
        waitpid(pid, NULL, 0);
        if (got != (ssize_t)sizeof r)
            snprintf(out->err_tail, sizeof out->err_tail, "cannot start %s: its supervising process ended", argv[0]);
        else if (r.kind == REPORT_NO_DIR)
            snprintf(out->err_tail, sizeof out->err_tail, "cannot run %s in %s: %s", argv[0], sp.dir, strerror(r.value));
        else snprintf(out->err_tail, sizeof out->err_tail, "cannot run %s: %s", argv[0], strerror(r.value));
        goto fail;
    }

    size_t tail_len = 0;
    int out_open = 1, err_open = 1, rep_open = 1, exited = 0, status = 0, killed = 0;
    enum probe_child_end why = PROBE_CHILD_EXITED;
    double last_rss = 0, killed_at = 0;
    char buf[65536];
    for (;;) {
        struct pollfd p[3];
        int np = 0;
        if (out_open) p[np++] = (struct pollfd){outp[0], POLLIN, 0};
        if (err_open) p[np++] = (struct pollfd){errp[0], POLLIN, 0};
        if (rep_open) p[np++] = (struct pollfd){rep[0], POLLIN, 0};
        if (poll(p, (nfds_t)np, TICK_MS) < 0 && errno != EINTR) break;
        for (int i = 0; i < np; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (p[i].fd == rep[0]) {
                ssize_t n = read(rep[0], &r, sizeof r);
                if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
                if (n == (ssize_t)sizeof r && r.kind == REPORT_ENDED) status = r.value;
                else if (n > 0) continue;
                else rep_open = 0; /* the supervisor is gone (it ends right after the report) */
                if (!exited) killed_at = clock_now_s();
                exited = 1;
                continue;
            }
            ssize_t n = read(p[i].fd, buf, sizeof buf);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0) {
                if (p[i].fd == outp[0]) out_open = 0;
                else err_open = 0;
            } else if (p[i].fd == outp[0]) {
                feed(&rd, buf, (size_t)n);
            } else {
                keep_tail(out->err_tail, sizeof out->err_tail, &tail_len, buf, (size_t)n);
            }
        }
        if (!out_open && !err_open && exited) break;
        double t = clock_now_s();
        if (exited || killed) { /* something outside the supervisor's reach may hold the pipes */
            int stopping = lim && lim->stop && *lim->stop;
            if (t - killed_at > (stopping ? PIPE_GRACE_STOPPED_S : PIPE_GRACE_S)) break;
            continue;
        }
        if (rd.refused) why = PROBE_CHILD_REFUSED;
        else if (lim && lim->stop && *lim->stop) why = PROBE_CHILD_STOPPED;
        else if (lim && lim->seconds > 0 && t - start > lim->seconds) why = PROBE_CHILD_TIMEOUT;
        else if (lim && lim->memory_bytes && t - last_rss >= 0.2) {
            last_rss = t;
            uint64_t rss = probe_child_tree_rss(pid);
            if (rss > out->peak_rss_bytes) out->peak_rss_bytes = rss;
            if (rss > lim->memory_bytes) why = PROBE_CHILD_MEMORY;
        }
        if (why != PROBE_CHILD_EXITED) {
            close(ctl[1]); /* the supervisor's signal to end everything */
            ctl[1] = -1;
            killed = 1;
            killed_at = t;
        }
    }
    if (ctl[1] >= 0) close(ctl[1]);
    waitpid(pid, NULL, 0); /* it ends once everything under it has: at once after its report */
    if (rd.used && !rd.refused && !killed && on_line) { /* a last line without its newline */
        rd.line[rd.used] = '\0';
        on_line(ctx, rd.line);
    }
    out->seconds = clock_now_s() - start;
    if (why != PROBE_CHILD_EXITED) out->end = why;
    else if (rd.refused) out->end = PROBE_CHILD_REFUSED;
    else if (WIFSIGNALED(status)) out->end = PROBE_CHILD_SIGNALED, out->code = WTERMSIG(status);
    else out->end = PROBE_CHILD_EXITED, out->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    close(outp[0]), close(errp[0]), close(rep[0]), close(devnull);
    free(rd.line);
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (outp[i] >= 0) close(outp[i]);
        if (errp[i] >= 0) close(errp[i]);
        if (rep[i] >= 0) close(rep[i]);
        if (ctl[i] >= 0) close(ctl[i]);
    }
    if (devnull >= 0) close(devnull);
    free(rd.line);
    return -1;
}

/* The last non-empty line of s, trimmed, into out. */
static void last_line(const char *s, char *out, size_t outsz)
{
    size_t end = strlen(s);
    while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == '\r' || s[end - 1] == ' ')) end--;
    size_t begin = end;
    while (begin > 0 && s[begin - 1] != '\n') begin--;
    snprintf(out, outsz, "%.*s", (int)(end - begin), s + begin);
}

void probe_child_describe(const struct probe_child_result *r, const struct probe_child_limits *lim, char *out,
                          size_t outsz)
{
    char what[160], last[200];
    switch (r->end) {
    case PROBE_CHILD_TIMEOUT: snprintf(what, sizeof what, "timed out after %.0f s (the limit)", lim ? lim->seconds : r->seconds); break;
    case PROBE_CHILD_MEMORY:
        snprintf(what, sizeof what, "stopped above the memory limit of %.1f GB", lim ? (double)lim->memory_bytes / 1e9 : 0);
        break;
    case PROBE_CHILD_STOPPED: snprintf(what, sizeof what, "interrupted"); break;
    case PROBE_CHILD_REFUSED: snprintf(what, sizeof what, "stopped: its output was not the expected JSON lines"); break;
    case PROBE_CHILD_SIGNALED: snprintf(what, sizeof what, "crashed (signal %d, %s)", r->code, strsignal(r->code)); break;
    case PROBE_CHILD_NOT_RUN: snprintf(out, outsz, "%s", r->err_tail); return;
    case PROBE_CHILD_EXITED:
        if (r->code) snprintf(what, sizeof what, "exited with status %d", r->code);
        else snprintf(what, sizeof what, "ended without finishing");
        break;
    }
    last_line(r->err_tail, last, sizeof last);
    if (last[0] && r->end != PROBE_CHILD_STOPPED) snprintf(out, outsz, "%s: %s", what, last);
    else snprintf(out, outsz, "%s", what);
}
