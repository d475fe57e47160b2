/* clock: seconds on the monotonic clock, for intervals (steps, timeouts, ETAs), not dates. */
#ifndef FWADVISOR_COMMON_CLOCK_H
#define FWADVISOR_COMMON_CLOCK_H

double clock_now_s(void);

#endif
