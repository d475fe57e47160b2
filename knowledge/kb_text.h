/* kb_text: a fact of the knowledge base (kb_show's object) in words, one line at a time, the
 * same for `fwadvisor kb show` and the interface's browser: a framework with its scores and
 * their notes, its hardware support, strategies, runtimes and sources; any other fact with its
 * fields and related rows. Every note ends with its sources and date. The front end lays the
 * lines out (wraps, pads labels, bolds titles); the text is outside text to be filtered. */
#ifndef FWADVISOR_KB_TEXT_H
#define FWADVISOR_KB_TEXT_H

#include <cjson/cJSON.h>

enum kb_text_kind {
    KB_TEXT_TITLE,   /* label: the name (bold), text: what follows it on the line (may be "") */
    KB_TEXT_PARA,    /* text: a paragraph */
    KB_TEXT_HEADING, /* text: a section's title, after a blank line */
    KB_TEXT_ITEM,    /* label padded to label_width, then text */
    KB_TEXT_FIELD,   /* an ITEM whose label is a column's name (memory_gb): the interface words it */
    KB_TEXT_SOURCE,  /* label: the source id, text: its title and date, url: its address */
};

struct kb_text_line {
    enum kb_text_kind kind;
    const char *label;
    int label_width;
    const char *text, *url;
};

/* A row's prose member `field` in the reader's language: its Chinese twin (FIELD_zh) when the
 * language is Chinese and the row has one, else the member itself ("" when absent). */
const char *kb_text_field(const cJSON *row, const char *field);
/* 1 for a member that is the Chinese twin of another (FIELD_zh). */
int kb_text_is_twin(const char *member);

void kb_fact_text(const cJSON *fact, void (*line)(void *ctx, const struct kb_text_line *l), void *ctx);
/* "a, b, c" (sep ", ") from an array of strings (cut at whole items to fit n). */
void kb_text_join(const cJSON *arr, const char *sep, char *out, size_t n);
/* A support level in a few letters for tables and lists (first, yes, exp, comm, -), and the
 * line that says what they mean. */
const char *kb_level_short(const char *level);
extern const char kb_level_legend[];
/* A hardware-support row (kb_list "hardware") in words: "since 2.0. fit 9/10. On windows: ...
 * note [sources, date]". */
void kb_support_text(const cJSON *row, char *out, size_t n);

#endif
