/* Helpers shared by the tests: temporary directories, files, and running the built binary. */
#ifndef FWADVISOR_TEST_SUPPORT_H
#define FWADVISOR_TEST_SUPPORT_H

#include <stddef.h>
#include <sys/types.h>

/* A fresh directory under $TMPDIR (or /tmp); removed by ts_rmtree. Caller frees the string. */
char *ts_tmpdir(void);
void ts_rmtree(const char *dir);
/* dir + "/" + name, caller frees. */
char *ts_path(const char *dir, const char *name);

int ts_write(const char *path, const char *data, size_t len);
int ts_write_str(const char *path, const char *text);
/* Whole file, NUL-terminated; NULL if unreadable. Caller frees. */
char *ts_read(const char *path, size_t *len);
/* 1 when both files exist and hold the same bytes. */
int ts_same_file(const char *a, const char *b);
int ts_copy(const char *from, const char *to);

struct ts_run {
    int status; /* exit code, or 128 + signal */
    char *out;
    char *err;
};

/* Runs the fwadvisor binary ($FWADVISOR_BIN) with args (NULL-terminated). env holds "KEY=VALUE"
 * entries to set and "KEY" entries to unset in the child (NULL-terminated, may be NULL);
 * stdin_text (may be NULL) is fed to standard input. Returns 0 when the program ran. */
int ts_run(struct ts_run *r, const char *const *env, const char *stdin_text, const char *const *args);
/* The same for any program (an absolute path). */
int ts_exec(struct ts_run *r, const char *bin, const char *const *env, const char *stdin_text, const char *const *args);
void ts_run_free(struct ts_run *r);

/* The environment the command-line tests run `fwadvisor recommend` in, the same on every machine:
 * the two-H100 sysroot fixture, no FWADVISOR_DB, NO_COLOR, no TPU_ACCELERATOR_TYPE. Fills env
 * (5 entries, NULL-terminated) and sysroot (its FWADVISOR_SYSROOT=... entry, n bytes). */
void ts_h100_env(const char *env[5], char *sysroot, size_t n);

/* Validates a JSON file against a JSON Schema with Debian's python3-jsonschema. Returns 0 when
 * valid, 1 when invalid (message in err), -1 when the validator is not installed: then a
 * "SKIPPED: schema check" line goes to stderr, and under CI (CI set, not "false") it is 1. */
int ts_validate_json(const char *json_path, const char *schema_path, char *err, size_t errsz);

/* The same for a document in memory against docs/NAME ($FWADVISOR_SCHEMA_DIR/NAME). */
struct cJSON;
int ts_validate_doc(const struct cJSON *doc, const char *schema_name, char *err, size_t errsz);

/* A fresh knowledge base in its own temporary directory, for suites that work on one. */
struct kb;
struct ts_kb {
    char *dir;     /* temporary directory, removed by ts_kb_close */
    char *path;    /* dir/kb.sqlite3 */
    struct kb *kb; /* open connection */
};
/* Returns 0, or -1 with a message in err. */
int ts_kb_open(struct ts_kb *t, char *err, size_t errsz);
void ts_kb_close(struct ts_kb *t);

/* That knowledge base loaded for the advisor, and a zeroed result for it to fill: the fixture of
 * the advisor's and the plan's suites. */
struct adv_kb;
struct adv_result;
struct ts_advisor {
    struct ts_kb kb;
    struct adv_kb *akb;
    struct adv_result *res;
};
/* Returns 0, or -1 with a message in err. */
int ts_advisor_open(struct ts_advisor *t, char *err, size_t errsz);
void ts_advisor_close(struct ts_advisor *t);
/* adv_recommend on answers given as a JSON document: its status, or -1 when the document does not
 * parse (err says why). */
