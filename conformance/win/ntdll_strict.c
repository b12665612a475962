/* SPDX-License-Identifier: MIT */
/* NtClose as under strict handle checking (a debugger, Application
 * Verifier, ProcessStrictHandleCheckPolicy), which Wine does not have:
 * closing a handle that is not open raises STATUS_INVALID_HANDLE at the
 * caller instead of returning it. ntprof.exe binds NtClose from this DLL
 * when NTPROF_NTDLL names it (harness/win/impl_windows.c); every other
 * export still comes from the system. conformance/cli/test_wine.sh drives it:
 * a vector that closes its own handle must not have it closed again at the
 * vector's end. Each raise is said on stderr, so that the test can count
 * them. Continued (as the live side's end does), it returns the status. */
#include <windows.h>

#include <stdio.h>

#define STATUS_INVALID_HANDLE_ 0xC0000008u

typedef LONG(NTAPI *close_fn)(HANDLE);

__declspec(dllexport) LONG NTAPI NtClose(HANDLE h)
{
	HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
	close_fn real = ntdll ? (close_fn)(void *)GetProcAddress(ntdll, "NtClose") : NULL;
	LONG status = real ? real(h) : (LONG)STATUS_INVALID_HANDLE_;
	if ((ULONG)status == STATUS_INVALID_HANDLE_) {
		fprintf(stderr, "ntdll_strict: NtClose(%p): not an open handle, raised 0xC0000008\n", h);
		fflush(stderr);
		RaiseException(STATUS_INVALID_HANDLE_, 0, 0, NULL);
	}
	return status;
}
