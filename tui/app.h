/* The interface's state and the screens' draw and key functions, shared by the files of tui/. */
#ifndef FWADVISOR_TUI_APP_H
#define FWADVISOR_TUI_APP_H

#include <cjson/cJSON.h>
#include <curses.h>
#include <pthread.h>
#include <signal.h>

#include "knowledge/advisor.h"
#include "knowledge/compare.h"
#include "knowledge/model_shape.h"
#include "probes/probe.h"
#include "probes/session.h"
#include "tui/line_edit.h"
#include "tui/viewport.h"

/* The screens; each has its row in app.c's table of screens (draw, key, help). */
enum tui_screen { SCR_HOME, SCR_PRESETS, SCR_WIZARD, SCR_RESULTS, SCR_PROBE, SCR_KB, SCR_COUNT };
enum { TAB_RANKING, TAB_WHY, TAB_COMPARE, TAB_PLAN, TAB_DEPLOY, TAB_PITFALLS, TAB_HARDWARE, TAB_COUNT };

struct app;
struct hw_job;

/* A question of the wizard: which answer key it asks, how, and when. Its options are the key's
 * row in ans_keys (knowledge/answer_keys.c): the choice that leaves it out (the row's, else the
 * question's leave_out), then its choices (for the device model the catalog's devices follow, for
 * the model the shipped models and a config.json file). */
struct wiz_question {
    enum ans_index key;
    const char *title;
    int (*asked)(const struct app *a); /* NULL: always asked; else asked when it returns 1 */
    const struct ans_choice *leave_out; /* the option that leaves out a key whose row has none */
    int advisor_checked;               /* a choice the advisor refuses, where leaving the key out is
                                          not refused, keeps the question (precision, model) */
};

extern const struct wiz_question wiz_questions[];
extern const int wiz_question_count;

#define PROBE_VIEW_STEPS 16

struct probe_state {
    pthread_t thread;
    pthread_mutex_t lock;       /* finished, finished_at, steps */
    int started, finished, collected;
    struct probe_session session;
    double t0, cancel_at, finished_at; /* monotonic seconds; cancel_at 0 until Esc */
    int nsteps;
    char steps[PROBE_VIEW_STEPS][32]; /* the steps reached, in order */
    cJSON *shown, *baseline;    /* the run on screen and the run it is compared with */
    struct measured_run *shown_run, *baseline_run; /* the same read once (knowledge/measured.h); NULL when absent */
    int baseline_pick;
    char message[256];
    enum probe_save_status message_status; /* what the message tells: PROBE_SAVED a stored run, else a failure */
    int signalled;              /* a signal stopped the probe: the interface ends once it is stored */
    char exit_lines[2][512];    /* then said on standard error: where the run went, if not stored; what was kept */
    struct viewport vp;
    struct pane pane;
};

/* A place on screen a click acts on as a key does (a tab, a menu entry). */
struct hotspot {
    int y, x, w, key;
};

/* A line being typed: in a box (a path, a number) or on the footer line (a `/` search). */
struct prompt {
    int open, footer;
    char title[192]; /* a Chinese title takes three bytes a character */
    struct line_edit le;
    void (*done)(struct app *a, const char *text);
};

struct app {
    enum tui_screen screen;
    int help, quit, confirm_quit, too_small;
    const struct config_file *team_config; /* the config file: the team's defaults, or NULL (tui.h) */
    /* a boxed text over the screen that any key closes (ui_note): the help's box */
    int note;
    char note_title[96], note_text[2048];
    int note_command; /* the text is a shell command: wrapped lines end in " \\" */
    kb *k;
    struct adv_kb *akb;
    struct adv_hw hw;
    char hw_line[256], probe_line[256];
    struct prompt prompt;
    struct viewport *search;     /* the pane `/` searches on this screen, set by its draw */
    char search_was[64];         /* its query before the search began (Esc brings it back) */
    char message[256];
    int message_bad;
    /* what the mouse can reach, registered by the draw functions */
    struct hotspot hot[48];
    int nhot;
    struct viewport *mouse_vp[4];
    const struct pane *mouse_pane[4];
    int nmouse;
    /* home and the preset picker */
    int home_sel;
    struct viewport preset_vp;
    struct pane preset_pane;
    /* wizard */
    struct answers base;         /* answers loaded from a file, under the questions' choices */
    int q, sel[48];
    unsigned long long answered; /* questions the user went on from, bit q: their choice is theirs */
    unsigned long long multi[48]; /* chosen options of multi-select questions, bit i = option i */
    char custom[48][40];         /* a loaded or typed value that is none of the options */
    struct model_shape config;   /* the model's shape read from a config.json (config_path set) */
    char config_path[512];
    struct adv_result *preview;
    struct viewport wiz_vp;
    struct pane wiz_pane;
    /* results */
    struct adv_result *res;
    int tab;
    struct viewport tab_vp[TAB_COUNT]; /* Ranking's and Pitfalls' cursors: the framework, the pitfall */
    struct pane tab_pane;
    /* a wide terminal's Ranking: the picked framework's reasons beside the list */
    struct viewport why_side_vp;
    struct pane why_side_pane;
    unsigned char ticked[ADV_MAX_PITFALLS];
    struct answers res_answers;  /* the answers the results are for, as built from the choices */
    struct compare_table *hw_table; /* the Hardware tab's comparison of res_answers, planned when the
                                       tab is first shown for them (hw_stale: not yet) */
    int hw_stale;
    struct hw_job *hw_job;       /* the comparison being planned, on its own thread (results.c) */
    double hw_ms;                /* how long the last one took to plan */
    char hw_err[256];            /* why it could not be planned ("" when it was) */
    /* probe */
    struct probe_state probe;
    /* knowledge base browser */
    int kb_tab, kb_focus, kb_by_hardware; /* focus 0: the list, 1: the detail */
    cJSON *kb_rows, *kb_fact;
    int kb_fact_row;             /* the row kb_fact was read for, -1 none */
    struct viewport kb_list_vp, kb_detail_vp;
    struct pane kb_list_pane, kb_detail_pane;
    int utf8;
};

