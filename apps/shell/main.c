/* Entry point: options, start-up (banner, mappings, startup.nsh or a command given on the
 * command line), then the interactive loop.
 *
 *   shell.efi [-nostartup | -startup] [-nodelay | -delay N] [-noversion] [-nomap] [-exit]
 *             [command [arguments]]
 *
 * The options come from EFI_SHELL_PARAMETERS_PROTOCOL when another shell started this one,
 * else from LoadOptions: a text command line whose first word is the program's own name
 * (as shells and ember-run pass it) unless it starts with '-' (boot option data). */
#include "internal.h"

#define DEFAULT_DELAY 5

static EFI_GUID params_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

struct options {
	bool startup, version, map, exit_after;
	UINTN delay;
	CHAR16 *command; /* allocated */
};

/* LoadOptions as text, or NULL when they are not (boot managers may pass binary data). */
static CHAR16 *load_options_text(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	const CHAR16 *s;
	UINTN n;

	if (EFI_ERROR(app_bs->HandleProtocol(image, &loaded_image_guid, (void **)&li)) ||
	    !li->LoadOptions || li->LoadOptionsSize < 2 || li->LoadOptionsSize % 2)
		return NULL;
	s = li->LoadOptions;
	n = li->LoadOptionsSize / 2;
	for (UINTN i = 0; i < n; i++) {
		if (!s[i])
			return sh_strndup16(s, i);
		if (s[i] < ' ' && s[i] != '\t')
			return NULL;
	}
	return sh_strndup16(s, n);
}

/* The words of the command line after the program's name. */
static EFI_STATUS command_words(EFI_HANDLE image, struct sh_strv *words, UINTN *first)
{
	EFI_SHELL_PARAMETERS_PROTOCOL *params;
	CHAR16 *text;
	EFI_STATUS status;

	sh_strv_init(words);
	*first = 1;
	if (!EFI_ERROR(app_bs->HandleProtocol(image, &params_guid, (void **)&params))) {
		for (UINTN i = 0; i < params->Argc; i++)
			sh_strv_push(words, sh_strdup16(params->Argv[i]));
		return words->failed ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
	}
	text = load_options_text(image);
	if (!text)
		return EFI_SUCCESS;
	status = sh_split_words(text, words, NULL);
	app_free(text);
	if (!EFI_ERROR(status) && words->count && words->v[0][0] == '-')
		*first = 0;
	return status;
}

static void parse_options(struct shell *sh, struct options *o)
{
	struct sh_strv w;
	UINTN i;

	*o = (struct options){true, true, true, false, DEFAULT_DELAY, NULL};
	if (EFI_ERROR(command_words(sh->image, &w, &i)))
		return;
	for (; i < w.count && w.v[i][0] == '-'; i++) {
		UINT64 n;
		if (sh_eq_ascii(w.v[i], "-delay") && i + 1 < w.count &&
		    sh_parse_u64(w.v[i + 1], false, &n)) {
			o->delay = (UINTN)n;
			i++;
		} else if (sh_eq_ascii(w.v[i], "-nostartup"))
			o->startup = false;
		else if (sh_eq_ascii(w.v[i], "-startup"))
			o->startup = true;
		else if (sh_eq_ascii(w.v[i], "-nodelay"))
			o->delay = 0;
		else if (sh_eq_ascii(w.v[i], "-noversion"))
			o->version = false;
		else if (sh_eq_ascii(w.v[i], "-nomap"))
			o->map = false;
		else if (sh_eq_ascii(w.v[i], "-exit"))
			o->exit_after = true;
		else if (!sh_eq_ascii(w.v[i], "-nointerrupt") &&
			 !sh_eq_ascii(w.v[i], "-noconsolein") &&
			 !sh_eq_ascii(w.v[i], "-noconsoleout"))
			sh_error(sh, "shell: unknown option %ls (ignored)\n", w.v[i]);
	}
	if (i < w.count)
		o->command = sh_join_words(w.v + i, w.count - i);
	sh_strv_free(&w);
}

/* Makes the file system the shell was loaded from the current one. */
static void start_on_own_volume(struct shell *sh)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;

	if (EFI_ERROR(app_bs->HandleProtocol(sh->image, &loaded_image_guid, (void **)&li)))
		return;
	for (UINTN m = 0; m < sh->map_count; m++)
		if (sh->maps[m].fs && sh->maps[m].handle == li->DeviceHandle)
			sh->cur_map = (INTN)m;
}

static void banner(struct shell *sh)
{
	sh_print(sh, "Ember Shell %s (UEFI Shell %u.%u interface) on %ls\n", SHELL_VERSION,
		 EFI_SHELL_MAJOR_VERSION, EFI_SHELL_MINOR_VERSION, app_st->FirmwareVendor);
	sh_print(sh, "Type 'help' for the commands, 'exit' to leave.\n");
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct options o;
	struct shell *sh;
	EFI_STATUS status;

	app_init(image, st);
	sh_mem_use(app_alloc, app_free);
	/* An interactive session must not trip the boot manager's watchdog. */
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	status = sh_create(&sh, image);
	if (EFI_ERROR(status))
		return status;
	parse_options(sh, &o);
	start_on_own_volume(sh);
	if (o.version)
		banner(sh);
	if (o.map)
		sh_execute(sh, u"map");
	if (o.command)
		sh_execute(sh, o.command);
	else if (o.startup)
		sh_startup(sh, o.delay);
	if (!o.exit_after && !sh->exiting)
		sh_repl(sh);
	status = sh->exiting ? sh->exit_status : sh->last_status;
	app_free(o.command);
	sh_destroy(sh);
	return status;
}
