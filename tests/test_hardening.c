/* Hostile input and hostile surroundings, one test per way the program was once made to
 * misbehave: planted plug-ins, concurrent probes, terminal escapes in outside text, output paths
 * that are not regular files, quadratic import, huge sparse tensor files, non-finite arithmetic,
 * out-of-range numbers, bytes that are not UTF-8, impossible dates, read-only and full disks. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "engine/plugin.h"
#include "tests/support.h"
#include "common/text.h"

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

TestSuite(hardening, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static int has_byte(const char *s, unsigned char b)
{
    for (; *s; s++)
        if ((unsigned char)*s == b) return 1;
    return 0;
}

/* --- plug-ins ---------------------------------------------------------------------------- */

static char *planted_copy(const char *folder, mode_t mode)
{
    const char *planted = getenv("FWADVISOR_PLANTED_PLUGIN");
    cr_assert_not_null(planted, "FWADVISOR_PLANTED_PLUGIN (make test-run sets it)");
    mkdir(folder, 0755);
    chmod(folder, mode);
    char *path = ts_path(folder, "fwadvisor-cuda.so");
    cr_assert_eq(ts_copy(planted, path), 0);
    chmod(path, 0755);
    return path;
}

/* A build copied to DIR/fwdemo/ with a plug-in planted in DIR/lib/fwadvisor/ (a folder anyone may
 * write, the file another user's): the copy takes plug-ins only from where the build installs
 * them, so the planted one never runs. */
Test(hardening, a_copied_binary_never_loads_a_planted_plugin)
{
    char *demo = ts_path(dir, "fwdemo"), *lib = ts_path(dir, "lib"), *libfw = ts_path(lib, "fwadvisor");
    mkdir(demo, 0755);
    mkdir(lib, 0777);
    chmod(lib, 0777);
    char *planted = planted_copy(libfw, 0777);
    if (geteuid() == 0) cr_assert_eq(chown(planted, 65534, 65534), 0);
    char *bin = ts_path(demo, "fwadvisor"), *marker = ts_path(dir, "planted-ran");
    cr_assert_eq(ts_copy(getenv("FWADVISOR_BIN"), bin), 0);
    chmod(bin, 0755);
    char marker_env[4300];
    snprintf(marker_env, sizeof marker_env, "FWADVISOR_PLANTED_MARKER=%s", marker);
    const char *run_env[] = {"NO_COLOR=1", "FWADVISOR_CUDA_PLUGIN", "FWADVISOR_DB", marker_env, NULL};
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, bin, run_env, NULL,
                         (const char *const[]){dbarg, "probe", "--workload", "train-tiny", "--no-save", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_neq(access(marker, F_OK), 0, "the planted plug-in ran");
    ts_run_free(&r);
    free(demo), free(lib), free(libfw), free(planted), free(bin), free(marker);
}

/* An explicit path in a folder anyone may write: a one-line warning naming path and reason, and
 * the probe goes on without the plug-in. */
Test(hardening, an_explicit_plugin_in_a_world_writable_folder_is_refused_with_a_warning)
{
    char *open_folder = ts_path(dir, "open");
    char *planted = planted_copy(open_folder, 0777);
    char *marker = ts_path(dir, "planted-ran");
    char plugin_env[4300], marker_env[4300];
    snprintf(plugin_env, sizeof plugin_env, "FWADVISOR_CUDA_PLUGIN=%s", planted);
    snprintf(marker_env, sizeof marker_env, "FWADVISOR_PLANTED_MARKER=%s", marker);
    const char *run_env[] = {"NO_COLOR=1", plugin_env, marker_env, NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, run_env, NULL, (const char *const[]){dbarg, "probe", "--workload", "train-tiny", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "warning: not loading the plug-in") && strstr(r.err, planted) &&
                  strstr(r.err, "is writable by every user"),
              "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    cr_expect_neq(access(marker, F_OK), 0, "the planted plug-in ran");
    ts_run_free(&r);
    free(open_folder), free(planted), free(marker);
}

Test(hardening, plugin_paths_are_checked_file_and_every_folder_above)
{
    char real[4096], why[4500];
    /* a private folder of ours under /tmp (sticky, root's): safe */
    char *mine = ts_path(dir, "mine");
    char *file = planted_copy(mine, 0755);
    cr_expect_eq(eng_plugin_path_safe(file, real, sizeof real, why, sizeof why), 0, "%s", why);
    /* a folder above it that anyone may write */
    chmod(dir, 0777);
    cr_expect_eq(eng_plugin_path_safe(file, real, sizeof real, why, sizeof why), -1);
    cr_expect(strstr(why, "folder ") && strstr(why, "writable by every user"), "%s", why);
    chmod(dir, 0700);
    /* group-writable by a group other than root's */
    chmod(mine, 0775);
    if (geteuid() == 0) {
        cr_assert_eq(chown(mine, 0, 65534), 0);
        cr_expect_eq(eng_plugin_path_safe(file, real, sizeof real, why, sizeof why), -1);
        cr_expect(strstr(why, "writable by group 65534"), "%s", why);
        /* the file another user's */
        chmod(mine, 0755);
        cr_assert_eq(chown(file, 65534, 65534), 0);
        cr_expect_eq(eng_plugin_path_safe(file, real, sizeof real, why, sizeof why), -1);
        cr_expect(strstr(why, "belongs to user 65534"), "%s", why);
    }
    /* a link is resolved before the check: what is checked is what would be opened */
    char *link = ts_path(dir, "link.so");
    cr_assert_eq(symlink(file, link), 0);
    eng_plugin_path_safe(link, real, sizeof real, why, sizeof why);
    cr_expect(strstr(real, "/mine/fwadvisor-cuda.so") != NULL, "%s", real);
    free(mine), free(file), free(link);
}

/* --- probe runs -------------------------------------------------------------------------- */

/* Eight probes started at once, in the same second: eight runs stored, eight ids. */
Test(hardening, eight_concurrent_probes_store_eight_runs)
{
    enum { N = 8 };
    pid_t pids[N];
    const char *bin = getenv("FWADVISOR_BIN");
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        cr_assert_neq(pids[i], -1);
        if (pids[i] == 0) {
            int devnull = open("/dev/null", O_WRONLY);
            dup2(devnull, 1);
            dup2(devnull, 2);
            setenv("FWADVISOR_BUSY_TIMEOUT_MS", "30000", 1);
            execl(bin, bin, dbarg, "probe", "--workload", "train-tiny", (char *)NULL);
            _exit(127);
        }
    }
    for (int i = 0; i < N; i++) {
        int status;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "probe %d ended with %d", i, status);
    }
    struct ts_run r;
    RUN(r, dbarg, "probe", "list", "--json");
    cJSON *rows = cJSON_Parse(r.out);
    cr_assert_not_null(rows, "%s", r.out);
    cr_expect_eq(cJSON_GetArraySize(rows), N, "%s", r.out);
    for (int i = 0; i < cJSON_GetArraySize(rows); i++)
        for (int j = 0; j < i; j++)
            cr_expect_str_neq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, i), "id")->valuestring,
                              cJSON_GetObjectItem(cJSON_GetArrayItem(rows, j), "id")->valuestring);
    cJSON_Delete(rows);
    ts_run_free(&r);
}

