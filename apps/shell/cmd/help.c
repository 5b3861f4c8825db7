/* help: lists the commands or explains one. */
#include "../internal.h"

#define MAX_COMMANDS 256

static EFI_STATUS list(struct shell *sh, const CHAR16 *pattern)
{
	const struct sh_command *cmds[MAX_COMMANDS];
	UINTN n = MIN(sh_command_list(cmds, MAX_COMMANDS), (UINTN)MAX_COMMANDS), shown = 0;

	for (UINTN i = 0; i < n && !sh_interrupted(sh); i++) {
		CHAR16 *name = sh_wide(cmds[i]->name);
		if (name && (!pattern || sh_name_match(sh, name, pattern))) {
			sh_print(sh, "%-10s - %s\n", cmds[i]->name, cmds[i]->summary);
			shown++;
		}
		app_free(name);
	}
	if (!pattern)
		sh_print(sh, "\nType 'help command' for more; -b pauses after each screenful.\n");
	if (!shown) {
		sh_error(sh, "help: no command matches %ls\n", pattern);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_help(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	const struct sh_command *c;
	const CHAR16 *alias;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a);

	if (EFI_ERROR(status))
		return status;
	if (!a.count)
		return list(sh, NULL);
	c = sh_command_find(a.pos[0]);
	alias = sh_alias_get(sh, a.pos[0], NULL);
	if (!c && alias) {
		sh_print(sh, "%ls is an alias for: %ls\n", a.pos[0], alias);
		return EFI_SUCCESS;
	}
	if (!c)
		return list(sh, a.pos[0]);
	sh_print(sh, "%s - %s\n\n%s", c->name, c->summary, c->help ? c->help : "");
	return EFI_SUCCESS;
}

SH_COMMAND(help, "help", "Lists the commands, or explains one",
	   "help [-b] [command | pattern]\n"
	   "  Without an argument lists every command with a line about it; with a command's\n"
	   "  name shows its full help; with a pattern (help d*) lists the matching commands.\n",
	   cmd_help);
