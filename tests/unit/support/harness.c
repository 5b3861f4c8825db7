/* Runs every registered unit test and prints "N passed, N failed". */
#include <setjmp.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

#include "test.h"
#include <ember/lib/format.h>

extern const struct unit_test __start_unit_tests[], __stop_unit_tests[];
#include "test_platform.h"

static jmp_buf abort_test;
static int current_failures;

static void report(const char *file, int line, const char *msg)
{
	printf("    %s:%d: %s\n", file, line, msg);
	current_failures++;
}

bool test_check(bool ok, const char *expr, const char *file, int line, bool fatal)
{
	if (!ok) {
		char msg[512];
		snprintf(msg, sizeof(msg), "expected %s", expr);
		report(file, line, msg);
		if (fatal)
			longjmp(abort_test, 1);
	}
	return ok;
}

bool test_check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, const char *file,
		    int line, bool fatal)
{
	if (a != b) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, ea, eb, a, b);
		report(file, line, msg);
		if (fatal)
			longjmp(abort_test, 1);
	}
	return a == b;
}

bool test_check_status(EFI_STATUS got, EFI_STATUS want, const char *expr, const char *file,
		       int line, bool fatal)
{
	if (got != want) {
		char msg[512];
		const char *g = efi_status_name(got), *w = efi_status_name(want);
		snprintf(msg, sizeof(msg), "%s returned %s, expected %s", expr, g ? g : "?",
			 w ? w : "?");
		report(file, line, msg);
		if (fatal)
			longjmp(abort_test, 1);
	}
	return got == want;
}

bool test_run_isolated(void (*fn)(void), const char *what, const char *file, int line)
{
	int status = 0;
	pid_t child;

	fflush(stdout);
	fflush(stderr);
	child = fork();
	if (child < 0) {
		report(file, line, "fork failed");
		return false;
	}
	if (child == 0) {
		current_failures = 0;
		if (setjmp(abort_test) == 0)
			fn();
		fflush(stdout);
		exit(current_failures ? 1 : 0); /* exit, not _exit: coverage is written at exit */
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s failed in its own process (status 0x%x)", what,
			 status);
		report(file, line, msg);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	const char *filter = argc > 1 ? argv[1] : NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	test_platform_init();
	for (const struct unit_test *t = __start_unit_tests; t < __stop_unit_tests; t++) {
		if (filter && !strstr(t->name, filter) && !strstr(t->file, filter))
			continue;
		current_failures = 0;
		if (setjmp(abort_test) == 0)
			t->run();
		if (current_failures) {
			printf("FAIL %s (%s)\n", t->name, t->file);
			failed++;
		} else {
			passed++;
		}
	}
	printf("unit tests: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