/* A run that cannot be stored (the database stays locked past the busy timeout) is written as
 * JSON beside the database, and the message says where. */
Test(hardening, a_probe_that_cannot_save_keeps_its_run_in_a_file)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list"); /* the database exists before the lock is taken */
    ts_run_free(&r);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    const char *lock_env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_BUSY_TIMEOUT_MS=200", NULL};
    cr_assert_eq(ts_run(&r, lock_env, NULL, (const char *const[]){dbarg, "probe", "--workload", "train-tiny", NULL}), 0);
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    cr_expect_eq(r.status, 4, "%s", r.err);
    cr_expect(strstr(r.err, "is locked") && strstr(r.err, "the run is kept in"), "%s", r.err);
    const char *at = strstr(r.err, "the run is kept in ");
    cr_assert_not_null(at, "%s", r.err);
    at += strlen("the run is kept in ");
    cr_expect_eq(strncmp(at, dir, strlen(dir)), 0, "beside the database: %s", r.err);
    char path[4400];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(at, " \n"), at);
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text, "%s", path);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.probe/1");
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")), 0, "the measurements are in it");
    cJSON_Delete(doc);
    free(text);
    ts_run_free(&r);
}

/* --- the output filter ------------------------------------------------------------------- */

Test(hardening, the_filter_escapes_controls_bidi_and_broken_utf8)
{
    char out[256];
    text_escape("a\x1b]0;title\x07z", out, sizeof out);
    cr_expect_str_eq(out, "a\\x1b]0;title\\x07z");
    text_escape("line\nnext\ttab\r", out, sizeof out);
    cr_expect_str_eq(out, "line\\nnext\\ttab\\r");
    text_escape("x\xe2\x80\xaey", out, sizeof out); /* U+202E RIGHT-TO-LEFT OVERRIDE */
    cr_expect_str_eq(out, "x\\u202ey");
    text_escape("\xc2\x9b" "31m", out, sizeof out); /* U+009B, the 8-bit CSI */
    cr_expect_str_eq(out, "\\x9b31m");
    text_escape("caf\xc3\xa9 \xe4\xbc\x98\xe7\xa7\x80 \xff", out, sizeof out); /* UTF-8 kept, a stray byte not */
    cr_expect_str_eq(out, "caf\xc3\xa9 \xe4\xbc\x98\xe7\xa7\x80 \\xff");
    text_escape("\xe2\x80", out, sizeof out); /* a cut sequence */
    cr_expect_str_eq(out, "\\xe2\\x80");
    cr_expect(text_is_clean("plain \xe4\xbc\x98 text"));
    cr_expect(!text_is_clean("bell\x07"));
    /* whole characters only when the buffer is short */
    text_escape("ab\x1b", out, 5);
    cr_expect_str_eq(out, "ab");
}

/* Each invalid UTF-8 form, and each edge of the hostile ranges on both sides: what the filter
 * prints, byte for byte, and whether the text counts as clean (only when it passes unchanged). */
