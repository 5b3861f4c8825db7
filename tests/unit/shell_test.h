/* Shared by the tests of the shell's pure logic (apps/shell/pure): allocation through
 * malloc, and comparing CHAR16 results with literals. */
#ifndef TEST_SHELL_TEST_H
#define TEST_SHELL_TEST_H

#include <stdlib.h>

#include "../../apps/shell/pure/mem.h"
#include "support/test.h"

static inline void shell_test_init(void)
{
	sh_mem_use(malloc, free);
}

/* Whether a (possibly NULL) CHAR16 string equals a literal. */
static inline bool str16_is(const CHAR16 *got, const CHAR16 *want)
{
	return got && str16_cmp(got, want) == 0;
}

#endif
