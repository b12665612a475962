/* SPDX-License-Identifier: MIT */
/* dl_hal_rate.c without its claim: the power-of-two reading undeclared,
 * which the default fixtures' exact reading fails. */
#define HAL_RATE_CLAIM   /* none */
#include "dl_hal_rate.c"
