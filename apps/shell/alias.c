/* Aliases: other names for commands. Defaults are volatile; non-volatile ones are kept as
 * UEFI variables under EFI_SHELL_ALIAS_GUID (name: the alias, data: the command). */
#include "internal.h"

static EFI_GUID alias_guid = EFI_SHELL_ALIAS_GUID;

const CHAR16 *sh_alias_get(struct shell *sh, const CHAR16 *alias, bool *is_volatile)
{
	for (struct sh_var *a = sh->aliases; a; a = a->next)
		if (sh_eq_nocase(a->name, alias)) {
			if (is_volatile)
				*is_volatile = a->is_volatile;
			return a->value;
		}
	return NULL;
}

EFI_STATUS sh_alias_set(struct shell *sh, const CHAR16 *alias, const CHAR16 *command,
			bool is_volatile)
{
	bool was_volatile = true;
	const CHAR16 *old = sh_alias_get(sh, alias, &was_volatile);
	UINT32 attrs = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS;
	EFI_STATUS status;

	if (!alias[0])
		return EFI_INVALID_PARAMETER;
	if (old && !was_volatile && (!command || is_volatile))
		app_rt->SetVariable((CHAR16 *)alias, &alias_guid, attrs, 0, NULL);
	status = sh_var_list_set(&sh->aliases, alias, command, is_volatile);
	if (!EFI_ERROR(status) && command && !is_volatile)
		app_rt->SetVariable((CHAR16 *)alias, &alias_guid, attrs, str16_size(command),
				    (VOID *)command);
	return status;
}

void sh_alias_each(struct shell *sh,
		   void (*fn)(struct shell *sh, const struct sh_var *a, void *ctx), void *ctx)
{
	sh_var_list_each(sh, sh->aliases, fn, ctx);
}

static void load_nv(struct shell *sh)
{
	static CHAR16 name[1024];
	EFI_GUID guid;

	name[0] = 0;
	for (;;) {
		UINTN size = sizeof(name), data_size = 0;
		CHAR16 *value;
		if (EFI_ERROR(app_rt->GetNextVariableName(&size, name, &guid)))
			break;
		if (!guid_eq(&guid, &alias_guid) ||
		    app_rt->GetVariable(name, &guid, NULL, &data_size, NULL) !=
			EFI_BUFFER_TOO_SMALL ||
		    !(value = app_zalloc(data_size + 2)))
			continue;
		if (!EFI_ERROR(app_rt->GetVariable(name, &guid, NULL, &data_size, value)))
			sh_var_list_set(&sh->aliases, name, value, false);
		app_free(value);
	}
}

EFI_STATUS sh_alias_init(struct shell *sh)
{
	static const CHAR16 *const defaults[][2] = {
	    {u"dir", u"ls"},  {u"md", u"mkdir"}, {u"rd", u"rm"},   {u"del", u"rm"},
	    {u"copy", u"cp"}, {u"ren", u"mv"},	 {u"move", u"mv"}, {u"cat", u"type"},
	};

	load_nv(sh);
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		if (!sh_alias_get(sh, defaults[i][0], NULL))
			sh_var_list_set(&sh->aliases, defaults[i][0], defaults[i][1], true);
	return EFI_SUCCESS;
}
