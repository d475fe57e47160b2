/* The interface's state and the screens' draw and key functions, shared by the files of tui/. */
#ifndef FWADVISOR_TUI_APP_H
#define FWADVISOR_TUI_APP_H

#include <cjson/cJSON.h>
#include <curses.h>
#include <pthread.h>
#include <signal.h>

#include "knowledge/advisor.h"
#include "probes/probe.h"
#include "probes/session.h"

enum tui_screen { SCR_HOME, SCR_WIZARD, SCR_RESULTS, SCR_PROBE, SCR_KB };
enum { TAB_RANKING, TAB_WHY, TAB_COMPARE, TAB_PLAN, TAB_DEPLOY, TAB_PITFALLS, TAB_COUNT };
enum { KB_TAB_FRAMEWORKS, KB_TAB_HARDWARE, KB_TAB_DISTRIBUTED, KB_TAB_DEPLOYMENT, KB_TAB_SOURCES, KB_TAB_COUNT };

#define WIZ_MAX_OPTIONS 16

struct wiz_option {
    const char *label;
    const char *value; /* the answer's value; NULL: leave the key to its default */
    const char *help;  /* one line drawn from the seed articles */
};

struct wiz_question {
    const char *key, *title;
    int multi;         /* team: several may be chosen */
    int default_index;
    int nopts;
    struct wiz_option opts[WIZ_MAX_OPTIONS]; /* "accelerator": the catalog's devices of the hardware
                                                 chosen follow these */
};

extern const struct wiz_question wiz_questions[];
extern const int wiz_question_count;

#define PROBE_VIEW_STEPS 16

struct probe_state {
    pthread_t thread;
    pthread_mutex_t lock;       /* finished, steps */
    int started, finished, collected;
    struct probe_session session;
    double t0;
    int nsteps;
    char steps[PROBE_VIEW_STEPS][32]; /* the steps reached, in order */
    cJSON *shown, *baseline;    /* the run on screen and the run it is compared with */
    int baseline_pick, scroll;
    char message[256];
};

struct app {
    enum tui_screen screen;
    int help, quit, confirm_quit, too_small;
    kb *k;
    struct adv_kb *akb;
    struct adv_hw hw;
    char hw_line[256], probe_line[256];
    /* a line of input (file paths) */
    int input;
    char input_title[80], input_buf[1024];
    void (*input_done)(struct app *a, const char *text);
    char message[256];
    int message_bad;
    /* home */
    int home_sel;
    /* wizard */
    struct answers base;         /* answers loaded from a file, under the questions' choices */
    int q, sel[32], first[32];
    unsigned multi[32];          /* chosen options of multi-select questions */
    char custom[32][40];         /* a loaded value that is none of the options */
    struct adv_result *preview;
    /* results */
    struct adv_result *res;
    int tab, rank_sel, scroll, pit_sel;
    unsigned char ticked[ADV_MAX_PITFALLS];
    /* probe */
    struct probe_state probe;
    /* knowledge base browser */
    int kb_tab, kb_sel, kb_first;
    cJSON *kb_rows;
    int utf8;
};

/* drawing helpers (app.c) */
void ui_text(int y, int x, int width, const char *s, attr_t attr);
int ui_wrap(int y, int x, int width, int max_lines, const char *s, attr_t attr);
void ui_title(struct app *a, const char *title);
void ui_footer(struct app *a, const char *keys);
void ui_begin_input(struct app *a, const char *title, const char *initial, void (*done)(struct app *, const char *));
void ui_message(struct app *a, int bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* wizard.c */
void wizard_start(struct app *a, const struct answers *loaded);
void wizard_build(const struct app *a, struct answers *out, int tentative_q, int tentative_sel);
void wizard_draw(struct app *a);
void wizard_key(struct app *a, int ch);
const char *wizard_option_label(const struct app *a, int q, int i, char *buf, size_t n);
const char *wizard_option_help(const struct app *a, int q, int i, char *buf, size_t n);
int wizard_option_count(const struct app *a, int q);

/* results.c */
void results_compute(struct app *a);
void results_draw(struct app *a);
void results_key(struct app *a, int ch);
/* Writes data to path atomically and says so (or why not) in the message line. */
void results_save(struct app *a, const char *path, const char *data, size_t len, const char *what);

/* probe_view.c */
void probe_view_start(struct app *a);
void probe_view_open_stored(struct app *a, const char *id);
void probe_view_draw(struct app *a);
void probe_view_key(struct app *a, int ch);
void probe_view_poll(struct app *a);
int probe_view_running(const struct app *a);
void probe_view_cleanup(struct app *a);

/* kb_view.c */
void kb_view_open(struct app *a);
void kb_view_draw(struct app *a);
void kb_view_key(struct app *a, int ch);

/* app.c */
void app_refresh_hardware(struct app *a);

#endif
