/* Creating and tearing down the shell: consoles, protocols it uses, environment, aliases,
 * mappings, handle numbers, Ctrl-C and the EFI_SHELL_PROTOCOL it offers. */
#include "internal.h"

struct shell *shell_self;

static EFI_GUID text_in_ex_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
static EFI_GUID dp_to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
static EFI_GUID collation2_guid = EFI_UNICODE_COLLATION_PROTOCOL2_GUID;

/* Ctrl-C: stop what runs (the notification has no context: there is one shell). */
static EFI_STATUS EFIAPI ctrl_c_pressed(EFI_KEY_DATA *key)
{
	if (shell_self) {
		shell_self->ctrl_c = true;
		if (shell_self->break_event)
			app_bs->SignalEvent(shell_self->break_event);
	}
	return EFI_SUCCESS;
}

/* Ctrl-C arrives as 'c' with Control held, or (from terminals) as the character 3. */
static void watch_ctrl_c(struct shell *sh)
{
	EFI_KEY_DATA keys[2] = {
	    {.Key = {0, 'c'}, .KeyState = {EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED, 0}},
	    {.Key = {0, 3}, .KeyState = {0, 0}},
	};

	app_bs->CreateEvent(0, 0, NULL, NULL, &sh->break_event);
	if (EFI_ERROR(app_bs->HandleProtocol(app_st->ConsoleInHandle, &text_in_ex_guid,
					     (void **)&sh->con_in_ex)))
		sh->con_in_ex = NULL;
	for (size_t i = 0; sh->con_in_ex && i < ARRAY_SIZE(keys); i++)
		if (EFI_ERROR(sh->con_in_ex->RegisterKeyNotify(
			sh->con_in_ex, &keys[i], ctrl_c_pressed, &sh->ctrl_c_notify[i])))
			sh->ctrl_c_notify[i] = NULL;
}

static void consoles(struct shell *sh)
{
	sh->con_in = app_st->ConIn;
	sh->con_out = app_st->ConOut;
	sh->con_err = app_st->StdErr ? app_st->StdErr : app_st->ConOut;
	sh_stream_console(&sh->console_out, sh, false, false);
	sh_stream_console(&sh->console_err, sh, false, true);
	sh_stream_console(&sh->console_in, sh, true, false);
	sh->out = &sh->console_out;
	sh->err = &sh->console_err;
	sh->in = &sh->console_in;
	sh_input_init(sh);
}

/* A shell started from another one takes over its variables and current directory. */
static void inherit(struct shell *sh, EFI_SHELL_PROTOCOL *parent)
{
	const CHAR16 *names = parent->GetEnv(NULL), *cwd = parent->GetCurDir(NULL);
	struct sh_path p;

	for (const CHAR16 *n = names; n && *n; n += str16_len(n) + 1) {
		UINT32 attrs = 0;
		const CHAR16 *value = parent->GetEnvEx(n, &attrs);
		/* Non-volatile ones came from the variable store already. */
		if (value && (!(attrs & EFI_VARIABLE_NON_VOLATILE) || !sh_env_get(sh, n)))
			sh_env_set(sh, n, value, true);
	}
	if (cwd && !EFI_ERROR(sh_resolve(sh, cwd, &p))) {
		sh_set_cwd(sh, p.map, p.path, true);
		sh_path_free(&p);
	}
}

EFI_STATUS sh_create(struct shell **out, EFI_HANDLE image)
{
	struct shell *sh = app_zalloc(sizeof(*sh));
	EFI_STATUS status;

	if (!sh)
		return EFI_OUT_OF_RESOURCES;
	sh->image = image;
	sh->cur_map = -1;
	sh->echo = true;
	consoles(sh);
	if (EFI_ERROR(app_bs->LocateProtocol(&dp_to_text_guid, NULL, (void **)&sh->dp_to_text)))
		sh->dp_to_text = NULL;
	if (EFI_ERROR(app_bs->LocateProtocol(&collation2_guid, NULL, (void **)&sh->collation)))
		sh->collation = NULL;
	shell_self = sh;
	sh_env_init(sh);
	sh_alias_init(sh);
	sh_map_refresh(sh);
	sh_handles_refresh(sh);
	watch_ctrl_c(sh);
	status = sh_protocol_install(sh);
	if (EFI_ERROR(status)) {
		sh_destroy(sh);
		return status;
	}
	if (sh->previous_protocol)
		inherit(sh, sh->previous_protocol);
	*out = sh;
	return EFI_SUCCESS;
}

static void free_list(struct sh_var *v)
{
	while (v) {
		struct sh_var *next = v->next;
		app_free(v->name);
		app_free(v->value);
		app_free(v);
		v = next;
	}
}

void sh_destroy(struct shell *sh)
{
	sh_protocol_uninstall(sh);
	for (size_t i = 0; i < ARRAY_SIZE(sh->ctrl_c_notify); i++)
		if (sh->ctrl_c_notify[i])
			sh->con_in_ex->UnregisterKeyNotify(sh->con_in_ex, sh->ctrl_c_notify[i]);
	if (sh->break_event)
		app_bs->CloseEvent(sh->break_event);
	sh_input_fini(sh);
	free_list(sh->vars);
	free_list(sh->aliases);
	while (sh->guid_names) {
		struct sh_guid_entry *next = sh->guid_names->next;
		app_free(sh->guid_names->name);
		app_free(sh->guid_names);
		sh->guid_names = next;
	}
	sh_map_free_all(sh);
	app_free(sh->handles.handles);
	app_free(sh->cwd_value);
	app_free(sh->env_names);
	app_free(sh->cur_dir);
	sh_history_free(&sh->history);
	sh_edit_free(&sh->edit);
	sh_complete_reset(&sh->complete);
	shell_self = NULL;
	app_free(sh);
}

CHAR16 *sh_wide(const char *text)
{
	size_t n = str8_len(text);
	CHAR16 *w = app_alloc((n + 1) * sizeof(CHAR16));

	if (w)
		utf8_to_ucs2(w, n + 1, text, n);
	return w;
}
