/* Files written only where they should be: links another user planted in a shared folder, the
 * launch files' folder, output onto the database in use, devices under /dev, the probe's fallback
 * file, and kb reset on what is not a database file or while another process writes. Tests that
 * need a second user run as root and switch to nobody (65534) or to a uid with no name (12345)
 * with setpriv; elsewhere they are skipped with the reason. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "knowledge/kb.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4300], db[4200];
static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", "TPU_ACCELERATOR_TYPE", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(db, sizeof db, "%s/kb.sqlite3", dir);
    snprintf(dbarg, sizeof dbarg, "--db=%s", db);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(hardening_files, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static int can_switch_users(void) { return geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0; }

/* Runs a program as uid (and gid) with no supplementary groups; 0 when it exited 0. */
static int run_as(unsigned uid, const char *const *argv)
{
    pid_t pid = fork();
    if (pid == 0) {
        char u[32], g[32];
        snprintf(u, sizeof u, "--reuid=%u", uid);
        snprintf(g, sizeof g, "--regid=%u", uid);
        const char *args[16] = {"setpriv", u, g, "--clear-groups"};
        int n = 4;
        for (int i = 0; argv[i] && n < 15; i++) args[n++] = argv[i];
        args[n] = NULL;
        execv("/usr/bin/setpriv", (char *const *)args);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* A folder anyone may write, with the sticky bit, as /tmp is. */
static char *sticky_folder(const char *name)
{
    char *p = ts_path(dir, name);
    cr_assert_eq(mkdir(p, 0777), 0);
    cr_assert_eq(chmod(p, 01777), 0);
    chmod(dir, 0755); /* so that the other user reaches it */
    return p;
}

static char *victim_file(void)
{
    char *v = ts_path(dir, "root-only.txt");
    cr_assert_eq(ts_write_str(v, "secret\n"), 0);
    cr_assert_eq(chmod(v, 0600), 0);
    return v;
}

static void expect_file(const char *path, const char *text)
{
    char *got = ts_read(path, NULL);
    cr_expect(got && strcmp(got, text) == 0, "%s now holds: %.60s", path, got ? got : "(nothing)");
    free(got);
}

/* --- links in shared folders ------------------------------------------------------------------ */

/* Root writes -o, --html and --save into a sticky folder where another user left a link to a file
 * only root may write: the link is not followed (exit 2, 1 and 2), the file keeps its bytes. A
 * link root made there itself, or one in a folder that is not sticky, is followed. */
Test(hardening_files, a_link_another_user_planted_in_a_sticky_folder_is_not_followed)
{
    if (!can_switch_users()) cr_skip_test("needs root and setpriv to act as another user");
    char *shared = sticky_folder("shared"), *victim = victim_file();
    char *json = ts_path(shared, "report.json"), *html = ts_path(shared, "report.html");
    char *model = ts_path(shared, "model.safetensors");
    cr_assert_eq(run_as(65534, (const char *const[]){"/bin/ln", "-s", victim, json, NULL}), 0);
    cr_assert_eq(run_as(65534, (const char *const[]){"/bin/ln", "-s", victim, html, NULL}), 0);
    cr_assert_eq(run_as(65534, (const char *const[]){"/bin/ln", "-s", victim, model, NULL}), 0);
    struct ts_run r;
    RUN(r, dbarg, "kb", "export", "-o", json);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "a link another user made in a shared folder (sticky, writable by all); not followed"),
              "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--html", html);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect_str_empty(r.out, "refused before the work");
    ts_run_free(&r);
    RUN(r, dbarg, "train", "--layers", "4,3", "--steps", "1", "--save", model);
    cr_expect_eq(r.status, 2, "%s", r.err);
    ts_run_free(&r);
    expect_file(victim, "secret\n");
    struct stat st;
    cr_expect(lstat(json, &st) == 0 && S_ISLNK(st.st_mode), "the planted link is left as it is");

    /* root's own link in the same folder, and another user's link in a folder that is not sticky */
    char *own = ts_path(shared, "own.json");
    cr_assert_eq(symlink(victim, own), 0);
    RUN(r, dbarg, "kb", "export", "-o", own);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *text = ts_read(victim, NULL);
    cr_expect(text && strstr(text, "fwadvisor.kb/1"), "root's own link is followed");
    free(text);
    char *plain = ts_path(dir, "plain");
    cr_assert_eq(mkdir(plain, 0755), 0);
    cr_assert_eq(chown(plain, 65534, 65534), 0);
    char *theirs = ts_path(plain, "theirs.json");
    cr_assert_eq(run_as(65534, (const char *const[]){"/bin/ln", "-s", victim, theirs, NULL}), 0);
    cr_assert_eq(ts_write_str(victim, "secret\n"), 0);
    RUN(r, dbarg, "kb", "export", "-o", theirs);
    cr_expect_eq(r.status, 0, "a folder that is not sticky is no shared folder: %s", r.err);
    ts_run_free(&r);
    free(shared), free(victim), free(json), free(html), free(model), free(own), free(plain), free(theirs);
}

