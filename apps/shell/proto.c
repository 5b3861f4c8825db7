/* Installing EFI_SHELL_PROTOCOL: on the shell's image handle, or, when another shell's
 * instance exists (this shell was started from it), in its place until this one ends. */
#include "internal.h"

static EFI_GUID shell_guid = EFI_SHELL_PROTOCOL_GUID;

EFI_STATUS sh_protocol_install(struct shell *sh)
{
	EFI_SHELL_PROTOCOL *p = &sh->protocol;
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	EFI_STATUS status;

	mem_set(p, 0, sizeof(*p));
	sh_protocol_fill_env(p);
	sh_protocol_fill_map(p);
	sh_protocol_fill_file(p);
	sh_protocol_fill_find(p);
	p->ExecutionBreak = sh->break_event;
	p->MajorVersion = EFI_SHELL_MAJOR_VERSION;
	p->MinorVersion = EFI_SHELL_MINOR_VERSION;
	if (!EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &shell_guid, NULL, &n, &handles)) &&
	    n) {
		sh->protocol_handle = handles[0];
		app_free(handles);
		status = app_bs->HandleProtocol(sh->protocol_handle, &shell_guid,
						(void **)&sh->previous_protocol);
		if (!EFI_ERROR(status))
			status = app_bs->ReinstallProtocolInterface(
			    sh->protocol_handle, &shell_guid, sh->previous_protocol, p);
		sh->root_shell = false;
		return status;
	}
	sh->root_shell = true;
	sh->protocol_handle = sh->image;
	return app_bs->InstallProtocolInterface(&sh->protocol_handle, &shell_guid,
						EFI_NATIVE_INTERFACE, p);
}

void sh_protocol_uninstall(struct shell *sh)
{
	if (!sh->protocol_handle)
		return;
	if (sh->previous_protocol)
		app_bs->ReinstallProtocolInterface(sh->protocol_handle, &shell_guid, &sh->protocol,
						   sh->previous_protocol);
	else
		app_bs->UninstallProtocolInterface(sh->protocol_handle, &shell_guid, &sh->protocol);
	sh->protocol_handle = NULL;
}
