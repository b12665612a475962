/* SPDX-License-Identifier: MIT */
/* A main() for a fuzzer without libFuzzer: LLVMFuzzerTestOneInput once on
 * each file named, as `fuzz_NAME -runs=1 FILE...` runs them, each followed
 * by the line "Executed FILE" that conformance/cli/test_fuzz_corpus.sh
 * counts. Arguments that start with '-' (libFuzzer's options) are ignored.
 *
 * Why: replaying the corpora needs the sanitizers, not libFuzzer's coverage
 * feedback, so make check links each fuzzer with this in the sanitizer
 * tree (gcc, ASan and UBSan) instead of building a clang tree for it;
 * `make fuzz` still builds the real fuzzers (build/fuzz).
 *
 * Each input is copied into an allocation of exactly its size, so that
 * ASan reports a read one byte past the end, as under libFuzzer. Exits 0
 * when every file ran, 2 when one could not be read; a broken check or a
 * sanitizer report aborts. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole of path in a malloc'd block of *size bytes (at least one
 * byte allocated, so that an empty input still has an address). */
static uint8_t *read_input(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (bigger == NULL)
				free(buf);
			buf = bigger;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (buf == NULL || bad) {
		free(buf);
		return NULL;
	}
	uint8_t *exact = malloc(n > 0 ? n : 1);
	if (exact != NULL)
		memcpy(exact, buf, n);
	free(buf);
	*size = n;
	return exact;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		size_t size = 0;
		errno = 0;
		uint8_t *data = read_input(argv[i], &size);
		if (data == NULL) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i],
				errno != 0 ? strerror(errno) : "cannot be read");
			return 2;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		printf("Executed %s\n", argv[i]);
		fflush(stdout);
	}
	return 0;
}
