#!/bin/sh
# SPDX-License-Identifier: MIT
# The export with each of Wine 8.0's known lists alone, built for x86_64 and
# run under Wine as Windows 7 and 10: 0 failures, some todos; a list said to
# be for another Windows fails; a list that does not say is refused; todo_ros
# from a ReactOS list, run as ReactOS. The part of test_export_wine.sh that
# one script's time limit could not hold.
NTPROF_EXPORT_WINE_PART=lists exec sh "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}/conformance/cli/test_export_wine.sh"
