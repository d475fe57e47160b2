/* suggest: "did you mean" for names people type (subcommands, presets, ids, answer keys): the
 * candidate equal but for case, else the one the word is a prefix of (the shortest), else one it
 * contains or that contains it,
 * else the nearest by edit distance within a third of the word's length (at least 2, at most 3
 * edits). Letters compare without regard to case. */
#ifndef FWADVISOR_SUGGEST_H
#define FWADVISOR_SUGGEST_H

#include <stddef.h>

struct suggest {
    const char *word;
    char best[64];
    int score; /* lower is better; INT_MAX while nothing is near */
};

void suggest_init(struct suggest *s, const char *word);
/* Considers one candidate (copied when it is the best so far). */
void suggest_offer(struct suggest *s, const char *candidate);
/* The best candidate, or NULL when none was near enough. Points into s. */
const char *suggest_result(const struct suggest *s);
/* The same over a NULL-terminated list. */
const char *suggest_from(struct suggest *s, const char *word, const char *const *candidates);

/* Levenshtein distance between two short strings (capped at 64 characters each), case-insensitive. */
int edit_distance(const char *a, const char *b);

#endif
