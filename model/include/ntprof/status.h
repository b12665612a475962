/* SPDX-License-Identifier: MIT */
/* ntprof: NTSTATUS and Win32 error values used by the profiling API family,
 * with their names (SPEC.md ST-codes table, values from ntstatus.h/winerror.h). */
#ifndef NTPROF_STATUS_H
#define NTPROF_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NP_STATUS_SUCCESS                 0x00000000u
#define NP_STATUS_DATATYPE_MISALIGNMENT   0x80000002u
#define NP_STATUS_BUFFER_OVERFLOW         0x80000005u
#define NP_STATUS_UNSUCCESSFUL            0xC0000001u
#define NP_STATUS_NOT_IMPLEMENTED         0xC0000002u
#define NP_STATUS_INVALID_INFO_CLASS      0xC0000003u
#define NP_STATUS_INFO_LENGTH_MISMATCH    0xC0000004u
#define NP_STATUS_ACCESS_VIOLATION        0xC0000005u
#define NP_STATUS_INVALID_HANDLE          0xC0000008u
#define NP_STATUS_INVALID_PARAMETER       0xC000000Du
#define NP_STATUS_NO_MEMORY               0xC0000017u
#define NP_STATUS_ACCESS_DENIED           0xC0000022u
#define NP_STATUS_BUFFER_TOO_SMALL        0xC0000023u
#define NP_STATUS_OBJECT_TYPE_MISMATCH    0xC0000024u
#define NP_STATUS_QUOTA_EXCEEDED          0xC0000044u
#define NP_STATUS_PRIVILEGE_NOT_HELD      0xC0000061u
#define NP_STATUS_INTEGER_DIVIDE_BY_ZERO  0xC0000094u
#define NP_STATUS_INSUFFICIENT_RESOURCES  0xC000009Au
#define NP_STATUS_MEMORY_NOT_ALLOCATED    0xC00000A0u
#define NP_STATUS_WORKING_SET_QUOTA       0xC00000A1u
#define NP_STATUS_PROFILING_NOT_STARTED   0xC00000B7u
#define NP_STATUS_PROFILING_NOT_STOPPED   0xC00000B8u
#define NP_STATUS_NOT_SUPPORTED           0xC00000BBu
#define NP_STATUS_PROFILING_AT_LIMIT      0xC00000D3u
#define NP_STATUS_INVALID_PARAMETER_7     0xC00000F5u
#define NP_STATUS_ADDRESS_ALREADY_EXISTS  0xC000020Au

#define NP_ERROR_SUCCESS              0u
#define NP_ERROR_INVALID_FUNCTION     1u
#define NP_ERROR_ACCESS_DENIED        5u
#define NP_ERROR_NOT_ENOUGH_MEMORY    8u
#define NP_ERROR_OUTOFMEMORY          14u
#define NP_ERROR_BAD_LENGTH           24u
#define NP_ERROR_NOT_SUPPORTED        50u
#define NP_ERROR_INVALID_PARAMETER    87u
#define NP_ERROR_CALL_NOT_IMPLEMENTED 120u   /* no model outcome: peers' stubs (Wine's TraceSetInformation) */
#define NP_ERROR_INSUFFICIENT_BUFFER  122u
#define NP_ERROR_MORE_DATA            234u
#define NP_ERROR_NOACCESS             998u
#define NP_ERROR_PRIVILEGE_NOT_HELD   1314u
#define NP_ERROR_NO_SYSTEM_RESOURCES  1450u
#define NP_ERROR_INCORRECT_SIZE       1462u

/* Bug check codes: the two the model can predict, and one more a vector
 * may name. */
#define NP_BUGCHECK_IRQL_NOT_LESS_OR_EQUAL      0x0000000Au
#define NP_BUGCHECK_KMODE_EXCEPTION_NOT_HANDLED 0x0000001Eu
#define NP_BUGCHECK_HAL_MEMORY_ALLOCATION       0x000000ACu

/* Name of an NTSTATUS (NULL when the table has none). */
const char *np_status_name(uint32_t status);
const char *np_win32_name(uint32_t error);
/* Reverse lookups; accept the name or a 32-bit number (ntprof/number.h: decimal or 0x hex). */
bool np_status_parse(const char *text, uint32_t *out);
bool np_win32_parse(const char *text, uint32_t *out);
/* NTSTATUS -> Win32 as RtlNtStatusToDosError does for the codes of this family (TR-9). */
uint32_t np_status_to_win32(uint32_t status);
/* Name of a bug check code (NULL when the table has none), and back: the
 * name or a 32-bit number. */
const char *np_bugcheck_name(uint32_t code);
bool np_bugcheck_parse(const char *text, uint32_t *out);
/* The status (or Win32 error) name nearest a mistyped one, or NULL. */
const char *np_status_nearest(const char *text);
const char *np_win32_nearest(const char *text);

#ifdef __cplusplus
}
#endif

#endif
