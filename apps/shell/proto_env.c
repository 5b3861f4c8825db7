/* EFI_SHELL_PROTOCOL: environment, aliases, help, nested execution, batch and page break
 * state, GUID names and device names. */
#include "internal.h"

/* Shell options that may lead a command line given to Execute (they configure the nested
 * shell instance that the UEFI Shell starts for it; here they are simply skipped). */
static const CHAR16 *skip_shell_options(const CHAR16 *line)
{
	static const char *const options[] = {"-nomap",	      "-noversion",   "-nostartup",
					      "-startup",     "-nodelay",     "-exit",
					      "-nointerrupt", "-noconsolein", "-noconsoleout"};

	for (;;) {
		size_t n = 0;
		bool known = false;
		while (sh_is_blank(*line))
			line++;
		while (line[n] && !sh_is_blank(line[n]))
			n++;
		for (size_t i = 0; i < ARRAY_SIZE(options) && !known; i++)
			known = sh_eqn_ascii(line, n, options[i]);
		if (!known)
			return line;
		line += n;
	}
}

/* Applies "name=value" entries; *saved gets what they replaced ("name=" for unset). */
static void apply_environment(struct shell *sh, CHAR16 **env, struct sh_strv *saved)
{
	sh_strv_init(saved);
	for (; env && *env; env++) {
		CHAR16 *eq = str16_chr(*env, '='), *name;
		const CHAR16 *old;
		struct sh_buf b;
		if (!eq || !(name = sh_strndup16(*env, (size_t)(eq - *env))))
			continue;
		old = sh_env_get(sh, name);
		sh_buf_init(&b);
		sh_buf_puts(&b, name);
		sh_buf_putc(&b, old ? '=' : '\x01');
		sh_buf_puts(&b, old ? old : u"");
		sh_strv_push(saved, sh_buf_take(&b));
		sh_env_set(sh, name, eq + 1, true);
		app_free(name);
	}
}

static void restore_environment(struct shell *sh, struct sh_strv *saved)
{
	for (size_t i = saved->count; i-- > 0;) {
		CHAR16 *s = saved->v[i], *sep = s;
		while (*sep && *sep != '=' && *sep != 1)
			sep++;
		bool was_set = *sep == '=';
		*sep = 0;
		sh_env_set(sh, s, was_set ? sep + 1 : NULL, true);
	}
	sh_strv_free(saved);
}

static EFI_STATUS EFIAPI shell_execute(EFI_HANDLE *parent, CHAR16 *command_line,
				       CHAR16 **environment, EFI_STATUS *status_code)
{
	struct shell *sh = shell_self;
	struct sh_strv saved;
	EFI_STATUS status;

	if (!parent)
		return EFI_INVALID_PARAMETER;
	apply_environment(sh, environment, &saved);
	status = sh_execute(sh, command_line ? skip_shell_options(command_line) : u"");
	restore_environment(sh, &saved);
	if (status_code)
		*status_code = status;
	return EFI_SUCCESS;
}

static void add_name(struct shell *sh, const struct sh_var *v, void *ctx)
{
	struct sh_buf *b = ctx;

	sh_buf_puts(b, v->name);
	sh_buf_putc(b, 0);
}

static const CHAR16 *all_names(struct shell *sh)
{
	struct sh_buf b;

	sh_buf_init(&b);
	sh_env_each(sh, add_name, &b);
	sh_buf_putc(&b, 0);
	app_free(sh->env_names);
	sh->env_names = sh_buf_take(&b);
	return sh->env_names;
}

static CONST CHAR16 *EFIAPI shell_get_env_ex(CONST CHAR16 *name, UINT32 *attributes)
{
	struct shell *sh = shell_self;

	if (!name)
		return all_names(sh);
	if (attributes) {
		struct sh_var *v;
		*attributes = EFI_VARIABLE_BOOTSERVICE_ACCESS;
		for (v = sh->vars; v; v = v->next)
			if (sh_eq_nocase(v->name, name) && !v->is_volatile)
				*attributes |= EFI_VARIABLE_NON_VOLATILE;
	}
	return sh_env_get(sh, name);
}

static CONST CHAR16 *EFIAPI shell_get_env(CONST CHAR16 *name)
{
	return shell_get_env_ex(name, NULL);
}

static EFI_STATUS EFIAPI shell_set_env(CONST CHAR16 *name, CONST CHAR16 *value, BOOLEAN vol)
{
	if (!name)
		return EFI_INVALID_PARAMETER;
	/* An empty value deletes the variable. */
	return sh_env_set(shell_self, name, value && value[0] ? value : NULL, vol);
}

static CONST CHAR16 *EFIAPI shell_get_alias(CONST CHAR16 *alias, BOOLEAN *vol)
{
	bool v = true;
	const CHAR16 *command;

	if (!alias)
		return NULL;
	command = sh_alias_get(shell_self, alias, &v);
	if (command && vol)
		*vol = v;
	return command;
}

