/* Nearest names for "did you mean". */
#include "common/suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int edit_distance(const char *a, const char *b)
{
    enum { N = 64 };
    int la = (int)strnlen(a, N), lb = (int)strnlen(b, N);
    int prev[N + 1], cur[N + 1];
    for (int j = 0; j <= lb; j++) prev[j] = j;
    for (int i = 1; i <= la; i++) {
        cur[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

void suggest_init(struct suggest *s, const char *word)
{
    s->word = word;
    s->best[0] = '\0';
    s->score = INT_MAX;
}

static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; n && *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return 0;
}

/* Scores: the same but for case 0, a prefix 1..999 (shorter candidates first), containment 1000.., edits 2000 + d. */
void suggest_offer(struct suggest *s, const char *cand)
{
    size_t wl = strlen(s->word), cl = strlen(cand);
    if (wl == 0 || cl == 0 || strcmp(s->word, cand) == 0) return;
    int score = INT_MAX;
    if (strcasecmp(s->word, cand) == 0) score = 0;
    else if (wl < cl && strncasecmp(cand, s->word, wl) == 0) score = (int)(cl < 999 ? cl : 999);
    else if (wl >= 3 && (contains(cand, s->word) || (cl >= 3 && contains(s->word, cand))))
        score = 1000 + (int)(cl < 999 ? cl : 999);
    else {
        int limit = (int)wl / 3;
        if (limit < 2) limit = 2;
        if (limit > 3) limit = 3;
        int d = edit_distance(s->word, cand);
        if (d <= limit && d < (int)wl) score = 2000 + d;
    }
    if (score < s->score) {
        s->score = score;
        snprintf(s->best, sizeof s->best, "%s", cand);
    }
}

const char *suggest_result(const struct suggest *s) { return s->score == INT_MAX ? NULL : s->best; }

const char *suggest_from(struct suggest *s, const char *word, const char *const *candidates)
{
    suggest_init(s, word);
    for (; candidates && *candidates; candidates++) suggest_offer(s, *candidates);
    return suggest_result(s);
}
