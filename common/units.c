/* Durations, thousands separators, plurals and suffixed numbers. */
#include "common/units.h"
#include "common/i18n.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *units_thousands(double v, int decimals, char *out, size_t n)
{
    if (n == 0) return out;
    if (!isfinite(v) || fabs(v) >= 1e21) {
        snprintf(out, n, "%g", v);
        return out;
    }
    char plain[64];
    snprintf(plain, sizeof plain, "%.*f", decimals < 0 ? 0 : decimals, v);
    const char *digits = plain[0] == '-' ? plain + 1 : plain;
    size_t whole = strcspn(digits, "."), used = 0;
    char buf[96];
    if (digits != plain) buf[used++] = '-';
    for (size_t i = 0; i < whole; i++) {
        if (i > 0 && (whole - i) % 3 == 0) buf[used++] = ',';
        buf[used++] = digits[i];
    }
    snprintf(buf + used, sizeof buf - used, "%s", digits + whole);
    snprintf(out, n, "%s", buf);
    return out;
}

const char *units_number(double v, char *out, size_t n)
{
    double a = fabs(v);
    if (!isfinite(v)) snprintf(out, n, "-");
    else if (a == 0) snprintf(out, n, "0");
    else if (a >= 999.5 && a < 1e12) units_thousands(v, 0, out, n); /* 999.5 has three digits only as 1,000 */
    else if (a >= 1e-3 && a < 999.5) snprintf(out, n, "%.3g", v);
    else {
        /* 1.47e+19 -> 1.47e19, 2.5e-07 -> 2.5e-7 */
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%.3g", v);
        char *e = strchr(tmp, 'e');
        if (!e) {
            snprintf(out, n, "%s", tmp);
            return out;
        }
        const char *exp = e + 1;
        int neg = *exp == '-';
        if (*exp == '+' || *exp == '-') exp++;
        while (*exp == '0' && exp[1]) exp++;
        snprintf(out, n, "%.*se%s%s", (int)(e - tmp), tmp, neg ? "-" : "", exp);
    }
    return out;
}

const char *units_short(double v, char *out, size_t n)
{
    static const struct { double scale; const char *suffix; } steps[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    if (!isfinite(v) || fabs(v) >= 1e15) {
        snprintf(out, n, "%.3g", v);
        return out;
    }
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        /* 999.95e9 prints as 1000B in three digits: it is 1T. */
        if (fabs(v) >= steps[i].scale * 0.9995) {
            snprintf(out, n, "%.3g%s", v / steps[i].scale, steps[i].suffix);
            return out;
        }
    }
    snprintf(out, n, "%.3g", v);
    return out;
}

const char *units_plural(double n, const char *one, const char *many) { return n == 1 ? one : many; }

const char *units_count(double n, const char *one, const char *many, char *out, size_t outsz)
{
    char num[64];
    units_thousands(n, 0, num, sizeof num);
    snprintf(out, outsz, "%s %s", num, units_plural(n, one, many));
    return out;
}

/* A value of a unit: one decimal below 10 (".0" dropped), whole numbers with separators above. */
static const char *amount(double v, const char *one, const char *many, char *out, size_t n)
{
    char num[64];
    if (v > 0 && v < 0.995) { /* below one: two significant digits, so a fraction of a second shows */
        snprintf(num, sizeof num, "%.2g", v);
    } else if (v < 9.95) {
        snprintf(num, sizeof num, "%.1f", v);
        size_t len = strlen(num);
        if (len > 2 && strcmp(num + len - 2, ".0") == 0) num[len - 2] = '\0';
    } else {
        units_thousands(v, 0, num, sizeof num);
    }
    snprintf(out, n, "%s %s", num, strcmp(num, "1") == 0 ? one : many);
    return out;
}

