/* SPDX-License-Identifier: MIT */
/* dl_hal_rate.c with its reading misspelt (a value K-HAL-RATE does not
 * have): `--backend dl:` must refuse it, naming the claim, since it would
 * hold the object to nothing. */
#define HAL_RATE_CLAIM "reading:K-HAL-RATE=power-of-2",
#include "dl_hal_rate.c"