/* The same rule for an ordinary user: a link of uid 12345 in the sticky folder is not followed by
 * nobody; a link root made there is (root owns the system's shared folders). */
Test(hardening_files, an_ordinary_user_follows_only_links_of_their_own_or_roots)
{
    if (!can_switch_users()) cr_skip_test("needs root and setpriv to act as another user");
    char *shared = sticky_folder("shared");
    char *target = ts_path(shared, "nobodys.json");
    cr_assert_eq(run_as(65534, (const char *const[]){"/bin/sh", "-c", "echo old > \"$0\"", target, NULL}), 0);
    char *planted = ts_path(shared, "planted.json"), *roots = ts_path(shared, "roots.json");
    cr_assert_eq(run_as(12345, (const char *const[]){"/bin/ln", "-s", target, planted, NULL}), 0);
    cr_assert_eq(symlink(target, roots), 0);
    char dbopt[4300];
    snprintf(dbopt, sizeof dbopt, "--db=%s/nobody.sqlite3", shared);
    const char *bin = getenv("FWADVISOR_BIN");
    cr_expect_eq(run_as(65534, (const char *const[]){bin, dbopt, "kb", "export", "-o", planted, NULL}), 2);
    expect_file(target, "old\n");
    cr_expect_eq(run_as(65534, (const char *const[]){bin, dbopt, "kb", "export", "-o", roots, NULL}), 0);
    char *text = ts_read(target, NULL);
    cr_expect(text && strstr(text, "fwadvisor.kb/1"), "a link of root's is followed");
    free(text);
    free(shared), free(target), free(planted), free(roots);
}

/* --- the launch files' folder --------------------------------------------------------------- */

static int emit_into(const char *folder, const char *model_kind, struct ts_run *r)
{
    char set[64];
    snprintf(set, sizeof set, "model_kind=%s", model_kind);
    return ts_run(r, env, NULL, (const char *const[]){dbarg, "recommend", "--probe", "none", "--set", set, "--emit",
                                                      folder, NULL});
}

static int count_entries(const char *folder)
{
    DIR *d = opendir(folder);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

/* An existing folder must be the user's own and writable by nobody else: a folder of another
 * user's, or one others can write (0777, 0775), is refused with exit 2 and nothing in it; 0700
 * and 0755 of one's own are taken. */
Test(hardening_files, emit_takes_only_a_folder_of_ones_own_that_nobody_else_can_write)
{
    struct ts_run r;
    static const struct { mode_t mode; int status; } cases[] = {{0777, 2}, {0775, 2}, {0757, 2}, {0700, 0}, {0755, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "plan-%o", (unsigned)cases[i].mode);
        char *folder = ts_path(dir, name);
        cr_assert_eq(mkdir(folder, 0700), 0);
        cr_assert_eq(chmod(folder, cases[i].mode), 0);
        cr_assert_eq(emit_into(folder, "llm", &r), 0);
        cr_expect_eq(r.status, cases[i].status, "mode %o: %s", (unsigned)cases[i].mode, r.err);
        if (cases[i].status) {
            cr_expect(strstr(r.err, "can be written by others; nothing written"), "%s", r.err);
            cr_expect_eq(count_entries(folder), 0);
        } else {
            cr_expect_gt(count_entries(folder), 1);
        }
        ts_run_free(&r);
        free(folder);
    }
    if (!can_switch_users()) cr_skip_test("needs root and setpriv for a folder of another user's");
    char *theirs = ts_path(dir, "theirs");
    cr_assert_eq(mkdir(theirs, 0755), 0);
    cr_assert_eq(chown(theirs, 65534, 65534), 0);
    cr_assert_eq(emit_into(theirs, "llm", &r), 0);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "belongs to another user; nothing written"), "%s", r.err);
    cr_expect_eq(count_entries(theirs), 0);
    ts_run_free(&r);
    free(theirs);
}