Test(hardening, the_filter_on_every_invalid_form_and_range_edge)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"}, /* U+D800, the first surrogate */
        {"\xed\xbf\xbf", "\\xed\\xbf\\xbf"}, /* U+DFFF, the last */
        {"\xed\x9f\xbf", "\xed\x9f\xbf"},    /* U+D7FF, just below */
        {"\xee\x80\x80", "\xee\x80\x80"},    /* U+E000, just above */
        {"\xc0\xaf", "\\xc0\\xaf"},          /* overlong '/' in two bytes */
        {"\xe0\x80\xaf", "\\xe0\\x80\\xaf"}, /* in three */
        {"\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf"},
        {"\xdf\xbf", "\xdf\xbf"},            /* U+07FF, the last two-byte form */
        {"\xe0\x9f\xbf", "\\xe0\\x9f\\xbf"}, /* U+07FF overlong in three */
        {"\xe0\xa0\x80", "\xe0\xa0\x80"},    /* U+0800 */
        {"\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf"},
        {"\xf0\x90\x80\x80", "\xf0\x90\x80\x80"}, /* U+10000 */
        {"\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"}, /* U+10FFFF */
        {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"}, /* past U+10FFFF */
        {"\xf8\x88\x80\x80\x80", "\\xf8\\x88\\x80\\x80\\x80"}, /* five bytes */
        {"\xfc\x84\x80\x80\x80\x80", "\\xfc\\x84\\x80\\x80\\x80\\x80"}, /* six */
        {"\xf0\x9f\x98" "x", "\\xf0\\x9f\\x98x"}, /* cut before its last byte */
        {"\xc3" "A", "\\xc3A"},
        {"\x80", "\\x80"}, /* a continuation byte alone */
        {"\x1f", "\\x1f"},
        {" ~", " ~"},
        {"\x7f", "\\x7f"},
        {"\xc2\x80", "\\x80"}, /* U+0080, the first C1 control */
        {"\xc2\x9f", "\\x9f"}, /* U+009F, the last */
        {"\xc2\xa0", "\xc2\xa0"}, /* U+00A0 */
        {"\xe2\x80\xa9", "\xe2\x80\xa9"}, /* U+2029, below the embeddings */
        {"\xe2\x80\xaa", "\\u202a"},
        {"\xe2\x80\xaf", "\xe2\x80\xaf"}, /* U+202F, above them */
        {"\xe2\x81\xa5", "\xe2\x81\xa5"}, /* U+2065, below the isolates */
        {"\xe2\x81\xa6", "\\u2066"},
        {"\xe2\x81\xa9", "\\u2069"},
        {"\xe2\x81\xaa", "\xe2\x81\xaa"}, /* U+206A, above them */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        text_escape(cases[i].in, out, sizeof out);
        cr_expect_str_eq(out, cases[i].out, "case %zu", i);
        cr_expect_eq(text_is_clean(cases[i].in), strcmp(cases[i].in, cases[i].out) == 0, "case %zu", i);
    }
}

#define ESC_NAME "Evil\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae"
static const char hostile_doc[] =
    "{\"schema\": \"fwadvisor.kb/1\","
    " \"sources\": [{\"id\": \"evil-src\", \"title\": \"T\\u001b[31m\\nfwadvisor: fake error\", \"url\": \"u\","
    " \"published\": \"2026\"}],"
    " \"frameworks\": [{\"id\": \"pytorch\", \"name\": \"Py\\u001b]0;pwned\\u0007Torch\\u202e\", \"version\": \"2\","
    " \"released\": \"2026-01-01\", \"summary\": \"s\\u001b[2J\", \"source\": \"evil-src\", \"as_of\": \"2026-11-30\"}]}";

static void expect_no_raw_controls(const char *what, const char *out)
{
    cr_expect(!has_byte(out, 0x1b), "%s: a raw ESC reached the output:\n%s", what, out);
    cr_expect(!has_byte(out, 0x07), "%s: a raw BEL reached the output", what);
    cr_expect(strstr(out, "\xe2\x80\xae") == NULL, "%s: a raw bidi override reached the output", what);
}

/* Text from an imported knowledge base reaches kb list, kb show and recommend escaped; the JSON
 * output keeps it exactly. */
Test(hardening, knowledge_base_text_is_shown_escaped_in_every_command)
{
    char *doc = ts_path(dir, "evil.json");
    ts_write_str(doc, hostile_doc);
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", doc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    const char *const cmds[][4] = {
        {"kb", "list", NULL}, {"kb", "show", "pytorch", NULL}, {"kb", "show", "evil-src", NULL},
        {"kb", "list", "sources", NULL}, {"recommend", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *args[6] = {dbarg};
        int n = 1;
        for (int j = 0; cmds[i][j]; j++) args[n++] = cmds[i][j];
        args[n] = NULL;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, 0, "%s %s: %s", cmds[i][0], cmds[i][1] ? cmds[i][1] : "", r.err);
        expect_no_raw_controls(cmds[i][1] ? cmds[i][1] : cmds[i][0], r.out);
        cr_expect(strstr(r.out, "\\x1b") != NULL, "%s %s shows the escape as \\x1b:\n%s", cmds[i][0],
                  cmds[i][1] ? cmds[i][1] : "", r.out);
        cr_expect(strstr(r.out, "\nfwadvisor: fake error") == NULL, "a forged line");
        ts_run_free(&r);
    }
    RUN(r, dbarg, "kb", "show", "pytorch", "--json");
    cJSON *obj = cJSON_Parse(r.out);
    cr_assert_not_null(obj, "%s", r.out);
    const char *name = cJSON_GetObjectItem(cJSON_GetObjectItem(obj, "framework"), "name")->valuestring;
    cr_expect_str_eq(name, "Py\x1b]0;pwned\x07Torch\xe2\x80\xae", "JSON keeps the text exactly");
    cJSON_Delete(obj);
    ts_run_free(&r);
    free(doc);
}

/* The knowledge base's version and date head the recommendation: they come from the database
 * file, so they go through the filter too. */
Test(hardening, the_knowledge_base_version_is_shown_escaped)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h, "UPDATE meta SET value = 'v1' || char(27) || ']0;pwned' || char(7) WHERE key = 'kb_version'",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    RUN(r, dbarg, "recommend");
    cr_expect_eq(r.status, 0, "%s", r.err);
    expect_no_raw_controls("recommend", r.out);
    cr_expect(strstr(r.out, "(knowledge base v1\\x1b]0;pwned\\x07, ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, ")\nAnswers:") != NULL, "the line ends where it did:\n%s", r.out);
    ts_run_free(&r);
}

