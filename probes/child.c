#include "probes/child.h"
#include "engine/engine.h"

#include <dirent.h>
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
#endif

#define LINE_MAX_BYTES ((size_t)1 << 20)
#define TICK_MS 100
/* How long the pipes may stay open once the group is gone (held by something outside it, such
 * as a daemon it started): a while for its last output, but not past a cancel's second. */
#define PIPE_GRACE_S 2.0
#define PIPE_GRACE_STOPPED_S 0.2

extern char **environ;


uint64_t probe_child_group_rss(int pgid)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long page = sysconf(_SC_PAGESIZE);
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        char path[64], buf[1024];
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) continue;
        buf[n] = '\0';
        /* "pid (comm) state ppid pgrp ... rss": the name may hold anything, so fields are
         * counted from its closing parenthesis; rss is the 24th field. */
        char *p = strrchr(buf, ')');
        int group;
        long rss;
        if (!p || sscanf(p + 1, " %*c %*d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %*u %*u %ld",
                         &group, &rss) != 2)
            continue;
        if (group == pgid && rss > 0) total += (uint64_t)rss * (uint64_t)page;
    }
    closedir(d);
    return total;
}

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

/* In the child, between fork and exec: only async-signal-safe calls. */
static void exec_child(const char *const *argv, char *const *envp, int in, int out, int err, int report, pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127); /* the parent is already gone */
#else
    (void)parent;
#endif
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
    execve(argv[0], (char *const *)argv, envp);
    int e = errno;
    ssize_t unused = write(report, &e, sizeof e);
    (void)unused;
    _exit(127);
}

int probe_child_run(const char *const *argv, const char *const *env, const struct probe_child_limits *lim,
                    int (*on_line)(void *ctx, const char *line), void *ctx, struct probe_child_result *out)
{
    memset(out, 0, sizeof *out);
    out->end = PROBE_CHILD_NOT_RUN;
    int outp[2] = {-1, -1}, errp[2] = {-1, -1}, rep[2] = {-1, -1};
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct reader rd = {malloc(LINE_MAX_BYTES + 1), 0, 0, on_line, ctx, 0};
    pid_t pid = -1;
    if (!rd.line || devnull < 0 || cloexec_pipe(outp) || cloexec_pipe(errp) || cloexec_pipe(rep)) {
        snprintf(out->err_tail, sizeof out->err_tail, "cannot start %s: %s", argv[0], strerror(errno));
        goto fail;
    }
    double start = eng_now_s();
    pid_t parent = getpid();
    pid = fork();
    if (pid < 0) {
        snprintf(out->err_tail, sizeof out->err_tail, "cannot start %s: %s", argv[0], strerror(errno));
        goto fail;
    }
    if (pid == 0) exec_child(argv, env ? (char *const *)env : environ, devnull, outp[1], errp[1], rep[1], parent);
    setpgid(pid, pid); /* as the child does: whichever runs first */
    close(outp[1]), close(errp[1]), close(rep[1]);
    outp[1] = errp[1] = rep[1] = -1;
    int exec_errno = 0;
    if (read(rep[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        waitpid(pid, NULL, 0);
        snprintf(out->err_tail, sizeof out->err_tail, "cannot run %s: %s", argv[0], strerror(exec_errno));
        pid = -1;
        goto fail;
    }

    size_t tail_len = 0;
    int out_open = 1, err_open = 1, exited = 0, status = 0, killed = 0;
    enum probe_child_end why = PROBE_CHILD_EXITED;
    double last_rss = 0, killed_at = 0;
    char buf[65536];
    for (;;) {
        struct pollfd p[2];
        int np = 0;
        if (out_open) p[np++] = (struct pollfd){outp[0], POLLIN, 0};
        if (err_open) p[np++] = (struct pollfd){errp[0], POLLIN, 0};
        if (poll(p, (nfds_t)np, TICK_MS) < 0 && errno != EINTR) break;
        for (int i = 0; i < np; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
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
        pid_t waited = exited ? 0 : waitpid(pid, &status, WNOHANG);
        if (waited == pid || (waited < 0 && errno == ECHILD)) { /* ECHILD: reaped already (SIGCHLD ignored) */
            exited = 1;
            /* helpers it left behind in its group (a compiler's worker pool) go with it */
            if (!killed) kill(-pid, SIGKILL);
            killed_at = eng_now_s();
        }
        if (!out_open && !err_open && exited) break;
        double t = eng_now_s();
        if (exited || killed) { /* something outside the group may hold the pipes */
            int stopping = lim && lim->stop && *lim->stop;
            if (t - killed_at > (stopping ? PIPE_GRACE_STOPPED_S : PIPE_GRACE_S)) break;
            continue;
        }
        if (rd.refused) why = PROBE_CHILD_REFUSED;
        else if (lim && lim->stop && *lim->stop) why = PROBE_CHILD_STOPPED;
        else if (lim && lim->seconds > 0 && t - start > lim->seconds) why = PROBE_CHILD_TIMEOUT;
        else if (lim && lim->memory_bytes && t - last_rss >= 0.2) {
            last_rss = t;
            uint64_t rss = probe_child_group_rss(pid);
            if (rss > out->peak_rss_bytes) out->peak_rss_bytes = rss;
            if (rss > lim->memory_bytes) why = PROBE_CHILD_MEMORY;
        }
        if (why != PROBE_CHILD_EXITED) {
            kill(-pid, SIGKILL);
            killed = 1;
            killed_at = t;
        }
    }
    if (!exited) waitpid(pid, &status, 0);
    if (rd.used && !rd.refused && !killed && on_line) { /* a last line without its newline */
        rd.line[rd.used] = '\0';
        on_line(ctx, rd.line);
    }
    out->seconds = eng_now_s() - start;
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