/* A new folder is made 0755 (less the umask) with the scripts executable and the rest not. */
Test(hardening_files, emit_makes_a_private_folder_with_executable_scripts)
{
    char *folder = ts_path(dir, "plan");
    struct ts_run r;
    cr_assert_eq(emit_into(folder, "llm", &r), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    struct stat st;
    cr_assert_eq(stat(folder, &st), 0);
    cr_expect_eq(st.st_mode & 022, 0, "mode %o", (unsigned)st.st_mode);
    char *sh = ts_path(folder, "launch.sh"), *readme = ts_path(folder, "README.txt");
    cr_assert_eq(stat(sh, &st), 0);
    cr_expect(st.st_mode & S_IXUSR, "launch.sh can be run");
    cr_assert_eq(stat(readme, &st), 0);
    cr_expect_eq(st.st_mode & 0111, 0, "README.txt is not executable");
    free(sh), free(readme), free(folder);
}

/* Eight emits of two different plans into one empty folder at once: exactly one succeeds, the
 * others stop with nothing of theirs written, and the folder holds one plan's files, byte for
 * byte what that plan gives alone. */
Test(hardening_files, concurrent_emits_into_one_folder_leave_one_plan)
{
    static const char *const kinds[] = {"llm", "vision"};
    char *ref[2];
    struct ts_run r;
    for (int k = 0; k < 2; k++) {
        ref[k] = ts_path(dir, kinds[k]);
        cr_assert_eq(emit_into(ref[k], kinds[k], &r), 0);
        cr_assert_eq(r.status, 0, "%s", r.err);
        ts_run_free(&r);
    }
    for (int round = 0; round < 3; round++) {
        char name[32];
        snprintf(name, sizeof name, "shared-%d", round);
        char *folder = ts_path(dir, name);
        cr_assert_eq(mkdir(folder, 0700), 0);
        pid_t pids[8];
        for (int i = 0; i < 8; i++) {
            pids[i] = fork();
            if (pids[i] == 0) {
                struct ts_run cr;
                int ok = emit_into(folder, kinds[i % 2], &cr) == 0;
                _exit(ok ? (cr.status == 0 ? (i % 2 ? 10 : 11) : cr.status) : 99);
            }
        }
        int won = 0, winner = -1;
        for (int i = 0; i < 8; i++) {
            int st;
            waitpid(pids[i], &st, 0);
            int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
            cr_expect(code == 10 || code == 11 || code == 1 || code == 2, "emit %d exited %d", i, code);
            if (code == 10 || code == 11) won++, winner = code == 10 ? 1 : 0;
        }
        cr_expect_eq(won, 1, "round %d: %d emits succeeded", round, won);
        if (winner >= 0) {
            cr_expect_eq(count_entries(folder), count_entries(ref[winner]));
            DIR *d = opendir(ref[winner]);
            for (struct dirent *e; d && (e = readdir(d));) {
                if (e->d_name[0] == '.') continue;
                char *a = ts_path(ref[winner], e->d_name), *b = ts_path(folder, e->d_name);
                cr_expect(ts_same_file(a, b), "%s is not the winning plan's", e->d_name);
                free(a), free(b);
            }
            if (d) closedir(d);
        }
        free(folder);
    }
    free(ref[0]), free(ref[1]);
}

struct planter {
    const char *link, *target;
    int delay_us;
    volatile int stop;
};

/* Plants the link after a delay, then keeps it planted (the folder is checked empty before the
 * plan is made and written after it: the delays sweep that gap). */
static void *plant_links(void *arg)
{
    struct planter *p = arg;
    usleep((useconds_t)p->delay_us);
    while (!p->stop) {
        symlink(p->target, p->link);
        usleep(200);
    }
    return NULL;
}

/* A link to a file of root's planted as launch.sh while the files are written is never followed:
 * the emit either fails (and removes what it made) or writes launch.sh as a file of its own. */
Test(hardening_files, a_link_planted_while_emitting_is_never_followed)
{
    char *victim = victim_file();
    for (int round = 0; round < 16; round++) {
        char name[32];
        snprintf(name, sizeof name, "race-%d", round);
        char *folder = ts_path(dir, name), *link = ts_path(folder, "launch.sh");
        cr_assert_eq(mkdir(folder, 0700), 0);
        struct planter p = {link, victim, round * 5000, 0};
        pthread_t t;
        struct ts_run r;
        cr_assert_eq(pthread_create(&t, NULL, plant_links, &p), 0);
        cr_assert_eq(emit_into(folder, "llm", &r), 0);
        p.stop = 1;
        pthread_join(t, NULL);
        cr_expect(r.status == 0 || r.status == 1 || r.status == 2, "%s", r.err);
        ts_run_free(&r);
        expect_file(victim, "secret\n");
        free(folder), free(link);
    }
    free(victim);
}

/* file_dir_write_new is all or nothing: a second file that cannot be made takes the first with it,
 * and a folder it made goes too. */
Test(hardening_files, a_failed_folder_write_leaves_nothing)
{
    char *folder = ts_path(dir, "all-or-nothing");
    struct file_named files[] = {{"a.txt", "a", 1, 0644}, {"a.txt", "b", 1, 0644}};
    char err[512] = "";
    cr_expect_eq(file_dir_write_new(folder, files, 2, err, sizeof err), FILE_ERR);
    cr_expect(strstr(err, "a.txt' appeared while the files were written"), "%s", err);
    cr_expect_neq(access(folder, F_OK), 0, "the folder made for the files is gone");
    /* an existing empty folder stays, empty */
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_expect_eq(file_dir_write_new(folder, files, 2, err, sizeof err), FILE_ERR);
    cr_expect_eq(count_entries(folder), 0);
    cr_expect_eq(file_dir_write_new(folder, files, 1, err, sizeof err), FILE_OK, "%s", err);
    cr_expect_eq(count_entries(folder), 1);
    free(folder);
}

/* --- each half of a checked write on its own ------------------------------------------------- */

/* A path and what each half must say of it. */
struct verdict_case {
    const char *path;
    int status;
    const char *why;
};

/* One half's verdict on path: its status and a reason that says why. */
static void expect_verdict(const char *half, const char *path, int got, const char *err, int status, const char *why)
{
    cr_expect_eq(got, status, "%s %s: %d (%s)", half, path, got, err);
    cr_expect(strstr(err, why) != NULL, "%s %s: '%s' lacks '%s'", half, path, err, why);
}

/* An output file is checked twice: file_check_write before the work (recommend -o, --html,
 * train --save) and file_write when it is written. Each half refuses on its own: the check,
 * called alone, refuses and creates nothing; the write, called without the check, refuses and
 * writes nothing. Both give the same status and reason. */
Test(hardening_files, the_early_and_the_late_file_checks_each_refuse)
{
    char *folder = ts_path(dir, "a-folder"), *dangling = ts_path(dir, "dangling"), *nowhere = ts_path(dir, "nowhere");
    char *missing = ts_path(dir, "no-such-dir/out.json"), *fresh = ts_path(dir, "fresh.json"), *slash = ts_path(dir, "x/");
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_assert_eq(symlink(nowhere, dangling), 0);
    const struct verdict_case cases[] = {
        {folder, FILE_REFUSED, "it is a directory, not a file"},
        {dangling, FILE_REFUSED, "a symbolic link to nothing"},
        {missing, FILE_ERR, "No such file or directory"},
        {slash, FILE_REFUSED, "no file name"},
        {fresh, FILE_OK, ""},
    };
    struct file_chunk chunk = {"new\n", 4};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *p = cases[i].path;
        char early[512] = "", late[512] = "";
        int got = file_check_write(p, early, sizeof early);
        expect_verdict("check", p, got, early, cases[i].status, cases[i].why);
        cr_expect_neq(access(p == dangling ? nowhere : fresh, F_OK), 0, "the check alone created %s", p);
        got = file_write(p, &chunk, 1, late, sizeof late);
        expect_verdict("write", p, got, late, cases[i].status, cases[i].why);
    }
    cr_expect_eq(count_entries(folder), 0, "nothing was written into the folder");
    cr_expect_neq(access(nowhere, F_OK), 0, "the link's target was not made");
    expect_file(fresh, "new\n");
    free(folder), free(dangling), free(nowhere), free(missing), free(fresh), free(slash);
}

