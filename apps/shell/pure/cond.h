/* Conditions of the script command `if` (UEFI Shell 2.2, "if"):
 *
 *   [/i] [/s] expression [then]
 *   expression := term {or term};  term := factor {and factor}
 *   factor := not factor | ( expression ) | exist FILE | isint(X) | exists(FILE)
 *           | operand OP operand
 *   OP := == eq ne gt lt ge le (signed) | ugt ult uge ule (unsigned)
 *
 * Operands that are both numbers (decimal, or hex after 0x; a sign for the signed
 * operators) compare as numbers unless /s is given; otherwise as strings, ignoring case
 * with /i. UefiError(n), PiError(n) and OemError(n) are the status codes with the error
 * bit and the PI or OEM bits set. Words are taken as given: the caller expands variables
 * and splits the line first. */
#ifndef SHELL_PURE_COND_H
#define SHELL_PURE_COND_H

#include "mem.h"

struct sh_cond_host {
	/* Whether a file or directory exists. */
	bool (*exists)(void *ctx, const CHAR16 *path);
	void *ctx;
};

struct sh_cond_error {
	const char *what; /* "a comparison needs two operands" ... */
	size_t word;	  /* index of the offending word (== count: at the end) */
};

/* Evaluates words[0..count) into *result. EFI_INVALID_PARAMETER with *err for malformed
 * conditions. */
EFI_STATUS sh_cond_eval(CHAR16 *const *words, size_t count, const struct sh_cond_host *host,
			bool *result, struct sh_cond_error *err);

#endif