/* Error messages quote keys, values and names from input files: one line, escaped. */
Test(hardening, error_messages_show_outside_text_escaped_on_one_line)
{
    char *answers = ts_path(dir, "answers.json");
    ts_write_str(answers, "{\"st\\u001b]0;x\\u0007age\\nfwadvisor: fake\": 1}");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "-a", answers);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    expect_no_raw_controls("answers error", r.err);
    cr_expect(strstr(r.err, "\\x1b]0;x\\x07age\\nfwadvisor: fake") != NULL, "%s", r.err);
    ts_run_free(&r);

    RUN(r, dbarg, "recommend", "--set", "stage=re\x1b[2Jsearch");
    cr_expect_eq(r.status, 3);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    expect_no_raw_controls("--set error", r.err);
    ts_run_free(&r);

    /* an import document */
    char *doc = ts_path(dir, "doc.json");
    ts_write_str(doc, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"s\", \"title\": \"t\", \"url\": \"u\","
                      " \"published\": \"2026\", \"co\\u001b[31mlumn\\n2\": 1}]}");
    RUN(r, dbarg, "kb", "import", doc);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    expect_no_raw_controls("import error", r.err);
    ts_run_free(&r);

    /* a safetensors tensor name */
    char *st = ts_path(dir, "evil.safetensors");
    const char header[] = "{\"layers.0.weight\\u001b]0;x\\u0007\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]}}";
    unsigned char file[256] = {0};
    size_t hlen = sizeof header - 1;
    for (int i = 0; i < 8; i++) file[i] = (unsigned char)((uint64_t)hlen >> (8 * i));
    memcpy(file + 8, header, hlen);
    ts_write(st, (const char *)file, 8 + hlen + 4);
    RUN(r, dbarg, "train", "--layers", "1,1", "--steps", "1", "--init", st);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    expect_no_raw_controls("safetensors error", r.err);
    ts_run_free(&r);
    free(answers), free(doc), free(st);
}

/* --- output files -------------------------------------------------------------------------- */

struct fifo_reader {
    const char *path;
    char *got;
};

static void *read_fifo(void *arg)
{
    struct fifo_reader *f = arg;
    f->got = ts_read(f->path, NULL);
    return NULL;
}

#include <pthread.h>

/* -o to a FIFO writes into it; the FIFO stays a FIFO. */
Test(hardening, output_to_a_fifo_is_written_in_place)
{
    char *fifo = ts_path(dir, "pipe");
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    struct fifo_reader reader = {fifo, NULL};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, read_fifo, &reader), 0);
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--json", "-o", fifo);
    pthread_join(t, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    cJSON *doc = reader.got ? cJSON_Parse(reader.got) : NULL;
    cr_expect_not_null(doc, "the report came through the FIFO");
    cJSON_Delete(doc);
    free(reader.got);
    ts_run_free(&r);
    free(fifo);
}

/* -o to a link to a character device writes to the device; the link and the device stay. */
Test(hardening, output_to_a_link_to_a_character_device_keeps_both)
{
    char *link = ts_path(dir, "sink");
    cr_assert_eq(symlink("/dev/null", link), 0);
    struct ts_run r;
    RUN(r, dbarg, "kb", "export", "-o", link);
    cr_expect_eq(r.status, 0, "%s", r.err);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
    ts_run_free(&r);
    /* a link to a regular file: the file gets the content, the link stays a link */
    char *target = ts_path(dir, "target.json"), *link2 = ts_path(dir, "to-file");
    ts_write_str(target, "old");
    cr_assert_eq(symlink(target, link2), 0);
    RUN(r, dbarg, "kb", "export", "-o", link2);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(lstat(link2, &st), 0);
    cr_expect(S_ISLNK(st.st_mode));
    char *text = ts_read(target, NULL);
    cr_expect(text && strstr(text, "fwadvisor.kb/1"), "the target holds the export");
    free(text);
    ts_run_free(&r);
    free(link), free(target), free(link2);
}

/* -o to a directory: exit 2, nothing written anywhere. */
Test(hardening, output_to_a_directory_is_refused)
{
    char *sub = ts_path(dir, "reports");
    mkdir(sub, 0755);
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--json", "-o", sub);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "is a directory"), "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    ts_run_free(&r);
    free(sub);
}

/* The write itself refuses a directory, not only the check made before the work: a path that
 * became a directory while a probe ran is left as it is, with nothing beside it. */
Test(hardening, a_path_that_became_a_directory_is_refused_at_write_time)
{
    char *sub = ts_path(dir, "late");
    cr_assert_eq(mkdir(sub, 0755), 0);
    char err[512] = "";
    struct file_chunk c = {"{}\n", 3};
    cr_expect_eq(file_write(sub, &c, 1, err, sizeof err), FILE_REFUSED, "%s", err);
    cr_expect(strstr(err, "cannot write") && strstr(err, "late': it is a directory"), "%s", err);
    /* the check before the work decides the same way, in the same words */
    char early[512] = "";
    cr_expect_eq(file_check_write(sub, early, sizeof early), FILE_REFUSED);
    cr_expect_str_eq(early, err);
    struct stat st;
    cr_expect(stat(sub, &st) == 0 && S_ISDIR(st.st_mode));
    cr_expect_eq(rmdir(sub), 0, "the directory stays empty");
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    for (struct dirent *e; (e = readdir(d));)
        cr_expect(strncmp(e->d_name, ".late.", 6) != 0, "a temporary file beside it: %s", e->d_name);
    closedir(d);
    free(sub);
}

/* A temporary file left by a killed writer is removed by the next write of the same file; one
 * whose process still lives is left alone. */