/* The launch files' folder is checked twice too: file_dir_check_new before the plan (recommend
 * --emit) and file_dir_write_new when the files are made. A folder with a file in it, a file in
 * its place, a folder others can write, a missing parent, a link to nothing: each refused by the
 * check alone (which makes nothing) and by the write alone (which leaves what was there as it
 * was); a new name passes both, and only the write makes it. */
Test(hardening_files, the_early_and_the_late_folder_checks_each_refuse)
{
    char *full = ts_path(dir, "full"), *kept = ts_path(dir, "full/kept"), *plain = ts_path(dir, "plain");
    char *open_dir = ts_path(dir, "shared"), *orphan = ts_path(dir, "no-parent/emit"), *dangling = ts_path(dir, "dangling");
    char *nowhere = ts_path(dir, "nowhere"), *fresh = ts_path(dir, "fresh");
    cr_assert_eq(mkdir(full, 0700), 0);
    cr_assert_eq(ts_write_str(kept, "mine\n"), 0);
    cr_assert_eq(ts_write_str(plain, "plain\n"), 0);
    cr_assert_eq(mkdir(open_dir, 0700), 0);
    cr_assert_eq(chmod(open_dir, 0777), 0);
    cr_assert_eq(symlink(nowhere, dangling), 0);
    const struct verdict_case cases[] = {
        {full, FILE_REFUSED, "exists and is not an empty directory; nothing written"},
        {plain, FILE_REFUSED, "exists and is not an empty directory"},
        {open_dir, FILE_REFUSED, "can be written by others; nothing written"},
        {orphan, FILE_REFUSED, "No such file or directory"},
        {dangling, FILE_ERR, "No such file or directory"},
    };
    struct file_named files[] = {{"README.txt", "r", 1, 0644}, {"launch.sh", "l", 1, 0755}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *p = cases[i].path;
        char early[512] = "", late[512] = "";
        expect_verdict("check", p, file_dir_check_new(p, early, sizeof early), early, cases[i].status, cases[i].why);
        expect_verdict("write", p, file_dir_write_new(p, files, 2, late, sizeof late), late, cases[i].status, cases[i].why);
    }
    cr_expect_eq(count_entries(full), 1, "only the file that was there");
    expect_file(kept, "mine\n");
    expect_file(plain, "plain\n");
    cr_expect_eq(count_entries(open_dir), 0);
    cr_expect_neq(access(nowhere, F_OK), 0, "the link's target was not made");
    char err[512] = "";
    cr_expect_eq(file_dir_check_new(fresh, err, sizeof err), FILE_OK, "%s", err);
    cr_expect_neq(access(fresh, F_OK), 0, "the check alone made the folder");
    cr_expect_eq(file_dir_write_new(fresh, files, 2, err, sizeof err), FILE_OK, "%s", err);
    cr_expect_eq(count_entries(fresh), 2);
    free(full), free(kept), free(plain), free(open_dir), free(orphan), free(dangling), free(nowhere), free(fresh);
}

