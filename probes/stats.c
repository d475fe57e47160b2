/* Statistics of timed samples: the median with min, max, mean and a robust spread, the one
 * summary every timed loop of the probes and of `fwadvisor train` reports. */
#include "probes/probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void probe_stats(double *v, int n, struct probe_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0) return;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    double mean = sum / n;
    for (int i = 0; i < n; i++) sq += (v[i] - mean) * (v[i] - mean);
    out->n = n;
    out->min = v[0];
    out->max = v[n - 1];
    out->mean = mean;
    out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    /* The spread as a robust coefficient of variation: 1.4826 x the median absolute deviation
     * over the median (equal to sd/mean for normal noise), so one step that an interrupt
     * stretched does not call a steady measurement noisy. */
    double *dev = malloc((size_t)n * sizeof *dev);
    if (dev && out->median != 0) {
        for (int i = 0; i < n; i++) dev[i] = fabs(v[i] - out->median);
        qsort(dev, (size_t)n, sizeof *dev, cmp_double);
        double mad = n % 2 ? dev[n / 2] : (dev[n / 2 - 1] + dev[n / 2]) / 2;
        out->cv = n > 1 ? 1.4826 * mad / fabs(out->median) : 0;
    } else {
        out->cv = n > 1 && mean != 0 ? sqrt(sq / (n - 1)) / fabs(mean) : 0;
    }
    free(dev);
}

void probe_stats_copy(const double *samples, int n, struct probe_stats *out)
{
    double *v = n > 0 ? malloc((size_t)n * sizeof *v) : NULL;
    if (v) memcpy(v, samples, (size_t)n * sizeof *v);
    probe_stats(v, v ? n : 0, out);
    free(v);
}