Test(hardening, stale_temporary_files_are_cleaned_by_the_next_write)
{
    char *out = ts_path(dir, "report.json");
    char stale[4400], live[4400];
    snprintf(stale, sizeof stale, "%s/.report.json.%d.fwtmp-abc123", dir, 4194303); /* above Linux's pid_max default */
    snprintf(live, sizeof live, "%s/.report.json.%d.fwtmp-def456", dir, (int)getpid());
    ts_write_str(stale, "half");
    ts_write_str(live, "busy");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--json", "-o", out);
    cr_expect_eq(r.status, 0, "%s", r.err);
    if (kill(4194303, 0) != 0) cr_expect_neq(access(stale, F_OK), 0, "the stale temporary file is still there");
    cr_expect_eq(access(live, F_OK), 0, "a live writer's file was removed");
    cr_expect_eq(access(out, F_OK), 0);
    ts_run_free(&r);
    free(out);
}

/* --- bounded work -------------------------------------------------------------------------- */

/* 100,000 rows: with the old quadratic validation this took many minutes (40,000 took 25 s);
 * in linear time it is about a second, far inside this test's time limit. */
Test(hardening, import_validation_is_linear, .timeout = 90)
{
    enum { ROWS = 100000 };
    size_t cap = (size_t)ROWS * 200 + 256, used = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    used += (size_t)snprintf(text + used, cap - used, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [");
    for (int i = 0; i < ROWS / 2; i++)
        used += (size_t)snprintf(text + used, cap - used,
                                 "%s{\"id\": \"s%06d\", \"title\": \"T\", \"url\": \"u\", \"published\": \"2024\"}",
                                 i ? "," : "", i);
    used += (size_t)snprintf(text + used, cap - used, "], \"criteria\": [");
    for (int i = 0; i < ROWS / 2; i++)
        used += (size_t)snprintf(text + used, cap - used,
                                 "%s{\"id\": \"c%06d\", \"name\": \"C\", \"description\": \"d\", \"weight\": 1,"
                                 " \"source\": \"s%06d\", \"as_of\": \"2026-01-01\"}",
                                 i ? "," : "", i, ROWS / 2 - 1 - i);
    snprintf(text + used, cap - used, "]}");
    char *doc = ts_path(dir, "big.json");
    ts_write_str(doc, text);
    free(text);
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", doc);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "imported 100000 facts: 100000 added"), "%s", r.out);
    ts_run_free(&r);
    free(doc);
}

/* Runs the binary and returns its peak resident memory in kB (status in *status). */
static long peak_kb(const char *const *args, int *status)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        const char *argv[16] = {getenv("FWADVISOR_BIN")};
        int n = 1;
        for (; args[n - 1] && n < 15; n++) argv[n] = args[n - 1];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    struct rusage ru;
    cr_assert_eq(wait4(pid, status, 0, &ru), pid);
    return ru.ru_maxrss;
}

/* A 1 GiB (sparse) .npy whose header declares 12 floats: refused from its header, never read. */
Test(hardening, a_huge_file_with_a_small_header_is_refused_without_reading_it)
{
    char *big = ts_path(dir, "big.npy"), *y = ts_path(dir, "y.npy");
    const char header[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }";
    char pre[128] = "\x93NUMPY\x01\x00";
    size_t hlen = 118; /* 10 + 118 = 128: the data would start 64-byte aligned */
    pre[8] = (char)hlen;
    pre[9] = 0;
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert_geq(fd, 0);
    char hdr[118];
    memset(hdr, ' ', sizeof hdr);
    memcpy(hdr, header, sizeof header - 1);
    hdr[117] = '\n';
    cr_assert_eq(write(fd, pre, 10), 10);
    cr_assert_eq(write(fd, hdr, sizeof hdr), (ssize_t)sizeof hdr);
    cr_assert_eq(ftruncate(fd, (off_t)1 << 30), 0);
    close(fd);
    ts_write_str(y, "unused");
    int status;
    long kb = peak_kb((const char *const[]){dbarg, "train", "--layers", "12,1", "--loss", "mse", "--data", big,
                                            "--targets", y, NULL},
                      &status);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d", status);
    cr_expect_lt(kb, 64 * 1024, "peak resident memory %ld kB", kb);
    /* the same for a weights file */
    char *st = ts_path(dir, "big.safetensors");
    fd = open(st, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const char sh[] = "{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[1,12],\"data_offsets\":[0,48]}}";
    unsigned char len8[8] = {(unsigned char)(sizeof sh - 1)};
    cr_assert_eq(write(fd, len8, 8), 8);
    cr_assert_eq(write(fd, sh, sizeof sh - 1), (ssize_t)(sizeof sh - 1));
    cr_assert_eq(ftruncate(fd, (off_t)1 << 30), 0);
    close(fd);
    kb = peak_kb((const char *const[]){dbarg, "train", "--layers", "12,1", "--steps", "1", "--init", st, NULL}, &status);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d", status);
    cr_expect_lt(kb, 64 * 1024, "peak resident memory %ld kB", kb);
    free(big), free(y), free(st);
}

/* A model larger than the memory available (or --max-memory) is refused before allocating:
 * 100000,100000 is 1e10 parameters: 4 floats each with Adam (weights, gradients, two moments) is
 * 160 GB, plus 0.4 GB of synthetic data (1024 rows x 100001 floats) and the activations. */
Test(hardening, a_model_larger_than_memory_is_refused_up_front)
{
    int status;
    long kb = peak_kb((const char *const[]){dbarg, "train", "--layers", "100000,100000", NULL}, &status);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d", status);
    cr_expect_lt(kb, 64 * 1024, "peak resident memory %ld kB", kb);
    struct ts_run r;
    RUN(r, dbarg, "train", "--layers", "100000,100000");
    cr_expect(strstr(r.err, "needs 161 GB") && strstr(r.err, "available on this machine"), "%s", r.err);
    ts_run_free(&r);
    /* 784,1024,10 with Adam: (784*1024+1024 + 1024*10+16) padded params x 4 floats ... about 13 MB:
     * under a 1 GB limit it runs, under 0.001 GB it is refused and says so */
    RUN(r, dbarg, "train", "--layers", "784,1024,10", "--steps", "1", "--max-memory", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "train", "--layers", "784,1024,10", "--steps", "1", "--max-memory", "0.001");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "more than the 0.001 GB --max-memory"), "%s", r.err);
    ts_run_free(&r);
}