/* --- the database in use --------------------------------------------------------------------- */

static unsigned long long file_sum(const char *path)
{
    size_t len = 0;
    char *b = ts_read(path, &len);
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; b && i < len; i++) h = (h ^ (unsigned char)b[i]) * 1099511628211ull;
    free(b);
    return h;
}

/* -o, --html and kb export -o naming the database, its -wal or -shm, a symbolic or a hard link to
 * it: refused before any work (exit 2, or 1 for --html), the database unchanged and still
 * readable. The same path under FWADVISOR_DB instead of --db is protected too. */
Test(hardening_files, output_onto_the_database_in_use_is_refused)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    unsigned long long before = file_sum(db);
    char wal[4300], shm[4300];
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(shm, sizeof shm, "%s-shm", db);
    char *sym = ts_path(dir, "sym.json"), *hard = ts_path(dir, "hard.json");
    cr_assert_eq(symlink(db, sym), 0);
    cr_assert_eq(link(db, hard), 0);
    const char *targets[] = {db, wal, shm, sym, hard};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        RUN(r, dbarg, "recommend", "--json", "-o", targets[i]);
        cr_expect_eq(r.status, 2, "%s: %s", targets[i], r.err);
        cr_expect(strstr(r.err, "it would replace the knowledge base in use"), "%s", r.err);
        cr_expect_str_empty(r.out);
        ts_run_free(&r);
        RUN(r, dbarg, "recommend", "--html", targets[i]);
        cr_expect_eq(r.status, 1, "%s: %s", targets[i], r.err);
        ts_run_free(&r);
        RUN(r, dbarg, "kb", "export", "-o", targets[i]);
        cr_expect_eq(r.status, 2, "%s: %s", targets[i], r.err);
        ts_run_free(&r);
    }
    char envdb[4300];
    snprintf(envdb, sizeof envdb, "FWADVISOR_DB=%s", db);
    const char *env2[] = {"NO_COLOR=1", envdb, NULL};
    cr_assert_eq(ts_run(&r, env2, NULL, (const char *const[]){"kb", "export", "-o", db, NULL}), 0);
    cr_expect_eq(r.status, 2, "%s", r.err);
    ts_run_free(&r);
    cr_expect_eq(file_sum(db), before, "the database file changed");
    RUN(r, dbarg, "kb", "show", "pytorch");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    /* a file beside it with another name is written as ever */
    char *beside = ts_path(dir, "kb.sqlite3.json");
    RUN(r, dbarg, "kb", "export", "-o", beside);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    free(sym), free(hard), free(beside);
}