static EFI_STATUS EFIAPI shell_set_alias(CONST CHAR16 *command, CONST CHAR16 *alias,
					 BOOLEAN replace, BOOLEAN vol)
{
	struct shell *sh = shell_self;

	if (!alias && command) { /* a NULL alias with a command deletes the alias "command" */
		alias = command;
		command = NULL;
	}
	if (!alias)
		return EFI_INVALID_PARAMETER;
	if (command && !replace && sh_alias_get(sh, alias, NULL))
		return EFI_ACCESS_DENIED;
	return sh_alias_set(sh, alias, command, vol);
}

CHAR16 *sh_help_text(const struct sh_command *c)
{
	struct sh_buf b;
	CHAR16 *part;

	sh_buf_init(&b);
	sh_buf_put_ascii(&b, c->name);
	sh_buf_put_ascii(&b, " - ");
	part = sh_wide(c->summary);
	sh_buf_puts(&b, part ? part : u"");
	app_free(part);
	sh_buf_put_ascii(&b, "\n\n");
	part = sh_wide(c->help ? c->help : "");
	sh_buf_puts(&b, part ? part : u"");
	app_free(part);
	return sh_buf_take(&b);
}

static EFI_STATUS EFIAPI shell_get_help_text(CONST CHAR16 *command, CONST CHAR16 *sections,
					     CHAR16 **help)
{
	const struct sh_command *c;

	if (!help || !command)
		return EFI_INVALID_PARAMETER;
	c = sh_command_find(command);
	if (!c)
		return EFI_NOT_FOUND;
	*help = sh_help_text(c);
	return *help ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static BOOLEAN EFIAPI shell_batch_is_active(VOID)
{
	return shell_self->script != NULL;
}

static BOOLEAN EFIAPI shell_is_root_shell(VOID)
{
	return shell_self->root_shell;
}

static VOID EFIAPI shell_enable_page_break(VOID)
{
	shell_self->page_session = true;
	shell_self->page_break = true;
}

static VOID EFIAPI shell_disable_page_break(VOID)
{
	shell_self->page_session = false;
	shell_self->page_break = false;
}

static BOOLEAN EFIAPI shell_get_page_break(VOID)
{
	return shell_self->page_break || shell_self->page_session;
}

static EFI_STATUS EFIAPI shell_get_device_name(EFI_HANDLE device, EFI_SHELL_DEVICE_NAME_FLAGS flags,
					       CHAR8 *language, CHAR16 **name)
{
	static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path;

	if (!name || !device)
		return EFI_INVALID_PARAMETER;
	*name = NULL;
	if (flags & EFI_DEVICE_NAME_USE_COMPONENT_NAME)
		*name = sh_component_name(device);
	if (!*name && (flags & EFI_DEVICE_NAME_USE_DEVICE_PATH) &&
	    !EFI_ERROR(app_bs->HandleProtocol(device, &dp_guid, (void **)&path)))
		*name = sh_devpath_text(shell_self, path);
	return *name ? EFI_SUCCESS : EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI shell_register_guid_name(CONST EFI_GUID *guid, CONST CHAR16 *name)
{
	return sh_guid_register(shell_self, guid, name);
}

static EFI_STATUS EFIAPI shell_get_guid_name(CONST EFI_GUID *guid, CONST CHAR16 **name)
{
	if (!guid || !name)
		return EFI_INVALID_PARAMETER;
	*name = sh_guid_name(shell_self, guid);
	return *name ? EFI_SUCCESS : EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI shell_get_guid_from_name(CONST CHAR16 *name, EFI_GUID *guid)
{
	if (!guid || !name)
		return EFI_INVALID_PARAMETER;
	return sh_guid_from_name(shell_self, name, guid);
}

void sh_protocol_fill_env(EFI_SHELL_PROTOCOL *p)
{
	p->Execute = shell_execute;
	p->GetEnv = shell_get_env;
	p->SetEnv = shell_set_env;
	p->GetAlias = shell_get_alias;
	p->SetAlias = shell_set_alias;
	p->GetHelpText = shell_get_help_text;
	p->BatchIsActive = shell_batch_is_active;
	p->IsRootShell = shell_is_root_shell;
	p->EnablePageBreak = shell_enable_page_break;
	p->DisablePageBreak = shell_disable_page_break;
	p->GetPageBreak = shell_get_page_break;
	p->GetDeviceName = shell_get_device_name;
	p->RegisterGuidName = shell_register_guid_name;
	p->GetGuidName = shell_get_guid_name;
	p->GetGuidFromName = shell_get_guid_from_name;
	p->GetEnvEx = shell_get_env_ex;
}
