/* units: numbers as people write and read them, one way everywhere (the plan, the probe's time
 * left, the interface and the command line): durations, thousands separators, singular or
 * plural, and numbers with K/M/B/T suffixes ("70B", "2T", "1,024"). */
#ifndef FWADVISOR_UNITS_H
#define FWADVISOR_UNITS_H

#include <stddef.h>

/* A duration in words: under 90 seconds in seconds, under 90 minutes in minutes, up to 72 hours
 * in hours, up to 60 days in days, up to 24 months in months (365.25 / 12 days), then years:
 * "45 seconds", "12 minutes", "5.2 hours", "1 hour", "3.5 days", "2.1 months", "1,234 years".
 * Below 1 two significant digits ("0.042 seconds"), below 10 one decimal (".0" dropped), from
 * 10 whole numbers with thousands separators. A
 * negative or non-finite duration is "unknown". Returns out. */
const char *units_duration(double seconds, char *out, size_t n);
/* The same from hours. */
const char *units_hours(double hours, char *out, size_t n);
/* The same in the chosen language (common/i18n.h), for text shown to people: "4 天", "2.1 个月".
 * The English forms above stay for text that is stored or exported. */
const char *units_duration_text(double seconds, char *out, size_t n);
const char *units_hours_text(double hours, char *out, size_t n);

/* v with `decimals` decimals and a comma between thousands: 1234567.8 -> "1,234,567.8" (0
 * decimals: "1,234,568"). Numbers of 1e21 and more, and non-finite ones, in %g form. Returns out. */
const char *units_thousands(double v, int decimals, char *out, size_t n);

/* The one form of a number a person reads in text, the interface and the reports: three
 * significant digits below 1,000 ("54.6", "0.0133"), whole with thousands separators from 1,000
 * up to a trillion ("4,909", "13,000,000,000"), and only the very large and the very small in exponent
 * form without "+" or leading zeros ("1.47e19", "2.5e-7"); 0 is "0" and a non-finite value "-".
 * Returns out. */
const char *units_number(double v, char *out, size_t n);

/* v in three significant digits with a suffix: 1.8e12 -> "1.8T", 7e10 -> "70B", 125e6 -> "125M",
 * 4096 -> "4.1K", 512 -> "512"; from 1e15 in %.3g form. Returns out. */
const char *units_short(double v, char *out, size_t n);

/* "1 device", "8 devices", "1,024 devices": n (a whole number) with the singular or the plural
 * noun. Returns out. */
const char *units_count(double n, const char *one, const char *many, char *out, size_t outsz);
/* The noun alone: one when n is 1, else many. */
const char *units_plural(double n, const char *one, const char *many);

/* Parses a number as people write it: "70B", "2.5k", "1e9", "1,024", "7 billion" is not taken.
 * Suffixes K (1e3), M (1e6), B or G (1e9), T (1e12), either case; commas only between groups of
 * three digits. Leading and trailing spaces are allowed. Returns 0 with *out set, or -1. */
int units_parse(const char *s, double *out);

/* Parses a duration: seconds, or a decimal number with s, m or h ("90", "90s", "2m", "1.5h"); no
 * signs, spaces, hex or exponents. Returns 0 with *seconds set, or -1. */
int units_parse_duration(const char *s, double *seconds);

#endif