/* --- non-finite arithmetic ------------------------------------------------------------------ */

/* lr 1e3 with SGD diverges to NaN: training stops with exit 1 and the step, nothing is saved;
 * under UBSan (make asan) the softmax must not convert NaN to int on the way. */
Test(hardening, a_nan_loss_stops_training_with_the_step)
{
    char *save = ts_path(dir, "w.safetensors");
    struct ts_run r;
    RUN(r, dbarg, "train", "--layers", "20,64,5", "--lr", "1e3", "--optimizer", "sgd", "--steps", "50", "--save", save);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "the loss is NaN at step") || strstr(r.err, "the loss is infinite at step"), "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    cr_expect_neq(access(save, F_OK), 0, "weights were saved after a failed run");
    ts_run_free(&r);
    free(save);
}

/* inf in the data: the same stop at the first step. */
Test(hardening, non_finite_data_stops_training)
{
    char *x = ts_path(dir, "x.npy"), *y = ts_path(dir, "y.npy");
    char pre[10] = "\x93NUMPY\x01\x00";
    const char hx[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 2), }";
    const char hy[] = "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }";
    char buf[256];
    for (int f = 0; f < 2; f++) {
        const char *h = f ? hy : hx;
        size_t hl = 118;
        pre[8] = (char)hl;
        memcpy(buf, pre, 10);
        memset(buf + 10, ' ', hl);
        memcpy(buf + 10, h, strlen(h));
        buf[10 + hl - 1] = '\n';
        if (!f) {
            float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
            v[3] = 1.0f / 0.0f;
            memcpy(buf + 128, v, sizeof v);
            ts_write(x, buf, 128 + sizeof v);
        } else {
            int32_t t[4] = {0, 1, 0, 1};
            memcpy(buf + 128, t, sizeof t);
            ts_write(y, buf, 128 + sizeof t);
        }
    }
    struct ts_run r;
    RUN(r, dbarg, "train", "--layers", "2,2", "--batch", "4", "--steps", "3", "--data", x, "--targets", y);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "at step 1"), "%s", r.err);
    ts_run_free(&r);
    free(x), free(y);
}

static const char rule_head[] = "{\"schema\": \"fwadvisor.kb/1\", \"rules\": [";

/* Imported rules state bounded points; many of them at the bound keep every score in 0-100 and
 * the reasons adding up to it. */
Test(hardening, huge_rule_points_are_refused_and_many_bounded_rules_keep_scores_exact)
{
    char *doc = ts_path(dir, "rules.json");
    char text[65536];
    size_t used = (size_t)snprintf(text, sizeof text, "%s", rule_head);
    for (int i = 0; i < 3; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "%s{\"id\": \"big-%d\", \"kind\": \"score\", \"title\": \"t\", \"text\": \"x\","
                                 " \"condition\": {}, \"effect\": {\"score\": {\"pytorch\": 1.5e8}},"
                                 " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}",
                                 i ? "," : "", i);
    snprintf(text + used, sizeof text - used, "]}");
    ts_write_str(doc, text);
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", doc);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "expected points from -100 to 100"), "%s", r.err);
    ts_run_free(&r);
    /* 40 rules at +100 for PyTorch and -100 for JAX, and 40 weight rules at x100 */
    used = (size_t)snprintf(text, sizeof text, "%s", rule_head);
    for (int i = 0; i < 40; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "%s{\"id\": \"max-%d\", \"kind\": \"score\", \"title\": \"t\", \"text\": \"x\","
                                 " \"condition\": {}, \"effect\": {\"score\": {\"pytorch\": 100, \"jax\": -100},"
                                 " \"weight\": {\"debugging\": 100}}, \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}",
                                 i ? "," : "", i);
    snprintf(text + used, sizeof text - used, "]}");
    ts_write_str(doc, text);
    RUN(r, dbarg, "kb", "import", doc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *rep = cJSON_Parse(r.out);
    cr_assert_not_null(rep);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(rep, "ranking")) {
        double score = cJSON_GetObjectItem(f, "score")->valuedouble, sum = 0;
        cr_expect(score >= 0 && score <= 100, "%g", score);
        const cJSON *reason;
        cJSON_ArrayForEach(reason, cJSON_GetObjectItem(f, "reasons")) sum += cJSON_GetObjectItem(reason, "delta")->valuedouble;
        cr_expect(fabs(sum - score) < 0.05 + 1e-9, "%s: reasons add up to %g, score %g",
                  cJSON_GetObjectItem(f, "framework")->valuestring, sum, score);
    }
    cJSON_Delete(rep);
    ts_run_free(&r);
    free(doc);
}

