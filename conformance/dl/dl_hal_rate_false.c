/* SPDX-License-Identifier: MIT */
/* dl_hal_rate.c's twin: it claims the power-of-two reading of K-HAL-RATE
 * but implements the default (exact), which the claim must not excuse. */
#define HAL_RATE_READING "exact"
#include "dl_hal_rate.c"