int ts_advisor_recommend(struct ts_advisor *t, const char *json, char *err, size_t errsz);
/* The same on answers given as "key=value key=value" (ts_answers_sets). */
int ts_advisor_recommend_sets(struct ts_advisor *t, const char *sets, char *err, size_t errsz);
/* The first column of the first row of sql with ?1 bound to arg (NULL: none): as text copied
 * into out ("" when there is no row or it is NULL; NULL when sql does not prepare, with the
 * reason on stderr), or as a number (-1 when there is no row or sql does not prepare). */
const char *ts_kb_text(struct kb *k, const char *sql, const char *arg, char *out, size_t n);
double ts_kb_number(struct kb *k, const char *sql, const char *arg);

/* The advisor's fixture with the interface's state on it and the wizard started on loaded
 * answers (NULL: none), for tests of the wizard's choices without a terminal. */
struct app;
struct answers;
struct ts_wizard {
    struct ts_advisor adv;
    struct app *app;
};
/* Returns 0, or -1 with a message in err. */
int ts_wizard_open(struct ts_wizard *t, const struct answers *loaded, char *err, size_t errsz);
void ts_wizard_close(struct ts_wizard *t);

/* Widest line of s in terminal columns (common/text.h: East Asian wide and fullwidth characters
 * count two). */
int ts_max_width(const char *s);
/* s with its wrapped lines joined back (a newline and the next line's indentation become one
 * space, or nothing where either side is Chinese, which wraps without spaces): a phrase can be
 * looked for wherever the wrap fell. Caller frees. */
char *ts_unwrap(const char *s);

/* Blanks the value of a document's "generated_at" (the time of the run, which two runs need not
 * share) with '-', so that two documents compare whole; 1 when it had one. */
int ts_blank_generated_at(char *json);

/* Number of lines in s (a final line without a newline counts). */
int ts_lines(const char *s);

/* Text collected from a (label, text) line callback (adv_plan_text, adv_inference_text) as
 * "label: text" lines; the buffer is cut at its size. */
struct ts_text {
    char *buf;
    size_t size;
};
void ts_collect_line(void *ctx, const char *label, const char *text);

/* Answers from --set style assignments separated by spaces ("hardware=nvidia devices=8"), on
 * top of the defaults. 0, or -1 with the reason in err (a refused assignment, or input too long
 * to take whole). */
struct answers;
int ts_answers_sets(struct answers *a, const char *sets, char *err, size_t errsz);

/* How much slower than its own CPU time a fixed piece of work runs on this machine now: the wall
 * seconds over the CPU seconds of a 30 ms busy loop, at least 1 (about 1 on an idle core, about
 * the load per core on a shared machine). */
double ts_pace(void);
/* A time limit stated for an idle machine, stretched by ts_pace measured now, at most
 * TS_PACE_MAX times: "stops within a second" is checked against the machine's own pace, so a
 * busy machine slows the bound, not the verdict, and a stop that waits for its work still fails
 * on any machine less loaded than TS_PACE_MAX runnable threads a core (at a load of 30-50 on two
 * cores the pace read 15-25, and a cap of 8 failed stops that had taken 0.1 s of CPU). */
#define TS_PACE_MAX 40.0
double ts_seconds_at_pace(double seconds);

/* CPU seconds (user and system, all its threads) process pid has used so far, read from
 * /proc/PID/stat at the clock tick's resolution (10 ms); -1 once it cannot be read (reaped). */
double ts_cpu_of(pid_t pid);
/* The CPU seconds (user and system) of a reaped child's rusage, as wait4 gives it. */
struct rusage;
double ts_rusage_cpu(const struct rusage *ru);
/* The CPU a process may use between a stop's signal and its end: what "stops within a second"
 * means whatever the load. A stop seen only between two products of the gemm sweep uses 1.4 to
 * 2.3 s of the 4096 product; a prompt one uses up to 0.26 s here, most of it the kernel freeing
 * the memory-bandwidth arrays (three of four times the last-level cache) when the signal lands
 * there, and the interface up to 0.47 s with its screen. */
#define TS_STOP_CPU 1.0

#endif