/* An exclude rule applies only when its condition holds; a list column takes each item once. */
Test(hardening, imported_exclude_rules_follow_their_condition_and_lists_take_items_once)
{
    char *doc = ts_path(dir, "exclude.json");
    ts_write_str(doc, "{\"schema\": \"fwadvisor.kb/1\", \"rules\": [{\"id\": \"no-jax-for-learners\", \"kind\": \"rule_of_thumb\","
                      " \"title\": \"t\", \"text\": \"x\", \"condition\": {\"stage\": \"learning\"}, \"effect\": {\"exclude\": [\"jax\"]},"
                      " \"priority\": 0, \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}");
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", doc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    const char *stages[] = {"stage=production", "stage=learning"};
    for (int i = 0; i < 2; i++) {
        RUN(r, dbarg, "recommend", "--set", stages[i], "--json");
        cr_assert_eq(r.status, 0, "%s", r.err);
        cJSON *rep = cJSON_Parse(r.out);
        const cJSON *f;
        int jax_excluded = -1;
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(rep, "ranking"))
            if (!strcmp(cJSON_GetObjectItem(f, "framework")->valuestring, "jax"))
                jax_excluded = cJSON_IsTrue(cJSON_GetObjectItem(f, "excluded"));
        cr_expect_eq(jax_excluded, i, "%s: JAX excluded %d", stages[i], jax_excluded);
        cJSON_Delete(rep);
        ts_run_free(&r);
    }
    ts_write_str(doc, "{\"schema\": \"fwadvisor.kb/1\", \"scores\": [{\"framework\": \"jax\", \"criterion\": \"debugging\","
                      " \"score\": 5, \"note\": \"n\", \"source\": \"seed-001\", \"also\": [\"seed-002\", \"seed-002\"],"
                      " \"as_of\": \"2026-01-01\"}]}");
    RUN(r, dbarg, "kb", "import", doc);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "'seed-002' appears twice") != NULL, "%s", r.err);
    ts_run_free(&r);
    free(doc);
}

/* --- numbers, bytes and dates ---------------------------------------------------------------- */

Test(hardening, numbers_beyond_1e15_are_refused)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--set", "model_params=1e308");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "at most 1e+15"), "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--set", "model_params=1.0000001e15");
    cr_expect_eq(r.status, 3, "just above the bound");
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--set", "model_params=1e15", "--set", "tokens=1e15", "--set", "model_kind=llm", "--json");
    cr_expect_eq(r.status, 0, "at the bound: %s", r.err);
    cr_expect(strstr(r.out, "null") == NULL || strstr(r.out, "\"total_flops\":\tnull") == NULL, "finite figures");
    cJSON *rep = cJSON_Parse(r.out);
    cr_assert_not_null(rep);
    const cJSON *flops = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "plan"), "time"), "total_flops");
    /* 6 x 1e15 x 1e15 = 6e30, plus PaLM's attention term 12 L h s per token for the derived
     * shape (about 0.15% more). */
    cr_expect(cJSON_IsNumber(flops) && flops->valuedouble >= 6e30 && flops->valuedouble < 6.06e30, "6ND = 6e30 and attention");
    cJSON_Delete(rep);
    ts_run_free(&r);
    char *answers = ts_path(dir, "a.json");
    ts_write_str(answers, "{\"devices\": 1e16}");
    RUN(r, dbarg, "recommend", "-a", answers);
    cr_expect_eq(r.status, 3);
    ts_run_free(&r);
    free(answers);
}

/* Bytes that are not UTF-8, NUL bytes and \u0000 escapes: exit 3 with the byte offset, in answers
 * and in import documents alike. */
Test(hardening, invalid_utf8_and_nuls_are_refused_with_the_offset)
{
    struct {
        const char *text;
        size_t len;
        const char *want;
    } cases[] = {
        {"{\"stage\": \"r\xff\"}", 15, "bytes that are not UTF-8 at byte 12"},
        {"{\"stage\": \"\xc0\xaf\"}", 15, "bytes that are not UTF-8 at byte 11"}, /* overlong '/' */
        {"{\"stage\": \"\xed\xa0\x80\"}", 16, "bytes that are not UTF-8 at byte 11"}, /* a surrogate */
        {"{\"stage\": \"research\\u0000production\"}", 37, "a \\u0000 escape (a NUL character in a string) at byte 19"},
        {"{\"stage\": \"res\0earch\"}", 22, "a NUL byte at byte 14"},
    };
    char *path = ts_path(dir, "in.json");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_write(path, cases[i].text, cases[i].len);
        struct ts_run r;
        RUN(r, dbarg, "recommend", "-a", path);
        cr_expect_eq(r.status, 3, "case %zu: %s", i, r.err);
        cr_expect(strstr(r.err, cases[i].want), "case %zu: %s", i, r.err);
        ts_run_free(&r);
        RUN(r, dbarg, "kb", "import", path);
        cr_expect_eq(r.status, 3, "import case %zu: %s", i, r.err);
        cr_expect(strstr(r.err, cases[i].want), "import case %zu: %s", i, r.err);
        ts_run_free(&r);
    }
    /* an escaped backslash before u0000 is text, not a NUL: it passes the byte check */
    ts_write_str(path, "{\"stage\": \"r\\\\u0000\"}");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "-a", path);
    cr_expect(strstr(r.err, "is not one of"), "%s", r.err);
    ts_run_free(&r);
    free(path);
}

Test(hardening, impossible_dates_are_refused)
{
    static const struct {
        const char *date;
        int ok;
    } cases[] = {{"2024-02-29", 1}, {"2023-02-29", 0}, {"2024-02-31", 0}, {"2000-02-29", 1}, {"1900-02-29", 0},
                 {"2026-04-30", 1}, {"2026-04-31", 0}, {"2026-12-31", 1}, {"2026-13-01", 0}, {"2026-00-10", 0}};
    char *path = ts_path(dir, "d.json");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"d%zu\", \"title\": \"t\", \"url\": \"u\","
                 " \"published\": \"%s\"}]}",
                 i, cases[i].date);
        ts_write_str(path, text);
        struct ts_run r;
        RUN(r, dbarg, "kb", "import", path);
        cr_expect_eq(r.status, cases[i].ok ? 0 : 3, "%s: %s", cases[i].date, r.err);
        ts_run_free(&r);
    }
    free(path);
}

/* --- read-only and full disks ---------------------------------------------------------------- */

/* Runs the binary as user nobody (root can write anywhere, so only another user meets a
 * read-only folder). */
