/* SPDX-License-Identifier: MIT */
/* ntprof versions: the versions the model knows, a line each: key, build
 * number, the everyday name that also reads as the key ("-": none),
 * product, architectures. Exit 0; 2 when given arguments. */
#include <stdio.h>

#include "cli/cli.h"

static int versions_main(int argc, char **argv)
{
	int status = cli_no_operands("versions", argc, argv);
	if (status)
		return status;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = np_version_info_of((np_ver)v);
		char build[48];
		if (i->revision)
			snprintf(build, sizeof build, "%u.%u.%u.%u", i->major, i->minor, i->build, i->revision);
		else
			snprintf(build, sizeof build, "%u.%u.%u", i->major, i->minor, i->build);
		const char *everyday = np_version_friendly((np_ver)v);
		printf("%-8s %-16s %-7s %-28s %s%s%s\n", i->key, build, everyday ? everyday : "-", i->product,
		       np_arch_exists((np_ver)v, NP_X86) ? "x86 " : "",
		       np_arch_exists((np_ver)v, NP_X64) ? "x64 " : "",
		       np_arch_exists((np_ver)v, NP_WOW64) ? "wow64" : "");
	}
	return 0;
}

static const char *const versions_usage[] = {
	"ntprof versions",
	NULL,
};

const cli_command cli_versions = {
	.name = "versions",
	.main = versions_main,
	.summary = "the versions the model knows, with their architectures",
	.usage = versions_usage,
};