/* In process: once a database is open, no write reaches it by any of its names. */
Test(hardening_files, file_write_refuses_the_protected_files)
{
    struct ts_kb t;
    char err[512];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    struct file_chunk c = {"x", 1};
    char wal[4300], journal[4300];
    snprintf(wal, sizeof wal, "%s-wal", t.path);
    snprintf(journal, sizeof journal, "%s-journal", t.path);
    cr_expect_eq(file_write(t.path, &c, 1, err, sizeof err), FILE_REFUSED);
    cr_expect_eq(file_write(wal, &c, 1, err, sizeof err), FILE_REFUSED);
    cr_expect_eq(file_check_write(journal, err, sizeof err), FILE_REFUSED, "a journal not there yet");
    char other[4300];
    snprintf(other, sizeof other, "%s-walnut", t.path);
    cr_expect_eq(file_write(other, &c, 1, err, sizeof err), FILE_OK, "%s", err);
    ts_kb_close(&t);
}

/* --- devices ------------------------------------------------------------------------------ */

/* Under /dev only /dev/null and terminals are written: another device (/dev/full, /dev/zero) is
 * refused with exit 2, and a name there that is not a device is never created. */
Test(hardening_files, devices_other_than_null_and_terminals_are_refused)
{
    struct ts_run r;
    static const char *const devices[] = {"/dev/full", "/dev/zero"};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        struct stat st;
        if (stat(devices[i], &st) != 0 || !S_ISCHR(st.st_mode)) continue;
        RUN(r, dbarg, "kb", "export", "-o", devices[i]);
        cr_expect_eq(r.status, 2, "%s: %s", devices[i], r.err);
        cr_expect(strstr(r.err, "it is a device other than a terminal or /dev/null, not a file"), "%s", r.err);
        ts_run_free(&r);
    }
    char fresh[64];
    snprintf(fresh, sizeof fresh, "/dev/fwadvisor-test-%d", (int)getpid());
    RUN(r, dbarg, "kb", "export", "-o", fresh);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "no file is made under /dev"), "%s", r.err);
    ts_run_free(&r);
    cr_expect_neq(access(fresh, F_OK), 0, "a file appeared in /dev");
    unlink(fresh);
    RUN(r, dbarg, "kb", "export", "-o", "/dev/null");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
}