static int run_as_nobody(struct ts_run *r, const char *const *args)
{
    const char *argv[20] = {"--reuid=65534", "--regid=65534", "--clear-groups", getenv("FWADVISOR_BIN")};
    int n = 4;
    for (int i = 0; args[i] && n < 19; i++) argv[n++] = args[i];
    argv[n] = NULL;
    return ts_exec(r, "/usr/bin/setpriv", env, NULL, argv);
}

Test(hardening, read_only_commands_work_on_a_read_only_folder)
{
    if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) cr_skip_test("needs root and setpriv to act as another user");
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    chmod(dir, 0755);
    chmod(db, 0644);
    static const char *const cmds[][3] = {{"kb", "list", NULL}, {"kb", "show", "jax"}, {"recommend", NULL, NULL},
                                          {"probe", "list", NULL}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *args[5] = {dbarg, cmds[i][0], cmds[i][1], cmds[i][2], NULL};
        cr_assert_eq(run_as_nobody(&r, args), 0);
        cr_expect_eq(r.status, 0, "%s %s: %s", cmds[i][0], cmds[i][1] ? cmds[i][1] : "", r.err);
        ts_run_free(&r);
    }
    /* no database yet in a read-only folder: the built-in facts in memory */
    char other[4300];
    snprintf(other, sizeof other, "--db=%s/none.sqlite3", dir);
    cr_assert_eq(run_as_nobody(&r, (const char *const[]){other, "kb", "list", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "PyTorch"), "%s", r.out);
    cr_expect_neq(access(other + 5, F_OK), 0, "nothing written");
    ts_run_free(&r);
    /* writing stays refused, with exit 4 */
    char *doc = ts_path(dir, "doc.json");
    ts_write_str(doc, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"s\", \"title\": \"t\", \"url\": \"u\","
                      " \"published\": \"2026\"}]}");
    chmod(doc, 0644);
    cr_assert_eq(run_as_nobody(&r, (const char *const[]){dbarg, "kb", "import", doc, NULL}), 0);
    cr_expect_eq(r.status, 4, "%s", r.err);
    ts_run_free(&r);
    free(doc);
}

Test(hardening, read_only_commands_work_on_a_full_disk)
{
    if (system("unshare -rm true >/dev/null 2>&1") != 0) cr_skip_test("no user and mount namespaces here (unshare -rm)");
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    char script[16384];
    snprintf(script, sizeof script,
             "set -e; m=%s/full; mkdir -p $m; mount -t tmpfs -o size=800k tmpfs $m; cp %s $m/kb.sqlite3;"
             " dd if=/dev/zero of=$m/fill bs=4k 2>/dev/null || true;"
             " %s --db $m/kb.sqlite3 kb list > %s/list.out; echo list=$? > %s/rc;"
             " %s --db $m/kb.sqlite3 recommend --preset tpu-pod > %s/rec.out; echo rec=$? >> %s/rc",
             dir, db, getenv("FWADVISOR_BIN"), dir, dir, getenv("FWADVISOR_BIN"), dir, dir);
    cr_assert_eq(ts_exec(&r, "/usr/bin/unshare", env, NULL, (const char *const[]){"-rm", "sh", "-c", script, NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *rc_path = ts_path(dir, "rc");
    char *rc = ts_read(rc_path, NULL);
    cr_expect(rc && strstr(rc, "list=0") && strstr(rc, "rec=0"), "%s", rc ? rc : "(none)");
    free(rc);
    free(rc_path);
}

/* A damaged file given with --db: one line, and the way out resets that file, not the default. */
Test(hardening, a_damaged_database_is_one_line_naming_its_own_reset)
{
    ts_write_str(db, "SQLite format 3");
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    cr_expect_eq(r.status, 4);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    char want[4400];
    snprintf(want, sizeof want, "fwadvisor --db %s kb reset --yes", db);
    cr_expect(strstr(r.err, want), "%s", r.err);
    ts_run_free(&r);
}

/* --- malformed stored runs ------------------------------------------------------------------- */

/* A run another tool stored with an 'ok' result but no median, a median of 1e999 (infinite once
 * read) and a CPU without its counts: shown with the rows marked malformed and "?" for what is
 * missing, never "nan" or "inf", and no figure of it reaches a plan. */
Test(hardening, a_malformed_stored_run_is_marked_not_shown_as_nan)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    const char *sql =
        "INSERT INTO probe_runs (id, started_at, duration_s, interrupted, summary, doc) VALUES ('bad1', "
        "'2026-12-01T00:00:00Z', 1, 0, 'x', '{\"schema\": \"fwadvisor.probe/1\", \"id\": \"bad1\", \"cpu\": {\"model\": "
        "\"m\"}, \"accelerators\": [], \"results\": [{\"workload\": \"gemm\", \"metric\": \"gflops_best\", \"status\": \"ok\", "
        "\"device\": \"cpu\", \"params\": {\"n\": 512}, \"unit\": \"GFLOP/s\"}, {\"workload\": \"stream\", \"metric\": "
        "\"triad_gbs\", \"status\": \"ok\", \"device\": \"cpu\", \"median\": 1e999, \"unit\": \"GB/s\"}]}')";
    cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    RUN(r, dbarg, "probe", "show", "bad1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(!strstr(r.out, "nan") && !strstr(r.out, "inf"), "%s", r.out);
    cr_expect(strstr(r.out, "? cores, ? threads"), "%s", r.out);
    const char *first = strstr(r.out, "malformed stored result: 'ok' without a finite median");
    cr_expect(first && strstr(first + 1, "malformed stored result"), "both rows marked: %s", r.out);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--probe", "bad1", "--set", "hardware=auto", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc);
    const cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "measured");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "figures")), 0, "a figure of the malformed run was used: %s", r.out);
    cJSON_Delete(doc);
    ts_run_free(&r);
}
