/* ntprof versions: the versions the model knows, a line each: key, build
 * number, product, architectures. Arguments are ignored. Exit 0. */
#include <stdio.h>

#include "cli/cli.h"

static int versions_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = np_version_info_of((np_ver)v);
		char build[48];
		if (i->revision)
			snprintf(build, sizeof build, "%u.%u.%u.%u", i->major, i->minor, i->build, i->revision);
		else
			snprintf(build, sizeof build, "%u.%u.%u", i->major, i->minor, i->build);
		printf("%-8s %-16s %-28s %s%s%s\n", i->key, build, i->product,
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
