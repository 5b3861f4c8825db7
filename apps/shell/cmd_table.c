/* The command table: SH_COMMAND entries collected by the linker between two markers. */
#include "internal.h"

__attribute__((used, section(".shcmd$a"), aligned(8))) static const struct sh_command cmds_start;
__attribute__((used, section(".shcmd$z"), aligned(8))) static const struct sh_command cmds_end;

/* The entries between the markers; the linker may pad with zeros, which have no run. */
static void table_bounds(const struct sh_command **first, const struct sh_command **end)
{
	const struct sh_command *a = &cmds_start + 1, *z = &cmds_end;

	/* The markers are distinct objects to the compiler; hide that from the comparison. */
	__asm__("" : "+r"(a), "+r"(z));
	*first = a;
	*end = z;
}

const struct sh_command *sh_command_find(const CHAR16 *name)
{
	const struct sh_command *c, *end;

	for (table_bounds(&c, &end); c < end; c++)
		if (c->run && sh_eq_ascii(name, c->name))
			return c;
	return NULL;
}

UINTN sh_command_list(const struct sh_command **out, UINTN max)
{
	const struct sh_command *c, *end;
	UINTN n = 0;

	for (table_bounds(&c, &end); c < end; c++) {
		if (!c->run)
			continue;
		UINTN i = n++;
		if (i >= max)
			continue;
		while (i > 0 && str8_cmp(out[i - 1]->name, c->name) > 0) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = c;
	}
	return n;
}
