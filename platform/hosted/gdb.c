/* ember-run --gdb: runs ember-run again under gdb, with scripts/gdb/ember.py loaded so that
 * each EFI program's symbols are added at the address where Ember placed it (the script
 * breaks on the core's image load hook). --gdb=print prints the command instead, for
 * other front ends; --break-at-entry also stops at each program's entry point. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosted.h"

#define MAX_GDB_ARGS 16

/* Where the script is: $EMBER_GDB_SCRIPT, else beside the build directory ember-run was
 * built in (BUILD/ember-run -> scripts/gdb/ember.py), else an installed copy. */
static bool find_script(const char *exe, char *out, size_t size)
{
	static const char *const relative[] = {"/../scripts/gdb/ember.py",
					       "/../share/ember/gdb/ember.py"};
	const char *env = getenv("EMBER_GDB_SCRIPT");
	char dir[PATH_MAX];
	char *slash;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return access(out, R_OK) == 0;
	}
	snprintf(dir, sizeof(dir), "%s", exe);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < sizeof(relative) / sizeof(relative[0]); i++) {
		snprintf(out, size, "%s%s", dir, relative[i]);
		if (access(out, R_OK) == 0)
			return true;
	}
	return false;
}

/* The directory of a host path (the program's, where its .so lies), or NULL for names
 * such as fs0:\EFI\X.EFI. */
static char *directory_of(const char *path)
{
	char real[PATH_MAX];
	char *slash;

	if (!path || strchr(path, '\\') || !realpath(path, real))
		return NULL;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	return strdup(real);
}

static char *symbol_dir_command(const char *dir)
{
	size_t n = strlen(dir) + 32;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "ember-symbol-dir %s", dir);
	return s;
}

static bool is_gdb_option(const char *a)
{
	return !strcmp(a, "--gdb") || !strcmp(a, "--gdb=print") || !strcmp(a, "--break-at-entry");
}

/* Prints a word for a POSIX shell. */
static void print_quoted(const char *word)
{
	if (*word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "_-+=./:,@%") == strlen(word)) {
		fputs(word, stdout);
		return;
	}
	putchar('\'');
	for (const char *p = word; *p; p++)
		fputs(*p == '\'' ? "'\\''" : (char[]){*p, '\0'}, stdout);
	putchar('\'');
}

_Noreturn void hosted_gdb_exec(int argc, char **argv, int first_arg, const char *esp, bool print,
			       bool break_at_entry)
{
	char exe[PATH_MAX], script[PATH_MAX];
	const char *dirs[2] = {NULL, NULL};
	char **args = calloc((size_t)argc + MAX_GDB_ARGS, sizeof(*args));
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int k = 0;

	if (!args || n <= 0) {
		fprintf(stderr, "ember-run: cannot find ember-run's own file for gdb\n");
		exit(2);
	}
	exe[n] = '\0';
	if (!find_script(exe, script, sizeof(script))) {
		fprintf(stderr,
			"ember-run: scripts/gdb/ember.py not found (set EMBER_GDB_SCRIPT)\n");
		exit(2);
	}
	dirs[0] = directory_of(argv[first_arg]);
	dirs[1] = esp ? directory_of(esp) : NULL;
	args[k++] = "gdb";
	args[k++] = "-q";
	args[k++] = "-x";
	args[k++] = script;
	for (int i = 0; i < 2; i++)
		if (dirs[i]) {
			args[k++] = "-ex";
			args[k++] = symbol_dir_command(dirs[i]);
		}
	/* break efi_main before run: the symbols come with the program's load. */
	args[k++] = "-ex";
	args[k++] = "set breakpoint pending on";
	args[k++] = "-ex";
	args[k++] = "ember-hosted";
	if (break_at_entry) {
		args[k++] = "-ex";
		args[k++] = "ember-break-at-entry";
	}
	args[k++] = "--args";
	args[k++] = exe;
	for (int i = 1; i < argc; i++)
		if (i >= first_arg || !is_gdb_option(argv[i]))
			args[k++] = argv[i];
	if (print) {
		for (int i = 0; i < k; i++) {
			if (i)
				putchar(' ');
			print_quoted(args[i]);
		}
		putchar('\n');
		exit(0);
	}
	execvp("gdb", args);
	fprintf(stderr, "ember-run: cannot run gdb (is it installed?)\n");
	exit(2);
}