/* --- the probe's fallback file --------------------------------------------------------------- */

/* The names are unguessable and made with O_EXCL: two files of one prefix differ, are 0600, and
 * a link planted under the old fixed name is left alone. */
Test(hardening_files, fallback_files_get_unguessable_names)
{
    char a[4400], b[4400], err[512];
    struct file_chunk c = {"{}\n", 3};
    char *planted = ts_path(dir, "probe-run-x.json"), *victim = victim_file();
    cr_assert_eq(symlink(victim, planted), 0);
    cr_assert_eq(file_write_unique(dir, "probe-run-x-", ".json", &c, 1, a, sizeof a, err, sizeof err), FILE_OK,
                 "%s", err);
    cr_assert_eq(file_write_unique(dir, "probe-run-x-", ".json", &c, 1, b, sizeof b, err, sizeof err), FILE_OK,
                 "%s", err);
    cr_expect_str_neq(a, b);
    size_t plen = strlen(dir) + strlen("/probe-run-x-");
    cr_expect_eq(strlen(a), plen + 8 + 5, "%s", a);
    cr_expect_eq(strncmp(a + plen + 8, ".json", 5), 0, "%s", a);
    struct stat st;
    cr_assert_eq(stat(a, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600);
    expect_file(a, "{}\n");
    expect_file(victim, "secret\n");
    free(planted), free(victim);
}

/* --- kb reset -------------------------------------------------------------------------------- */

/* kb reset --yes on a FIFO, on a link to /dev/null or on a folder: exit 4, nothing renamed. */
Test(hardening_files, reset_touches_only_a_regular_file)
{
    char *fifo = ts_path(dir, "fifo"), *null_link = ts_path(dir, "null"), *sub = ts_path(dir, "sub");
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    cr_assert_eq(symlink("/dev/null", null_link), 0);
    cr_assert_eq(mkdir(sub, 0755), 0);
    const struct { const char *path, *kind; } cases[] = {{fifo, "a FIFO"}, {null_link, "a device"}, {sub, "a directory"}};
    for (size_t i = 0; i < 3; i++) {
        char opt[4300];
        snprintf(opt, sizeof opt, "--db=%s", cases[i].path);
        struct ts_run r;
        RUN(r, opt, "kb", "reset", "--yes");
        cr_expect_eq(r.status, 4, "%s: %s", cases[i].path, r.err);
        char want[64];
        snprintf(want, sizeof want, "is %s, not a database file; not touching it", cases[i].kind);
        cr_expect(strstr(r.err, want), "%s", r.err);
        ts_run_free(&r);
        char bak[4400];
        snprintf(bak, sizeof bak, "%s.bak", cases[i].path);
        cr_expect_neq(access(bak, F_OK), 0, "%s was moved", cases[i].path);
    }
    struct stat st;
    cr_expect(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    cr_expect(lstat(null_link, &st) == 0 && S_ISLNK(st.st_mode));
    cr_expect(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    free(fifo), free(null_link), free(sub);
}

/* Through a link, the file it names moves to FILE.bak and a new one takes its place; the link
 * stays the link it was. */
Test(hardening_files, reset_through_a_link_moves_the_file_it_names)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    char *link = ts_path(dir, "link.sqlite3");
    cr_assert_eq(symlink(db, link), 0);
    char opt[4300], bak[4300], got[4300];
    snprintf(opt, sizeof opt, "--db=%s", link);
    snprintf(bak, sizeof bak, "%s.bak", db);
    RUN(r, opt, "kb", "reset", "--yes");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, bak), "%s", r.out);
    ts_run_free(&r);
    ssize_t n = readlink(link, got, sizeof got - 1);
    cr_assert_gt(n, 0, "the link is still a link");
    got[n] = '\0';
    cr_expect_str_eq(got, db);
    cr_expect_eq(access(bak, F_OK), 0, "the old file is kept");
    RUN(r, opt, "kb", "show", "jax");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    free(link);
}