/* The words of a duration, each unit's singular and plural: English, or the chosen language's. */
static const char *const duration_words[][2] = {
    {N_("second"), N_("seconds")}, {N_("minute"), N_("minutes")}, {N_("hour"), N_("hours")},
    {N_("day"), N_("days")},       {N_("month"), N_("months")},   {N_("year"), N_("years")},
};

static const char *duration(double seconds, int translated, char *out, size_t n)
{
    if (!isfinite(seconds) || seconds < 0) {
        snprintf(out, n, "%s", translated ? _("unknown") : "unknown");
        return out;
    }
    double hours = seconds / 3600, days = hours / 24, months = days / (365.25 / 12);
    int unit = seconds < 90 ? 0 : seconds < 90 * 60 ? 1 : hours <= 72 ? 2 : days <= 60 ? 3 : months <= 24 ? 4 : 5;
    const double value[] = {seconds, seconds / 60, hours, days, months, days / 365.25};
    const char *one = duration_words[unit][0], *many = duration_words[unit][1];
    return amount(value[unit], translated ? _(one) : one, translated ? _(many) : many, out, n);
}

const char *units_duration(double seconds, char *out, size_t n) { return duration(seconds, 0, out, n); }

const char *units_duration_text(double seconds, char *out, size_t n) { return duration(seconds, 1, out, n); }

const char *units_hours_text(double hours, char *out, size_t n) { return duration(hours * 3600, 1, out, n); }

const char *units_hours(double hours, char *out, size_t n) { return units_duration(hours * 3600, out, n); }

/* 1 when s (up to its first character that is neither a digit nor a comma) groups its digits
 * by three: "1,024", "12,345,678"; never "1,2" or ",5". */
static int well_grouped(const char *s)
{
    size_t first = strspn(s, "0123456789");
    if (first < 1 || first > 3) return 0;
    s += first;
    while (*s == ',') {
        if (strspn(s + 1, "0123456789") != 3) return 0;
        s += 4;
    }
    return !isdigit((unsigned char)*s);
}

int units_parse(const char *s, double *out)
{
    while (*s == ' ') s++;
    char copy[80];
    size_t len = strlen(s);
    while (len > 0 && s[len - 1] == ' ') len--;
    if (len == 0 || len >= sizeof copy) return -1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    const char *body = copy[0] == '-' || copy[0] == '+' ? copy + 1 : copy;
    /* Decimal only: no hex, inf or nan (strtod takes those). */
    if (!isdigit((unsigned char)body[0]) && !(body[0] == '.' && isdigit((unsigned char)body[1]))) return -1;
    if (strchr(copy, ',')) {
        if (!well_grouped(body)) return -1;
        char *w = copy;
        for (const char *r = copy; *r; r++)
            if (*r != ',') *w++ = *r;
        *w = '\0';
    }
    if (strpbrk(copy, "xXpP")) return -1;
    errno = 0;
    char *end;
    double v = strtod(copy, &end);
    if (end == copy || errno) return -1;
    static const struct { char c; double scale; } suffixes[] = {{'k', 1e3}, {'m', 1e6}, {'b', 1e9}, {'g', 1e9}, {'t', 1e12}};
    if (*end) {
        double scale = 0;
        for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
            if (tolower((unsigned char)*end) == suffixes[i].c) scale = suffixes[i].scale;
        if (scale == 0 || end[1]) return -1;
        v *= scale;
    }
    if (!isfinite(v)) return -1;
    *out = v;
    return 0;
}

int units_parse_duration(const char *s, double *seconds)
{
    const char *p = s;
    int digits = 0;
    while (isdigit((unsigned char)*p)) p++, digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++) digits++;
    if (!digits) return -1;
    double scale = *p == 's' ? 1 : *p == 'm' ? 60 : *p == 'h' ? 3600 : *p == '\0' ? 1 : 0;
    if (scale == 0 || (*p && p[1])) return -1;
    *seconds = strtod(s, NULL) * scale;
    return isfinite(*seconds) ? 0 : -1;
}
