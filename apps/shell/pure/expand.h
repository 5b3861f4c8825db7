/* Variable expansion of a command line, done before it is parsed (UEFI Shell 2.2, 3.4):
 * %name% is the environment variable (empty when unset), %0..%9 the positional
 * parameters of the running script, %a the value of the for-loop variable a (also written
 * %a%; a set variable %ab...% wins over the loop variable a). ^ protects the next
 * character: "^%" stays as it is for the parser, which then drops the caret. */
#ifndef SHELL_PURE_EXPAND_H
#define SHELL_PURE_EXPAND_H

#include "mem.h"

/* An active for-loop variable: %letter stands for value. */
struct sh_for_var {
	CHAR16 letter;
	const CHAR16 *value;
};

struct sh_vars {
	/* The value of an environment variable whose name is len units at name (not
	 * terminated), or NULL when it is not set. */
	const CHAR16 *(*get_env)(void *ctx, const CHAR16 *name, size_t len);
	void *ctx;
	/* %0.. of the running script; NULL outside scripts, where %0..%9 stay as they are. */
	CHAR16 *const *args;
	size_t argc;
	/* Active loop variables, outermost first; an inner loop's letter wins. */
	const struct sh_for_var *for_vars;
	size_t for_count;
};

/* Expands line into a new string (*out, freed with sh_free). EFI_OUT_OF_RESOURCES. */
EFI_STATUS sh_expand(const CHAR16 *line, const struct sh_vars *vars, CHAR16 **out);

#endif
