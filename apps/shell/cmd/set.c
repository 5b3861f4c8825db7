/* set: environment variables. */
#include "../internal.h"

static void print_var(struct shell *sh, const struct sh_var *v, void *ctx)
{
	sh_print(sh, "%s%ls = %ls\n", v->is_volatile ? "  " : "* ", v->name, v->value);
}

/* The words of a value, joined by single spaces. */
static CHAR16 *join(CHAR16 **words, UINTN count)
{
	struct sh_buf b;

	sh_buf_init(&b);
	for (UINTN i = 0; i < count; i++) {
		if (i)
			sh_buf_putc(&b, ' ');
		sh_buf_puts(&b, words[i]);
	}
	return sh_buf_take(&b);
}

static bool valid_name(const CHAR16 *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!sh_is_name_char(*name))
			return false;
	return true;
}

static EFI_STATUS cmd_set(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-v", SH_OPT_FLAG}, {"-d", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	CHAR16 *value;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		sh_env_each(sh, print_var, NULL);
		return EFI_SUCCESS;
	}
	if (!valid_name(a.pos[0])) {
		sh_error(sh, "set: '%ls' is not a variable name (letters, digits, _)\n", a.pos[0]);
		return EFI_INVALID_PARAMETER;
	}
	if (sh_args_has(&a, "-d")) {
		status = sh_env_set(sh, a.pos[0], NULL, true);
		if (EFI_ERROR(status))
			sh_error(sh, "set: cannot delete %ls: %s\n", a.pos[0],
				 status == EFI_NOT_FOUND ? "it is not set"
							 : sh_status_text(status));
		return status;
	}
	if (a.count == 1) {
		const CHAR16 *v = sh_env_get(sh, a.pos[0]);
		if (!v) {
			sh_error(sh, "set: %ls is not set\n", a.pos[0]);
			return EFI_NOT_FOUND;
		}
		sh_print(sh, "%ls = %ls\n", a.pos[0], v);
		return EFI_SUCCESS;
	}
	value = join(a.pos + 1, a.count - 1);
	status =
	    value ? sh_env_set(sh, a.pos[0], value, sh_args_has(&a, "-v")) : EFI_OUT_OF_RESOURCES;
	app_free(value);
	if (EFI_ERROR(status))
		sh_error(sh, "set: cannot set %ls: %s\n", a.pos[0],
			 status == EFI_ACCESS_DENIED ? "it is read-only" : sh_status_text(status));
	return status;
}

SH_COMMAND(set, "set", "Shows, sets or deletes environment variables",
	   "set [-v] [name [value]]\n"
	   "set -d name\n"
	   "  Without arguments lists the variables (* marks those kept across sessions).\n"
	   "  With a name, shows it; with a value, sets it (several words are joined).\n"
	   "  Variables are used as %name% in command lines.\n"
	   "  -v    the variable is volatile: it is forgotten when the shell ends\n"
	   "  -d    deletes the variable\n"
	   "Examples:\n"
	   "  set -v target fs1:\n"
	   "  echo %target%\n",
	   cmd_set);