/* A reset waits for a writer, as imports do, and gives up after the busy timeout with exit 4 and
 * nothing moved. */
Test(hardening_files, reset_waits_for_a_writer)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    const char *lock_env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_BUSY_TIMEOUT_MS=200", NULL};
    cr_assert_eq(ts_run(&r, lock_env, NULL, (const char *const[]){dbarg, "kb", "reset", "--yes", NULL}), 0);
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    cr_expect_eq(r.status, 4, "%s", r.err);
    cr_expect(strstr(r.err, "is being written by another process"), "%s", r.err);
    ts_run_free(&r);
    char bak[4300];
    snprintf(bak, sizeof bak, "%s.bak", db);
    cr_expect_neq(access(bak, F_OK), 0, "moved while locked");
}

static const char import_doc[] =
    "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"late-source\", \"title\": \"t\", \"url\": "
    "\"https://example.org/t\", \"published\": \"2026-01-01\"}]}";

static int has_source(const char *path, const char *id)
{
    sqlite3 *h;
    int found = 0;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, "SELECT count(*) FROM sources WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
            if (sqlite3_step(st) == SQLITE_ROW) found = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(h);
    return found;
}

/* An import that opened the database before a reset and writes after it fails with exit 4's
 * status rather than report success with its rows in the backup; opened again, it lands. */
Test(hardening_files, an_import_after_a_reset_never_lands_in_the_backup)
{
    kb *k;
    char err[1024], bak[4300];
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(kb_reset(db, 0, bak, sizeof bak, err, sizeof err), KB_OK, "%s", err);
    struct kb_import_stats stats;
    cr_expect_eq(kb_import(k, import_doc, strlen(import_doc), "doc.json", &stats, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "was reset or replaced while this ran; nothing stored"), "%s", err);
    kb_close(k);
    cr_expect_eq(has_source(bak, "late-source"), 0, "the rows went into the backup");
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(kb_import(k, import_doc, strlen(import_doc), "doc.json", &stats, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    cr_expect_eq(has_source(db, "late-source"), 1);
}

/* --- what a write keeps ---------------------------------------------------------------------- */

/* A file of ours replaced by a write keeps its permission bits, whichever they were; a write
 * through a link to nothing is refused and creates nothing at the link's target. */
Test(hardening_files, a_replaced_file_keeps_its_mode_and_a_dangling_link_is_refused)
{
    static const mode_t modes[] = {0600, 0640, 0644, 0664, 0620, 0755, 0400};
    struct file_chunk c = {"new\n", 4};
    char err[512];
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "kept-%zu.txt", i);
        char *p = ts_path(dir, name);
        cr_assert_eq(ts_write_str(p, "old\n"), 0);
        cr_assert_eq(chmod(p, modes[i]), 0);
        cr_expect_eq(file_write(p, &c, 1, err, sizeof err), FILE_OK, "%o: %s", (unsigned)modes[i], err);
        struct stat st;
        cr_assert_eq(stat(p, &st), 0);
        cr_expect_eq(st.st_mode & 0777, modes[i], "mode %o became %o", (unsigned)modes[i], (unsigned)(st.st_mode & 0777));
        expect_file(p, "new\n");
        free(p);
    }
    char *link = ts_path(dir, "dangling.json"), *nowhere = ts_path(dir, "nowhere.json");
    cr_assert_eq(symlink(nowhere, link), 0);
    cr_expect_eq(file_write(link, &c, 1, err, sizeof err), FILE_REFUSED, "%s", err);
    cr_expect(strstr(err, "a symbolic link to nothing") != NULL, "%s", err);
    struct stat st;
    cr_expect(lstat(nowhere, &st) != 0, "nothing was created at the link's target");
    cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link is left as it is");
    free(link), free(nowhere);
}