/* drawing helpers (app.c) */
void ui_text(int y, int x, int width, const char *s, attr_t attr);
int ui_wrap(int y, int x, int width, int max_lines, const char *s, attr_t attr);
void ui_title(struct app *a, const char *title);
/* The key line at the bottom (always drawn, cut at the screen's width with nothing that matters
 * last) and, above it, the message of the last action. */
void ui_footer(struct app *a, const char *keys);
/* Tabs on row y; a click on one acts as key base_key + i. Labels shorten when they do not fit.
 * The labels are the English (N_()): shown in the chosen language. */
void ui_tabs(struct app *a, int y, const char *const *labels, int n, int active, int base_key);
/* Registers a click target, or a pane the wheel and clicks reach. */
void ui_hotspot(struct app *a, int y, int x, int w, int key);
void ui_pane(struct app *a, struct viewport *v, const struct pane *p);
/* The pane `/` searches on this screen. */
void ui_searchable(struct app *a, struct viewport *v);
/* Opens the prompt: a box, or the footer line for a search. paths: Tab completes paths. */
void ui_begin_input(struct app *a, const char *title, const char *initial, int paths,
                    void (*done)(struct app *, const char *));
void ui_message(struct app *a, int bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Shows text in a box over the screen, drawn as the help is, until a key is pressed. command: a
 * shell command, wrapped with a backslash at each line's end so that it pastes as it is. */
void ui_note(struct app *a, const char *title, const char *text, int command);
/* To the home menu, its cursor on the first item (a habit of Down-Down-Enter never lands on Quit). */
void app_home(struct app *a);
/* Quit, asking first (y/n) while a probe runs, on the results and probe screens, and wherever
 * results are held that leaving would lose. */
void app_ask_quit(struct app *a);
/* The rows panes get: from `top` to the message line. */
int ui_content_rows(int top);

/* home.c: the home screen and the preset picker */
void home_draw(struct app *a);
void home_key(struct app *a, int ch);
void presets_draw(struct app *a);
void presets_key(struct app *a, int ch);
/* Answers from a file (fwadvisor.answers/1) straight to the results; only a regular file is
 * read (a FIFO would hold the interface until something writes to it). */
void home_load_answers(struct app *a, const char *path);

/* wizard.c */
void wizard_start(struct app *a, const struct answers *loaded);
/* The answers of the wizard's choices over the loaded ones (tentative_q >= 0: tentative_sel for
 * that question, the side panel's preview). A choice the answers refuse is kept out and said: -1
 * with the first refusal in err, else 0. */
int wizard_build(const struct app *a, struct answers *out, int tentative_q, int tentative_sel, char *err, size_t errsz);
void wizard_draw(struct app *a);
void wizard_key(struct app *a, int ch);
const char *wizard_option_label(const struct app *a, int q, int i, char *buf, size_t n);
const char *wizard_option_help(const struct app *a, int q, int i, char *buf, size_t n);
int wizard_option_count(const struct app *a, int q);
/* Question q's own options (its key's unset choice, then its choices), the i-th of them, and the
 * one its key takes when left out (-1: none). */
int wizard_own_count(int q);
const struct ans_choice *wizard_own_option(int q, int i);
int wizard_default_option(int q);
/* 1 when question q is asked with the choices made so far (deploy_hardware only with a deploy,
 * the fine-tuning questions only for a fine-tune: the job chosen, else the one the answers
 * derive). */
int wizard_asked(const struct app *a, int q);

/* results.c */
void results_compute(struct app *a);
void results_draw(struct app *a);
void results_key(struct app *a, int ch);
/* Takes the Hardware tab's comparison once it is planned; 1 while it is still being planned (the
 * loop wakes up to show it when it is). */
int results_poll(struct app *a);
/* Waits for a comparison being planned and frees the tab's table. */
void results_cleanup(struct app *a);
/* Writes data to path atomically and says so (or why not) in the message line; a FIFO or a
 * device is refused, never waited on. */
void results_save(struct app *a, const char *path, const char *data, size_t len, const char *what);

/* probe_view.c */
void probe_view_start(struct app *a);
void probe_view_open_stored(struct app *a, const char *id);
void probe_view_draw(struct app *a);
void probe_view_key(struct app *a, int ch);
void probe_view_poll(struct app *a);
/* 1 once a signal has stopped the probe (Ctrl-C, SIGTERM, SIGHUP): waits for the measuring to
 * end and stores what finished; the interface then ends with exit_lines on standard error. */
int probe_view_interrupted(struct app *a);
int probe_view_running(const struct app *a);
void probe_view_cleanup(struct app *a);

/* kb_view.c */
void kb_view_open(struct app *a);
void kb_view_draw(struct app *a);
void kb_view_key(struct app *a, int ch);
void kb_view_free(struct app *a);

/* app.c */
void app_refresh_hardware(struct app *a);

#endif
