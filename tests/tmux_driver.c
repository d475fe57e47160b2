/* The interface in a tmux pane, for the tests. */
#include "tests/tmux_driver.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dir, sock[64], dbarg[4200];

void tty_setup(void)
{
    dir = ts_tmpdir();
    snprintf(sock, sizeof sock, "fwadv-test-%d", (int)getpid());
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
}

const char *tty_dir(void) { return dir; }
const char *tty_dbarg(void) { return dbarg; }

void tty_tmux(const char *const *args, struct ts_run *out)
{
    const char *argv[32] = {"-L", sock};
    int n = 2;
    for (const char *const *a = args; *a && n < 31; a++) argv[n++] = *a;
    argv[n] = NULL;
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, "/usr/bin/tmux", NULL, NULL, argv), 0);
    if (out) *out = r;
    else ts_run_free(&r);
}

void tty_teardown(void)
{
    tty_tmux((const char *const[]){"kill-server", NULL}, NULL);
    ts_rmtree(dir);
    free(dir);
}

void tty_start_shell(int w, int h, const char *cmd)
{
    if (access("/usr/bin/tmux", X_OK) != 0) cr_skip_test("tmux is not installed (scripts/deps.sh installs it)");
    char ws[16], hs[16];
    snprintf(ws, sizeof ws, "%d", w);
    snprintf(hs, sizeof hs, "%d", h);
    tty_tmux((const char *const[]){"new-session", "-d", "-s", "t", "-x", ws, "-y", hs, "-c", dir, cmd, NULL}, NULL);
}

void tty_start(int w, int h, const char *envs, int recorded)
{
    const char *bin = getenv("FWADVISOR_BIN");
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char machine[4400] = "", cmd[12000];
    if (recorded)
        snprintf(machine, sizeof machine, "FWADVISOR_SYSROOT=%s/sysroot/nvidia-h100 HWLOC_XMLFILE=%s/sysroot/nvidia-h100/topology.xml",
                 fixtures ? fixtures : "tests/fixtures", fixtures ? fixtures : "tests/fixtures");
    /* The shell ignores Ctrl-C itself, so it outlives fwadvisor and says how it ended. */
    snprintf(cmd, sizeof cmd,
             "trap '' INT; env -u FWADVISOR_DB -u TPU_ACCELERATOR_TYPE LANG=C.UTF-8 LC_ALL=C.UTF-8 %s %s %s %s; "
             "echo EXITED status=$?; sleep 60",
             machine, envs, bin ? bin : "./fwadvisor", dbarg);
    tty_start_shell(w, h, cmd);
}

char *tty_screen(int escapes)
{
    struct ts_run r;
    if (escapes) tty_tmux((const char *const[]){"capture-pane", "-p", "-e", "-t", "t", NULL}, &r);
    else tty_tmux((const char *const[]){"capture-pane", "-p", "-t", "t", NULL}, &r);
    free(r.err);
    return r.out;
}

/* A frame can reach tmux in pieces: the screen returned is one that two captures 50 ms apart
 * agree on. */
static char *settle(char *s)
{
    for (int i = 0; i < 40; i++) {
        usleep(50000);
        char *again = tty_screen(0);
        int same = strcmp(again, s) == 0;
        free(s);
        s = again;
        if (same) break;
    }
    return s;
}

char *tty_settled(void) { return settle(tty_screen(0)); }

char *tty_wait_s(const char *text, int seconds)
{
    for (int i = 0; i < seconds * 100; i++) {
        char *s = tty_screen(0);
        if (strstr(s, text)) {
            s = settle(s);
            if (strstr(s, text)) return s;
        }
        free(s);
        usleep(10000);
    }
    char *s = tty_screen(0);
    cr_assert_fail("the screen never showed '%s':\n%s", text, s);
    return s;
}

char *tty_wait(const char *text) { return tty_wait_s(text, 15); }

void tty_keys(const char *k) { tty_tmux((const char *const[]){"send-keys", "-t", "t", k, NULL}, NULL); }

void tty_keys_n(const char *k, int n)
{
    for (int i = 0; i < n; i++) tty_keys(k);
}

void tty_type(const char *text) { tty_tmux((const char *const[]){"send-keys", "-t", "t", "-l", text, NULL}, NULL); }

void tty_mouse(int button, int x, int y)
{
    char seq[8] = {'\033', '[', 'M', (char)(32 + button), (char)(33 + x), (char)(33 + y), 0};
    tty_type(seq);
    if (button < 3) { /* a press is followed by its release (button code 3), as a terminal sends */
        seq[3] = 32 + 3;
        tty_type(seq);
    }
}

const char *tty_line(const char *screen, int y)
{
    static char line[1024];
    const char *p = screen;
    for (int i = 0; i < y && p; i++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    if (!p) return "";
    size_t n = strcspn(p, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
    return line;
}

int tty_cut(const char *screen, int from, int to)
{
    for (int y = from; y <= to; y++)
        if (strstr(tty_line(screen, y), "...")) return 1;
    return 0;
}

void tty_load_answers(const char *path)
{
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 5);
    tty_keys("Enter");
    free(tty_wait("Answers file"));
    tty_type(path);
    tty_keys("Enter");
}

pid_t tty_program(void)
{
    struct ts_run r;
    tty_tmux((const char *const[]){"display-message", "-p", "-t", "t", "#{pane_pid}", NULL}, &r);
    pid_t shell = (pid_t)atoi(r.out);
    ts_run_free(&r);
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char path[300], stat_line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int pid, ppid;
        char state;
        if (fgets(stat_line, sizeof stat_line, f) && strstr(stat_line, "(fwadvisor)") &&
            sscanf(strrchr(stat_line, ')') + 1, " %c %d", &state, &ppid) == 2 && ppid == shell &&
            sscanf(stat_line, "%d", &pid) == 1)
            found = pid;
        fclose(f);
    }
    closedir(d);
    cr_assert_gt(found, 0, "no fwadvisor under the pane's shell %d", (int)shell);
    return found;
}
