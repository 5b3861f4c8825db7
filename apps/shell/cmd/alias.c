/* alias: other names for commands. */
#include "../internal.h"

static void print_alias(struct shell *sh, const struct sh_var *a, void *ctx)
{
	sh_print(sh, "%s%ls : %ls\n", a->is_volatile ? "  " : "* ", a->name, a->value);
}

static EFI_STATUS cmd_alias(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-v", SH_OPT_FLAG}, {"-d", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	const CHAR16 *value;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		sh_alias_each(sh, print_alias, NULL);
		return EFI_SUCCESS;
	}
	if (sh_args_has(&a, "-d")) {
		status = sh_alias_set(sh, a.pos[0], NULL, true);
		if (EFI_ERROR(status))
			sh_error(sh, "alias: %ls is not an alias\n", a.pos[0]);
		return status;
	}
	if (a.count == 1) {
		value = sh_alias_get(sh, a.pos[0], NULL);
		if (!value) {
			sh_error(sh, "alias: %ls is not an alias\n", a.pos[0]);
			return EFI_NOT_FOUND;
		}
		sh_print(sh, "%ls : %ls\n", a.pos[0], value);
		return EFI_SUCCESS;
	}
	if (a.count > 2) {
		sh_error(sh, "alias: quote a command with arguments: alias ll \"ls -a\"\n");
		return EFI_INVALID_PARAMETER;
	}
	status = sh_alias_set(sh, a.pos[0], a.pos[1], sh_args_has(&a, "-v"));
	if (EFI_ERROR(status))
		sh_error(sh, "alias: cannot set %ls: %s\n", a.pos[0], sh_status_text(status));
	return status;
}

SH_COMMAND(alias, "alias", "Shows, creates or deletes aliases",
	   "alias [-v] [name [command]]\n"
	   "alias -d name\n"
	   "  An alias stands for a command (with arguments) as the first word of a command\n"
	   "  line. Without arguments lists them (* marks those kept across sessions).\n"
	   "  -v    the alias is volatile: it is forgotten when the shell ends\n"
	   "  -d    deletes the alias\n"
	   "Example:\n"
	   "  alias -v la \"ls -a\"\n",
	   cmd_alias);
